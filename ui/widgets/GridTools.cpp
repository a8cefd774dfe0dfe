// The grid's shortcuts are WidgetShortcut so Ctrl+C in the editor stays the editor's. Column widths
// are measured on the rows that arrive or change, never the whole table, so a patched target stays cheap.
#include "ui/widgets/GridTools.h"

#include "ui/model/GridProxyModel.h"
#include "ui/model/results/ResultText.h"
#include "ui/widgets/GridEditDelegate.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QMenu>
#include <QMessageBox>
#include <QSaveFile>
#include <QStandardPaths>
#include <QStatusTipEvent>
#include <QTableView>

#include <algorithm>
#include <numeric>

namespace cdc::ui {

namespace {
constexpr int kMinColumnWidth = 60;
constexpr int kMaxColumnWidth = 320;
constexpr int kColumnMargin = 12;

QAction* addViewAction(QTableView* view, const QString& text, const QKeySequence& key) {
    auto* action = new QAction(text, view);
    action->setShortcut(key);
    // Only while the grid itself has focus: the editor's and the window's shortcuts stay theirs.
    action->setShortcutContext(Qt::WidgetShortcut);
    view->addAction(action);
    return action;
}
} // namespace

GridTools::GridTools(QTableView* view, QAbstractItemModel* source)
    : QObject(view), m_view(view), m_proxy(new GridProxyModel(this)) {
    setObjectName(QStringLiteral("gridTools"));
    m_proxy->setSourceModel(source);
    view->setModel(m_proxy);

    QHeaderView* header = view->horizontalHeader();
    header->setSortIndicator(-1, Qt::AscendingOrder); // the model's order until the user sorts
    header->setSortIndicatorClearable(true);          // a third click on a header restores it
    view->setSortingEnabled(true);
    header->setToolTip(
        tr("Click to sort by a column; again for descending, a third time for the original order"));

    m_copy = addViewAction(view, tr("Copy"), QKeySequence::Copy);
    m_copyWithHeaders =
        addViewAction(view, tr("Copy with Headers"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    m_selectAll = addViewAction(view, tr("Select All"), QKeySequence::SelectAll);
    m_exportCsv = new QAction(tr("Export to CSV…"), this);
    m_exportJson = new QAction(tr("Export to JSON…"), this);
    connect(m_copy, &QAction::triggered, this, [this] { copySelection(false); });
    connect(m_copyWithHeaders, &QAction::triggered, this, [this] { copySelection(true); });
    connect(m_selectAll, &QAction::triggered, this, &GridTools::selectAll);
    connect(m_exportCsv, &QAction::triggered, this, [this] { exportWithDialog(Format::Csv); });
    connect(m_exportJson, &QAction::triggered, this, [this] { exportWithDialog(Format::Json); });

    view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(view, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        QMenu* menu = createContextMenu(pos, m_view);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(m_view->viewport()->mapToGlobal(pos));
    });
}

GridTools* GridTools::of(const QTableView* view) {
    return view ? view->findChild<GridTools*>(QStringLiteral("gridTools"), Qt::FindDirectChildrenOnly)
                : nullptr;
}

QAbstractItemModel* GridTools::sourceModel() const {
    return m_proxy->sourceModel();
}

QModelIndex GridTools::toSource(const QModelIndex& viewIndex) const {
    return m_proxy->mapToSource(viewIndex);
}

QModelIndex GridTools::fromSource(const QModelIndex& sourceIndex) const {
    return m_proxy->mapFromSource(sourceIndex);
}

QModelIndex GridTools::reveal(const QModelIndex& sourceIndex) {
    QModelIndex index = fromSource(sourceIndex);
    if (!index.isValid() && sourceIndex.isValid() && m_proxy->isFiltering()) {
        setFilterText({});
        index = fromSource(sourceIndex);
    }
    return index;
}

void GridTools::setEditable(bool editable) {
    if (editable) {
        m_view->setItemDelegate(new GridEditDelegate(m_view));
        m_view->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                                QAbstractItemView::AnyKeyPressed);
    } else {
        m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    }
}

void GridTools::setFilterText(const QString& text) {
    m_proxy->setFilterText(text);
}

void GridTools::clearSort() {
    m_view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
}

void GridTools::sortBy(int column, Qt::SortOrder order) {
    m_view->sortByColumn(column, order);
}

QList<int> GridTools::shownColumns() const {
    QList<int> columns;
    const QHeaderView* header = m_view->horizontalHeader();
    for (int visual = 0; visual < header->count(); ++visual)
        if (const int logical = header->logicalIndex(visual); !header->isSectionHidden(logical))
            columns << logical;
    return columns;
}

GridTable GridTools::cells(const QList<int>& rows, const QList<int>& columns, bool selectedOnly) const {
    GridTable table;
    for (int c : columns)
        table.headers << m_proxy->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
    const QItemSelectionModel* selection = m_view->selectionModel();
    table.rows.reserve(rows.size());
    for (int r : rows) {
        QList<CellValue> row;
        row.reserve(columns.size());
        for (int c : columns) {
            const QModelIndex index = m_proxy->index(r, c);
            row << (selectedOnly && !selection->isSelected(index) ? CellValue{}
                                                                  : GridProxyModel::cellAt(toSource(index)));
        }
        table.rows << row;
    }
    return table;
}

GridTable GridTools::selectedCells() const {
    QList<int> rows, columns;
    const QItemSelection selection = m_view->selectionModel()->selection();
    for (const QItemSelectionRange& range : selection) {
        for (int r = range.top(); r <= range.bottom(); ++r)
            rows << r;
        for (int c = range.left(); c <= range.right(); ++c)
            columns << c;
    }
    if (selection.isEmpty() && m_view->currentIndex().isValid()) {
        rows << m_view->currentIndex().row();
        columns << m_view->currentIndex().column();
    }
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    QList<int> ordered; // in the order the header shows them
    for (int c : shownColumns())
        if (columns.contains(c))
            ordered << c;
    // One range is a full rectangle: no need to ask about every cell.
    return cells(rows, ordered, selection.size() > 1);
}

GridTable GridTools::shownRows() const {
    m_proxy->fetchAll();
    QList<int> rows(m_proxy->rowCount());
    std::iota(rows.begin(), rows.end(), 0);
    return cells(rows, shownColumns(), false);
}

void GridTools::copySelection(bool withHeaders) const {
    const GridTable table = selectedCells();
    if (table.rows.isEmpty())
        return;
    QApplication::clipboard()->setText(GridFormat::tsv(table, withHeaders));
}

void GridTools::selectAll() {
    m_proxy->fetchAll(); // a lazily fetched model: all of it, not the first batch
    m_view->selectAll();
}

bool GridTools::exportTo(const QString& path, Format format, QString* error) const {
    const GridTable table = shownRows();
    const QString text = format == Format::Csv ? GridFormat::csv(table) : GridFormat::json(table);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.toUtf8()) < 0 || !file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

void GridTools::exportWithDialog(Format format) {
    static QString lastDirectory = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    const bool csv = format == Format::Csv;
    const QString suggested = lastDirectory + QLatin1Char('/') + m_exportName +
                              (csv ? QLatin1String(".csv") : QLatin1String(".json"));
    const QString path =
        QFileDialog::getSaveFileName(m_view, csv ? tr("Export to CSV") : tr("Export to JSON"), suggested,
                                     csv ? tr("CSV files (*.csv)") : tr("JSON files (*.json)"));
    if (path.isEmpty())
        return;
    lastDirectory = QFileInfo(path).absolutePath();
    QString error;
    if (!exportTo(path, format, &error)) {
        QMessageBox::warning(m_view, tr("Export"),
                             tr("Cannot write %1:\n%2").arg(QDir::toNativeSeparators(path), error));
        return;
    }
    // A status tip travels up to the main window's status bar, wherever the grid sits.
    QStatusTipEvent done(tr("%1 exported to %2")
                             .arg(resulttext::countOf(m_proxy->rowCount(), tr("row"), tr("rows")),
                                  QDir::toNativeSeparators(path)));
    QApplication::sendEvent(m_view, &done);
}

int GridTools::fittedWidth(int column) const {
    // What resizeColumnToContents() measures, without resizing: a stretched last column reports its
    // stretched width, and fitting it to that would stop it from ever shrinking with the view.
    const QAbstractItemView* view = m_view; // QTableView hides the public sizeHintForColumn()
    const QHeaderView* header = m_view->horizontalHeader();
    const int content =
        std::max(view->sizeHintForColumn(column), header->isHidden() ? 0 : header->sectionSizeHint(column));
    return std::clamp(content + kColumnMargin, kMinColumnWidth, kMaxColumnWidth);
}

void GridTools::fitColumns() {
    for (int c = 0; c < m_proxy->columnCount(); ++c)
        m_view->setColumnWidth(c, fittedWidth(c));
}

void GridTools::widenColumns() {
    // Only the rows in view: measuring the default 1,000 rows of a large target costs more than a patch.
    QHeaderView* header = m_view->horizontalHeader();
    const int precision = header->resizeContentsPrecision();
    header->setResizeContentsPrecision(0);
    for (int c = 0; c < m_proxy->columnCount(); ++c)
        if (const int fitted = fittedWidth(c); fitted > m_view->columnWidth(c))
            m_view->setColumnWidth(c, fitted);
    header->setResizeContentsPrecision(precision);
}

void GridTools::widenForRows(int first, int last) {
    // Only the rows that arrived or changed are measured: an edit or a paste costs a few cells, not the
    // table.
    last = std::min(last, first + 999);
    const int grid = m_view->showGrid() ? 1 : 0;
    for (int c = 0; c < m_proxy->columnCount(); ++c) {
        if (m_view->isColumnHidden(c))
            continue;
        int needed = 0;
        for (int r = first; r <= last; ++r)
            needed = std::max(needed, m_view->sizeHintForIndex(m_proxy->index(r, c)).width() + grid);
        const int fitted = std::clamp(needed + kColumnMargin, kMinColumnWidth, kMaxColumnWidth);
        if (fitted > m_view->columnWidth(c))
            m_view->setColumnWidth(c, fitted);
    }
}

void GridTools::setAutoWiden(bool on) {
    for (const auto& c : std::as_const(m_autoWiden))
        disconnect(c);
    m_autoWiden.clear();
    if (!on)
        return;
    m_autoWiden << connect(m_proxy, &QAbstractItemModel::modelReset, this, &GridTools::fitColumns)
                << connect(m_proxy, &QAbstractItemModel::rowsInserted, this,
                           [this](const QModelIndex&, int first, int last) { widenForRows(first, last); })
                << connect(m_proxy, &QAbstractItemModel::dataChanged, this,
                           [this](const QModelIndex& topLeft, const QModelIndex& bottomRight) {
                               widenForRows(topLeft.row(), bottomRight.row());
                           });
}

QMenu* GridTools::createContextMenu(const QPoint& viewportPos, QWidget* parent) {
    auto* menu = new QMenu(parent);
    if (!m_extraActions.isEmpty()) {
        menu->addActions(m_extraActions);
        menu->addSeparator();
    }
    menu->addActions({m_copy, m_copyWithHeaders, m_selectAll});
    menu->addSeparator();

    const int column = m_view->columnAt(viewportPos.x());
    if (column >= 0) {
        const QString name = m_proxy->headerData(column, Qt::Horizontal, Qt::DisplayRole).toString();
        menu->addAction(tr("Sort by %1 Ascending").arg(name), this,
                        [this, column] { sortBy(column, Qt::AscendingOrder); });
        menu->addAction(tr("Sort by %1 Descending").arg(name), this,
                        [this, column] { sortBy(column, Qt::DescendingOrder); });
    }
    menu->addAction(tr("Original Order"), this, &GridTools::clearSort)->setEnabled(m_proxy->isSorted());
    menu->addAction(tr("Filter Rows…"), this, &GridTools::filterRequested);
    menu->addAction(tr("Clear Filter"), this, [this] { setFilterText({}); })
        ->setEnabled(m_proxy->isFiltering());
    menu->addSeparator();
    menu->addActions({m_exportCsv, m_exportJson});
    return menu;
}

} // namespace cdc::ui
