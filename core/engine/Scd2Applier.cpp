#include "core/engine/ApplierSupport.h"
#include "core/engine/Appliers.h"
#include "core/engine/BatchEvents.h"
#include "core/engine/ChangeFeedWriter.h"
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

std::string q(const std::string& s) {
    return quoteIdentifier(s);
}

/// One version of a key's history (identity: key + start).
struct Version {
    Row values;
    Value start, startShown, end, endShown;
};

/// `__v` of a stored SCD2 row: which version it holds and which values it leaves out. Most rows hold a
/// version whose values are the event's own and whose end compares as it shows; writing every value twice
/// made rows about a third wider, and an update writes (and checkpoints) whole pages of them.
namespace stored {
constexpr std::int64_t kVersion = 1;        ///< a version starts here (v0.., __START_AT, __END_AT are set)
constexpr std::int64_t kEventIsVersion = 2; ///< the event's non-key values are the version's: c<i> left NULL
constexpr std::int64_t kEndAsShown = 4;     ///< __cdc_e equals __END_AT: left NULL
// Always left out: a version's key values (v<k>: the keys are c<k>) and a version row's __cdc_sv (it
// equals __START_AT, where the view reads it).
} // namespace stored

/// One row of the SCD2 backing table: the event-log entry of a (key, sequence) — the events of that
/// sequence, de-duplicated — and the version that starts there, if any.
struct HistoryRow {
    Row values; ///< the event's values
    Value ctu, s, shown;
    bool del = false, ups = false;
    Value deletedAt, createdIn;
    std::vector<bool> supplied; ///< partial updates only
    std::optional<Version> version;
    std::optional<Row> original; ///< the stored image when the row was read (rewind's pre-image)
    bool dirty = false;
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
            m_current->values = m_partial ? values : std::move(values);
        } else {
            if (m_current) {
                m_current->end = s;
                m_current->endShown = shown;
                m_out.push_back(std::move(*m_current));
            }
            m_current = Version{m_partial ? values : std::move(values), s, shown, {}, {}};
        }
        if (m_partial) // only partial updates fill values from the previous event
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
/// for every touched key, in key order: one range scan reads its events and versions from the version the
/// earliest new event can change (both live in one table clustered on (key, sequence)), the new events are
/// merged into the log in memory, the history is replayed, and only the rows that differ are written,
/// with their change-feed rows and the pre-images rewind needs.
class Scd2Writer {
public:
    Scd2Writer(UpdateContext& ctx, const TargetPlan& t, const FlowPlan& f, FlowMetrics& m)
        : m_ctx(ctx), m_t(t), m_f(f), m_m(m), m_n(t.columns.size()), m_nk(t.keyIndex.size()),
          m_undo(t.tables.undo), m_feed(ctx, t) {}

