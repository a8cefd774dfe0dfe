#include "ui/model/results/MergeTableModel.h"

#include "core/common/ResultSet.h"
#include "ui/model/results/RowChange.h"

#include <QGuiApplication>

#include <algorithm>

namespace cdc::ui {

MergeTableModel::MergeTableModel(Side side, QObject* parent) : QAbstractTableModel(parent), m_side(side) {}

void MergeTableModel::setComparison(std::shared_ptr<const engine::MergeComparison> comparison) {
    beginResetModel();
    m_comparison = std::move(comparison);
    m_marks.clear();
    if (m_comparison)
        for (const auto& d : m_comparison->differences)
            if (const auto& row = m_side == Side::Merge ? d.mergeRow : d.autoCdcRow)
                m_marks[*row] = &d;
    endResetModel();
}

const std::vector<Row>* MergeTableModel::rows() const {
    if (!m_comparison)
        return nullptr;
    return m_side == Side::Merge ? &m_comparison->merge : &m_comparison->autoCdc;
}

MergeTableModel::Mark MergeTableModel::mark(int row, int column) const {
    const auto it = m_marks.find(static_cast<std::size_t>(row));
    if (it == m_marks.end())
        return Mark::None;
    const engine::RowDifference& d = *it->second;
    if (!d.mergeRow || !d.autoCdcRow)
        return Mark::RowOnlyHere;
    const bool differs =
        std::find(d.cells.begin(), d.cells.end(), static_cast<std::size_t>(column)) != d.cells.end();
    return differs ? Mark::CellDiffers : Mark::None;
}

int MergeTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !rows() ? 0 : static_cast<int>(rows()->size());
}

int MergeTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_comparison ? 0 : static_cast<int>(m_comparison->columns.size());
}

QVariant MergeTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || !rows())
        return {};
    const auto r = static_cast<std::size_t>(index.row());
    const auto c = static_cast<std::size_t>(index.column());
    switch (role) {
    case Qt::DisplayRole:
        return QString::fromStdString(displayValue((*rows())[r][c], m_comparison->types[c]));
    case MarkRole:
        return static_cast<int>(mark(index.row(), index.column()));
    case Qt::BackgroundRole:
        switch (mark(index.row(), index.column())) {
        case Mark::RowOnlyHere:
            return ChangePalette::background(RowChange::Deleted, QGuiApplication::palette());
        case Mark::CellDiffers:
            return ChangePalette::background(RowChange::Updated, QGuiApplication::palette());
        case Mark::None:
            return {};
        }
        return {};
    case Qt::ToolTipRole:
        if (const auto it = m_marks.find(r); it != m_marks.end())
            return QString::fromStdString(m_comparison->describe(*it->second));
        return {};
    default:
        return {};
    }
}

QVariant MergeTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole || !m_comparison)
        return {};
    if (orientation == Qt::Vertical)
        return section + 1;
    return QString::fromStdString(m_comparison->columns[static_cast<std::size_t>(section)]);
}

} // namespace cdc::ui
