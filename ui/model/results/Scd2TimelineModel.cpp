// Lanes are built by grouping rows on their key identity and sorting them as the table lists them.
// After an update only the lanes of touched keys (and of those the previous update highlighted) are
// rebuilt; the rest only have their row numbers shifted, so the cost follows the update, not the target.
#include "ui/model/results/Scd2TimelineModel.h"

#include "ui/model/ValueText.h"
#include "ui/model/results/ResultText.h"
#include "ui/model/results/TargetRowOrder.h"

#include <QGuiApplication>

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace cdc::ui {

namespace {
constexpr quintptr kLaneLevel = 0; // internalId of lanes; bars store lane + 1

int severity(RowChange c) {
    switch (c) {
    case RowChange::Deleted:
        return 4;
    case RowChange::Inserted:
        return 3;
    case RowChange::Closed:
        return 2;
    case RowChange::Updated:
        return 1;
    case RowChange::None:
        break;
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
    if (!snapshot)
        snapshot = emptySnapshot();
    if (snapshot->serial != 0 && snapshot->serial == m_snapshot->serial) {
        m_snapshot = std::move(snapshot); // the same rows again (reloaded without an update)
        return;
    }
    if (canPatch(*snapshot) && patch(snapshot))
        return;
    beginResetModel();
    m_snapshot = std::move(snapshot);
    m_changes = changesOf(*m_snapshot);
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
    m_ghostRows = ghostRowsOf(*m_snapshot, *m_changes);
    buildLanes();
    endResetModel();
}

std::vector<cdc::Row> Scd2TimelineModel::ghostRowsOf(const TargetSnapshot& snapshot,
                                                     const ChangeClassification& changes) {
    // Ghost rows come from the change feed: rearrange them into the target's column layout.
    const cdc::ResultSet& rs = snapshot.rows;
    std::vector<int> feedColumn;
    for (const std::string& name : rs.columns)
        feedColumn.push_back(resulttext::columnIndex(snapshot.changes, QString::fromStdString(name)));
    std::vector<cdc::Row> out;
    for (int feedRow : changes.ghostChangeRows) {
        cdc::Row row(rs.columns.size());
        for (std::size_t c = 0; c < rs.columns.size(); ++c)
            if (feedColumn[c] >= 0)
                row[c] =
                    snapshot.changes
                        .rows[static_cast<std::size_t>(feedRow)][static_cast<std::size_t>(feedColumn[c])];
        out.push_back(std::move(row));
    }
    return out;
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
    return column >= 0 && static_cast<std::size_t>(column) < r.size() ? r[static_cast<std::size_t>(column)]
                                                                      : m_null;
}

TimelineBar Scd2TimelineModel::makeBar(int row) const {
    TimelineBar bar;
    bar.row = row;
    bar.ghost = row >= static_cast<int>(m_snapshot->rows.rows.size());
    bar.change = bar.ghost ? RowChange::Deleted : m_changes->at(static_cast<std::size_t>(row));
    const auto start = m_axis.position(cell(row, m_start));
    const auto end = m_axis.position(cell(row, m_end));
    bar.open = !end.has_value();
    bar.startUnknown = !start.has_value();
    bar.end = end.value_or(m_axis.maximum());
    bar.start = start.value_or(bar.end);
    return bar;
}

void Scd2TimelineModel::finishLane(TimelineLane& lane) {
    std::sort(lane.bars.begin(), lane.bars.end(), [](const TimelineBar& a, const TimelineBar& b) {
        return a.start != b.start ? a.start < b.start : a.ghost < b.ghost;
    });
    // A NULL start continues from the version before it (or stays a zero-width stub).
    for (int b = 1; b < lane.bars.size(); ++b)
        if (lane.bars[b].startUnknown)
            lane.bars[b].start = std::min(lane.bars[b - 1].end, lane.bars[b].end);
    lane.change = RowChange::None;
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
    }
}

void Scd2TimelineModel::locateBars() {
    m_location.assign(m_snapshot->rows.rows.size() + m_ghostRows.size(), {-1, -1});
    const QList<TimelineLane>& lanes = m_lanes; // const: no detach checks in the loop
    for (int l = 0; l < lanes.size(); ++l)
        for (int b = 0; b < lanes[l].bars.size(); ++b)
            m_location[static_cast<std::size_t>(lanes[l].bars[b].row)] = {l, b};
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
        m_lanes[it->second].bars.append(makeBar(r));
    }

    // Lanes in key order (numbers numerically), as the table lists them.
    std::sort(m_lanes.begin(), m_lanes.end(), [this](const TimelineLane& a, const TimelineLane& b) {
        for (int c : m_keyColumns)
            if (int cmp = resulttext::compareValues(cell(a.keyRow, c), cell(b.keyRow, c)))
                return cmp < 0;
        return false;
    });
    for (TimelineLane& lane : m_lanes)
        finishLane(lane);
    locateBars();
}

bool Scd2TimelineModel::canPatch(const TargetSnapshot& next) const {
    return next.patch.baseSerial != 0 && next.patch.baseSerial == m_snapshot->serial &&
           next.rows.columns == m_snapshot->rows.columns && next.keyColumns == m_snapshot->keyColumns &&
           next.trackedColumns == m_snapshot->trackedColumns && m_start >= 0 && m_end >= 0 &&
           TargetRowOrder(next, next.rows).valid();
}

std::optional<SequenceAxis> Scd2TimelineModel::patchedAxis(const TargetSnapshot& next,
                                                           const std::vector<cdc::Row>& ghostRows) const {
    const TargetSnapshot& base = *m_snapshot;
    std::vector<const cdc::Value*> added, removed;
    const auto collect = [this](std::vector<const cdc::Value*>& out, const cdc::Row& row) {
        out.push_back(&row[static_cast<std::size_t>(m_start)]);
        out.push_back(&row[static_cast<std::size_t>(m_end)]);
    };
    for (const RowsPatch::Span& span : next.patch.spans) {
        for (int r = span.newBegin; r < span.newEnd; ++r)
            collect(added, next.rows.rows[static_cast<std::size_t>(r)]);
        for (int r = span.oldBegin; r < span.oldEnd; ++r)
            collect(removed, base.rows.rows[static_cast<std::size_t>(r)]);
    }
    for (const cdc::Row& row : ghostRows)
        collect(added, row);
    for (const cdc::Row& row : m_ghostRows)
        collect(removed, row);
    SequenceAxis axis = m_axis;
    if (!axis.extend(added, removed))
        return std::nullopt;
    return axis;
}

std::vector<cdc::Row> Scd2TimelineModel::dirtyKeys(const TargetSnapshot& next,
                                                   const std::vector<cdc::Row>& ghostRows,
                                                   const TargetRowOrder& order) const {
    const TargetSnapshot& base = *m_snapshot;
    std::vector<cdc::Row> dirty;
    for (const RowsPatch::Span& span : next.patch.spans)
        dirty.push_back(span.newEnd > span.newBegin
                            ? next.rows.rows[static_cast<std::size_t>(span.newBegin)]
                            : base.rows.rows[static_cast<std::size_t>(span.oldBegin)]);
    dirty.insert(dirty.end(), ghostRows.begin(), ghostRows.end());
    dirty.insert(dirty.end(), m_ghostRows.begin(), m_ghostRows.end());
    for (const TimelineLane& lane : m_lanes)
        if (lane.change != RowChange::None)
            dirty.push_back(rowValues(lane.keyRow));
    std::sort(dirty.begin(), dirty.end(),
              [&order](const cdc::Row& a, const cdc::Row& b) { return order.compareKeys(a, b) < 0; });
    dirty.erase(
        std::unique(dirty.begin(), dirty.end(),
                    [&order](const cdc::Row& a, const cdc::Row& b) { return order.compareKeys(a, b) == 0; }),
        dirty.end());
    return dirty;
}

void Scd2TimelineModel::remapPersistentIndexes(const std::vector<int>& laneMap,
                                               const std::vector<bool>& rebuilt) {
    // Views keep what they point at: a lane follows its key, a version survives if its key was untouched.
    const QModelIndexList from = persistentIndexList();
    QModelIndexList to;
    to.reserve(from.size());
    for (const QModelIndex& i : from) {
        const bool isLane = i.internalId() == kLaneLevel;
        const int oldLane = isLane ? i.row() : static_cast<int>(i.internalId() - 1);
        const int lane =
            oldLane < static_cast<int>(laneMap.size()) ? laneMap[static_cast<std::size_t>(oldLane)] : -1;
        if (lane < 0 || (!isLane && rebuilt[static_cast<std::size_t>(lane)]))
            to << QModelIndex();
        else
            to << createIndex(isLane ? lane : i.row(), i.column(), isLane ? kLaneLevel : quintptr(lane + 1));
    }
    changePersistentIndexList(from, to);
}

bool Scd2TimelineModel::patch(const SharedSnapshot& next) {
    const TargetSnapshot& base = *m_snapshot;
    const std::vector<RowsPatch::Span>& spans = next->patch.spans;
    std::shared_ptr<const ChangeClassification> changes = changesOf(*next);
    std::vector<cdc::Row> ghostRows = ghostRowsOf(*next, *changes);
    // The axis learns the values that came and went; when it cannot, everything is rebuilt.
    std::optional<SequenceAxis> axis = patchedAxis(*next, ghostRows);
    if (!axis)
        return false;

    emit layoutAboutToBeChanged();
    // The keys whose lanes are rebuilt: those the update touched, and those the previous one had
    // highlighted or left ghosts in. Every other lane keeps its bars, renumbered past the changed rows.
    const TargetRowOrder order(*next, next->rows);
    const auto keyLess = [&order](const cdc::Row& a, const cdc::Row& b) {
        return order.compareKeys(a, b) < 0;
    };
    const std::vector<cdc::Row> dirty = dirtyKeys(*next, ghostRows, order);

    // From here on rows are the new snapshot's; the old lanes still name the base's rows.
    const SharedSnapshot keepBase = m_snapshot; // rowValues of old key rows stay readable below
    QList<TimelineLane> oldLanes = std::exchange(m_lanes, {});
    const std::vector<cdc::Row> oldGhosts = std::exchange(m_ghostRows, std::move(ghostRows));
    const auto oldKey = [&](const TimelineLane& lane) -> const cdc::Row& {
        const std::size_t n = base.rows.rows.size();
        const std::size_t r = static_cast<std::size_t>(lane.keyRow);
        return r < n ? base.rows.rows[r] : oldGhosts[r - n];
    };
    m_snapshot = next;
    m_changes = std::move(changes);
    const double oldMaximum = m_axis.maximum();
    m_axis = std::move(*axis);

    const int targetRows = static_cast<int>(m_snapshot->rows.rows.size());
    std::vector<int> ghostsByKey(m_ghostRows.size());
    std::iota(ghostsByKey.begin(), ghostsByKey.end(), 0);
    std::stable_sort(ghostsByKey.begin(), ghostsByKey.end(), [&](int a, int b) {
        return keyLess(m_ghostRows[std::size_t(a)], m_ghostRows[std::size_t(b)]);
    });
    const auto rebuild = [&](const cdc::Row& key) {
        TimelineLane lane;
        const auto [first, last] = order.keyRange(m_snapshot->rows.rows, key);
        for (std::size_t r = first; r < last; ++r)
            lane.bars.append(makeBar(static_cast<int>(r)));
        auto g = std::lower_bound(ghostsByKey.begin(), ghostsByKey.end(), key, [&](int i, const cdc::Row& k) {
            return order.compareKeys(m_ghostRows[std::size_t(i)], k) < 0;
        });
        for (; g != ghostsByKey.end() && order.compareKeys(m_ghostRows[std::size_t(*g)], key) == 0; ++g)
            lane.bars.append(makeBar(targetRows + *g));
        lane.keyRow = first < last          ? static_cast<int>(first)
                      : lane.bars.isEmpty() ? -1
                                            : lane.bars.first().row;
        finishLane(lane);
        return lane;
    };

    m_lanes.reserve(oldLanes.size() + static_cast<qsizetype>(dirty.size()));
    std::vector<int> laneMap(static_cast<std::size_t>(oldLanes.size()), -1);
    std::vector<bool> rebuilt;
    std::size_t d = 0, span = 0;
    int shift = 0;
    // Bars are located as their lanes are added: one pass over the 100,000 bars, not two.
    m_location.assign(static_cast<std::size_t>(targetRows) + m_ghostRows.size(), {-1, -1});
    const auto add = [&](TimelineLane lane, bool fresh) {
        if (lane.bars.isEmpty())
            return -1;
        const int index = static_cast<int>(m_lanes.size());
        const QList<TimelineBar>& bars = lane.bars;
        for (int b = 0; b < bars.size(); ++b)
            m_location[static_cast<std::size_t>(bars[b].row)] = {index, b};
        m_lanes.append(std::move(lane));
        rebuilt.push_back(fresh);
        return index;
    };
    for (int l = 0; l < oldLanes.size(); ++l) {
        TimelineLane& lane = oldLanes[l];
        const cdc::Row& key = oldKey(lane);
        for (; d < dirty.size() && keyLess(dirty[d], key); ++d)
            add(rebuild(dirty[d]), true);
        if (d < dirty.size() && order.compareKeys(dirty[d], key) == 0) {
            laneMap[static_cast<std::size_t>(l)] = add(rebuild(dirty[d++]), true);
            continue;
        }
        // An untouched key: its rows moved by what the changed keys before it gained or lost.
        for (; span < spans.size() && spans[span].oldEnd <= lane.keyRow; ++span)
            shift +=
                (spans[span].newEnd - spans[span].newBegin) - (spans[span].oldEnd - spans[span].oldBegin);
        lane.keyRow += shift;
        bool unknownStart = false;
        for (TimelineBar& bar : lane.bars) {
            bar.row += shift;
            unknownStart = unknownStart || bar.startUnknown;
            if (bar.open)
                bar.end =
                    m_axis.maximum(); // current versions run to the end of the axis, which may have grown
        }
        if (unknownStart && m_axis.maximum() != oldMaximum) { // such starts derive from ends: lay out again
            for (TimelineBar& bar : lane.bars)
                bar = makeBar(bar.row);
            finishLane(lane);
        }
        laneMap[static_cast<std::size_t>(l)] = add(std::move(lane), false);
    }
    for (; d < dirty.size(); ++d)
        add(rebuild(dirty[d]), true);

    remapPersistentIndexes(laneMap, rebuilt);
    emit layoutChanged();
    return true;
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
        parts << displayText(cell(row, c), m_snapshot->rows.typeOf(static_cast<std::size_t>(std::max(c, 0))));
    return parts.join(QStringLiteral(", "));
}

QString Scd2TimelineModel::barLabel(const TimelineBar& bar) const {
    QStringList parts;
    for (int c : m_labelColumns)
        parts << displayText(cell(bar.row, c), m_snapshot->rows.typeOf(static_cast<std::size_t>(c)));
    return parts.join(QStringLiteral(" \u00b7 "));
}

QString Scd2TimelineModel::startText(const TimelineBar& bar) const {
    return m_axis.text(cell(bar.row, m_start));
}

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
                                              displayText(cell(bar.row, static_cast<int>(c)), rs.typeOf(c)));
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

