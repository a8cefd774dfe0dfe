#include "core/engine/Provenance.h"

#include "core/common/Text.h"
#include "core/engine/Engine.h"
#include "core/engine/StoredTarget.h"
#include "core/engine/ValueOrder.h"
#include "core/storage/Backup.h"
#include "core/storage/Catalog.h"
#include "core/storage/TargetTables.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>

namespace cdc::engine {

using storage::Database;
using storage::quoteIdentifier;

namespace {

bool sameKey(const std::vector<Value>& a, const std::vector<Value>& b) {
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (compareValues(a[i], b[i]) != 0)
            return false;
    return true;
}

/// Collects what the appliers decide for one key of one target.
class KeyTrace : public UpdateTrace {
public:
    KeyTrace(std::string target, std::vector<Value> key)
        : m_target(std::move(target)), m_key(std::move(key)) {}

    bool wants(const std::string& target, const Row& key) const override {
        return equalsIgnoreCase(target, m_target) && sameKey(key, m_key);
    }
    void record(TraceRecord r) override { m_records.push_back(std::move(r)); }
    const std::vector<TraceRecord>& records() const { return m_records; }

private:
    std::string m_target;
    std::vector<Value> m_key;
    std::vector<TraceRecord> m_records;
};

Result<std::vector<std::vector<Value>>> rows(const Database& db, const std::string& sql,
                                             const std::vector<Value>& binds = {}) {
    auto st = db.prepare(sql);
    if (!st)
        return st.error();
    for (std::size_t i = 0; i < binds.size(); ++i)
        st->bind(static_cast<int>(i + 1), binds[i]);
    std::vector<std::vector<Value>> out;
    CDC_TRY(st->forEachRow([&](const storage::Statement& r) {
        std::vector<Value> row;
        for (int c = 0; c < r.columnCount(); ++c)
            row.push_back(r.value(c));
        out.push_back(std::move(row));
    }));
    return out;
}

/// One update of the project as it ran: its id, simulated time, and whether it was a full refresh.
struct RecordedUpdate {
    std::int64_t id = 0, now = 0;
    bool fullRefresh = false;
};

/// The project's updates replayed in a scratch copy: rewound to before the first, the rows of each streamed
/// source table set aside, and before each update the rows it had delivered put back (the checkpoints say up
/// to which rowid each update read each table).
class ScratchReplay {
public:
    static Result<ScratchReplay> prepare(Database& project) {
        auto db = Database::openMemory();
        if (!db)
            return db.error();
        CDC_TRY(storage::copyDatabase(project, *db));
        // Before the tables set aside are made: changing temp_store (runUpdate sets it) drops temp tables.
        CDC_TRY(db->exec("PRAGMA temp_store = MEMORY"));
        ScratchReplay r(std::move(db.value()));
        CDC_TRY(r.readHistory());
        CDC_TRY(rewindTo(r.m_db, 0));
        CDC_TRY(r.setAside());
        return r;
    }

    /// Runs every recorded update with `trace`.
    Status run(const pipeline::Pipeline& pipeline, UpdateTrace& trace, const std::atomic<bool>* cancel) {
        for (const RecordedUpdate& u : m_updates) {
            if (cancel && cancel->load())
                return Diagnostic::error("CANCELLED", "the explanation was cancelled");
            CDC_TRY(deliver(u.id));
            UpdateOptions options;
            options.now = u.now;
            options.fullRefresh = u.fullRefresh;
            options.trace = &trace;
            options.cancel = cancel;
            auto report = runUpdate(m_db, pipeline, options);
            if (!report)
                return report.error();
        }
        return Status::success();
    }

    Database& db() { return m_db; }

private:
    explicit ScratchReplay(Database db) : m_db(std::move(db)) {}

    struct AsideTable {
        std::string sqliteName, aside, columns;
        std::map<std::int64_t, std::int64_t> readUpTo; ///< update -> the last rowid it read
    };

