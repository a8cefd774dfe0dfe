// Tabs are rebuilt only when the set of source tables changes (each model reloads itself on
// dataChanged), so an edit keeps the current tab, cell and filter. Paste maps by header, else by position.
#include "ui/widgets/SourcesPanel.h"

#include "core/common/Text.h"
#include "core/storage/Catalog.h"
#include "ui/model/CsvReader.h"
#include "ui/model/FeedImport.h"
#include "ui/model/Project.h"
#include "ui/model/SourceRowsModel.h"
#include "ui/widgets/CsvImportDialog.h"
#include "ui/widgets/FeedImportDialog.h"
#include "ui/widgets/GridFilterBox.h"
#include "ui/widgets/GridTools.h"

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
      m_filter(new GridFilterBox(this)), m_empty(new QLabel(this)) {
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
    m_paste->setToolTip(
        tr("Add rows from the clipboard: tab- or comma-separated, optional header row (Ctrl+Shift+V)"));
    m_paste->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_V));
    m_importCsv = m_toolBar->addAction(style()->standardIcon(QStyle::SP_DialogOpenButton), tr("Import CSV…"));
    m_importCsv->setToolTip(tr("Add rows from a CSV file, mapping its header to the table's columns"));
    m_importFeed = m_toolBar->addAction(style()->standardIcon(QStyle::SP_ArrowDown), tr("Import Feed…"));
    m_importFeed->setToolTip(
        tr("Add the events of a change feed file (Debezium, AWS DMS, Delta change data feed, "
           "Flink changelog, CSV, JSON Lines) to a source table's event queue"));
    for (auto* a : {m_addRow, m_deleteRows, m_paste, m_importCsv}) {
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        addAction(a);
    }
    m_toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    auto* spacer = new QWidget(m_toolBar);
    spacer->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    m_toolBar->addWidget(spacer);
    m_toolBar->addWidget(m_filter);

    connect(m_addRow, &QAction::triggered, this, &SourcesPanel::addRow);
    connect(m_deleteRows, &QAction::triggered, this, &SourcesPanel::deleteSelectedRows);
    connect(m_tabs, &QTabWidget::currentChanged, this,
            [this](int index) { m_filter->setGrid(gridAt(index)); });
    connect(m_paste, &QAction::triggered, this, [this] { pasteText(QApplication::clipboard()->text()); });
    connect(m_importCsv, &QAction::triggered, this, &SourcesPanel::importCsvFile);
    connect(m_importFeed, &QAction::triggered, this, [this] { importFeed(); });
    connect(project, &Project::dataChanged, this, &SourcesPanel::rebuild);
    rebuild();
}

void SourcesPanel::report(const Status& status, const QString& success) {
    emit statusMessage(status ? success
                              : tr("Not changed: %1").arg(QString::fromStdString(status.error().message)));
}

void SourcesPanel::addRow() {
    auto* model = currentModel();
    if (!model)
        return;
    const Status added = model->addEmptyRow();
    report(added, tr("Row added to the event queue"));
    if (!added)
        return;
    // The new row is the model's last: make its first cell current, ready for typing.
    GridTools* grid = currentGrid();
    const QModelIndex cell = grid->reveal(model->index(model->rowCount() - 1, 0));
    grid->view()->setCurrentIndex(cell);
    grid->view()->scrollTo(cell);
    grid->view()->setFocus(Qt::OtherFocusReason);
}

