// The import runs on the GUI thread, on the project's own connection (one undoable change), and keeps the
// window alive by handling events between chunks of records: the dialog is modal, so the only input it can
// receive meanwhile is its own Cancel.
#include "ui/widgets/FeedImportDialog.h"

#include "core/common/ResultSet.h"
#include "core/common/Text.h"
#include "core/storage/Catalog.h"
#include "ui/model/FeedImport.h"
#include "ui/model/Project.h"

#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace cdc::ui {

namespace {

constexpr std::size_t kPreviewRecords = 20;
/// Types are inferred from this many records (a value further on that does not fit is an error then).
constexpr std::size_t kSampleRecords = 1000;

QString sourceText(const feeds::FeedColumn& c) {
    switch (c.source) {
    case feeds::ColumnSource::Operation:
        return FeedImportDialog::tr("(operation)");
    case feeds::ColumnSource::Sequence:
        return FeedImportDialog::tr("(sequence)");
    case feeds::ColumnSource::Null:
        return FeedImportDialog::tr("(NULL)");
    case feeds::ColumnSource::Field:
        break;
    }
    return QString::fromStdString(c.field);
}

} // namespace

FeedImportDialog::FeedImportDialog(Project* project, const QString& table, QWidget* parent)
    : QDialog(parent), m_project(project), m_file(new QLineEdit(this)),
      m_browse(new QPushButton(tr("Browse…"), this)), m_format(new QComboBox(this)),
      m_table(new QComboBox(this)), m_mappingView(new QTableWidget(this)), m_preview(new QTableWidget(this)),
      m_summary(new QLabel(this)), m_message(new QLabel(this)), m_progress(new QProgressBar(this)),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Cancel, this)) {
    setWindowTitle(tr("Import Feed"));
    setObjectName(QStringLiteral("FeedImportDialog"));
    resize(900, 640);

    auto* fileRow = new QHBoxLayout;
    m_file->setObjectName(QStringLiteral("feedFile"));
    m_file->setPlaceholderText(
        tr("A Debezium, AWS DMS, Delta change data feed, Flink changelog, CSV or JSON Lines file"));
    fileRow->addWidget(m_file, 1);
    fileRow->addWidget(m_browse);
    for (feeds::FeedFormat f : feeds::allFormats())
        m_format->addItem(QString::fromStdString(feeds::formatTitle(f)), int(f));
    m_format->setToolTip(tr("Detected from the file's first records; change it if the guess is wrong"));
    m_table->setEditable(true);
    m_table->setToolTip(tr("An existing source table, or the name of a new one the import creates"));
    if (auto list = storage::Catalog::list(project->db()))
        for (const auto& t : *list)
            if (t.kind == storage::TableKind::Source)
                m_table->addItem(QString::fromStdString(t.name));
    m_table->setCurrentText(table);

    auto* form = new QFormLayout;
    auto* fileLabel = new QLabel(tr("&File:"), this);
    fileLabel->setBuddy(m_file);
    form->addRow(fileLabel, fileRow);
    form->addRow(tr("F&ormat:"), m_format);
    form->addRow(tr("&Into table:"), m_table);

    m_mappingView->setColumnCount(3);
    m_mappingView->setHorizontalHeaderLabels({tr("Column"), tr("Type"), tr("Takes")});
    m_mappingView->horizontalHeader()->setStretchLastSection(true);
    m_mappingView->verticalHeader()->hide();
    m_mappingView->setSelectionMode(QAbstractItemView::NoSelection);
    m_preview->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_preview->horizontalHeader()->setStretchLastSection(true);
    m_summary->setObjectName(QStringLiteral("feedSummary"));
    m_summary->setWordWrap(true);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setStyleSheet(QStringLiteral("color: #c62828"));
    m_progress->setRange(0, 1000);
    m_progress->setVisible(false);
    m_import = m_buttons->addButton(tr("&Import"), QDialogButtonBox::AcceptRole);
    m_import->setEnabled(false);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    auto* mappingLabel =
        new QLabel(tr("Column mapping (what each column of the table takes from a record):"), this);
    layout->addWidget(mappingLabel);
    layout->addWidget(m_mappingView, 2);
    layout->addWidget(new QLabel(tr("Preview (the first records as they would be queued):"), this));
    layout->addWidget(m_preview, 3);
    layout->addWidget(m_summary);
    layout->addWidget(m_message);
    layout->addWidget(m_progress);
    layout->addWidget(m_buttons);

    connect(m_browse, &QPushButton::clicked, this, &FeedImportDialog::browse);
    connect(m_file, &QLineEdit::editingFinished, this, [this] { setFile(m_file->text()); });
    connect(m_format, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_filling)
            reload();
    });
    // A new table name is taken when the user leaves the box or picks an entry, not at every keystroke:
    // each change re-reads the preview and drafts the mapping anew.
    connect(m_table, &QComboBox::activated, this, [this] {
        if (!m_filling)
            reload();
    });
    connect(m_table->lineEdit(), &QLineEdit::editingFinished, this, [this] {
        if (!m_filling && m_loadedTable != this->table())
            reload();
    });
    connect(m_import, &QPushButton::clicked, this, &FeedImportDialog::runImport);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &FeedImportDialog::reject);
}

