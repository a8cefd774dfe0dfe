// The log's per-flow rows are folded into one entry per update; columns are looked up by name so a
// metric added to the engine's log does not shift the others. The header tips follow the user guide.
#include "ui/model/UpdateTimelineModel.h"

#include "core/engine/Engine.h"
#include "ui/model/Project.h"
#include "ui/model/ValueText.h"

#include <QLocale>

namespace cdc::ui {

namespace {
qint64 intAt(const cdc::Row& row, int column) {
    if (column < 0 || std::size_t(column) >= row.size())
        return 0;
    if (auto* i = std::get_if<std::int64_t>(&row[column]))
        return *i;
    if (auto* d = std::get_if<double>(&row[column]))
        return qint64(*d);
    return 0;
}
QString textAt(const cdc::Row& row, int column) {
    if (column < 0 || std::size_t(column) >= row.size())
        return {};
    if (auto* s = std::get_if<std::string>(&row[column]))
        return QString::fromStdString(*s);
    return {};
}
} // namespace

UpdateTimelineModel::UpdateTimelineModel(Project* project, QObject* parent)
    : QAbstractTableModel(parent), m_project(project) {
    connect(project, &Project::dataChanged, this, &UpdateTimelineModel::reload);
    reload();
}

void UpdateTimelineModel::reload() {
    beginResetModel();
    m_entries.clear();
    m_entries.append(Entry{});
    auto log = [this] {
        const auto guard = m_project->guardQuickRead("reading the update log");
        return engine::updateLog(m_project->db());
    }();
    m_log = log ? *log : cdc::ResultSet{};
    const auto col = [this](const char* name) {
        for (std::size_t i = 0; i < m_log.columns.size(); ++i)
            if (m_log.columns[i] == name)
                return int(i);
        return -1;
    };
    const int cId = col("update_id"), cTime = col("time"), cFlow = col("flow"), cRead = col("rows_read"),
              cUp = col("upserted"), cDel = col("deleted"), cStale = col("stale_dropped"),
              cOpen = col("versions_opened"), cClose = col("versions_closed"), cSplit = col("versions_split"),
              cTc = col("tombstones_created"), cTg = col("tombstones_collected"), cDur = col("duration_ms"),
              cErr = col("error");
    for (const auto& row : m_log.rows) {
        const qint64 id = intAt(row, cId);
        if (m_entries.last().updateId != id) {
            Entry e;
            e.updateId = id;
            e.time = cTime >= 0 && std::size_t(cTime) < row.size()
                         ? displayText(row[cTime], m_log.typeOf(cTime))
                         : QString();
            m_entries.append(e);
        }
        Entry& e = m_entries.last();
        e.flows << textAt(row, cFlow);
        e.read += intAt(row, cRead);
        e.upserted += intAt(row, cUp);
        e.deleted += intAt(row, cDel);
        e.stale += intAt(row, cStale);
        e.opened += intAt(row, cOpen);
        e.closed += intAt(row, cClose);
        e.split += intAt(row, cSplit);
        e.tombstonesCreated += intAt(row, cTc);
        e.tombstonesCollected += intAt(row, cTg);
        if (cDur >= 0 && std::size_t(cDur) < row.size())
            if (auto* d = std::get_if<double>(&row[cDur]))
                e.durationMs += *d;
        if (const QString err = textAt(row, cErr); !err.isEmpty())
            e.error = err;
    }
    endResetModel();
}

int UpdateTimelineModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_entries.size());
}
int UpdateTimelineModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

int UpdateTimelineModel::rowOfUpdate(qint64 updateId) const {
    for (int i = 0; i < m_entries.size(); ++i)
        if (m_entries[i].updateId == updateId)
            return i;
    return -1;
}

