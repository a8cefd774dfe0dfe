#include "core/engine/Appliers.h"
#include "core/engine/BatchEvents.h"
#include "core/engine/SqlText.h"
#include "core/engine/UndoJournal.h"
#include "core/engine/ValueOrder.h"

#include <algorithm>
#include <optional>
#include <unordered_map>

namespace cdc::engine {

using storage::quoteIdentifier;
using namespace sqltext;

namespace {

std::string q(const std::string& s) { return quoteIdentifier(s); }

/// One version of a key's history, as the backing table stores it (identity: key + __cdc_s).
struct Version {
    Row values;
    Value start, startShown, end, endShown;
    Value writtenIn; ///< __cdc_upd
};

/// One row of the event log: the events of one (key, sequence), de-duplicated.
struct LogEntry {
    Row values;
    Value ctu, s, shown;
    bool del = false, ups = false;
    Value deletedAt, writtenIn;
    std::vector<bool> supplied; ///< partial updates only
    bool dirty = false;         ///< to be written

    /// In store::logColumns() order.
    Row image() const {
        Row r = values;
        r.insert(r.end(), {ctu, s, shown, static_cast<std::int64_t>(del), static_cast<std::int64_t>(ups), deletedAt,
                           writtenIn});
        return r;
    }
};

/// The batch's events of one (key, sequence): a delete wins a tie, else the last-arriving upsert.
struct SequenceGroup {
    BatchEvent best; ///< first by (op ASC, rid DESC): the last upsert if any, else the last delete
    bool anyDelete = false, anyUpsert = false;
    std::int64_t count = 0;
};

/// Replays a key's event log from a point (semantics.md §3.7): deletes close the open version,
/// upserts that change a tracked column open a new one, others update untracked columns in place.
class Replayer {
public:
    Replayer(const TargetPlan& t, bool partial) : m_t(t), m_partial(partial) {}

    void start(std::optional<Row> previous) { m_previous = std::move(previous); }

    void onDelete(const Value& s, const Value& shown) {
        if (m_current) {
            m_current->end = s;
            m_current->endShown = shown;
            m_out.push_back(std::move(*m_current));
            m_current.reset();
        }
        m_previous.reset(); // coalescing restarts after a delete (§5.1.2)
    }

    void onUpsert(const Value& s, const Value& shown, Row values, const std::vector<bool>& supplied) {
        if (m_partial)
            for (std::size_t i = 0; i < values.size(); ++i)
                if (!supplied[i])
                    values[i] = m_previous ? (*m_previous)[i] : Value{};
        if (m_current && trackedEqual(values, m_current->values)) {
            m_current->values = values;
        } else {
            if (m_current) {
                m_current->end = s;
                m_current->endShown = shown;
                m_out.push_back(std::move(*m_current));
            }
            m_current = Version{values, s, shown, {}, {}, {}};
        }
        m_previous = std::move(values);
    }

    std::vector<Version> finish() {
        if (m_current)
            m_out.push_back(std::move(*m_current));
        m_current.reset();
        return std::move(m_out);
    }

private:
    bool trackedEqual(const Row& a, const Row& b) const {
        for (std::size_t i = 0; i < a.size(); ++i)
            if (m_t.tracked[i] && !sameValue(a[i], b[i]))
                return false;
        return true;
    }

    const TargetPlan& m_t;
    bool m_partial;
    std::optional<Row> m_previous;
    std::optional<Version> m_current;
    std::vector<Version> m_out;
};

/// Applies one flow's batch to an SCD2 target. The batch is read once and grouped by key in memory; then
/// for every touched key, in key order: its versions from the one the earliest new event can change, its
/// event log from there (one range scan each — both tables are clustered on (key, sequence)), the new
/// events merged into the log in memory, the history replayed, and only the difference written, with its
/// change-feed rows and the pre-images rewind needs.
class Scd2Writer {
public:
    Scd2Writer(UpdateContext& ctx, const TargetPlan& t, const FlowPlan& f, FlowMetrics& m)
        : m_ctx(ctx), m_t(t), m_f(f), m_m(m), m_n(t.columns.size()), m_nk(t.keyIndex.size()),
          m_versionUndo(t.undoRows, UndoTable::Backing), m_logUndo(t.undoRows, UndoTable::EventLog) {}