QString FeedImportDialog::file() const {
    return m_file->text();
}

feeds::FeedFormat FeedImportDialog::format() const {
    return feeds::FeedFormat(m_format->currentData().toInt());
}

QString FeedImportDialog::table() const {
    return m_table->currentText().trimmed();
}

void FeedImportDialog::browse() {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Import Feed"), QFileInfo(file()).path(),
                                     tr("Change feeds (*.json *.jsonl *.ndjson *.csv *.txt);;All files (*)"));
    if (!path.isEmpty())
        setFile(path);
}

void FeedImportDialog::setFile(const QString& path) {
    m_filling = true;
    m_file->setText(path);
    const feeds::FeedFormat detected = feedimport::detect(path);
    m_format->setCurrentIndex(m_format->findData(int(detected)));
    if (table().isEmpty()) // a new table named after the file
        m_table->setCurrentText(QFileInfo(path).completeBaseName());
    m_filling = false;
    reload();
}

void FeedImportDialog::reload() {
    m_message->clear();
    m_loadedTable = table();
    if (file().isEmpty())
        return;
    feeds::ReaderOptions options;
    options.file = QFileInfo(file()).fileName().toStdString();
    m_previewData = feedimport::preview(file(), format(), options, kSampleRecords);
    auto existing = feeds::findSourceTable(m_project->db(), table().toStdString());
    if (!existing) {
        m_message->setText(QString::fromStdString(existing.error().message));
        m_mapping = {};
    } else if (*existing) {
        m_mapping = feeds::FeedMapping::forTable(**existing, m_previewData.fields, format());
    } else {
        m_mapping = feeds::FeedMapping::forNewTable(m_previewData.records, format());
    }
    QStringList notes;
    notes << tr("%n record(s) read for the preview", nullptr, int(m_previewData.records.size()));
    if (m_previewData.tombstones)
        notes << tr("%n Kafka tombstone(s) skipped", nullptr, int(m_previewData.tombstones));
    if (m_previewData.preimages)
        notes << tr("%n preimage(s) skipped", nullptr, int(m_previewData.preimages));
    if (existing && !*existing && !table().isEmpty())
        notes << tr("the import creates the source table %1").arg(table());
    m_summary->setText(notes.join(QStringLiteral(" · ")));
    fillMapping();
    fillPreview();
}

void FeedImportDialog::fillMapping() {
    m_filling = true;
    const bool newTable = [this] {
        auto existing = feeds::findSourceTable(m_project->db(), table().toStdString());
        return existing && !*existing;
    }();
    m_mappingView->setRowCount(int(m_mapping.columns.size()));
    for (int r = 0; r < int(m_mapping.columns.size()); ++r) {
        const feeds::FeedColumn& c = m_mapping.columns[std::size_t(r)];
        auto* name = new QTableWidgetItem(QString::fromStdString(c.name));
        name->setFlags(Qt::ItemIsEnabled);
        m_mappingView->setItem(r, 0, name);
        if (newTable) {
            auto* type = new QComboBox(m_mappingView);
            type->setEditable(true);
            type->addItems(
                {"BIGINT", "INT", "DOUBLE", "DECIMAL(18,2)", "STRING", "BOOLEAN", "DATE", "TIMESTAMP"});
            type->setCurrentText(QString::fromStdString(c.type.toString()));
            connect(type, &QComboBox::currentTextChanged, this, [this, r](const QString& text) {
                if (const auto parsed = DataType::parse(text.toStdString())) {
                    m_mapping.columns[std::size_t(r)].type = *parsed;
                    fillPreview();
                } else {
                    m_message->setText(tr("%1 is not a type").arg(text));
                }
            });
            m_mappingView->setCellWidget(r, 1, type);
        } else {
            m_mappingView->removeCellWidget(r, 1);
            auto* type = new QTableWidgetItem(QString::fromStdString(c.type.toString()));
            type->setFlags(Qt::ItemIsEnabled);
            m_mappingView->setItem(r, 1, type);
        }
        auto* takes = new QComboBox(m_mappingView);
        takes->addItem(tr("(operation)"), QStringLiteral("op"));
        takes->addItem(tr("(sequence)"), QStringLiteral("seq"));
        takes->addItem(tr("(NULL)"), QStringLiteral("null"));
        for (const auto& f : m_previewData.fields)
            takes->addItem(QString::fromStdString(f), QStringLiteral("f:") + QString::fromStdString(f));
        takes->setCurrentText(sourceText(c));
        connect(takes, &QComboBox::currentIndexChanged, this, [this, r, takes] {
            const QString data = takes->currentData().toString();
            feeds::FeedColumn& column = m_mapping.columns[std::size_t(r)];
            column.field.clear();
            if (data == QLatin1String("op"))
                column.source = feeds::ColumnSource::Operation;
            else if (data == QLatin1String("seq"))
                column.source = feeds::ColumnSource::Sequence;
            else if (data == QLatin1String("null"))
                column.source = feeds::ColumnSource::Null;
            else {
                column.source = feeds::ColumnSource::Field;
                column.field = data.mid(2).toStdString();
            }
            fillPreview();
        });
        m_mappingView->setCellWidget(r, 2, takes);
    }
    m_mappingView->resizeColumnsToContents();
    m_filling = false;
}

