#pragma once
/// One side of Run › Compare with MERGE…: the MERGE's table or AUTO CDC's (engine::MergeComparison), with the
/// differences marked — a row only on this side has a tinted background throughout, a cell that differs from
/// the other side's row of the same key its own tint — and each marked row's difference as its tool tip.

#include "core/engine/MergeComparison.h"

#include <QAbstractTableModel>

#include <map>
#include <memory>

namespace cdc::ui {

class MergeTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum class Side { Merge, AutoCdc };
    /// How a cell is marked (the background tells; tests and the legend read it).
    enum class Mark { None, CellDiffers, RowOnlyHere };
    static constexpr int MarkRole = Qt::UserRole + 1;

    explicit MergeTableModel(Side side, QObject* parent = nullptr);

    /// Shows `comparison` (null: nothing).
    void setComparison(std::shared_ptr<const engine::MergeComparison> comparison);
    Mark mark(int row, int column) const;
    /// Rows marked in any way.
    int markedRows() const { return static_cast<int>(m_marks.size()); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    const std::vector<Row>* rows() const;

    Side m_side;
    std::shared_ptr<const engine::MergeComparison> m_comparison;
    std::map<std::size_t, const engine::RowDifference*> m_marks; ///< by row of this side
};

} // namespace cdc::ui