    Status readHistory() {
        auto updates =
            rows(m_db, "SELECT update_id, now, full_refresh FROM __cdc_updates ORDER BY update_id");
        if (!updates)
            return updates.error();
        for (const auto& u : updates.value())
            m_updates.push_back({std::get<std::int64_t>(u[0]), std::get<std::int64_t>(u[1]),
                                 std::get<std::int64_t>(u[2]) != 0});
        auto sources = storage::Catalog::list(m_db);
        if (!sources)
            return sources.error();
        for (const storage::TableInfo& t : sources.value()) {
            if (t.kind != storage::TableKind::Source)
                continue;
            auto read = rows(m_db,
                             "SELECT update_id, max(last_rowid) FROM __cdc_checkpoints WHERE input = ?1 "
                             "COLLATE NOCASE GROUP BY update_id ORDER BY update_id",
                             {Value(t.name)});
            if (!read)
                return read.error();
            if (read->empty())
                continue; // not read as a stream: its rows are the same for every update
            AsideTable a;
            a.sqliteName = t.sqliteName;
            a.aside = "__explain_aside_" + std::to_string(m_aside.size());
            std::int64_t upTo = 0;
            for (const auto& r : read.value()) {
                upTo = std::max(upTo, std::get<std::int64_t>(r[1]));
                a.readUpTo[std::get<std::int64_t>(r[0])] = upTo;
            }
            for (const storage::ColumnInfo& c : t.columns)
                a.columns += ", " + quoteIdentifier(c.name);
            m_aside.push_back(std::move(a));
        }
        return Status::success();
    }

    Status setAside() {
        for (const AsideTable& a : m_aside) {
            const std::string table = quoteIdentifier(a.sqliteName);
            CDC_TRY(m_db.exec("CREATE TEMP TABLE " + a.aside + " AS SELECT rowid AS __r" + a.columns +
                              " FROM " + table + "; DELETE FROM " + table));
        }
        return Status::success();
    }

    /// Puts back the rows update `u` had read when it ran (rows no update read stay aside: not delivered).
    Status deliver(std::int64_t u) {
        for (const AsideTable& a : m_aside) {
            auto at = a.readUpTo.upper_bound(u);
            if (at == a.readUpTo.begin())
                continue;
            const std::string upTo = std::to_string(std::prev(at)->second);
            CDC_TRY(m_db.exec("INSERT INTO " + quoteIdentifier(a.sqliteName) + "(rowid" + a.columns +
                              ") SELECT * FROM " + a.aside + " WHERE __r <= " + upTo + "; DELETE FROM " +
                              a.aside + " WHERE __r <= " + upTo));
        }
        return Status::success();
    }

    Database m_db;
    std::vector<RecordedUpdate> m_updates;
    std::vector<AsideTable> m_aside;
};

std::string shown(const Value& v) {
    return displayText(v);
}

std::string eventName(const ExplainedEvent& e) {
    std::string s = (e.isDelete ? "delete at " : "sequence ") + shown(e.sequence);
    if (!e.source.empty())
        s += " (" + e.source + " row " + std::to_string(e.rowid) + ")";
    return s;
}

/// The events of the trace with what the appliers said, before the story is told.
struct Traced {
    ExplainedEvent event;
    TraceRecord record;
};

/// Tells an SCD1 key's story: walks the trace in the order the engine decided it (update by update), with
/// the tombstones GC collected, keeping which event holds the live row, the tombstone, and each column.
class Scd1Story {
public:
    Scd1Story(std::vector<Traced>& events, std::size_t columns) : m_events(events), m_origin(columns, -1) {}

    void collected(std::int64_t update, const Value& deleteSequence) {
        if (m_tombstone < 0)
            return;
        ExplainedEvent& d = m_events[static_cast<std::size_t>(m_tombstone)].event;
        d.fate = EventFate::TombstoneCollected;
        d.why = "deleted the row; its tombstone was collected by GC in update " + std::to_string(update) +
                ", so older events can apply again";
        m_collected.push_back({update, deleteSequence});
        m_tombstone = -1;
    }

