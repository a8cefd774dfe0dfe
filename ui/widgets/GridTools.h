#pragma once
/// What every result grid offers, attached to a QTableView: a proxy that sorts (header clicks cycle
/// ascending, descending, the model's own order) and filters rows by text; copying the selection as
/// tab-separated text (Ctrl+C, with headers Ctrl+Shift+C); exporting the rows that pass the filter to
/// CSV or JSON; a context menu with all of it; and column widths fitted to the contents.
///
/// The view then shows the proxy: a panel that maps view rows to its model's rows goes through
/// toSource() / fromSource().

#include "ui/model/GridFormat.h"

#include <QObject>

class QAbstractItemModel;
class QAction;
class QMenu;
class QTableView;

namespace cdc::ui {

class GridProxyModel;

class GridTools : public QObject {
    Q_OBJECT
public:
    enum class Format { Csv, Json };

    /// Shows `source` in `view` through a new GridProxyModel; the tools belong to the view.
    GridTools(QTableView* view, QAbstractItemModel* source);
    /// The tools attached to `view`, or null.
    static GridTools* of(const QTableView* view);

    QTableView* view() const { return m_view; }
    GridProxyModel* proxy() const { return m_proxy; }
    QAbstractItemModel* sourceModel() const;
    QModelIndex toSource(const QModelIndex& viewIndex) const;
    QModelIndex fromSource(const QModelIndex& sourceIndex) const;
    /// The view's index of a model index, clearing the filter when it hides that row (a row the
    /// program selects for the user must be seen); invalid if the model has no such row.
    QModelIndex reveal(const QModelIndex& sourceIndex);

    /// Lets the user edit cells: Tab / Shift+Tab move to the next / previous cell (wrapping to the
    /// next / previous row) and edit it, Enter commits and moves down, Escape keeps the old value.
    void setEditable(bool editable);
    /// Actions shown first in the context menu (a panel's own, e.g. Delete Rows).
    void setExtraActions(const QList<QAction*>& actions) { m_extraActions = actions; }
    /// The file name the export dialogs suggest (without extension), e.g. the table's name.
    void setExportName(const QString& name) { m_exportName = name; }

    void setFilterText(const QString& text);
    /// Back to the model's own row order (no sort indicator).
    void clearSort();

    /// The selected cells' bounding rectangle in view order (unselected cells inside it are NULL);
    /// the current cell when nothing is selected.
    GridTable selectedCells() const;
    /// Every row that passes the filter, in view order, every shown column.
    GridTable shownRows() const;
    /// Puts the selection on the clipboard as tab-separated text (GridFormat::tsv).
    void copySelection(bool withHeaders) const;
    /// Writes shownRows() to `path`; false with `error` set when it cannot be written.
    bool exportTo(const QString& path, Format format, QString* error = nullptr) const;

    /// Every column as wide as its header and the rows in view need, within sensible bounds.
    void fitColumns();
    /// The same, but a column never narrows (after a patch, so columns do not jump under the user).
    void widenColumns();
    /// Widen the columns whenever rows arrive or change (grids whose rows change under the user).
    void setAutoWiden(bool on);

    /// The context menu for a click at `viewportPos` (sort entries name that column).
    QMenu* createContextMenu(const QPoint& viewportPos, QWidget* parent);

    QAction* copyAction() const { return m_copy; }
    QAction* copyWithHeadersAction() const { return m_copyWithHeaders; }
    QAction* selectAllAction() const { return m_selectAll; }
    QAction* exportCsvAction() const { return m_exportCsv; }
    QAction* exportJsonAction() const { return m_exportJson; }

signals:
    /// The user asked to type a filter (context menu): the filter box bound to this grid takes focus.
    void filterRequested();

private:
    GridTable cells(const QList<int>& rows, const QList<int>& columns, bool selectedOnly) const;
    QList<int> shownColumns() const;
    void exportWithDialog(Format format);
    void widenForRows(int first, int last);
    /// The width column `column` needs for its header and contents, within bounds.
    int fittedWidth(int column) const;
    void selectAll();
    void sortBy(int column, Qt::SortOrder order);

    QTableView* m_view;
    GridProxyModel* m_proxy;
    QAction* m_copy;
    QAction* m_copyWithHeaders;
    QAction* m_selectAll;
    QAction* m_exportCsv;
    QAction* m_exportJson;
    QList<QAction*> m_extraActions;
    QString m_exportName = QStringLiteral("rows");
    QList<QMetaObject::Connection> m_autoWiden;
};

} // namespace cdc::ui
