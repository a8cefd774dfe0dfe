#include "core/engine/Appliers.h"
#include "core/engine/SqlText.h"
#include "core/engine/UndoJournal.h"
#include "core/engine/ValueOrder.h"

#include <algorithm>
#include <optional>

namespace cdc::engine {

using storage::quoteIdentifier;
using namespace sqltext;

namespace {

std::string q(const std::string& s) { return quoteIdentifier(s); }

struct Version {
    std::int64_t rowid = 0;
    Row values;
    Value start, startShown, end, endShown;
    Value writtenIn; ///< __cdc_upd
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
            m_current = Version{0, values, s, shown, {}, {}, {}};
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

class Scd2Writer {
public:
    Scd2Writer(UpdateContext& ctx, const TargetPlan& t, const FlowPlan& f, FlowMetrics& m)
        : m_ctx(ctx), m_t(t), m_f(f), m_m(m), m_n(t.columns.size()), m_nk(t.keyIndex.size()),
          m_versionUndo(t.undoRows, UndoTable::Backing), m_logUndo(t.undoRows, UndoTable::EventLog) {}

    Status run() {
        CDC_TRY(mergeIntoLog());
        CDC_TRY(prepareStatements());
        // __cdc_d comes out of the GROUP BY in (key, sequence) order, so each key's rows are adjacent and the
        // first holds its lowest sequence. Were they not, a key would just be recomputed twice — the later
        // pass from the lower point replays everything after it — so correctness never rests on the order.
        auto keys = m_ctx.db.prepare("SELECT " + keyList(m_t.keyIndex) + ", s FROM temp.__cdc_d ORDER BY rowid");
        if (!keys)
            return keys.error();
        std::vector<std::pair<Row, Value>> touched;
        for (;;) {
            auto has = keys->step();
            if (!has)
                return has.error();
            if (!has.value())
                break;
            Row k;
            for (std::size_t i = 0; i < m_nk; ++i)
                k.push_back(keys->value(static_cast<int>(i)));
            Value s = keys->value(static_cast<int>(m_nk));
            if (!touched.empty() && touched.back().first == k) {
                if (compareValues(s, touched.back().second) < 0)
                    touched.back().second = std::move(s);
                continue;
            }
            touched.emplace_back(std::move(k), std::move(s));
        }
        keys->reset();
        for (const auto& [k, minSeq] : touched)
            CDC_TRY(recompute(k, minSeq));
        CDC_TRY(m_logUndo.flush(m_ctx.db, m_ctx.updateId, m_phase));
        return m_versionUndo.flush(m_ctx.db, m_ctx.updateId, m_phase);
    }

private:
    std::string keyMatch(const std::string& alias = "") const {
        return join(m_nk, [&](std::size_t i) {
            return alias + col(static_cast<std::size_t>(m_t.keyIndex[i])) + " = ?" + std::to_string(i + 1);
        }, " AND ");
    }
    std::string param(std::size_t offset) const { return "?" + std::to_string(m_nk + offset); }