    Status run() {
        std::unordered_map<Row, std::vector<BatchEvent>, KeyHash, KeyEqual> byKey;
        CDC_TRY(readBatchEvents(m_ctx, m_t, m_f, Value{}, m_partial, [&](BatchEvent&& e) {
            byKey[keyOf(m_t, e.values)].push_back(std::move(e));
        }));
        CDC_TRY(prepareStatements());
        std::vector<std::pair<const Row*, std::vector<BatchEvent>*>> order;
        order.reserve(byKey.size());
        for (auto& [key, events] : byKey)
            order.emplace_back(&key, &events);
        std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return keyLess(*a.first, *b.first); });
        m_phase = m_ctx.nextPhase();
        std::vector<TieSample> ties;
        for (const auto& [key, events] : order) {
            std::vector<SequenceGroup> groups = groupBySequence(*events);
            for (const SequenceGroup& g : groups) {
                m_m.tombstonesCreated += g.anyDelete;
                if (g.count > 1) {
                    ++m_m.ties;
                    if (ties.size() < 6)
                        ties.push_back({*key, g.best.shown, g.count});
                }
            }
            CDC_TRY(recompute(*key, groups));
        }
        CDC_TRY(m_logUndo.flush(m_ctx.db, m_ctx.updateId, m_phase));
        CDC_TRY(m_versionUndo.flush(m_ctx.db, m_ctx.updateId, m_phase));
        return ties.empty() ? Status::success() : reportTies(m_ctx, m_t, m_f, m_m, ties);
    }

private:
    static std::vector<SequenceGroup> groupBySequence(std::vector<BatchEvent>& events) {
        std::sort(events.begin(), events.end(), [](const BatchEvent& a, const BatchEvent& b) {
            if (int c = compareValues(a.s, b.s))
                return c < 0;
            if (a.op != b.op)
                return a.op < b.op;
            return a.rid > b.rid;
        });
        std::vector<SequenceGroup> groups;
        for (BatchEvent& e : events) {
            const bool isDelete = e.isDelete();
            if (groups.empty() || compareValues(groups.back().best.s, e.s) != 0) {
                // The first of a sequence value is its best; upserts sort first, so it tells whether any exists.
                const bool isUpsert = !isDelete;
                groups.push_back({std::move(e), false, isUpsert, 0});
            }
            SequenceGroup& g = groups.back();
            ++g.count;
            g.anyDelete = g.anyDelete || isDelete;
        }
        return groups;
    }

    std::string keyMatch(std::size_t firstParam = 1) const {
        return join(m_nk, [&](std::size_t i) {
            return col(static_cast<std::size_t>(m_t.keyIndex[i])) + " = ?" + std::to_string(firstParam + i);
        }, " AND ");
    }
    std::string param(std::size_t offset) const { return "?" + std::to_string(m_nk + offset); }