void FeedImportDialog::fillPreview() {
    m_preview->clear();
    m_preview->setColumnCount(int(m_mapping.columns.size()));
    QStringList headers;
    for (const auto& c : m_mapping.columns)
        headers << QString::fromStdString(c.name);
    m_preview->setHorizontalHeaderLabels(headers);
    const std::size_t rows = std::min(kPreviewRecords, m_previewData.records.size());
    m_preview->setRowCount(int(rows));
    QString problem;
    for (std::size_t r = 0; r < rows; ++r) {
        const feeds::FeedRecord& record = m_previewData.records[r];
        m_preview->setVerticalHeaderItem(int(r), new QTableWidgetItem(tr("line %1").arg(record.line)));
        auto row = m_mapping.row(record, QFileInfo(file()).fileName().toStdString());
        if (!row) {
            if (problem.isEmpty())
                problem = QString::fromStdString(row.error().message);
            continue;
        }
        for (std::size_t c = 0; c < row->size(); ++c)
            m_preview->setItem(int(r), int(c),
                               new QTableWidgetItem(QString::fromStdString(
                                   displayValue((*row)[c], m_mapping.columns[c].type))));
    }
    m_preview->resizeColumnsToContents();
    if (m_previewData.error)
        problem = QString::fromStdString(m_previewData.error->message);
    if (const Status ok = m_mapping.check(); !ok && problem.isEmpty())
        problem = QString::fromStdString(ok.error().message);
    if (!problem.isEmpty())
        m_message->setText(problem);
    else if (!m_busy)
        m_message->clear();
    m_import->setEnabled(problem.isEmpty() && !m_previewData.records.empty() && !table().isEmpty());
}

void FeedImportDialog::setBusy(bool busy) {
    m_busy = busy;
    for (QWidget* w : {static_cast<QWidget*>(m_file), static_cast<QWidget*>(m_browse),
                       static_cast<QWidget*>(m_format), static_cast<QWidget*>(m_table),
                       static_cast<QWidget*>(m_mappingView), static_cast<QWidget*>(m_import)})
        w->setEnabled(!busy);
    m_progress->setVisible(busy);
}

void FeedImportDialog::runImport() {
    m_cancel = false;
    m_progress->setValue(0);
    setBusy(true);
    m_message->clear();
    const double size = std::max<double>(1, QFileInfo(file()).size());
    feeds::ReaderOptions options;
    options.file = QFileInfo(file()).fileName().toStdString();
    auto report = feedimport::importIntoQueue(*m_project, file(), format(), options, table(), m_mapping,
                                              [this, size](std::uint64_t bytes, std::size_t) {
                                                  m_progress->setValue(int(1000 * double(bytes) / size));
                                                  QApplication::processEvents();
                                                  return !m_cancel;
                                              });
    setBusy(false);
    if (!report) {
        m_message->setText(report.error().code == "CANCELLED"
                               ? tr("Cancelled: nothing was imported")
                               : QString::fromStdString(report.error().message));
        return;
    }
    m_report = std::move(report).value();
    accept();
}

void FeedImportDialog::reject() {
    if (m_busy) {
        m_cancel = true; // the import stops at its next progress call and rolls back
        return;
    }
    QDialog::reject();
}

} // namespace cdc::ui
