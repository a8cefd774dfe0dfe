#pragma once
/// The delete tombstones of a target: what a late, older upsert would be checked against, and when
/// garbage collection removes each one on the simulated clock. Collected tombstones stay listed,
/// greyed, after the update that collected them.

#include "ui/widgets/results/ResultPanel.h"

#include <optional>

class QTableView;

namespace cdc::ui {

class GridFilterBox;
class GridTools;
class TombstoneModel;

class TombstonePanel : public ResultPanel {
    Q_OBJECT
public:
    explicit TombstonePanel(QWidget* parent = nullptr);

    /// The simulated clock (epoch seconds), for showing which tombstones the next update collects.
    void setSimulatedNow(std::optional<qint64> now);

    TombstoneModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    GridTools* grid() const { return m_grid; }
    GridFilterBox* filterBox() const { return m_filter; }

protected:
    /// Only AUTO CDC targets delete rows and keep tombstones.
    bool accepts(const TargetSnapshot& snapshot) const override {
        return snapshot.kind == engine::DatasetKind::AutoCdc;
    }
    void showSnapshot(const SharedSnapshot& snapshot) override;
    void clearSnapshot() override;

private:
    TombstoneModel* m_model;
    QTableView* m_view;
    GridTools* m_grid;
    GridFilterBox* m_filter;
};

} // namespace cdc::ui
