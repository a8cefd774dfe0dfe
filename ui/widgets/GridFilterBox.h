#pragma once
/// The filter box of a panel's grids: a "Filter rows…" field showing, while it filters, "n of m rows"
/// at its right end.
/// A panel with several grids (tabs, the rows and the change feed) binds the one on show; the text
/// follows the user from grid to grid.

#include <QPointer>
#include <QWidget>

class QLabel;
class QLineEdit;

namespace cdc::ui {

class GridTools;

class GridFilterBox : public QWidget {
    Q_OBJECT
public:
    explicit GridFilterBox(QWidget* parent = nullptr);

    /// Filters `grid` by the box's text from now on (null: none).
    void setGrid(GridTools* grid);
    GridTools* grid() const { return m_grid; }
    QLineEdit* edit() const { return m_edit; }
    /// "3 of 12 rows" while a filter is on, empty otherwise.
    QString countText() const;

    /// `grid`'s view under a filter box of its own, for a grid that has no panel toolbar.
    static QWidget* wrap(GridTools* grid, QWidget* parent = nullptr);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void updateCount();
    void placeCount();

    QLineEdit* m_edit;
    QLabel* m_count;
    QPointer<GridTools> m_grid;
    QList<QMetaObject::Connection> m_connections;
};

} // namespace cdc::ui