    void decided(std::size_t i) {
        ExplainedEvent& e = m_events[i].event;
        const TraceRecord& r = m_events[i].record;
        const std::string at = " in update " + std::to_string(r.update);
        switch (r.outcome) {
        case TraceOutcome::Inserted:
        case TraceOutcome::Updated:
        case TraceOutcome::Reinserted:
            becomeCurrent(i);
            e.why = r.outcome == TraceOutcome::Reinserted ? "newer than the key's delete: the row lives again"
                    : r.outcome == TraceOutcome::Inserted ? "inserted the row"
                                                          : "updated the row";
            resurrection(e, r.outcome == TraceOutcome::Inserted);
            return;
        case TraceOutcome::Deleted:
        case TraceOutcome::EarlyDelete:
            if (m_live >= 0)
                supersede(static_cast<std::size_t>(m_live), "deleted by the " + eventName(e) + at);
            if (m_tombstone >= 0)
                supersede(static_cast<std::size_t>(m_tombstone),
                          "its tombstone moved up to the " + eventName(e));
            m_live = -1;
            m_tombstone = static_cast<int>(i);
            std::fill(m_origin.begin(), m_origin.end(), -1);
            e.fate = EventFate::Tombstone;
            e.why = std::string(r.outcome == TraceOutcome::EarlyDelete ? "a delete before any row of the key"
                                                                       : "deleted the row") +
                    "; its tombstone blocks older events until GC collects it";
            return;
        case TraceOutcome::Stale:
            e.fate = EventFate::Stale;
            e.why = "arrived" + at + ", after sequence " + shown(r.against) + " had been applied";
            return;
        case TraceOutcome::BlockedByTombstone:
            e.fate = EventFate::BlockedByTombstone;
            e.why = "arrived" + at + ", older than the delete at " + shown(r.against) +
                    ", whose tombstone blocks it";
            return;
        case TraceOutcome::DeleteIgnored:
            e.fate = EventFate::DeleteIgnored;
            e.why = "older than the tombstone of the delete at " + shown(r.against) + ": nothing to do";
            return;
        case TraceOutcome::LostInBatch:
            e.fate = EventFate::LostInBatch;
            e.why = "sequence " + shown(r.against) + " of the same update won";
            return;
        case TraceOutcome::TieLost:
            e.fate = EventFate::TieLost;
            e.why = "ties at sequence " + shown(r.sequence) + " with " + rowName(r.otherRid, r) +
                    ", which won: " + (r.otherRid > r.rid ? "it arrived later" : "an upsert beats a delete");
            return;
        case TraceOutcome::BelowTruncate:
            e.fate = EventFate::BelowTruncate;
            e.why = "sequenced before the TRUNCATE at " + shown(r.against) + ": dropped";
            return;
        case TraceOutcome::Logged:
        case TraceOutcome::RemovedByTruncate:
            return;
        }
    }

    void truncated(const TraceRecord& r) {
        const std::string by =
            "the TRUNCATE at " + shown(r.sequence) + " in update " + std::to_string(r.update);
        for (int* held : {&m_live, &m_tombstone}) {
            if (*held < 0)
                continue;
            ExplainedEvent& e = m_events[static_cast<std::size_t>(*held)].event;
            e.fate = EventFate::RemovedByTruncate;
            e.why = (held == &m_live ? "applied, then removed by " : "its tombstone was removed by ") + by;
            *held = -1;
        }
        std::fill(m_origin.begin(), m_origin.end(), -1);
    }

    const std::vector<int>& origin() const { return m_origin; }
    int live() const { return m_live; }
    int tombstone() const { return m_tombstone; }

private:
    std::string rowName(std::int64_t rid, const TraceRecord& r) const {
        for (const Traced& t : m_events)
            if (t.record.rid == rid && t.record.update == r.update)
                return "the " + eventName(t.event);
        return "another event";
    }