int Scd2TimelineModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QVariant Scd2TimelineModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (index.internalId() == kLaneLevel) {
        const TimelineLane& lane = m_lanes[index.row()];
        switch (role) {
        case Qt::DisplayRole:
            switch (index.column()) {
            case LabelColumn:
                return laneLabel(index.row());
            case StartColumn:
                return lane.bars.isEmpty() ? QString() : startText(lane.bars.first());
            case EndColumn:
                return lane.current() ? tr("current") : endText(lane.bars.last());
            case ChangeColumn:
                return lane.change == RowChange::None ? QString() : ChangePalette::label(lane.change);
            }
            return {};
        case RowChangeRole:
            return static_cast<int>(lane.change);
        case SourceRowRole:
            return lane.keyRow;
        default:
            return {};
        }
    }
    const TimelineBar& bar = m_lanes[static_cast<int>(index.internalId() - 1)].bars[index.row()];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case LabelColumn:
            return barLabel(bar);
        case StartColumn:
            return startText(bar);
        case EndColumn:
            return endText(bar);
        case ChangeColumn:
            return bar.change == RowChange::None ? QString() : ChangePalette::label(bar.change);
        }
        return {};
    case Qt::ToolTipRole:
        return barToolTip(bar);
    case Qt::BackgroundRole: {
        const QColor c = ChangePalette::background(bar.change, QGuiApplication::palette());
        return c.isValid() ? QVariant(c) : QVariant();
    }
    case RowChangeRole:
        return static_cast<int>(bar.change);
    case GhostRole:
        return bar.ghost;
    case SourceRowRole:
        return bar.row;
    default:
        return {};
    }
}

QVariant Scd2TimelineModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case LabelColumn:
        return tr("Key / version");
    case StartColumn:
        return resulttext::startAt();
    case EndColumn:
        return resulttext::endAt();
    case ChangeColumn:
        return tr("Change");
    }
    return {};
}

} // namespace cdc::ui
