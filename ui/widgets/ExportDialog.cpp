#include "ui/widgets/ExportDialog.h"

#include "core/export/PipelineExporter.h"
#include "ui/model/PipelineDocument.h"
#include "ui/model/Project.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

namespace cdc::ui {

namespace {

constexpr int kLocationRole = Qt::UserRole + 1;

} // namespace

ExportDialog::ExportDialog(Project* project, QWidget* parent) : QDialog(parent), m_project(project) {
    setWindowTitle(tr("Export Pipeline"));
    setObjectName(QStringLiteral("exportDialog"));

    m_kind = new QComboBox(this);
    m_kind->addItem(tr("Databricks Asset Bundle"), int(exporting::ExportKind::Bundle));
    m_kind->addItem(tr("Spark Declarative Pipelines (open source)"), int(exporting::ExportKind::Spark));
    m_language = new QComboBox(this);
    m_language->addItem(tr("SQL"), int(exporting::ExportLanguage::Sql));
    m_language->addItem(tr("Python"), int(exporting::ExportLanguage::Python));
    m_name = new QLineEdit(QStringLiteral("cdc_pipeline"), this);
    m_catalog = new QLineEdit(QStringLiteral("main"), this);
    m_schema = new QLineEdit(QStringLiteral("default"), this);
    m_csv = new QCheckBox(tr("Source data as CSV"), this);
    m_inserts = new QCheckBox(tr("Source data as SQL INSERTs"), this);
    m_folder = new QLineEdit(this);
    m_folder->setPlaceholderText(tr("An empty folder"));
    m_browse = new QPushButton(tr("Browse…"), this);

    auto* folderRow = new QHBoxLayout;
    folderRow->addWidget(m_folder, 1);
    folderRow->addWidget(m_browse);
    auto* data = new QHBoxLayout;
    data->addWidget(m_csv);
    data->addWidget(m_inserts);
    data->addStretch(1);
    auto* form = new QFormLayout;
    form->addRow(tr("&Kind:"), m_kind);
    form->addRow(tr("&Language:"), m_language);
    form->addRow(tr("&Name:"), m_name);
    form->addRow(tr("&Catalog:"), m_catalog);
    form->addRow(tr("&Schema:"), m_schema);
    form->addRow(tr("Include:"), data);
    form->addRow(tr("Folder:"), folderRow);

    m_files = new QListWidget(this);
    m_files->setObjectName(QStringLiteral("exportFiles"));
    m_preview = new QPlainTextEdit(this);
    m_preview->setReadOnly(true);
    m_preview->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_preview->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_files);
    split->addWidget(m_preview);
    split->setStretchFactor(1, 3);
    m_warnings = new QListWidget(this);
    m_warnings->setObjectName(QStringLiteral("exportWarnings"));
    m_warnings->setMaximumHeight(110);
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_export = buttons->addButton(tr("&Export"), QDialogButtonBox::AcceptRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_export, &QPushButton::clicked, this, [this] {
        if (exportFiles())
            accept();
    });

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(new QLabel(tr("Files to be written:"), this));
    layout->addWidget(split, 1);
    layout->addWidget(new QLabel(tr("Warnings (click one to see it in the pipeline):"), this));
    layout->addWidget(m_warnings);
    layout->addWidget(m_summary);
    layout->addWidget(buttons);
    resize(900, 640);

    for (QComboBox* box : {m_kind, m_language})
        connect(box, &QComboBox::currentIndexChanged, this, &ExportDialog::refresh);
    for (QLineEdit* edit : {m_name, m_catalog, m_schema})
        connect(edit, &QLineEdit::textChanged, this, &ExportDialog::refresh);
    for (QCheckBox* box : {m_csv, m_inserts})
        connect(box, &QCheckBox::toggled, this, &ExportDialog::refresh);
    connect(m_folder, &QLineEdit::textChanged, this,
            [this] { m_export->setEnabled(m_planned && !m_folder->text().isEmpty()); });
    connect(m_files, &QListWidget::currentRowChanged, this, &ExportDialog::showFile);
    connect(m_warnings, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
        const int index = item->data(kLocationRole).toInt();
        if (index >= 0 && index < int(m_plan.warnings.size()))
            emit locationActivated(m_plan.warnings[std::size_t(index)].location);
    });
    connect(m_browse, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Export Folder"), m_folder->text());
        if (!dir.isEmpty())
            m_folder->setText(dir);
    });
    refresh();
}