    Status prepareStatements() {
        const std::string data = join(m_n, [](std::size_t i) { return col(i); });
        const std::string cols = data + ", __cdc_s, __START_AT, __cdc_e, __END_AT, __cdc_upd";
        const std::string backing = "main." + q(m_t.backing);
        auto versions = m_ctx.db.prepare(
            "SELECT " + cols + " FROM " + backing + " WHERE " + keyMatch() + " AND __cdc_s >= coalesce((SELECT "
            "__cdc_s FROM " + backing + " WHERE " + keyMatch() + " AND __cdc_s < " + param(1) +
            " ORDER BY __cdc_s DESC LIMIT 1), " + param(1) + ") ORDER BY __cdc_s");
        auto supply = supplySql(m_t, m_f, "__cdc_ctu");
        if (supply.empty())
            supply.assign(m_n, "1");
        auto log = m_ctx.db.prepare("SELECT " + store::logColumns(m_t) + ", " +
                                    join(m_n, [&](std::size_t i) { return supply[i]; }) + " FROM main." +
                                    q(m_t.eventLog) + " WHERE " + keyMatch() + " AND __cdc_s >= " + param(1) +
                                    " ORDER BY __cdc_s");
        auto previous = m_ctx.db.prepare("SELECT " + data + ", __cdc_e FROM " + backing + " WHERE " + keyMatch() +
                                         " AND __cdc_s < " + param(1) + " ORDER BY __cdc_s DESC LIMIT 1");
        auto logWrite = m_ctx.db.prepare("INSERT OR REPLACE INTO main." + q(m_t.eventLog) + "(" +
                                         store::logColumns(m_t) + ") VALUES (" + placeholders(m_n + 7) + ")");
        auto ins = m_ctx.db.prepare("INSERT INTO " + backing + "(" + cols + ") VALUES (" + placeholders(m_n + 5) + ")");
        // Column i binds at ?i+1; keys are matched, not assigned (assigning them would rewrite the key).
        std::string setValues;
        for (std::size_t i = 0; i < m_n; ++i)
            if (!isKey(i))
                setValues += col(i) + " = ?" + std::to_string(i + 1) + ", ";
        const std::string identity = join(m_nk, [&](std::size_t i) {
            const auto k = static_cast<std::size_t>(m_t.keyIndex[i]);
            return col(k) + " = ?" + std::to_string(k + 1);
        }, " AND ");
        auto upd = m_ctx.db.prepare("UPDATE " + backing + " SET " + setValues + "__cdc_e = ?" + std::to_string(m_n + 1) +
                                    ", __END_AT = ?" + std::to_string(m_n + 2) + " WHERE " + identity +
                                    " AND __cdc_s = ?" + std::to_string(m_n + 3));
        auto del = m_ctx.db.prepare("DELETE FROM " + backing + " WHERE " + identity + " AND __cdc_s = ?" +
                                    std::to_string(m_n + 1));
        auto feed = m_ctx.db.prepare("INSERT INTO main." + q(m_t.changeFeed) + " VALUES (" + placeholders(m_n + 5) + ")");
        for (auto* st : {&versions, &log, &previous, &logWrite, &ins, &upd, &del, &feed})
            if (!*st)
                return st->error();
        m_versions.emplace(std::move(versions.value()));
        m_log.emplace(std::move(log.value()));
        m_previous.emplace(std::move(previous.value()));
        m_logWrite.emplace(std::move(logWrite.value()));
        m_insert.emplace(std::move(ins.value()));
        m_update.emplace(std::move(upd.value()));
        m_delete.emplace(std::move(del.value()));
        m_feed.emplace(std::move(feed.value()));
        return Status::success();
    }

    bool isKey(std::size_t column) const {
        return std::find(m_t.keyIndex.begin(), m_t.keyIndex.end(), static_cast<int>(column)) != m_t.keyIndex.end();
    }

    void bindKey(storage::Statement& st, const Row& key) {
        st.reset();
        for (std::size_t i = 0; i < m_nk; ++i)
            st.bind(static_cast<int>(i + 1), key[i]);
    }

    Result<std::vector<Version>> readVersions(const Row& key, const Value& minSeq) {
        std::vector<Version> old;
        bindKey(*m_versions, key);
        m_versions->bind(static_cast<int>(m_nk + 1), minSeq);
        CDC_TRY(m_versions->forEachRow([&](const storage::Statement& r) {
            Version v;
            v.values.reserve(m_n);
            for (std::size_t i = 0; i < m_n; ++i)
                v.values.push_back(r.value(static_cast<int>(i)));
            const int at = static_cast<int>(m_n);
            v.start = r.value(at);
            v.startShown = r.value(at + 1);
            v.end = r.value(at + 2);
            v.endShown = r.value(at + 3);
            v.writtenIn = r.value(at + 4);
            old.push_back(std::move(v));
        }));
        m_versions->reset();
        return old;
    }

    Result<std::vector<LogEntry>> readLog(const Row& key, const Value& from) {
        std::vector<LogEntry> log;
        bindKey(*m_log, key);
        m_log->bind(static_cast<int>(m_nk + 1), from);
        CDC_TRY(m_log->forEachRow([&](const storage::Statement& r) {
            LogEntry e;
            e.values.reserve(m_n);
            for (std::size_t i = 0; i < m_n; ++i)
                e.values.push_back(r.value(static_cast<int>(i)));
            const int at = static_cast<int>(m_n);
            e.ctu = r.value(at);
            e.s = r.value(at + 1);
            e.shown = r.value(at + 2);
            e.del = r.int64(at + 3) != 0;
            e.ups = r.int64(at + 4) != 0;
            e.deletedAt = r.value(at + 5);
            e.writtenIn = r.value(at + 6);
            e.supplied.resize(m_n);
            for (std::size_t i = 0; i < m_n; ++i)
                e.supplied[i] = r.int64(at + 7 + static_cast<int>(i)) != 0;
            log.push_back(std::move(e));
        }));
        m_log->reset();
        return log;
    }