    void supersede(std::size_t i, const std::string& why) {
        ExplainedEvent& e = m_events[i].event;
        e.fate = EventFate::Superseded;
        e.why = "applied, then " + why;
    }

    void becomeCurrent(std::size_t i) {
        ExplainedEvent& e = m_events[i].event;
        const TraceRecord& r = m_events[i].record;
        if (m_live >= 0)
            supersede(static_cast<std::size_t>(m_live),
                      "replaced by the " + eventName(e) + " in update " + std::to_string(r.update));
        if (m_tombstone >= 0) {
            ExplainedEvent& d = m_events[static_cast<std::size_t>(m_tombstone)].event;
            d.fate = EventFate::Superseded;
            d.why = "deleted the row; the " + eventName(e) + " is newer and brought it back";
        }
        // Partial updates: the columns the written row took from the stored row keep their origin.
        for (std::size_t c = 0; c < m_origin.size(); ++c) {
            if (r.columnFrom.empty())
                m_origin[c] = static_cast<int>(i);
            else if (r.columnFrom[c] != 0)
                m_origin[c] = indexOf(r.columnFrom[c], r.update);
        }
        m_live = static_cast<int>(i);
        m_tombstone = -1;
        e.fate = EventFate::Current;
    }

    int indexOf(std::int64_t rid, std::int64_t update) const {
        for (std::size_t j = 0; j < m_events.size(); ++j)
            if (m_events[j].record.rid == rid && m_events[j].record.update == update)
                return static_cast<int>(j);
        return -1;
    }

    /// An insert older than a delete whose tombstone GC collected resurrects the key.
    void resurrection(ExplainedEvent& e, bool inserted) {
        if (!inserted)
            return;
        for (const auto& [update, deleteSequence] : m_collected)
            if (compareValues(e.sequence, deleteSequence) < 0) {
                e.fate = EventFate::Resurrected;
                e.why = "older than the delete at " + shown(deleteSequence) +
                        ", but GC had collected that tombstone in update " + std::to_string(update) +
                        ": the key lives again";
            }
    }

    std::vector<Traced>& m_events;
    std::vector<int> m_origin;
    int m_live = -1, m_tombstone = -1;
    std::vector<std::pair<std::int64_t, Value>> m_collected;
};

/// One SCD2 version of the key as the replayed target holds it.
struct VersionRow {
    std::vector<Value> values;
    Value start, end;
};

class Scd2Story {
public:
    Scd2Story(std::vector<Traced>& events, std::vector<VersionRow> versions, std::vector<bool> tracked)
        : m_events(events), m_versions(std::move(versions)), m_tracked(std::move(tracked)) {}

