#include "ui/model/results/TargetRowsModel.h"

#include "ui/model/results/ResultText.h"

#include <QFont>
#include <QGuiApplication>

namespace cdc::ui {

TargetRowsModel::TargetRowsModel(QObject* parent) : QAbstractTableModel(parent) {}

void TargetRowsModel::setSnapshot(const TargetSnapshot& snapshot) {
    beginResetModel();
    m_snapshot = snapshot;
    m_changes = classifyChanges(m_snapshot);
    m_ghostColumns.clear();
    for (const std::string& name : m_snapshot.rows.columns)
        m_ghostColumns.push_back(resulttext::columnIndex(m_snapshot.changes, QString::fromStdString(name)));
    m_fetched = std::min(totalRows(), FetchBatch);
    endResetModel();
}

void TargetRowsModel::clear() { setSnapshot(TargetSnapshot{}); }

int TargetRowsModel::totalRows() const {
    return static_cast<int>(m_snapshot.rows.rows.size() + m_changes.ghostChangeRows.size());
}

void TargetRowsModel::fetchUpTo(int row) {
    const int want = std::min(totalRows(), row + 1);
    if (want <= m_fetched)
        return;
    beginInsertRows({}, m_fetched, want - 1);
    m_fetched = want;
    endInsertRows();
}

RowChange TargetRowsModel::rowChange(int row) const { return m_changes.at(static_cast<std::size_t>(row)); }

int TargetRowsModel::count(RowChange change) const {
    if (change == RowChange::Deleted)
        return static_cast<int>(m_changes.ghostChangeRows.size());
    return static_cast<int>(std::count(m_changes.rowChanges.begin(), m_changes.rowChanges.end(), change));
}

int TargetRowsModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : m_fetched; }

int TargetRowsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_snapshot.rows.columns.size());
}

bool TargetRowsModel::canFetchMore(const QModelIndex& parent) const {
    return !parent.isValid() && m_fetched < totalRows();
}

void TargetRowsModel::fetchMore(const QModelIndex& parent) {
    if (!parent.isValid())
        fetchUpTo(m_fetched + FetchBatch - 1);
}

QString TargetRowsModel::cell(int row, int column) const {
    if (!isGhost(row))
        return resulttext::cellText(m_snapshot.rows, static_cast<std::size_t>(row), column);
    const int feedRow = m_changes.ghostChangeRows[static_cast<std::size_t>(row) - m_snapshot.rows.rows.size()];
    return resulttext::cellText(m_snapshot.changes, static_cast<std::size_t>(feedRow),
                                m_ghostColumns[static_cast<std::size_t>(column)]);
}

QVariant TargetRowsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int row = index.row();
    const RowChange change = rowChange(row);
    switch (role) {
    case Qt::DisplayRole: return cell(row, index.column());
    case Qt::ToolTipRole:
        if (change == RowChange::None)
            return {};
        return tr("%1 by update %2").arg(ChangePalette::label(change)).arg(m_snapshot.updateId);
    case Qt::BackgroundRole: {
        const QColor c = ChangePalette::background(change, QGuiApplication::palette());
        return c.isValid() ? QVariant(c) : QVariant();
    }
    case Qt::ForegroundRole:
        return isGhost(row) ? QVariant(ChangePalette::ghostText(QGuiApplication::palette())) : QVariant();
    case Qt::FontRole:
        if (isGhost(row)) {
            QFont f;
            f.setStrikeOut(true);
            return f;
        }
        return {};
    case Qt::TextAlignmentRole:
        // Ghost rows share the target's column types, so the target's first row decides for them.
        return QVariant::fromValue(resulttext::cellAlignment(m_snapshot.rows, isGhost(row) ? 0 : static_cast<std::size_t>(row),
                                                             index.column()));
    case RowChangeRole: return static_cast<int>(change);
    case GhostRole: return isGhost(row);
    case SourceRowRole: return row;
    default: return {};
    }
}

QVariant TargetRowsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal) {
        if (section < 0 || section >= columnCount())
            return {};
        const auto name = QString::fromStdString(m_snapshot.rows.columns[static_cast<std::size_t>(section)]);
        if (role == Qt::DisplayRole)
            return name;
        if (role == Qt::ToolTipRole) {
            const auto type = m_snapshot.rows.typeOf(static_cast<std::size_t>(section));
            QString tip = type ? QStringLiteral("%1 %2").arg(name, QString::fromStdString(type->toString())) : name;
            if (m_snapshot.keyColumns.contains(name, Qt::CaseInsensitive))
                tip += tr(" (key)");
            return tip;
        }
        return {};
    }
    if (section < 0 || section >= m_fetched)
        return {};
    const RowChange change = rowChange(section);
    switch (role) {
    case Qt::DisplayRole: return isGhost(section) ? QStringLiteral("\u2013") : QString::number(section + 1);
    case Qt::DecorationRole: return change == RowChange::None ? QVariant() : QVariant(ChangePalette::chip(change));
    case Qt::ToolTipRole: return change == RowChange::None ? QVariant() : QVariant(ChangePalette::description(change));
    case RowChangeRole: return static_cast<int>(change);
    default: return {};
    }
}

} // namespace cdc::ui