    Status run() {
        std::unordered_map<Row, std::vector<BatchEvent>, KeyHash, KeyEqual> byKey;
        CDC_TRY(readBatchEvents(m_ctx, m_t, m_f, std::nullopt, m_m, m_partial, [&](BatchEvent&& e) {
            byKey[keyOf(m_t, e.values)].push_back(std::move(e));
        }));
        CDC_TRY(prepareStatements());
        const auto order = keysInOrder(byKey);
        const int phase = m_ctx.nextPhase();
        std::vector<TieSample> ties;
        for (const auto& [key, events] : order) {
            std::optional<std::vector<BatchEvent>> traced;
            if (m_ctx.trace && tracing(m_ctx, m_t, *key))
                traced = *events; // as they arrived: grouping moves their values
            std::vector<SequenceGroup> groups = groupBySequence(*events);
            if (traced)
                trace(*traced, groups);
            for (const SequenceGroup& g : groups) {
                m_m.tombstonesCreated += g.anyDelete;
                if (g.count > 1) {
                    ++m_m.ties;
                    if (ties.size() < 6)
                        ties.push_back({*key, g.best.shown, g.count});
                }
            }
            CDC_TRY(recompute(*key, groups)); // moves the groups' values
        }
        CDC_TRY(m_feed.flush());
        CDC_TRY(m_undo.flush(m_ctx.db, m_ctx.updateId, phase));
        if (!ties.empty())
            reportTies(m_ctx, m_t, m_f, m_m, ties);
        return Status::success();
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
                // The first of a sequence value is its best; upserts sort first, so it tells whether any
                // exists.
                const bool isUpsert = !isDelete;
                groups.push_back({std::move(e), false, isUpsert, 0});
            }
            SequenceGroup& g = groups.back();
            ++g.count;
            g.anyDelete = g.anyDelete || isDelete;
        }
        return groups;
    }

    /// Tells the trace what became of each event of a traced key: every delete and each sequence value's
    /// best upsert enter the history; another upsert of the same sequence loses the tie (to a delete of that
    /// sequence, or to the best upsert: the last to arrive). Which versions they make is the result's.
    void trace(const std::vector<BatchEvent>& events, const std::vector<SequenceGroup>& groups) {
        for (const BatchEvent& e : events) {
            const auto g = std::find_if(groups.begin(), groups.end(), [&](const SequenceGroup& group) {
                return compareValues(group.best.s, e.s) == 0;
            });
            TraceRecord r = traceRecord(m_ctx, m_t, m_f, e, TraceOutcome::Logged);
            if (!e.isDelete() && g != groups.end() && (g->anyDelete || g->best.rid != e.rid)) {
                r.outcome = TraceOutcome::TieLost;
                r.otherRid = g->best.rid;
                if (g->anyDelete)
                    for (const BatchEvent& d : events)
                        if (d.isDelete() && compareValues(d.s, e.s) == 0)
                            r.otherRid = d.rid;
                r.against = e.shown;
            }
            m_ctx.trace->record(std::move(r));
        }
    }

    std::string keyMatch() const {
        return join(
            m_nk,
            [&](std::size_t i) {
                return col(static_cast<std::size_t>(m_t.keyIndex[i])) + " = ?" + std::to_string(i + 1);
            },
            " AND ");
    }
    std::string param(std::size_t offset) const {
        std::string p = "?"; // not `"?" + to_string(..)`: GCC 12 -O3 warns falsely (-Wrestrict) on that form
        p += std::to_string(m_nk + offset);
        return p;
    }

    Status prepareStatements() {
        const std::string backing = "main." + q(m_t.tables.backing);
        // The supplied flags are the stored event's: a value left out of c<i> is the version's v<i>.
        auto supply = supplySql(m_t, m_f, "__cdc_ctu", [](std::size_t i) {
            std::string e = "CASE WHEN __v & ";
            e += std::to_string(stored::kEventIsVersion) + " THEN " + vcol(i) + " ELSE " + col(i) + " END";
            return e;
        });
        // Only partial updates read what each stored event supplied: without them the statement stays
        // 2n+11 columns wide, not 3n+11 (SQLite's limit on a result's columns bounds the target's width).
        std::string supplied;
        for (const std::string& s : supply)
            supplied += ", " + s;
        auto rows = m_ctx.db.prepare("SELECT " + store::backingColumns(m_t) + supplied + " FROM " + backing +
                                     " WHERE " + keyMatch() + " ORDER BY __cdc_s DESC");
        auto previous = m_ctx.db.prepare("SELECT " + store::backingColumns(m_t) + " FROM " + backing +
                                         " WHERE " + keyMatch() + " AND __cdc_s < " + param(1) +
                                         " AND __v ORDER BY __cdc_s DESC LIMIT 1");
        auto write = m_ctx.db.prepare("INSERT OR REPLACE INTO " + backing + "(" + store::backingColumns(m_t) +
                                      ") VALUES (" + placeholders(2 * m_n + 11) + ")");
        for (auto* st : {&rows, &previous, &write})
            if (!*st)
                return st->error();
        m_rows.emplace(std::move(rows.value()));
        m_previous.emplace(std::move(previous.value()));
        m_write.emplace(std::move(write.value()));
        return Status::success();
    }

    void bindKey(storage::Statement& st, const Row& key) {
        st.reset();
        for (std::size_t i = 0; i < m_nk; ++i)
            st.bindStatic(static_cast<int>(i + 1), key[i]);
    }
    void bindKey(storage::Statement& st, const Row& key, const Value& seq) {
        bindKey(st, key);
        st.bind(static_cast<int>(m_nk + 1), seq);
    }

    /// The key's rows from `minSeq` on, and back to the latest row before it that starts a version or is
    /// a delete (what a replay from `minSeq` can depend on), in sequence order. One backward range scan:
    /// events mostly arrive in order, so it usually stops after a row or two.
    Result<std::vector<HistoryRow>> readRows(const Row& key, const Value& minSeq) {
        std::vector<HistoryRow> rows;
        bindKey(*m_rows, key);
        const std::size_t width = 2 * m_n + 11;
        CDC_TRY(m_rows->forEachRow([&](const storage::Statement& r) {
            HistoryRow h = decode(r);
            if (m_partial) { // else every event supplies every column
                h.supplied.resize(m_n);
                for (std::size_t i = 0; i < m_n; ++i)
                    h.supplied[i] = r.int64(static_cast<int>(width + i)) != 0;
            }
            const bool boundary = compareValues(h.s, minSeq) < 0 && (h.version || h.del);
            rows.push_back(std::move(h));
            return !boundary;
        }));
        m_rows->reset();
        std::reverse(rows.begin(), rows.end());
        return rows;
    }

    /// A stored row (store::backingColumns() order) with what it leaves out filled in; keeps the stored
    /// image as rewind's pre-image.
    HistoryRow decode(const storage::Statement& r) const {
        HistoryRow h;
        Row image;
        image.reserve(2 * m_n + 11);
        for (std::size_t i = 0; i < 2 * m_n + 11; ++i)
            image.push_back(r.value(static_cast<int>(i)));
        const std::size_t at = m_n, vAt = m_n + 8;
        const std::int64_t flags = r.int64(static_cast<int>(at + 7));
        h.values.assign(image.begin(), image.begin() + static_cast<long>(m_n));
        h.ctu = image[at];
        h.s = image[at + 1];
        h.del = r.int64(static_cast<int>(at + 3)) != 0;
        h.ups = r.int64(static_cast<int>(at + 4)) != 0;
        h.deletedAt = image[at + 5];
        h.createdIn = image[at + 6];
        if (flags & stored::kVersion) {
            Version v;
            v.values.assign(image.begin() + static_cast<long>(vAt),
                            image.begin() + static_cast<long>(vAt + m_n));
            for (int k : m_t.keyIndex)
                v.values[static_cast<std::size_t>(k)] = h.values[static_cast<std::size_t>(k)];
            if (flags & stored::kEventIsVersion)
                h.values = v.values;
            v.start = h.s;
            v.startShown = image[vAt + m_n];
            v.endShown = image[vAt + m_n + 2];
            v.end = flags & stored::kEndAsShown ? v.endShown : image[vAt + m_n + 1];
            h.shown = v.startShown;
            h.version = std::move(v);
        } else {
            h.shown = image[at + 2];
        }
        h.original = std::move(image);
        return h;
    }

    /// Binds the row to store for `h` to `st` (parameters 1.., store::backingColumns() order), leaving out
    /// what decode() restores. The values are bound in place: `h` must outlive the statement's run.
    void bindEncoded(storage::Statement& st, const HistoryRow& h) const {
        static const Value null;
        const Version* v = h.version ? &*h.version : nullptr;
        bool eventIsVersion = v != nullptr;
        for (std::size_t i = 0; eventIsVersion && i < m_n; ++i)
            eventIsVersion = sameValue(h.values[i], v->values[i]);
        const bool endAsShown = v && sameValue(v->end, v->endShown);
        int at = 0;
        const auto put = [&](const Value& value) { st.bindStatic(++at, value); };
        for (std::size_t i = 0; i < m_n; ++i)
            put(eventIsVersion && !m_t.isKey(i) ? null : h.values[i]);
        for (const Value* value : {&h.ctu, &h.s, v ? &null : &h.shown})
            put(*value);
        st.bind(++at, static_cast<std::int64_t>(h.del));
        st.bind(++at, static_cast<std::int64_t>(h.ups));
        put(h.deletedAt);
        put(h.createdIn);
        st.bind(++at, (v ? stored::kVersion : 0) | (eventIsVersion ? stored::kEventIsVersion : 0) |
                          (endAsShown ? stored::kEndAsShown : 0));
        for (std::size_t i = 0; i < m_n; ++i)
            put(v && !m_t.isKey(i) ? v->values[i] : null);
        for (const Value* value :
             {v ? &v->startShown : &null, v && !endAsShown ? &v->end : &null, v ? &v->endShown : &null})
            put(*value);
    }

    /// Merges the batch's (key, sequence) groups into the key's rows (both in sequence order): a newer
    /// upsert replaces an entry's values, a delete flag is never lost.
    void mergeEvents(std::vector<HistoryRow>& rows, std::vector<SequenceGroup>& groups) {
        std::vector<HistoryRow> merged;
        merged.reserve(rows.size() + groups.size());
        std::size_t i = 0;
        for (SequenceGroup& g : groups) {
            while (i < rows.size() && compareValues(rows[i].s, g.best.s) < 0)
                merged.push_back(std::move(rows[i++]));
            if (i < rows.size() && compareValues(rows[i].s, g.best.s) == 0) {
                HistoryRow h = std::move(rows[i++]);
                if (g.anyUpsert) {
                    h.values = std::move(g.best.values);
                    h.ctu = std::move(g.best.ctu);
                    h.supplied = std::move(g.best.supplied);
                }
                if (g.anyDelete && !h.del)
                    h.deletedAt = m_ctx.now;
                h.del = h.del || g.anyDelete;
                h.ups = h.ups || g.anyUpsert;
                h.dirty = true;
                merged.push_back(std::move(h));
                continue;
            }
            HistoryRow h;
            h.values = std::move(g.best.values);
            h.ctu = std::move(g.best.ctu);
            h.s = std::move(g.best.s);
            h.shown = std::move(g.best.shown);
            h.del = g.anyDelete;
            h.ups = g.anyUpsert;
            h.deletedAt = g.anyDelete ? Value(m_ctx.now) : Value{};
            h.createdIn = m_ctx.updateId;
            h.supplied = std::move(g.best.supplied);
            h.dirty = true;
            merged.push_back(std::move(h));
        }
        while (i < rows.size())
            merged.push_back(std::move(rows[i++]));
        rows = std::move(merged);
    }

    Status recompute(const Row& key, std::vector<SequenceGroup>& groups) {
        const Value minSeq = groups.front().best.s; // a copy: mergeEvents moves the groups' values
        auto read = readRows(key, minSeq);
        if (!read)
            return read.error();
        std::vector<HistoryRow>& rows = read.value();

        // Old versions from the one the earliest new event may change.
        std::vector<Version> old;
        for (const HistoryRow& h : rows)
            if (h.version)
                old.push_back(*h.version);
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
            // The version before the replay's start, when it ends exactly there: partial updates fill
            // the values they do not supply from it.
            bindKey(*m_previous, key, from);
            auto has = m_previous->step();
            if (!has)
                return has.error();
            if (has.value()) {
                HistoryRow before = decode(*m_previous);
                if (before.version && sameValue(before.version->end, from))
                    previous = std::move(before.version->values);
            }
            m_previous->reset();
        }

        mergeEvents(rows, groups);

        Replayer replay(m_t, m_partial);
        replay.start(std::move(previous));
        const std::vector<bool> all(m_n, true);
        for (const HistoryRow& h : rows) {
            if (compareValues(h.s, from) < 0)
                continue;
            if (h.del)
                replay.onDelete(h.s, h.shown);
            else if (h.ups)
                replay.onUpsert(h.s, h.shown, h.values, m_partial ? h.supplied : all);
        }
        std::vector<Version> fresh = replay.finish();
        CDC_TRY(applyDiff(rows, old, fresh));
        return writeRows(rows);
    }

    HistoryRow* rowAt(std::vector<HistoryRow>& rows, const Value& s) {
        auto it = std::lower_bound(rows.begin(), rows.end(), s, [](const HistoryRow& h, const Value& v) {
            return compareValues(h.s, v) < 0;
        });
        return it != rows.end() && compareValues(it->s, s) == 0 ? &*it : nullptr;
    }

    Status feed(const Version& v, ChangeType changeType) {
        return m_feed.add(v.values, changeType, {&v.startShown, &v.endShown});
    }

    bool sameVersion(const Version& a, const Version& b) const {
        if (!sameValue(a.end, b.end))
            return false;
        for (std::size_t i = 0; i < m_n; ++i)
            if (!sameValue(a.values[i], b.values[i]))
                return false;
        return true;
    }

    /// Puts the replayed versions on their rows and writes the change feed. Identity of an SCD2 row =
    /// keys + __START_AT (§9.1); every version starts at an upsert of the key's log, so its row exists.
    Status applyDiff(std::vector<HistoryRow>& rows, const std::vector<Version>& old,
                     std::vector<Version>& fresh) {
        std::size_t i = 0, j = 0;
        while (i < old.size() || j < fresh.size()) {
            const int c = i == old.size()     ? 1
                          : j == fresh.size() ? -1
                                              : compareValues(old[i].start, fresh[j].start);
            HistoryRow* row = rowAt(rows, c < 0 ? old[i].start : fresh[j].start);
            if (!row)
                return Diagnostic::error("INTERNAL",
                                         "SCD2 version without its event row in '" + m_t.name + "'");
            if (c == 0) {
                const Version& o = old[i];
                Version& f = fresh[j];
                if (!sameVersion(o, f)) {
                    CDC_TRY(feed(o, ChangeType::UpdatePreimage));
                    CDC_TRY(feed(f, ChangeType::UpdatePostimage));
                    ++m_m.upserted;
                    if (isNull(o.end) && !isNull(f.end))
                        ++m_m.versionsClosed;
                    else if (!isNull(o.end) && !isNull(f.end) && compareValues(f.end, o.end) < 0)
                        ++m_m.versionsSplit;
                    row->version = std::move(f);
                    row->dirty = true;
                }
                ++i;
                ++j;
            } else if (c < 0) {
                row->version.reset();
                row->dirty = true;
                CDC_TRY(feed(old[i], ChangeType::Delete));
                ++m_m.deleted;
                ++i;
            } else {
                CDC_TRY(feed(fresh[j], ChangeType::Insert));
                row->version = std::move(fresh[j]);
                row->dirty = true;
                ++m_m.upserted;
                ++m_m.versionsOpened;
                ++j;
            }
        }
        return Status::success();
    }

    /// Writes the rows that changed; a stored row's pre-image goes to the journal first (rows this
    /// update creates need none: rewind removes them by __cdc_upd).
    Status writeRows(const std::vector<HistoryRow>& rows) {
        for (const HistoryRow& h : rows) {
            if (!h.dirty)
                continue;
            if (h.original)
                m_undo.save(*h.original);
            m_write->reset();
            bindEncoded(*m_write, h);
            CDC_TRY(m_write->run());
        }
        return Status::success();
    }

    UpdateContext& m_ctx;
    const TargetPlan& m_t;
    const FlowPlan& m_f;
    FlowMetrics& m_m;
    std::size_t m_n, m_nk;
    bool m_partial = false;
    std::optional<storage::Statement> m_rows, m_previous, m_write;
    UndoJournal m_undo;
    ChangeFeedWriter m_feed;
};

} // namespace

Status applyScd2(UpdateContext& ctx, const TargetPlan& t, const FlowPlan& f, FlowMetrics& m) {
    Scd2Writer w(ctx, t, f, m);
    return w.run();
}

} // namespace cdc::engine