    /// Fates from the history the replay made; `origin` from the events of the open version.
    void tell(std::vector<int>& origin, std::string& summary) {
        origin.assign(m_tracked.size(), -1);
        for (std::size_t i = 0; i < m_events.size(); ++i) {
            ExplainedEvent& e = m_events[i].event;
            const TraceRecord& r = m_events[i].record;
            if (r.outcome == TraceOutcome::TieLost) {
                e.fate = EventFate::TieLost;
                e.why = "ties at sequence " + shown(e.sequence) + " with another event, which won";
                continue;
            }
            if (e.isDelete) {
                const VersionRow* closed = endingAt(e.sequence);
                e.fate = closed ? EventFate::ClosedVersion : EventFate::DeleteIgnored;
                e.why = closed ? "closed the version that started at " + shown(closed->start)
                               : "no version was open at " + shown(e.sequence) + ": nothing to close";
                std::fill(origin.begin(), origin.end(), -1);
                continue;
            }
            if (const VersionRow* v = startingAt(e.sequence)) {
                e.fate = EventFate::OpenedVersion;
                e.why = "opened the version [" + shown(v->start) + ", " +
                        (isNull(v->end) ? std::string("open") : shown(v->end)) + ")" + closer(*v);
                for (std::size_t c = 0; c < origin.size(); ++c)
                    if (suppliedAt(r, c))
                        origin[c] = static_cast<int>(i);
            } else {
                const VersionRow* in = containing(e.sequence);
                e.fate = EventFate::FoldedIntoVersion;
                e.why = in ? "no tracked column changed: part of the version from " + shown(in->start)
                           : "no tracked column changed";
                for (std::size_t c = 0; c < origin.size(); ++c)
                    if (!m_tracked[c] && suppliedAt(r, c))
                        origin[c] = static_cast<int>(i);
            }
            if (e.late)
                e.why +=
                    "; it arrived late, after a higher sequence, and was put into the history in its place";
        }
        summary = openVersion() ? "has an open version since " + shown(openVersion()->start)
                                : "has no open version";
        if (!m_versions.empty() && !openVersion()) {
            const VersionRow& last = m_versions.back();
            summary += ": its last version [" + shown(last.start) + ", " + shown(last.end) +
                       ") was closed at " + shown(last.end);
            for (const Traced& t : m_events)
                if (t.event.isDelete && sameValue(t.event.sequence, last.end))
                    summary +=
                        " by the " + eventName(t.event) + " (update " + std::to_string(t.event.update) + ")";
        }
        if (!openVersion())
            origin.clear();
    }

private:
    /// How a closed version ended: a delete at its end, or a change of tracked columns that opened the next.
    std::string closer(const VersionRow& v) const {
        if (isNull(v.end))
            return "";
        for (const Traced& t : m_events)
            if (t.event.isDelete && sameValue(t.event.sequence, v.end))
                return "; the " + eventName(t.event) + " closed it";
        for (const Traced& t : m_events)
            if (!t.event.isDelete && sameValue(t.event.sequence, v.end))
                return "; it ends at " + shown(v.end) + ", where the " + eventName(t.event) +
                       " changed a tracked column and opened the next version";
        return "";
    }

    static bool suppliedAt(const TraceRecord& r, std::size_t c) {
        return r.supplied.empty() || r.supplied[c];
    }

    const VersionRow* startingAt(const Value& s) const {
        for (const VersionRow& v : m_versions)
            if (sameValue(v.start, s))
                return &v;
        return nullptr;
    }
    const VersionRow* endingAt(const Value& s) const {
        for (const VersionRow& v : m_versions)
            if (sameValue(v.end, s))
                return &v;
        return nullptr;
    }
    const VersionRow* containing(const Value& s) const {
        for (const VersionRow& v : m_versions)
            if (compareValues(v.start, s) <= 0 && (isNull(v.end) || compareValues(s, v.end) < 0))
                return &v;
        return nullptr;
    }
    const VersionRow* openVersion() const {
        for (const VersionRow& v : m_versions)
            if (isNull(v.end))
                return &v;
        return nullptr;
    }