    /// Deduplicates the batch per (key, sequence) — a delete wins a tie, else the last-arriving upsert —
    /// and merges it into the event log, saving the log's pre-image for rewind. One GROUP BY does it: max()
    /// of the rank key (op ASC, rid DESC) hands the winner's row to the bare columns, and as op is 0 or 1
    /// (SCD2 has no truncate) sum(op) tells whether the group holds a delete and an upsert. It is the only
    /// min()/max() aggregate, which SQLite's bare-column rule requires.
    Status mergeIntoLog() {
        const std::string keys = keyList(m_t.keyIndex);
        const std::string data = join(m_n, [](std::size_t i) { return col(i); });
        CDC_TRY(sqltext::run(m_ctx.db, "DROP TABLE IF EXISTS temp.__cdc_d"));
        CDC_TRY(sqltext::run(m_ctx.db,
                             "CREATE TEMP TABLE __cdc_d AS SELECT *, max(cdc_rank_key(NULL, op, rid)) AS __cdc_rank, "
                             "sum(op) > 0 AS anydel, sum(op) < count(*) AS anyups, count(*) AS cnt FROM " +
                                 m_ctx.batch + " GROUP BY " + keys + ", s"));
        m_phase = m_ctx.nextPhase();
        const std::string lcols = store::logColumns(m_t);
        CDC_TRY(m_logUndo.saveQuery(m_ctx.db, "SELECT " + join(m_n, [](std::size_t i) { return "l." + col(i); }) +
                                                  ", l.__cdc_ctu, l.__cdc_s, l.__cdc_sv, l.__cdc_del, l.__cdc_ups, "
                                                  "l.__cdc_deleted_at, l.__cdc_upd FROM temp.__cdc_d d JOIN main." +
                                                  q(m_t.eventLog) + " l ON " + keyJoin(m_t.keyIndex, "l", "d") +
                                                  " AND l.__cdc_s = d.s"));
        std::string set;
        for (std::size_t i = 0; i < m_n; ++i)
            set += col(i) + " = CASE WHEN excluded.__cdc_ups THEN excluded." + col(i) + " ELSE " + col(i) + " END, ";
        CDC_TRY(sqltext::run(
            m_ctx.db,
            "INSERT INTO main." + q(m_t.eventLog) + "(" + lcols + ") SELECT " + data +
                ", ctu, s, sv, anydel, anyups, CASE WHEN anydel THEN ?1 END, ?2 FROM temp.__cdc_d WHERE true ON CONFLICT(" +
                keys + ", __cdc_s) DO UPDATE SET " + set +
                "__cdc_ctu = CASE WHEN excluded.__cdc_ups THEN excluded.__cdc_ctu ELSE __cdc_ctu END, "
                "__cdc_deleted_at = CASE WHEN excluded.__cdc_del AND NOT __cdc_del THEN excluded.__cdc_deleted_at "
                "ELSE __cdc_deleted_at END, __cdc_del = max(__cdc_del, excluded.__cdc_del), "
                "__cdc_ups = max(__cdc_ups, excluded.__cdc_ups)",
            {m_ctx.now, m_ctx.updateId}));

        auto ties = scalar(m_ctx.db, "SELECT count(*) FROM temp.__cdc_d WHERE cnt > 1");
        if (!ties)
            return ties.error();
        m_m.ties += ties.value();
        if (m_m.ties > 0)
            CDC_TRY(reportTies(m_ctx, m_t, m_f, m_m, "SELECT " + keys + ", sv, cnt FROM temp.__cdc_d WHERE cnt > 1 LIMIT 6"));
        auto deletes = scalar(m_ctx.db, "SELECT count(*) FROM temp.__cdc_d WHERE anydel");
        if (!deletes)
            return deletes.error();
        m_m.tombstonesCreated += deletes.value();
        return Status::success();
    }

    Status prepareStatements() {
        const std::string data = join(m_n, [](std::size_t i) { return col(i); });
        const std::string cols = data + ", __cdc_s, __START_AT, __cdc_e, __END_AT, __cdc_upd";
        const std::string backing = "main." + q(m_t.backing);
        auto versions = m_ctx.db.prepare(
            "SELECT rowid, " + cols + " FROM " + backing + " WHERE " + keyMatch() + " AND __cdc_s >= coalesce((SELECT "
            "__cdc_s FROM " + backing + " WHERE " + keyMatch() + " AND __cdc_s < " + param(1) +
            " ORDER BY __cdc_s DESC LIMIT 1), " + param(1) + ") ORDER BY __cdc_s");
        if (!versions)
            return versions.error();
        m_versions.emplace(std::move(versions.value()));

        auto supply = supplySql(m_t, m_f, "__cdc_ctu");
        m_partial = !supply.empty();
        if (supply.empty())
            supply.assign(m_n, "1");
        auto events = m_ctx.db.prepare("SELECT __cdc_s, __cdc_sv, __cdc_del, __cdc_ups, " + data + ", " +
                                       join(m_n, [&](std::size_t i) { return supply[i]; }) + " FROM main." +
                                       q(m_t.eventLog) + " WHERE " + keyMatch() + " AND __cdc_s >= " + param(1) +
                                       " ORDER BY __cdc_s");
        if (!events)
            return events.error();
        m_events.emplace(std::move(events.value()));

        auto previous = m_ctx.db.prepare("SELECT " + data + ", __cdc_e FROM " + backing + " WHERE " + keyMatch() +
                                         " AND __cdc_s < " + param(1) + " ORDER BY __cdc_s DESC LIMIT 1");
        if (!previous)
            return previous.error();
        m_previous.emplace(std::move(previous.value()));

        auto ins = m_ctx.db.prepare("INSERT INTO " + backing + "(" + cols + ") VALUES (" +
                                    placeholders(m_n + 5) + ")");
        if (!ins)
            return ins.error();
        m_insert.emplace(std::move(ins.value()));
        // Keys are not assigned: they are equal, and assigning them would rewrite the (key, sequence) index.
        std::string setValues;
        for (std::size_t i = 0; i < m_n; ++i)
            if (!isKey(i))
                setValues += col(i) + " = ?" + std::to_string(i + 1) + ", ";
        auto upd = m_ctx.db.prepare("UPDATE " + backing + " SET " + setValues + "__cdc_e = ?" + std::to_string(m_n + 1) + ", __END_AT = ?" +
                                    std::to_string(m_n + 2) + " WHERE rowid = ?" + std::to_string(m_n + 3));
        if (!upd)
            return upd.error();
        m_update.emplace(std::move(upd.value()));
        auto del = m_ctx.db.prepare("DELETE FROM " + backing + " WHERE rowid = ?1");
        if (!del)
            return del.error();
        m_delete.emplace(std::move(del.value()));
        auto feed = m_ctx.db.prepare("INSERT INTO main." + q(m_t.changeFeed) + " VALUES (" +
                                     placeholders(m_n + 5) + ")");
        if (!feed)
            return feed.error();
        m_feed.emplace(std::move(feed.value()));
        return Status::success();
    }

