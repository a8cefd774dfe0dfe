#pragma once
/// The target tables after an update: rows with the update's inserts, changes, closes and deletes
/// highlighted (with a legend), or — toggled — the update's change data feed.

#include "core/common/Value.h"
#include "ui/widgets/results/ResultPanel.h"

#include <optional>

class QAbstractItemModel;
class QAction;
class QStackedWidget;
class QTableView;

namespace cdc::ui {

class ChangeFeedModel;
class ChangeLegend;
class GridFilterBox;
class GridTools;
class TargetRowsModel;

class TargetTablePanel : public ResultPanel {
    Q_OBJECT
public:
    explicit TargetTablePanel(QWidget* parent = nullptr);

    /// Shows `target` and selects its row `row` (TargetRowsModel numbering), leaving the change feed.
    void selectRow(const QString& target, int row);
    void setChangeFeedVisible(bool visible);
    bool isChangeFeedVisible() const;

    QAction* changeFeedAction() const { return m_feedAction; }
    /// Explain Row (Ctrl+Shift+Y): asks for the provenance of the current row (explainRequested).
    QAction* explainAction() const { return m_explainAction; }
    /// The key of the current row of an AUTO CDC target (ghost rows of deleted keys too), in the target's key
    /// order; nullopt when no such row is current.
    std::optional<cdc::Row> currentKey() const;
    QTableView* rowsView() const { return m_rowsView; }
    QTableView* feedView() const { return m_feedView; }
    TargetRowsModel* rowsModel() const { return m_rows; }
    ChangeFeedModel* feedModel() const { return m_feed; }
    ChangeLegend* legend() const { return m_legend; }
    /// Sorting, filtering, copying and export of the rows view and the change feed view.
    GridTools* rowsGrid() const { return m_rowsGrid; }
    GridTools* feedGrid() const { return m_feedGrid; }
    GridFilterBox* filterBox() const { return m_filter; }

signals:
    /// The user moved the current row of the rows view (for syncing the timeline).
    void rowSelected(const QString& target, int row);
    /// Explain Row was chosen on the current row: `key` of `target`.
    void explainRequested(const QString& target, const cdc::Row& key);

protected:
    void showSnapshot(const SharedSnapshot& snapshot) override;
    void clearSnapshot() override;

private:
    GridTools* makeGrid(QAbstractItemModel* model, const QString& name);
    void fitFeedColumns();
    void updateSummary();

    TargetRowsModel* m_rows;
    ChangeFeedModel* m_feed;
    GridTools* m_rowsGrid;
    GridTools* m_feedGrid;
    QTableView* m_rowsView;
    QTableView* m_feedView;
    GridFilterBox* m_filter;
    QStackedWidget* m_views;
    QAction* m_feedAction;
    QAction* m_explainAction;
    ChangeLegend* m_legend;
    bool m_selectingRow = false;
    bool m_feedNeedsFit = false; ///< the change feed changed while hidden: fit its columns when shown
};

} // namespace cdc::ui