void SourcesPanel::deleteSelectedRows() {
    GridTools* grid = currentGrid();
    auto* model = currentModel();
    if (!grid || !model)
        return;
    QList<int> rows;
    for (const auto& index : grid->view()->selectionModel()->selectedIndexes())
        if (const int row = grid->toSource(index).row(); !rows.contains(row))
            rows << row;
    report(model->removeRowsAt(rows), tr("Rows deleted"));
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
    m_filter->setEnabled(any);
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
        auto* grid = new GridTools(view, model);
        grid->setEditable(true);
        grid->setExtraActions({m_addRow, m_deleteRows, m_paste});
        grid->setExportName(table.section(QLatin1Char('.'), -1));
        view->setObjectName(table);
        view->setAlternatingRowColors(true);
        view->setSelectionBehavior(QAbstractItemView::SelectRows);
        view->setWordWrap(false);
        view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
        view->horizontalHeader()->setStretchLastSection(true);
        view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 8);
        connect(model, &SourceRowsModel::editRejected, this,
                [this](const QString& message) { emit statusMessage(message); });
        const int index = m_tabs->addTab(view, table.section(QLatin1Char('.'), -1));
        m_tabs->setTabToolTip(index, table);
        grid->fitColumns();
        grid->setAutoWiden(true); // rows added or typed in later must not be cut off either
    }
    for (int i = 0; i < m_tabs->count(); ++i)
        if (m_tabs->tabText(i) == current)
            m_tabs->setCurrentIndex(i);
}

GridTools* SourcesPanel::gridAt(int index) const {
    return GridTools::of(qobject_cast<QTableView*>(m_tabs->widget(index)));
}

SourceRowsModel* SourcesPanel::modelFor(const QString& table) const {
    for (int i = 0; i < m_tabs->count(); ++i)
        if (GridTools* grid = gridAt(i))
            if (auto* model = qobject_cast<SourceRowsModel*>(grid->sourceModel());
                model && equalsIgnoreCase(model->info().name, table.toStdString()))
                return model;
    return nullptr;
}

bool SourcesPanel::selectDeliveredRow(const QString& table, qint64 rowid) {
    for (int i = 0; i < m_tabs->count(); ++i) {
        GridTools* grid = gridAt(i);
        auto* model = grid ? qobject_cast<SourceRowsModel*>(grid->sourceModel()) : nullptr;
        if (!model || !equalsIgnoreCase(model->info().name, table.toStdString()))
            continue;
        const int row = model->rowOfRowId(rowid);
        if (row < 0)
            return false;
        m_tabs->setCurrentIndex(i);
        const QModelIndex at = grid->fromSource(model->index(row, 0));
        if (!at.isValid())
            return false; // hidden by the grid's filter
        grid->view()->setCurrentIndex(at);
        grid->view()->selectRow(at.row());
        grid->view()->scrollTo(at);
        return true;
    }
    return false;
}

QTableView* SourcesPanel::currentView() const {
    return qobject_cast<QTableView*>(m_tabs->currentWidget());
}

GridTools* SourcesPanel::currentGrid() const {
    return gridAt(m_tabs->currentIndex());
}

SourceRowsModel* SourcesPanel::currentModel() const {
    GridTools* grid = currentGrid();
    return grid ? qobject_cast<SourceRowsModel*>(grid->sourceModel()) : nullptr;
}

void SourcesPanel::pasteText(const QString& text) {
    auto* model = currentModel();
    if (!model)
        return;
    auto records = csvreader::parse(text, csvreader::guessSeparator(text));
    if (records.isEmpty()) {
        emit statusMessage(tr("The clipboard holds no rows"));
        return;
    }
    QList<int> mapping = csvreader::mapByName(records.first(), model->columnNames());
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
    report(model->appendTextRows(records, dialog.mapping(),
                                 tr("Import %n row(s)", nullptr, int(records.size()))),
           tr("%n row(s) imported into the event queue", nullptr, int(records.size())));
    return true;
}

void SourcesPanel::importCsvFile() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Import CSV"), QString(),
                                                      tr("CSV files (*.csv *.tsv *.txt);;All files (*)"));
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

namespace cdc::ui {

bool SourcesPanel::importFeed(const QString& path) {
    // Offered with no table at all too: the import can create the table it fills.
    auto* model = currentModel();
    FeedImportDialog dialog(m_project, model ? model->table() : QString(), this);
    if (!path.isEmpty())
        dialog.setFile(path);
    emit feedDialogOpened(&dialog);
    if (dialog.exec() != QDialog::Accepted)
        return false;
    emit statusMessage(feedimport::reportText(dialog.report()));
    return true;
}

} // namespace cdc::ui