    void bindKey(storage::Statement& st, const Row& key) {
        st.reset();
        for (std::size_t i = 0; i < m_nk; ++i)
            st.bind(static_cast<int>(i + 1), key[i]);
    }

    Status recompute(const Row& key, const Value& minSeq) {
        // Old versions from the one the earliest new event may change.
        std::vector<Version> old;
        bindKey(*m_versions, key);
        m_versions->bind(static_cast<int>(m_nk + 1), minSeq);
        for (;;) {
            auto has = m_versions->step();
            if (!has)
                return has.error();
            if (!has.value())
                break;
            Version v;
            v.rowid = m_versions->int64(0);
            for (std::size_t i = 0; i < m_n; ++i)
                v.values.push_back(m_versions->value(static_cast<int>(1 + i)));
            const int at = static_cast<int>(1 + m_n);
            v.start = m_versions->value(at);
            v.startShown = m_versions->value(at + 1);
            v.end = m_versions->value(at + 2);
            v.endShown = m_versions->value(at + 3);
            v.writtenIn = m_versions->value(at + 4);
            old.push_back(std::move(v));
        }
        m_versions->reset();
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

        Replayer replay(m_t, m_partial);
        replay.start(std::move(previous));
        bindKey(*m_events, key);
        m_events->bind(static_cast<int>(m_nk + 1), from);
        std::vector<bool> supplied(m_n, true);
        for (;;) {
            auto has = m_events->step();
            if (!has)
                return has.error();
            if (!has.value())
                break;
            const Value s = m_events->value(0), shown = m_events->value(1);
            if (m_events->int64(2) != 0) {
                replay.onDelete(s, shown);
                continue;
            }
            if (m_events->int64(3) == 0)
                continue;
            Row values;
            for (std::size_t i = 0; i < m_n; ++i) {
                values.push_back(m_events->value(static_cast<int>(4 + i)));
                supplied[i] = m_events->int64(static_cast<int>(4 + m_n + i)) != 0;
            }
            replay.onUpsert(s, shown, std::move(values), supplied);
        }
        m_events->reset();
        std::vector<Version> fresh = replay.finish();
        return writeDiff(old, fresh);
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

    bool isKey(std::size_t column) const {
        return std::find(m_t.keyIndex.begin(), m_t.keyIndex.end(), static_cast<int>(column)) != m_t.keyIndex.end();
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
                    saveUndo(old[i]);
                    const Version& o = old[i];
                    const Version& f = fresh[j];
                    m_update->reset();
                    for (std::size_t k = 0; k < m_n; ++k)
                        m_update->bind(static_cast<int>(k + 1), f.values[k]);
                    m_update->bind(static_cast<int>(m_n + 1), f.end).bind(static_cast<int>(m_n + 2), f.endShown);
                    m_update->bind(static_cast<int>(m_n + 3), o.rowid);
                    CDC_TRY(m_update->run());
                    CDC_TRY(feed(o, "update_preimage"));
                    Version post = f;
                    CDC_TRY(feed(post, "update_postimage"));
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
                m_delete->bind(1, old[i].rowid);
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
    std::optional<storage::Statement> m_versions, m_events, m_previous, m_insert, m_update, m_delete, m_feed;
    UndoJournal m_versionUndo, m_logUndo;
};

} // namespace

Status applyScd2(UpdateContext& ctx, const TargetPlan& t, const FlowPlan& f, FlowMetrics& m) {
    Scd2Writer w(ctx, t, f, m);
    CDC_TRY(w.run());
    // Events that changed no version: replays, older duplicates, no-op deletes.
    return Status::success();
}

} // namespace cdc::engine