    std::vector<Traced>& m_events;
    std::vector<VersionRow> m_versions;
    std::vector<bool> m_tracked;
};

/// The key's rows of the target's public view (SCD2: its versions, __START_AT order).
/// `k1 IS ?1 AND k2 IS ?2 ...` over the target's key columns by their public names.
std::string keyMatch(const StoredTarget& t) {
    std::string where;
    for (std::size_t k = 0; k < t.keyIndex.size(); ++k)
        where += (k ? " AND " : "") +
                 quoteIdentifier(t.columns[static_cast<std::size_t>(t.keyIndex[k])].name) + " IS ?" +
                 std::to_string(k + 1);
    return where;
}

Result<std::vector<std::vector<Value>>> keyRows(const Database& db, const StoredTarget& t,
                                                const std::vector<Value>& key) {
    const std::string where = keyMatch(t);
    auto info = storage::Catalog::find(db, t.name);
    if (!info)
        return info.error();
    if (!info.value())
        return std::vector<std::vector<Value>>{};
    return rows(db,
                "SELECT * FROM " + quoteIdentifier(info.value()->sqliteName) + " WHERE " + where +
                    (t.scd2() ? " ORDER BY __START_AT" : ""),
                key);
}

/// The AUTO CDC target `target` the project holds engine state of.
Result<StoredTarget> requireTarget(const Database& project, const std::string& target) {
    auto found = findStoredTarget(project, target);
    if (!found)
        return found.error();
    if (!found.value())
        return Diagnostic::error("UNKNOWN_TARGET",
                                 "no target '" + target + "' has been updated in this project");
    return *found.value();
}

std::string listed(const std::vector<std::string>& names) {
    std::string s;
    for (const std::string& n : names)
        s += (s.empty() ? "" : ", ") + n;
    return s;
}

std::string keyText(const Explanation& e) {
    std::string s;
    for (std::size_t k = 0; k < e.keyColumns.size() && k < e.key.size(); ++k)
        s += (k ? ", " : "") + e.keyColumns[k] + " = " + shown(e.key[k]);
    return s;
}

/// Marks events delivered in a later update than an event of the key with a higher sequence.
void markLate(std::vector<Traced>& events) {
    for (Traced& t : events)
        for (const Traced& other : events)
            if (other.record.update < t.record.update &&
                compareValues(other.event.sequence, t.event.sequence) > 0 &&
                other.record.outcome != TraceOutcome::RemovedByTruncate)
                t.event.late = true;
}

} // namespace

std::string fateName(EventFate fate) {
    switch (fate) {
    case EventFate::Current:
        return "current";
    case EventFate::Superseded:
        return "superseded";
    case EventFate::LostInBatch:
        return "lost in its update";
    case EventFate::TieLost:
        return "tie lost";
    case EventFate::Stale:
        return "stale";
    case EventFate::BlockedByTombstone:
        return "blocked by tombstone";
    case EventFate::Resurrected:
        return "resurrected after GC";
    case EventFate::RemovedByTruncate:
        return "removed by truncate";
    case EventFate::BelowTruncate:
        return "before a truncate";
    case EventFate::Tombstone:
        return "tombstone";
    case EventFate::TombstoneCollected:
        return "tombstone collected";
    case EventFate::DeleteIgnored:
        return "delete ignored";
    case EventFate::OpenedVersion:
        return "opened version";
    case EventFate::FoldedIntoVersion:
        return "no change";
    case EventFate::ClosedVersion:
        return "closed version";
    }
    return "?";
}

Result<std::vector<Value>> keyFromText(const Database& project, const std::string& target,
                                       const std::vector<std::pair<std::string, std::string>>& columnValues) {
    auto found = requireTarget(project, target);
    if (!found)
        return found.error();
    const StoredTarget& t = found.value();
    std::vector<Value> key(t.keyIndex.size());
    std::vector<bool> given(t.keyIndex.size(), false);
    for (const auto& [column, text] : columnValues) {
        std::size_t k = 0;
        while (k < t.keyIndex.size() &&
               !equalsIgnoreCase(t.columns[static_cast<std::size_t>(t.keyIndex[k])].name, column))
            ++k;
        if (k == t.keyIndex.size())
            return Diagnostic::error("INVALID_KEY", "'" + column + "' is not a key column of '" + t.name +
                                                        "' (its keys: " + listed(t.keyNames()) + ")");
        const DataType& type = t.columns[static_cast<std::size_t>(t.keyIndex[k])].type;
        char* end = nullptr;
        if (type.isIntegral()) {
            const long long v = std::strtoll(text.c_str(), &end, 10);
            if (text.empty() || *end)
                return Diagnostic::error("INVALID_KEY",
                                         "'" + text + "' is not a whole number (" + column + ")");
            key[k] = static_cast<std::int64_t>(v);
        } else if (type.isNumeric()) {
            const double v = std::strtod(text.c_str(), &end);
            if (text.empty() || *end)
                return Diagnostic::error("INVALID_KEY", "'" + text + "' is not a number (" + column + ")");
            key[k] = v;
        } else {
            key[k] = text;
        }
        given[k] = true;
    }
    for (std::size_t k = 0; k < given.size(); ++k)
        if (!given[k])
            return Diagnostic::error(
                "INVALID_KEY", "the key column " + t.columns[static_cast<std::size_t>(t.keyIndex[k])].name +
                                   " has no value (--key " +
                                   t.columns[static_cast<std::size_t>(t.keyIndex[k])].name + "=VALUE)");
    return key;
}

Result<Explanation> explainKey(Database& project, const pipeline::Pipeline& pipeline,
                               const std::string& target, const std::vector<Value>& key,
                               const std::atomic<bool>* cancel) {
    auto found = requireTarget(project, target);
    if (!found)
        return found.error();
    const StoredTarget& t = found.value();
    if (!t.autoCdc())
        return Diagnostic::error("NOT_EXPLAINABLE", "'" + t.name +
                                                        "' is not an AUTO CDC target: its rows are what its "
                                                        "query gives, not the outcome of keyed events");
    Explanation out;
    out.target = t.name;
    out.scd2 = t.scd2();
    for (const auto& c : t.columns)
        out.columns.push_back(c.name);
    out.keyColumns = t.keyNames();
    out.key = key;

    auto replay = ScratchReplay::prepare(project);
    if (!replay)
        return replay.error();
    KeyTrace trace(t.name, key);
    CDC_TRY(replay->run(pipeline, trace, cancel));

    std::vector<Traced> events;
    std::vector<TraceRecord> truncates;
    for (const TraceRecord& r : trace.records()) {
        if (r.outcome == TraceOutcome::RemovedByTruncate) {
            truncates.push_back(r);
            continue;
        }
        ExplainedEvent e;
        e.update = r.update;
        e.source = r.source;
        e.rowid = r.rid;
        e.isDelete = r.isDelete;
        e.sequence = r.sequence;
        e.values = r.values;
        events.push_back({std::move(e), r});
    }
    markLate(events);

    // The key's rows in the replay and in the project: they agree unless the pipeline or its sources changed
    // since the updates ran.
    auto replayed = keyRows(replay->db(), t, key);
    auto held = keyRows(project, t, key);
    if (!replayed)
        return replayed.error();
    if (!held)
        return held.error();
    if (replayed.value() != held.value())
        out.notes.push_back(
            "replaying the delivered events does not give the rows the project holds for this "
            "key: the pipeline or its sources changed since those updates ran (Run Full Refresh "
            "makes them agree); the explanation follows the replay");

    std::vector<int> origin;
    const std::string who = keyText(out);
    if (!t.scd2()) {
        auto gc = rows(replay->db(),
                       "SELECT __SEQUENCE, __COLLECTED_IN FROM " +
                           quoteIdentifier(storage::TargetTables(t.name).gcLog) + " WHERE " + keyMatch(t) +
                           " ORDER BY __COLLECTED_IN",
                       key);
        if (!gc)
            return gc.error();
        Scd1Story story(events, t.columns.size());
        std::size_t nextGc = 0, nextTruncate = 0;
        for (std::size_t i = 0; i < events.size(); ++i) {
            const std::int64_t u = events[i].record.update;
            // GC runs at the start of an update; a truncate, before the events of its flow.
            for (; nextGc < gc->size() && std::get<std::int64_t>((*gc)[nextGc][1]) <= u; ++nextGc)
                story.collected(std::get<std::int64_t>((*gc)[nextGc][1]), (*gc)[nextGc][0]);
            for (; nextTruncate < truncates.size() && truncates[nextTruncate].update <= u; ++nextTruncate)
                story.truncated(truncates[nextTruncate]);
            story.decided(i);
        }
        for (; nextGc < gc->size(); ++nextGc)
            story.collected(std::get<std::int64_t>((*gc)[nextGc][1]), (*gc)[nextGc][0]);
        for (; nextTruncate < truncates.size(); ++nextTruncate)
            story.truncated(truncates[nextTruncate]);
        origin = story.origin();
        if (story.live() >= 0) {
            const ExplainedEvent& e = events[static_cast<std::size_t>(story.live())].event;
            out.summary =
                "is live: its row is the " + eventName(e) + ", applied in update " + std::to_string(e.update);
        } else if (story.tombstone() >= 0) {
            const ExplainedEvent& e = events[static_cast<std::size_t>(story.tombstone())].event;
            out.summary = "is deleted: the " + eventName(e) + " (update " + std::to_string(e.update) +
                          ") left a tombstone that blocks older events";
        } else {
            out.summary = events.empty() ? "has no events" : "has no row and no tombstone";
        }
        if (story.live() < 0)
            origin.clear();
    } else {
        std::vector<VersionRow> versions;
        const std::size_t n = t.columns.size();
        for (auto& row : replayed.value())
            versions.push_back(
                {std::vector<Value>(row.begin(), row.begin() + static_cast<long>(n)), row[n], row[n + 1]});
        // The story reads events in sequence order (the history's), not in arrival order.
        std::stable_sort(events.begin(), events.end(), [](const Traced& a, const Traced& b) {
            return compareValues(a.event.sequence, b.event.sequence) < 0;
        });
        Scd2Story story(events, std::move(versions), t.tracked);
        story.tell(origin, out.summary);
    }
    out.summary = who + " " + out.summary + ".";

    if (!origin.empty() && !held->empty()) {
        const std::vector<Value>& row = t.scd2() ? held->back() : held->front();
        // Events are reordered below: origins are kept by identity.
        for (std::size_t c = 0; c < t.columns.size(); ++c)
            out.current.push_back({t.columns[c].name, row[c], origin[c]});
    }
    std::vector<std::size_t> order(events.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        // Equal sequences in arrival order: the update, then the position in it.
        const int c = compareValues(events[a].event.sequence, events[b].event.sequence);
        if (c != 0)
            return c < 0;
        if (events[a].record.update != events[b].record.update)
            return events[a].record.update < events[b].record.update;
        return events[a].record.rid < events[b].record.rid;
    });
    std::vector<int> position(events.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        position[order[i]] = static_cast<int>(i);
        out.events.push_back(std::move(events[order[i]].event));
    }
    for (ColumnOrigin& c : out.current)
        if (c.event >= 0)
            c.event = position[static_cast<std::size_t>(c.event)];
    return out;
}

