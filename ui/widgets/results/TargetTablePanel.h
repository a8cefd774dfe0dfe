#pragma once
/// The target tables after an update: rows with the update's inserts, changes, closes and deletes
/// highlighted (with a legend), or — toggled — the update's change data feed.

#include "ui/widgets/results/ResultPanel.h"

class QAction;
class QStackedWidget;
class QTableView;

namespace cdc::ui {

class ChangeFeedModel;
class ChangeLegend;
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
    QTableView* rowsView() const { return m_rowsView; }
    QTableView* feedView() const { return m_feedView; }
    TargetRowsModel* rowsModel() const { return m_rows; }
    ChangeFeedModel* feedModel() const { return m_feed; }
    ChangeLegend* legend() const { return m_legend; }

signals:
    /// The user moved the current row of the rows view (for syncing the timeline).
    void rowSelected(const QString& target, int row);

protected:
    void showSnapshot(const SharedSnapshot& snapshot) override;
    void clearSnapshot() override;

private:
    QTableView* makeView();
    /// Columns only grow to fit what the visible rows now hold (after a patched refresh).
    void widenColumns(QTableView* view);
    void fitColumns(QTableView* view);
    void updateSummary();

    TargetRowsModel* m_rows;
    ChangeFeedModel* m_feed;
    QTableView* m_rowsView;
    QTableView* m_feedView;
    QStackedWidget* m_views;
    QAction* m_feedAction;
    ChangeLegend* m_legend;
    bool m_selectingRow = false;
    bool m_feedNeedsFit = false; ///< the change feed changed while hidden: fit its columns when shown
};

} // namespace cdc::ui