    /// Merges the batch's (key, sequence) groups into the key's log rows (both in sequence order) as the
    /// log's `ON CONFLICT` rule says: a newer upsert replaces the values, a delete flag is never lost.
    Status mergeIntoLog(std::vector<LogEntry>& log, const std::vector<SequenceGroup>& groups) {
        std::vector<LogEntry> merged;
        merged.reserve(log.size() + groups.size());
        std::size_t i = 0;
        for (const SequenceGroup& g : groups) {
            while (i < log.size() && compareValues(log[i].s, g.best.s) < 0)
                merged.push_back(std::move(log[i++]));
            if (i < log.size() && compareValues(log[i].s, g.best.s) == 0) {
                LogEntry e = std::move(log[i++]);
                m_logUndo.save(e.image());
                if (g.anyUpsert) {
                    e.values = g.best.values;
                    e.ctu = g.best.ctu;
                    e.supplied = g.best.supplied;
                }
                if (g.anyDelete && !e.del)
                    e.deletedAt = m_ctx.now;
                e.del = e.del || g.anyDelete;
                e.ups = e.ups || g.anyUpsert;
                e.dirty = true;
                merged.push_back(std::move(e));
                continue;
            }
            LogEntry e;
            e.values = g.best.values;
            e.ctu = g.best.ctu;
            e.s = g.best.s;
            e.shown = g.best.shown;
            e.del = g.anyDelete;
            e.ups = g.anyUpsert;
            e.deletedAt = g.anyDelete ? Value(m_ctx.now) : Value{};
            e.writtenIn = m_ctx.updateId;
            e.supplied = g.best.supplied;
            e.dirty = true;
            merged.push_back(std::move(e));
        }
        while (i < log.size())
            merged.push_back(std::move(log[i++]));
        log = std::move(merged);
        for (const LogEntry& e : log) {
            if (!e.dirty)
                continue;
            m_logWrite->reset();
            const Row image = e.image();
            for (std::size_t c = 0; c < image.size(); ++c)
                m_logWrite->bind(static_cast<int>(c + 1), image[c]);
            CDC_TRY(m_logWrite->run());
        }
        return Status::success();
    }

    Status recompute(const Row& key, const std::vector<SequenceGroup>& groups) {
        const Value& minSeq = groups.front().best.s;
        // Old versions from the one the earliest new event may change.
        auto versions = readVersions(key, minSeq);
        if (!versions)
            return versions.error();
        std::vector<Version>& old = versions.value();
        Value from = minSeq;
        bool replayFromVersion = false;
        if (!old.empty() && compareValues(old.front().start, minSeq) < 0) {
            if (isNull(old.front().end) || compareValues(old.front().end, minSeq) >= 0) {
                from = old.front().start;
                replayFromVersion = true;
            } else {
                old.erase(old.begin()); // closed by a delete before the new events: untouched
            }
        }

        std::optional<Row> previous;
        if (m_partial && replayFromVersion) {
            bindKey(*m_previous, key);
            m_previous->bind(static_cast<int>(m_nk + 1), from);
            auto has = m_previous->step();
            if (!has)
                return has.error();
            if (has.value() && sameValue(m_previous->value(static_cast<int>(m_n)), from)) {
                Row r;
                for (std::size_t i = 0; i < m_n; ++i)
                    r.push_back(m_previous->value(static_cast<int>(i)));
                previous = std::move(r);
            }
            m_previous->reset();
        }

        auto log = readLog(key, from);
        if (!log)
            return log.error();
        CDC_TRY(mergeIntoLog(log.value(), groups));

        Replayer replay(m_t, m_partial);
        replay.start(std::move(previous));
        const std::vector<bool> all(m_n, true);
        for (const LogEntry& e : log.value()) {
            if (e.del)
                replay.onDelete(e.s, e.shown);
            else if (e.ups)
                replay.onUpsert(e.s, e.shown, e.values, m_partial ? e.supplied : all);
        }
        return writeDiff(old, replay.finish());
    }

