#include "ui/widgets/SourcesPanel.h"

#include "core/storage/Catalog.h"
#include "ui/model/CsvReader.h"
#include "ui/model/Project.h"
#include "ui/model/SourceRowsModel.h"
#include "ui/widgets/CsvImportDialog.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QFileDialog>
#include <QHeaderView>
#include <QLabel>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>

namespace cdc::ui {

SourcesPanel::SourcesPanel(Project* project, QWidget* parent)
    : QWidget(parent), m_project(project), m_tabs(new QTabWidget(this)), m_toolBar(new QToolBar(this)),
      m_empty(new QLabel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    m_toolBar->setIconSize(QSize(16, 16));
    layout->addWidget(m_toolBar);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(m_empty, 1);
    m_tabs->setDocumentMode(true);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setText(tr("No source tables yet.\nCreate them with SQL (CREATE TABLE …) or open a sample."));
    m_empty->setEnabled(false);

    m_addRow = m_toolBar->addAction(style()->standardIcon(QStyle::SP_FileIcon), tr("Add Row"));
    m_addRow->setToolTip(tr("Append an empty row to the event queue of this table (Ctrl+Shift+N)"));
    m_addRow->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N));
    m_deleteRows = m_toolBar->addAction(style()->standardIcon(QStyle::SP_TrashIcon), tr("Delete Rows"));
    m_deleteRows->setToolTip(tr("Delete the selected rows that are not delivered yet (Del)"));
    m_deleteRows->setShortcut(QKeySequence::Delete);
    m_paste = m_toolBar->addAction(style()->standardIcon(QStyle::SP_DialogApplyButton), tr("Paste Rows"));
    m_paste->setToolTip(tr("Add rows from the clipboard: tab- or comma-separated, optional header row (Ctrl+Shift+V)"));
    m_paste->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_V));
    m_importCsv = m_toolBar->addAction(style()->standardIcon(QStyle::SP_DialogOpenButton), tr("Import CSV…"));
    m_importCsv->setToolTip(tr("Add rows from a CSV file, mapping its header to the table's columns"));
    for (auto* a : {m_addRow, m_deleteRows, m_paste, m_importCsv}) {
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        addAction(a);
    }
    m_toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);

    connect(m_addRow, &QAction::triggered, this, [this] {
        if (auto* model = currentModel())
            report(model->addEmptyRow(), tr("Row added to the event queue"));
    });
    connect(m_deleteRows, &QAction::triggered, this, [this] {
        auto* view = currentView();
        auto* model = currentModel();
        if (!view || !model)
            return;
        QList<int> rows;
        for (const auto& index : view->selectionModel()->selectedIndexes())
            if (!rows.contains(index.row()))
                rows << index.row();
        report(model->removeRowsAt(rows), tr("Rows deleted"));
    });
    connect(m_paste, &QAction::triggered, this, [this] { pasteText(QApplication::clipboard()->text()); });
    connect(m_importCsv, &QAction::triggered, this, &SourcesPanel::importCsvFile);
    connect(project, &Project::dataChanged, this, &SourcesPanel::rebuild);
    rebuild();
}

void SourcesPanel::report(const Status& status, const QString& success) {
    emit statusMessage(status ? success : tr("Not changed: %1").arg(QString::fromStdString(status.error().message)));
}

void SourcesPanel::rebuild() {
    QStringList tables;
    if (auto list = storage::Catalog::list(m_project->db()))
        for (const auto& t : *list)
            if (t.kind == storage::TableKind::Source)
                tables << QString::fromStdString(t.name);
    const bool any = !tables.isEmpty();
    m_tabs->setVisible(any);
    m_empty->setVisible(!any);
    for (auto* a : {m_addRow, m_deleteRows, m_paste, m_importCsv})
        a->setEnabled(any);
    if (tables == m_tables)
        return; // the models reload themselves on dataChanged
    m_tables = tables;
    const QString current = m_tabs->tabText(m_tabs->currentIndex());
    while (m_tabs->count() > 0) {
        QWidget* page = m_tabs->widget(0);
        m_tabs->removeTab(0);
        page->deleteLater();
    }
    for (const auto& table : std::as_const(tables)) {
        auto* view = new QTableView(m_tabs);
        auto* model = new SourceRowsModel(m_project, table, view);
        view->setModel(model);
        view->setObjectName(table);
        view->setAlternatingRowColors(true);
        view->setSelectionBehavior(QAbstractItemView::SelectRows);
        view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
        view->horizontalHeader()->setStretchLastSection(true);
        view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 8);
        view->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed | QAbstractItemView::AnyKeyPressed);
        connect(model, &SourceRowsModel::editRejected, this, [this](const QString& message) { emit statusMessage(message); });
        const int index = m_tabs->addTab(view, table.section(QLatin1Char('.'), -1));
        m_tabs->setTabToolTip(index, table);
        view->resizeColumnsToContents();
    }
    for (int i = 0; i < m_tabs->count(); ++i)
        if (m_tabs->tabText(i) == current)
            m_tabs->setCurrentIndex(i);
}

SourceRowsModel* SourcesPanel::modelFor(const QString& table) const {
    for (int i = 0; i < m_tabs->count(); ++i)
        if (auto* view = qobject_cast<QTableView*>(m_tabs->widget(i)))
            if (auto* model = qobject_cast<SourceRowsModel*>(view->model());
                model && storage::equalsIgnoreCase(model->info().name, table.toStdString()))
                return model;
    return nullptr;
}

QTableView* SourcesPanel::currentView() const { return qobject_cast<QTableView*>(m_tabs->currentWidget()); }

SourceRowsModel* SourcesPanel::currentModel() const {
    auto* view = currentView();
    return view ? qobject_cast<SourceRowsModel*>(view->model()) : nullptr;
}

void SourcesPanel::pasteText(const QString& text) {
    auto* model = currentModel();
    if (!model)
        return;
    auto records = CsvReader::parse(text, CsvReader::guessSeparator(text));
    if (records.isEmpty()) {
        emit statusMessage(tr("The clipboard holds no rows"));
        return;
    }
    QList<int> mapping = CsvReader::mapByName(records.first(), model->columnNames());
    const bool header = std::any_of(mapping.begin(), mapping.end(), [](int i) { return i >= 0; });
    if (header)
        records.removeFirst();
    else
        for (int i = 0; i < mapping.size(); ++i)
            mapping[i] = i;
    report(model->appendTextRows(records, mapping, tr("Paste %n row(s)", nullptr, int(records.size()))),
           tr("%n row(s) added to the event queue", nullptr, int(records.size())));
}

bool SourcesPanel::importCsvText(const QString& text) {
    auto* model = currentModel();
    if (!model)
        return false;
    CsvImportDialog dialog(model->table(), model->columnNames(), text, this);
    if (dialog.exec() != QDialog::Accepted)
        return false;
    const auto records = dialog.records();
    report(model->appendTextRows(records, dialog.mapping(), tr("Import %n row(s)", nullptr, int(records.size()))),
           tr("%n row(s) imported into the event queue", nullptr, int(records.size())));
    return true;
}

void SourcesPanel::importCsvFile() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Import CSV"), QString(), tr("CSV files (*.csv *.tsv *.txt);;All files (*)"));
    if (path.isEmpty())
        return;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) {
        emit statusMessage(tr("Cannot read %1: %2").arg(path, file.errorString()));
        return;
    }
    importCsvText(QString::fromUtf8(file.readAll()));
}

} // namespace cdc::ui