exporting::ExportOptions ExportDialog::options() const {
    exporting::ExportOptions o;
    o.kind = exporting::ExportKind(m_kind->currentData().toInt());
    o.language = exporting::ExportLanguage(m_language->currentData().toInt());
    o.name = m_name->text().trimmed().toStdString();
    o.catalog = m_catalog->text().trimmed().toStdString();
    o.schema = m_schema->text().trimmed().toStdString();
    o.csvData = m_csv->isChecked();
    o.insertData = m_inserts->isChecked();
    return o;
}

void ExportDialog::refresh() {
    const PipelineDocument* doc = m_project->document();
    exporting::ExportSource source;
    source.text = doc->text().toStdString();
    source.file = doc->fileName();
    source.pipeline = doc->pipeline();
    source.data = &m_project->db();
    const QString current = m_files->currentItem() ? m_files->currentItem()->text() : QString();
    m_files->clear();
    m_warnings->clear();
    m_preview->clear();
    auto plan = exporting::planExport(source, options());
    m_planned = plan.ok();
    m_export->setEnabled(m_planned && !m_folder->text().isEmpty());
    if (!plan) {
        m_plan = {};
        m_summary->setText(QString::fromStdString(plan.error().format()));
        return;
    }
    m_plan = std::move(*plan);
    int select = -1;
    for (std::size_t i = 0; i < m_plan.files.size(); ++i) {
        const QString path = QString::fromStdString(m_plan.files[i].path);
        m_files->addItem(path);
        if (path == current)
            select = int(i);
    }
    for (std::size_t i = 0; i < m_plan.warnings.size(); ++i) {
        auto* item = new QListWidgetItem(QString::fromStdString(m_plan.warnings[i].format()), m_warnings);
        item->setData(kLocationRole, int(i));
    }
    // The file shown before stays shown; else the transformation, what a user wants to see first.
    const QString transformation = QString::fromStdString(exporting::transformationFile(options()));
    for (int i = 0; i < m_files->count() && select < 0; ++i)
        if (m_files->item(i)->text() == transformation)
            select = i;
    m_files->setCurrentRow(std::max(select, 0));
    const auto files = m_plan.files.size(), warnings = m_plan.warnings.size();
    m_summary->setText((files == 1 ? tr("1 file") : tr("%1 files").arg(files)) + QStringLiteral(", ") +
                       (warnings == 0   ? tr("no warnings")
                        : warnings == 1 ? tr("1 warning")
                                        : tr("%1 warnings").arg(warnings)));
}

void ExportDialog::showFile(int row) {
    if (row < 0 || row >= int(m_plan.files.size())) {
        m_preview->clear();
        return;
    }
    m_preview->setPlainText(QString::fromStdString(m_plan.files[std::size_t(row)].content));
}

bool ExportDialog::exportFiles() {
    const QString folder = m_folder->text().trimmed();
    if (!m_planned || folder.isEmpty())
        return false;
    const QDir dir(folder);
    bool overwrite = false;
    if (dir.exists() && !dir.isEmpty()) {
        const auto answer = QMessageBox::question(
            this, tr("Export Pipeline"),
            tr("%1 is not empty. Replace the exported files in it (nothing else there is touched)?")
                .arg(folder));
        if (answer != QMessageBox::Yes)
            return false;
        overwrite = true;
    }
    auto report = exporting::writeExport(m_plan, folder.toStdString(), overwrite);
    if (!report) {
        m_summary->setText(QString::fromStdString(report.error().format()));
        return false;
    }
    const QString where = QDir::toNativeSeparators(folder);
    const auto n = report->written.size();
    emit statusMessage(n == 1 ? tr("Exported 1 file to %1").arg(where)
                              : tr("Exported %1 files to %2").arg(n).arg(where),
                       8000);
    return true;
}

} // namespace cdc::ui