    Status feed(const Version& v, const char* changeType) {
        m_feed->reset();
        for (std::size_t i = 0; i < m_n; ++i)
            m_feed->bind(static_cast<int>(i + 1), v.values[i]);
        m_feed->bind(static_cast<int>(m_n + 1), v.startShown);
        m_feed->bind(static_cast<int>(m_n + 2), v.endShown);
        m_feed->bind(static_cast<int>(m_n + 3), changeType);
        m_feed->bind(static_cast<int>(m_n + 4), m_ctx.updateId);
        m_feed->bind(static_cast<int>(m_n + 5), std::string_view(m_ctx.commitTimestamp));
        return m_feed->run();
    }

    /// The pre-image of a version this update changes or removes (rows it creates need none: rewind
    /// removes them by __cdc_upd).
    void saveUndo(const Version& v) {
        Row row = v.values;
        row.insert(row.end(), {v.start, v.startShown, v.end, v.endShown, v.writtenIn});
        m_versionUndo.save(row);
    }

    bool sameVersion(const Version& a, const Version& b) const {
        if (!sameValue(a.end, b.end))
            return false;
        for (std::size_t i = 0; i < m_n; ++i)
            if (!sameValue(a.values[i], b.values[i]))
                return false;
        return true;
    }

    Status writeDiff(const std::vector<Version>& old, const std::vector<Version>& fresh) {
        // Identity of an SCD2 row = keys + __START_AT (§9.1).
        std::size_t i = 0, j = 0;
        while (i < old.size() || j < fresh.size()) {
            int c = i == old.size() ? 1 : j == fresh.size() ? -1 : compareValues(old[i].start, fresh[j].start);
            if (c == 0) {
                if (!sameVersion(old[i], fresh[j])) {
                    const Version& o = old[i];
                    const Version& f = fresh[j];
                    saveUndo(o);
                    m_update->reset();
                    for (std::size_t k = 0; k < m_n; ++k)
                        m_update->bind(static_cast<int>(k + 1), f.values[k]);
                    m_update->bind(static_cast<int>(m_n + 1), f.end).bind(static_cast<int>(m_n + 2), f.endShown);
                    m_update->bind(static_cast<int>(m_n + 3), o.start);
                    CDC_TRY(m_update->run());
                    CDC_TRY(feed(o, "update_preimage"));
                    CDC_TRY(feed(f, "update_postimage"));
                    ++m_m.upserted;
                    if (isNull(o.end) && !isNull(f.end))
                        ++m_m.versionsClosed;
                    else if (!isNull(o.end) && !isNull(f.end) && compareValues(f.end, o.end) < 0)
                        ++m_m.versionsSplit;
                }
                ++i;
                ++j;
            } else if (c < 0) {
                saveUndo(old[i]);
                m_delete->reset();
                for (int k : m_t.keyIndex)
                    m_delete->bind(k + 1, old[i].values[static_cast<std::size_t>(k)]);
                m_delete->bind(static_cast<int>(m_n + 1), old[i].start);
                CDC_TRY(m_delete->run());
                CDC_TRY(feed(old[i], "delete"));
                ++m_m.deleted;
                ++i;
            } else {
                const Version& f = fresh[j];
                m_insert->reset();
                for (std::size_t k = 0; k < m_n; ++k)
                    m_insert->bind(static_cast<int>(k + 1), f.values[k]);
                const int at = static_cast<int>(m_n + 1);
                m_insert->bind(at, f.start).bind(at + 1, f.startShown).bind(at + 2, f.end).bind(at + 3, f.endShown);
                m_insert->bind(at + 4, m_ctx.updateId);
                CDC_TRY(m_insert->run());
                CDC_TRY(feed(f, "insert"));
                ++m_m.upserted;
                ++m_m.versionsOpened;
                ++j;
            }
        }
        return Status::success();
    }

    UpdateContext& m_ctx;
    const TargetPlan& m_t;
    const FlowPlan& m_f;
    FlowMetrics& m_m;
    std::size_t m_n, m_nk;
    int m_phase = 0;
    bool m_partial = false;
    std::optional<storage::Statement> m_versions, m_log, m_previous, m_logWrite, m_insert, m_update, m_delete, m_feed;
    UndoJournal m_versionUndo, m_logUndo;
};

} // namespace

Status applyScd2(UpdateContext& ctx, const TargetPlan& t, const FlowPlan& f, FlowMetrics& m) {
    Scd2Writer w(ctx, t, f, m);
    return w.run();
}

} // namespace cdc::engine