std::string explanationText(const Explanation& e) {
    std::string s = e.target + ": " + e.summary + "\n";
    for (const std::string& note : e.notes)
        s += "note: " + note + "\n";
    s += "\nevents in sequence order:\n";
    for (const ExplainedEvent& ev : e.events) {
        std::string values;
        for (std::size_t c = 0; c < ev.values.size(); ++c)
            values += (c ? ", " : "") + shown(ev.values[c]);
        s += "  " + std::string(ev.isDelete ? "DELETE " : "UPSERT ") + shown(ev.sequence) + "  update " +
             std::to_string(ev.update);
        if (!ev.source.empty())
            s += "  " + ev.source + " row " + std::to_string(ev.rowid);
        s += "  (" + values + ")\n    " + fateName(ev.fate) + ": " + ev.why + "\n";
    }
    if (!e.current.empty()) {
        s += e.scd2 ? "\nthe open version's values come from:\n" : "\nthe row's values come from:\n";
        for (const ColumnOrigin& c : e.current) {
            s += "  " + c.column + " = " + shown(c.value) + "  <- ";
            if (c.event < 0)
                s += "no event supplies it\n";
            else {
                const ExplainedEvent& ev = e.events[static_cast<std::size_t>(c.event)];
                s += "sequence " + shown(ev.sequence) + " (update " + std::to_string(ev.update) + ")\n";
            }
        }
    }
    return s;
}

} // namespace cdc::engine
