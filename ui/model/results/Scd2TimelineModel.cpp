#include "ui/model/results/Scd2TimelineModel.h"

#include "ui/model/results/ResultText.h"

#include <QGuiApplication>

#include <algorithm>
#include <unordered_map>

namespace cdc::ui {

namespace {
constexpr quintptr kLaneLevel = 0; // internalId of lanes; bars store lane + 1

int severity(RowChange c) {
    switch (c) {
    case RowChange::Deleted: return 4;
    case RowChange::Inserted: return 3;
    case RowChange::Closed: return 2;
    case RowChange::Updated: return 1;
    case RowChange::None: break;
    }
    return 0;
}
} // namespace

bool TimelineLane::current() const {
    return std::any_of(bars.begin(), bars.end(), [](const TimelineBar& b) { return b.open && !b.ghost; });
}

Scd2TimelineModel::Scd2TimelineModel(QObject* parent) : QAbstractItemModel(parent) {}

void Scd2TimelineModel::setSnapshot(const TargetSnapshot& snapshot) {
    setSnapshot(std::make_shared<const TargetSnapshot>(snapshot));
}

void Scd2TimelineModel::setSnapshot(SharedSnapshot snapshot) {
    beginResetModel();
    m_snapshot = snapshot ? std::move(snapshot) : emptySnapshot();
    m_changes = classifyChanges(*m_snapshot);
    const cdc::ResultSet& rs = m_snapshot->rows;
    m_keyColumns = resulttext::columnIndices(rs, m_snapshot->keyColumns);
    m_start = resulttext::columnIndex(rs, resulttext::startAt());
    m_end = resulttext::columnIndex(rs, resulttext::endAt());
    m_labelColumns.clear();
    if (!m_snapshot->trackedColumns.isEmpty()) {
        for (int c : resulttext::columnIndices(rs, m_snapshot->trackedColumns))
            if (c >= 0)
                m_labelColumns.push_back(c);
    } else {
        for (std::size_t c = 0; c < rs.columns.size(); ++c) {
            const int ci = static_cast<int>(c);
            if (ci != m_start && ci != m_end &&
                std::find(m_keyColumns.begin(), m_keyColumns.end(), ci) == m_keyColumns.end())
                m_labelColumns.push_back(ci);
        }
    }
    // Ghost rows come from the change feed: rearrange them into the target's column layout.
    m_ghostRows.clear();
    std::vector<int> feedColumn;
    for (const std::string& name : rs.columns)
        feedColumn.push_back(resulttext::columnIndex(m_snapshot->changes, QString::fromStdString(name)));
    for (int feedRow : m_changes.ghostChangeRows) {
        cdc::Row row(rs.columns.size());
        for (std::size_t c = 0; c < rs.columns.size(); ++c)
            if (feedColumn[c] >= 0)
                row[c] = m_snapshot->changes.rows[static_cast<std::size_t>(feedRow)][static_cast<std::size_t>(feedColumn[c])];
        m_ghostRows.push_back(std::move(row));
    }
    buildLanes();
    endResetModel();
}

const cdc::Row& Scd2TimelineModel::rowValues(int row) const {
    const std::size_t n = m_snapshot->rows.rows.size();
    if (row < 0)
        return m_emptyRow;
    if (static_cast<std::size_t>(row) < n)
        return m_snapshot->rows.rows[static_cast<std::size_t>(row)];
    const std::size_t g = static_cast<std::size_t>(row) - n;
    return g < m_ghostRows.size() ? m_ghostRows[g] : m_emptyRow;
}

const cdc::Value& Scd2TimelineModel::cell(int row, int column) const {
    const cdc::Row& r = rowValues(row);
    return column >= 0 && static_cast<std::size_t>(column) < r.size() ? r[static_cast<std::size_t>(column)] : m_null;
}

void Scd2TimelineModel::buildLanes() {
    m_lanes.clear();
    const int total = static_cast<int>(m_snapshot->rows.rows.size() + m_ghostRows.size());
    m_location.assign(static_cast<std::size_t>(total), {-1, -1});
    if (m_start < 0 || m_end < 0)
        return;

    std::vector<const cdc::Value*> sequenceValues;
    sequenceValues.reserve(static_cast<std::size_t>(total) * 2);
    for (int r = 0; r < total; ++r) {
        sequenceValues.push_back(&cell(r, m_start));
        sequenceValues.push_back(&cell(r, m_end));
    }
    std::optional<cdc::DataType> type = m_snapshot->rows.typeOf(static_cast<std::size_t>(m_start));
    if (!type && !m_snapshot->sequenceType.isEmpty())
        type = cdc::DataType::parse(m_snapshot->sequenceType.toStdString());
    m_axis.build(type, sequenceValues);

    std::unordered_map<std::string, int> laneOfKey;
    laneOfKey.reserve(static_cast<std::size_t>(total));
    for (int r = 0; r < total; ++r) {
        const std::string key = resulttext::identity(rowValues(r), m_keyColumns);
        auto [it, added] = laneOfKey.emplace(key, static_cast<int>(m_lanes.size()));
        if (added) {
            TimelineLane lane;
            lane.keyRow = r;
            m_lanes.append(lane);
        }
        TimelineBar bar;
        bar.row = r;
        bar.ghost = r >= static_cast<int>(m_snapshot->rows.rows.size());
        bar.change = bar.ghost ? RowChange::Deleted : m_changes.at(static_cast<std::size_t>(r));
        const auto start = m_axis.position(cell(r, m_start));
        const auto end = m_axis.position(cell(r, m_end));
        bar.open = !end.has_value();
        bar.startUnknown = !start.has_value();
        bar.end = end.value_or(m_axis.maximum());
        bar.start = start.value_or(bar.end);
        m_lanes[it->second].bars.append(bar);
    }

    // Lanes in key order (numbers numerically), as the table lists them.
    std::sort(m_lanes.begin(), m_lanes.end(), [this](const TimelineLane& a, const TimelineLane& b) {
        for (int c : m_keyColumns)
            if (int cmp = resulttext::compareValues(cell(a.keyRow, c), cell(b.keyRow, c)))
                return cmp < 0;
        return false;
    });

    for (int l = 0; l < m_lanes.size(); ++l) {
        TimelineLane& lane = m_lanes[l];
        std::sort(lane.bars.begin(), lane.bars.end(), [](const TimelineBar& a, const TimelineBar& b) {
            return a.start != b.start ? a.start < b.start : a.ghost < b.ghost;
        });
        // A NULL start continues from the version before it (or stays a zero-width stub).
        for (int b = 1; b < lane.bars.size(); ++b)
            if (lane.bars[b].startUnknown)
                lane.bars[b].start = std::min(lane.bars[b - 1].end, lane.bars[b].end);
        for (int b = 0; b < lane.bars.size(); ++b) {
            TimelineBar& bar = lane.bars[b];
            if (!bar.open && !bar.ghost) {
                const TimelineBar* next = nullptr;
                for (int n = b + 1; n < lane.bars.size() && !next; ++n)
                    if (!lane.bars[n].ghost)
                        next = &lane.bars[n];
                bar.closedByDelete = !next || next->start != bar.end;
            }
            if (severity(bar.change) > severity(lane.change))
                lane.change = bar.change;
            m_location[static_cast<std::size_t>(bar.row)] = {l, b};
        }
    }
}

std::pair<int, int> Scd2TimelineModel::locate(int row) const {
    if (row < 0 || static_cast<std::size_t>(row) >= m_location.size())
        return {-1, -1};
    return m_location[static_cast<std::size_t>(row)];
}

QString Scd2TimelineModel::laneLabel(int lane) const {
    if (lane < 0 || lane >= m_lanes.size())
        return {};
    QStringList parts;
    const int row = m_lanes[lane].keyRow;
    for (int c : m_keyColumns)
        parts << resulttext::valueText(cell(row, c), m_snapshot->rows.typeOf(static_cast<std::size_t>(std::max(c, 0))));
    return parts.join(QStringLiteral(", "));
}

QString Scd2TimelineModel::barLabel(const TimelineBar& bar) const {
    QStringList parts;
    for (int c : m_labelColumns)
        parts << resulttext::valueText(cell(bar.row, c), m_snapshot->rows.typeOf(static_cast<std::size_t>(c)));
    return parts.join(QStringLiteral(" \u00b7 "));
}

QString Scd2TimelineModel::startText(const TimelineBar& bar) const { return m_axis.text(cell(bar.row, m_start)); }

QString Scd2TimelineModel::endText(const TimelineBar& bar) const {
    return bar.open ? tr("current") : m_axis.text(cell(bar.row, m_end));
}

QString Scd2TimelineModel::barToolTip(const TimelineBar& bar) const {
    QStringList lines;
    lines << QStringLiteral("[%1, %2)").arg(startText(bar), endText(bar));
    if (bar.change != RowChange::None)
        lines << tr("%1 by update %2").arg(ChangePalette::label(bar.change)).arg(m_snapshot->updateId);
    if (bar.closedByDelete)
        lines << tr("Closed by a delete");
    const cdc::ResultSet& rs = m_snapshot->rows;
    for (std::size_t c = 0; c < rs.columns.size(); ++c)
        lines << QStringLiteral("%1: %2").arg(QString::fromStdString(rs.columns[c]),
                                             resulttext::valueText(cell(bar.row, static_cast<int>(c)), rs.typeOf(c)));
    return lines.join(QLatin1Char('\n'));
}

QModelIndex Scd2TimelineModel::index(int row, int column, const QModelIndex& parent) const {
    if (column < 0 || column >= ColumnCount || row < 0)
        return {};
    if (!parent.isValid())
        return row < m_lanes.size() ? createIndex(row, column, kLaneLevel) : QModelIndex();
    if (parent.internalId() != kLaneLevel || parent.column() != 0 || parent.row() >= m_lanes.size())
        return {};
    return row < m_lanes[parent.row()].bars.size() ? createIndex(row, column, quintptr(parent.row() + 1))
                                                   : QModelIndex();
}

QModelIndex Scd2TimelineModel::parent(const QModelIndex& child) const {
    if (!child.isValid() || child.internalId() == kLaneLevel)
        return {};
    return createIndex(static_cast<int>(child.internalId() - 1), 0, kLaneLevel);
}

int Scd2TimelineModel::rowCount(const QModelIndex& parent) const {
    if (!parent.isValid())
        return m_lanes.size();
    if (parent.internalId() == kLaneLevel && parent.column() == 0)
        return m_lanes[parent.row()].bars.size();
    return 0;
}

int Scd2TimelineModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QVariant Scd2TimelineModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (index.internalId() == kLaneLevel) {
        const TimelineLane& lane = m_lanes[index.row()];
        switch (role) {
        case Qt::DisplayRole:
            switch (index.column()) {
            case LabelColumn: return laneLabel(index.row());
            case StartColumn: return lane.bars.isEmpty() ? QString() : startText(lane.bars.first());
            case EndColumn: return lane.current() ? tr("current") : endText(lane.bars.last());
            case ChangeColumn: return lane.change == RowChange::None ? QString() : ChangePalette::label(lane.change);
            }
            return {};
        case RowChangeRole: return static_cast<int>(lane.change);
        case SourceRowRole: return lane.keyRow;
        default: return {};
        }
    }
    const TimelineBar& bar = m_lanes[static_cast<int>(index.internalId() - 1)].bars[index.row()];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case LabelColumn: return barLabel(bar);
        case StartColumn: return startText(bar);
        case EndColumn: return endText(bar);
        case ChangeColumn: return bar.change == RowChange::None ? QString() : ChangePalette::label(bar.change);
        }
        return {};
    case Qt::ToolTipRole: return barToolTip(bar);
    case Qt::BackgroundRole: {
        const QColor c = ChangePalette::background(bar.change, QGuiApplication::palette());
        return c.isValid() ? QVariant(c) : QVariant();
    }
    case RowChangeRole: return static_cast<int>(bar.change);
    case GhostRole: return bar.ghost;
    case SourceRowRole: return bar.row;
    default: return {};
    }
}

QVariant Scd2TimelineModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case LabelColumn: return tr("Key / version");
    case StartColumn: return resulttext::startAt();
    case EndColumn: return resulttext::endAt();
    case ChangeColumn: return tr("Change");
    }
    return {};
}

} // namespace cdc::ui