namespace {
/// "+2 −1": only the counts that are not zero (the narrow dock has no room for "+2 / −1 / ⇹0"); "–" for none.
QString counts(std::initializer_list<std::pair<QString, qint64>> parts) {
    QStringList shown;
    for (const auto& [sign, n] : parts)
        if (n != 0)
            shown << sign + QString::number(n);
    return shown.isEmpty() ? QStringLiteral("–") : shown.join(QLatin1Char(' '));
}
} // namespace

QVariant UpdateTimelineModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= m_entries.size())
        return {};
    const Entry& e = m_entries[index.row()];
    const bool initial = index.row() == 0;
    if (role == Qt::DisplayRole) {
        if (initial)
            return index.column() == UpdateColumn ? tr("Start")
                   : index.column() == TimeColumn ? tr("initial")
                                                  : QVariant();
        switch (index.column()) {
        case UpdateColumn:
            return tr("#%1").arg(e.updateId);
        case TimeColumn:
            return e.time.mid(11, 8); // HH:MM:SS; the full time is in the tooltip
        case ReadColumn:
            return e.read;
        case UpsertedColumn:
            return e.upserted;
        case DeletedColumn:
            return e.deleted;
        case StaleColumn:
            return e.stale;
        case VersionsColumn:
            return counts({{QStringLiteral("+"), e.opened},
                           {QStringLiteral("−"), e.closed},
                           {QStringLiteral("⇹"), e.split}});
        case TombstonesColumn:
            return counts(
                {{QStringLiteral("+"), e.tombstonesCreated}, {QStringLiteral("−"), e.tombstonesCollected}});
        case DurationColumn:
            return QStringLiteral("%1 ms").arg(e.durationMs, 0, 'f', 1);
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole && !initial)
        return tr("Update %1 at %2\nFlows: %3\nRead %4 · upserted %5 · deleted %6 · stale %7\nSCD2 versions "
                  "opened %8, "
                  "closed %9, split %10\nTombstones created %11, collected %12%13")
            .arg(e.updateId)
            .arg(e.time, e.flows.join(QLatin1String(", ")))
            .arg(e.read)
            .arg(e.upserted)
            .arg(e.deleted)
            .arg(e.stale)
            .arg(e.opened)
            .arg(e.closed)
            .arg(e.split)
            .arg(e.tombstonesCreated)
            .arg(e.tombstonesCollected)
            .arg(e.error.isEmpty() ? QString() : tr("\nError: %1").arg(e.error));
    if (role == Qt::ToolTipRole)
        return tr("The state before any update: select it and Rewind Here to start over");
    if (role == Qt::TextAlignmentRole && index.column() >= ReadColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::UserRole)
        return e.updateId;
    return {};
}

QVariant UpdateTimelineModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char* const names[] = {"Update", "Time",     "Read",       "Upserted", "Deleted",
                                        "Stale",  "Versions", "Tombstones", "Duration"};
    // The same explanations as the user guide's update timeline page (docs/guide/timeline.html).
    static const char* const tips[] = {
        "The update's number; also the _commit_version of the targets' change feed for it. "
        "Start is the state before any update",
        "The simulated clock when the update ran (each update moves it by one minute); "
        "the row's tooltip has the date",
        "Source rows (events) the update read, counted once per flow that reads them",
        "Target rows inserted or updated (num_upserted_rows); for SCD type 2, versions written",
        "Target rows removed (num_deleted_rows): SCD type 1 rows removed by a delete or truncate, SCD type 2 "
        "versions that no longer exist",
        "SCD type 1 events that changed nothing: older than the stored row or its tombstone, below a "
        "truncate, "
        "or beaten by a newer event of the same key in the update",
        "SCD type 2 versions +opened \u2212closed \u21f9split by a late event landing inside them",
        "Tombstones +created by deletes \u2212collected by garbage collection at the start of the update",
        "The real time the update took on this computer"};
    if (section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::DisplayRole)
        return tr(names[section]);
    if (role == Qt::ToolTipRole)
        return tr(tips[section]);
    return {};
}

} // namespace cdc::ui
