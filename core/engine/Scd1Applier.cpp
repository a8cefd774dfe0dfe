#include "core/engine/ApplierSupport.h"
#include "core/engine/Appliers.h"
#include "core/engine/BatchEvents.h"
#include "core/engine/ChangeFeedWriter.h"
#include "core/engine/MultiRowInsert.h"
#include "core/engine/SqlText.h"
#include "core/engine/UndoJournal.h"
#include "core/engine/ValueOrder.h"

#include <algorithm>
#include <unordered_map>

namespace cdc::engine {

using storage::quoteIdentifier;
using namespace sqltext;

namespace {

std::string q(const std::string& s) {
    return quoteIdentifier(s);
}

// Outcome of a key's winning event against the stored row (semantics.md §2.7 with Part 1 #2 ties).
enum class Outcome { Stale, Insert, Update, Resurrect, Delete, DeleteBump, EarlyDelete, DeleteNoop };

using Event = BatchEvent;

/// SEQUENCE BY order within a key: the higher sequence wins, then an upsert beats a delete, then the
/// later arrival (Part 1 #2).
bool ranksAbove(const Event& a, const Event& b) {
    if (int c = compareValues(a.s, b.s))
        return c > 0;
    if (a.op != b.op)
        return a.op < b.op;
    return a.rid > b.rid;
}

/// A key's events in the batch: the winner, how many share its sequence value, and (partial updates
/// only) all of them, which IGNORE NULL UPDATES folds.
struct KeyGroup {
    Event winner;
    std::int64_t atTop = 1;
    std::vector<Event> all;
    bool traced = false; ///< the update traces this key: `all` is kept for it too
};

/// A key's row in the backing table (data columns, then the bookkeeping of backingColumns()).
struct StoredRow {
    bool exists = false;
    Row image; ///< c0.., __cdc_s, __cdc_sv, __cdc_d, __cdc_dv, __cdc_deleted_at, __cdc_upd
};

/// A backing row to write, by reference into the batch and the stored rows of the current chunk.
struct RowWrite {
    const Row* values;      ///< data columns
    bool keysOnly;          ///< a tombstone without a live row: non-key columns NULL
    const Value *s, *sv;    ///< __cdc_s, __cdc_sv
    const Value *d, *dv;    ///< __cdc_d, __cdc_dv (the delete's sequence), or null
    bool deletedNow;        ///< __cdc_deleted_at = the update's time
    std::int64_t createdIn; ///< __cdc_upd (kept by an existing row)
};

Outcome decide(const Event& e, const StoredRow& stored, std::size_t n) {
    if (!stored.exists)
        return e.isDelete() ? Outcome::EarlyDelete : Outcome::Insert;
    const Value& up = stored.image[n];
    const Value& del = stored.image[n + 2];
    if (!e.isDelete()) {
        if (isNull(del))
            return isNull(up) || compareValues(e.s, up) >= 0 ? Outcome::Update : Outcome::Stale;
        return compareValues(e.s, del) >= 0 ? Outcome::Resurrect : Outcome::Stale;
    }
    if (isNull(del))
        return isNull(up) || compareValues(e.s, up) > 0 ? Outcome::Delete : Outcome::Stale;
    return compareValues(e.s, del) > 0 ? Outcome::DeleteBump : Outcome::DeleteNoop;
}

/// IGNORE NULL UPDATES / COLUMNS TO UPDATE: the winning upsert's row, with each column it does not supply
/// taken from the newest earlier event of its run that does, else from the stored live row (§2.7, §5).
/// `from` (if given) gets per column the rid of the event whose value was taken, 0 for the stored row's.
Row foldPartial(KeyGroup& g, Outcome outcome, const StoredRow& stored, std::size_t n,
                std::vector<std::int64_t>* from) {
    std::sort(g.all.begin(), g.all.end(), [](const Event& a, const Event& b) { return ranksAbove(a, b); });
    Row values(n);
    std::vector<bool> filled(n, false);
    bool passedWinner = false, fallback = outcome == Outcome::Update;
    static const Value none;
    const Value& storedUp = stored.exists ? stored.image[n] : none;
    const Value& storedDel = stored.exists ? stored.image[n + 2] : none;
    for (const Event& ev : g.all) {
        if (!passedWinner) {
            passedWinner = ev.rid == g.winner.rid;
            if (!passedWinner)
                continue;
        } else {
            const Value& floor = outcome == Outcome::Update ? storedUp : storedDel;
            if (outcome != Outcome::Insert && compareValues(ev.s, floor) < 0)
                break; // older than the stored state: dropped, as §5.1.3 says
            if (ev.isDelete()) {
                if (!(outcome == Outcome::Update && compareValues(ev.s, storedUp) <= 0))
                    fallback = false; // a delete that won against the stored row ends the run
                break;
            }
        }
        bool all = true;
        for (std::size_t i = 0; i < n; ++i) {
            if (!filled[i] && ev.supplied[i]) {
                values[i] = ev.values[i];
                filled[i] = true;
                if (from)
                    (*from)[i] = ev.rid;
            }
            all = all && filled[i];
        }
        if (all) {
            fallback = false;
            break;
        }
    }
    for (std::size_t i = 0; i < n; ++i)
        if (!filled[i] && fallback)
            values[i] = stored.image[i];
    return values;
}

/// Applies one flow's batch to an SCD1 target in a single pass: the batch is read once and grouped by key
/// in memory, then the touched keys — in key order, for B-tree locality — are looked up 64 per SELECT,
/// decided in C++, and written 64 per INSERT … ON CONFLICT DO UPDATE, together with their change-feed rows
/// and the pre-images rewind needs. (Against a lookup and a write statement per key this saved only 3 % of
/// the instructions: the per-row B-tree work dominates; it also leaves one write path for every outcome.)
class Scd1Writer {
public:
    Scd1Writer(UpdateContext& ctx, const TargetPlan& t, const FlowPlan& f, FlowMetrics& m)
        : m_ctx(ctx), m_t(t), m_f(f), m_m(m), m_n(t.columns.size()), m_undo(t.tables.undo), m_feed(ctx, t),
          m_write(ctx.db, "INSERT INTO main." + q(t.tables.backing) + "(" + store::backingColumns(t) + ")",
                  m_n + 6, upsertClause(t)) {}

    Status run(const std::optional<store::Watermark>& watermark) {
        CDC_TRY(readBatch(watermark));
        const auto order = keysInOrder(m_groups);
        const int phase = m_ctx.nextPhase();
        std::int64_t applied = 0;
        std::vector<TieSample> ties;
        std::vector<StoredRow> stored;
        for (std::size_t i = 0; i < order.size(); ++i) {
            const std::size_t inChunk = i % kLookupChunk;
            if (inChunk == 0) {
                // Queued writes point into `stored`, which the next chunk's lookup refills.
                CDC_TRY(flushWrites());
                CDC_TRY(lookupChunk(order, i, stored));
            }
            const auto& [key, group] = order[i];
            std::optional<Event> traced; // the winner as it arrived: applyKey folds partial updates into it
            std::vector<std::int64_t> columnFrom;
            if (group->traced) {
                traced = group->winner;
                if (m_partial)
                    columnFrom.assign(m_n, 0);
            }
            auto outcome =
                applyKey(*group, stored[inChunk], group->traced && m_partial ? &columnFrom : nullptr);
            if (!outcome)
                return outcome.error();
            const Outcome o = outcome.value();
            if (traced)
                trace(*group, *traced, o, stored[inChunk], std::move(columnFrom));
            applied += o != Outcome::Stale && o != Outcome::DeleteNoop;
            m_m.upserted += o == Outcome::Insert || o == Outcome::Update || o == Outcome::Resurrect;
            m_m.deleted += o == Outcome::Delete;
            m_m.tombstonesCreated += o == Outcome::Delete || o == Outcome::EarlyDelete;
            if (group->atTop > 1) {
                ++m_m.ties;
                if (ties.size() < 6)
                    ties.push_back({*key, group->winner.shown, group->atTop});
            }
        }
        m_m.staleDropped += m_m.rowsRead - m_ctx.batchTruncates - applied;
        CDC_TRY(flushWrites());
        CDC_TRY(m_feed.flush());
        CDC_TRY(m_undo.flush(m_ctx.db, m_ctx.updateId, phase));
        // Only ties at a key's winning sequence value decide a result; those are the ones reported.
        if (!ties.empty())
            reportTies(m_ctx, m_t, m_f, m_m, ties);
        return Status::success();
    }

private:
    Status readBatch(const std::optional<store::Watermark>& watermark) {
        return readBatchEvents(m_ctx, m_t, m_f, watermark, m_m, m_partial, [&](Event&& e) {
            auto [it, fresh] = m_groups.try_emplace(keyOf(m_t, e.values));
            KeyGroup& g = it->second;
            if (fresh && m_ctx.trace)
                g.traced = tracing(m_ctx, m_t, it->first);
            if (m_partial || g.traced)
                g.all.push_back(e);
            if (fresh) {
                g.winner = std::move(e);
                return;
            }
            const int c = compareValues(e.s, g.winner.s);
            if (c == 0)
                ++g.atTop;
            else if (c > 0)
                g.atTop = 1;
            if (ranksAbove(e, g.winner))
                g.winner = std::move(e);
        });
    }

    static TraceOutcome traced(Outcome o, const StoredRow& stored, std::size_t n) {
        switch (o) {
        case Outcome::Insert:
            return TraceOutcome::Inserted;
        case Outcome::Update:
            return TraceOutcome::Updated;
        case Outcome::Resurrect:
            return TraceOutcome::Reinserted;
        case Outcome::Delete:
        case Outcome::DeleteBump:
            return TraceOutcome::Deleted;
        case Outcome::EarlyDelete:
            return TraceOutcome::EarlyDelete;
        case Outcome::DeleteNoop:
            return TraceOutcome::DeleteIgnored;
        case Outcome::Stale:
            break;
        }
        return isNull(stored.image[n + 2]) ? TraceOutcome::Stale : TraceOutcome::BlockedByTombstone;
    }

    /// Tells the trace what became of each event of a traced key: the winner's outcome, and the others lost
    /// to it (ties: at its sequence value).
    void trace(const KeyGroup& g, const Event& winner, Outcome o, const StoredRow& stored,
               std::vector<std::int64_t> columnFrom) {
        TraceRecord r = traceRecord(m_ctx, m_t, m_f, winner, traced(o, stored, m_n));
        r.columnFrom = std::move(columnFrom);
        if (r.outcome == TraceOutcome::Stale)
            r.against = stored.image[m_n + 1];
        else if (r.outcome == TraceOutcome::BlockedByTombstone || r.outcome == TraceOutcome::DeleteIgnored)
            r.against = stored.image[m_n + 3];
        m_ctx.trace->record(std::move(r));
        for (const Event& e : g.all) {
            if (e.rid == winner.rid)
                continue;
            const bool tie = compareValues(e.s, winner.s) == 0;
            TraceRecord lost =
                traceRecord(m_ctx, m_t, m_f, e, tie ? TraceOutcome::TieLost : TraceOutcome::LostInBatch);
            lost.otherRid = winner.rid;
            lost.against = winner.shown;
            m_ctx.trace->record(std::move(lost));
        }
    }

    static std::string upsertClause(const TargetPlan& t) {
        std::vector<std::string> assigned;
        for (std::size_t i = 0; i < t.columns.size(); ++i)
            if (!t.isKey(i)) // keys are equal; assigning them would rewrite the key index
                assigned.push_back(col(i));
        // __cdc_upd stays: it names the update that created the row, which rewind deletes.
        assigned.insert(assigned.end(), {"__cdc_s", "__cdc_sv", "__cdc_d", "__cdc_dv", "__cdc_deleted_at"});
        return "ON CONFLICT(" +
               join(t.keyIndex.size(),
                    [&](std::size_t k) { return col(static_cast<std::size_t>(t.keyIndex[k])); }) +
               ") DO UPDATE SET " + join(assigned.size(), [&](std::size_t c) {
                   return assigned[c] + " = excluded." + assigned[c];
               });
    }

    /// The lookup of `terms` keys: `(c0 = ?1 AND c1 = ?2) OR (…)`, which SQLite answers with one index seek
    /// per term (an IN list for a single key column). Full chunks share one statement; the short last chunk
    /// gets its own, sized to it — preparing 64 terms was a third of a one-event update.
    Result<storage::Statement*> lookupStatement(std::size_t terms) {
        std::optional<storage::Statement>& slot = terms == kLookupChunk ? m_lookup : m_shortLookup;
        if (slot && terms == kLookupChunk)
            return &*slot;
        const std::size_t nk = m_t.keyIndex.size();
        std::string where;
        for (std::size_t r = 0; r < terms; ++r) {
            where += r ? " OR (" : "(";
            for (std::size_t k = 0; k < nk; ++k)
                where += (k ? " AND " : "") + col(static_cast<std::size_t>(m_t.keyIndex[k])) + " = ?" +
                         std::to_string(r * nk + k + 1);
            where += ')';
        }
        auto lookup = m_ctx.db.prepare("SELECT " + store::backingColumns(m_t) + " FROM main." +
                                       q(m_t.tables.backing) + " WHERE " + where);
        if (!lookup)
            return lookup.error();
        slot.emplace(std::move(lookup.value()));
        return &*slot;
    }

    /// The stored rows of the keys order[first, first + kLookupChunk), by position in that chunk.
    Status lookupChunk(const std::vector<std::pair<const Row*, KeyGroup*>>& order, std::size_t first,
                       std::vector<StoredRow>& stored) {
        const std::size_t count = std::min(kLookupChunk, order.size() - first);
        const std::size_t nk = m_t.keyIndex.size();
        stored.assign(count, StoredRow{});
        auto statement = lookupStatement(count);
        if (!statement)
            return statement.error();
        storage::Statement& lookup = *statement.value();
        lookup.reset();
        for (std::size_t r = 0; r < count; ++r)
            for (std::size_t k = 0; k < nk; ++k)
                lookup.bindStatic(static_cast<int>(r * nk + k + 1), (*order[first + r].first)[k]);
        Row found(nk);
        const auto chunkBegin = order.begin() + static_cast<long>(first);
        const auto chunkEnd = chunkBegin + static_cast<long>(count);
        return lookup.forEachRow([&](const storage::Statement& r) {
            for (std::size_t k = 0; k < nk; ++k)
                found[k] = r.value(m_t.keyIndex[k]);
            // The chunk is in keyLess order, the order the rows' keys compare in.
            const auto at =
                std::lower_bound(chunkBegin, chunkEnd, found, [](const auto& entry, const Row& key) {
                    return keyLess(*entry.first, key);
                });
            if (at == chunkEnd || keyLess(found, *at->first))
                return; // cannot happen: every row matched one of the chunk's keys
            StoredRow& row = stored[static_cast<std::size_t>(at - chunkBegin)];
            row.exists = true;
            row.image.reserve(m_n + 6);
            for (std::size_t i = 0; i < m_n + 6; ++i)
                row.image.push_back(r.value(static_cast<int>(i)));
        });
    }

    Status flushWrites() {
        static const Value null;
        CDC_TRY(m_write.write(m_writes.size(), [&](storage::Statement& st, int at, std::size_t row) {
            const RowWrite& w = m_writes[row];
            for (std::size_t i = 0; i < m_n; ++i)
                st.bindStatic(at + static_cast<int>(i), w.keysOnly && !m_t.isKey(i) ? null : (*w.values)[i]);
            const int b = at + static_cast<int>(m_n);
            st.bindStatic(b, *w.s).bindStatic(b + 1, *w.sv).bindStatic(b + 2, *w.d).bindStatic(b + 3, *w.dv);
            if (w.deletedNow)
                st.bind(b + 4, m_ctx.now);
            else
                st.bindNull(b + 4);
            st.bind(b + 5, w.createdIn);
        }));
        m_writes.clear();
        return Status::success();
    }

    Status feed(std::span<const Value> values, ChangeType changeType) {
        return m_feed.add(values, changeType);
    }

    Result<Outcome> applyKey(KeyGroup& g, const StoredRow& stored, std::vector<std::int64_t>* columnFrom) {
        static const Value null;
        Event& w = g.winner;
        const Outcome o = decide(w, stored, m_n);
        if (m_partial && !w.isDelete() &&
            (o == Outcome::Insert || o == Outcome::Update || o == Outcome::Resurrect))
            w.values = foldPartial(g, o, stored, m_n, columnFrom);
        auto oldValues = [&] { return std::span<const Value>(stored.image).first(m_n); };
        switch (o) {
        case Outcome::Stale:
        case Outcome::DeleteNoop:
            return o;
        case Outcome::Insert:
            m_writes.push_back({&w.values, false, &w.s, &w.shown, &null, &null, false, m_ctx.updateId});
            CDC_TRY(feed(w.values, ChangeType::Insert));
            return o;
        case Outcome::EarlyDelete:
            m_writes.push_back({&w.values, true, &null, &null, &w.s, &w.shown, true, m_ctx.updateId});
            return o;
        case Outcome::Update:
        case Outcome::Resurrect: {
            m_undo.save(stored.image);
            m_writes.push_back({&w.values, false, &w.s, &w.shown, &null, &null, false, 0});
            if (o == Outcome::Update) {
                CDC_TRY(feed(oldValues(), ChangeType::UpdatePreimage));
                CDC_TRY(feed(w.values, ChangeType::UpdatePostimage));
            } else {
                CDC_TRY(feed(w.values, ChangeType::Insert));
            }
            return o;
        }
        case Outcome::Delete:
        case Outcome::DeleteBump: {
            m_undo.save(stored.image);
            // The row keeps its last values and sequence; the delete's sequence marks it a tombstone.
            m_writes.push_back(
                {&stored.image, false, &stored.image[m_n], &stored.image[m_n + 1], &w.s, &w.shown, true, 0});
            if (o == Outcome::Delete)
                CDC_TRY(feed(oldValues(), ChangeType::Delete));
            return o;
        }
        }
        return o;
    }

    UpdateContext& m_ctx;
    const TargetPlan& m_t;
    const FlowPlan& m_f;
    FlowMetrics& m_m;
    std::size_t m_n;
    bool m_partial = false;
    static constexpr std::size_t kLookupChunk = 64;
    std::unordered_map<Row, KeyGroup, KeyHash, KeyEqual> m_groups;
    std::optional<storage::Statement> m_lookup, m_shortLookup; ///< full chunks; the last, shorter one
    UndoJournal m_undo;
    ChangeFeedWriter m_feed;
    MultiRowInsert m_write;         ///< upserts whole backing rows
    std::vector<RowWrite> m_writes; ///< of the current chunk
};

/// Tells the trace which of its keys the truncate at `cut` removes (rows or tombstones), before it does.
Status traceTruncated(UpdateContext& ctx, const TargetPlan& t, const std::string& fromWhere,
                      const store::Watermark& cut) {
    auto keys = ctx.db.prepare("SELECT " + keyList(t.keyIndex) + fromWhere);
    if (!keys)
        return keys.error();
    keys->bind(1, cut.key);
    return keys->forEachRow([&](const storage::Statement& r) {
        Row key;
        for (int k = 0; k < r.columnCount(); ++k)
            key.push_back(r.value(k));
        if (!ctx.trace->wants(t.name, key))
            return;
        TraceRecord rec;
        rec.target = t.name;
        rec.update = ctx.updateId;
        rec.outcome = TraceOutcome::RemovedByTruncate;
        rec.sequence = cut.value;
        rec.values = std::move(key); // the key only
        ctx.trace->record(std::move(rec));
    });
}

/// A sequenced TRUNCATE at `cut` removes everything sequenced before it: live rows (with their change-feed
/// deletes) and tombstones, which the watermark makes redundant — every later event below it is dropped.
/// Removing them too keeps the tombstone list a function of the events, not of their arrival order.
Status truncateBelow(UpdateContext& ctx, const TargetPlan& t, FlowMetrics& m, const store::Watermark& cut) {
    const int phase = ctx.nextPhase();
    const std::string from = " FROM main." + q(t.tables.backing) + " WHERE ";
    const std::string live = "__cdc_d IS NULL AND __cdc_s < ?1", doomed = "(" + live + ") OR __cdc_d < ?1";
    UndoJournal undo(t.tables.undo);
    CDC_TRY(undo.saveQuery(ctx.db, "SELECT " + store::backingColumns(t) + from + doomed, {cut.key}));
    CDC_TRY(undo.flush(ctx.db, ctx.updateId, phase));
    const std::size_t n = t.columns.size();
    auto before = ctx.db.prepare("SELECT count(*)" + from + live);
    if (!before)
        return before.error();
    before->bind(1, cut.key);
    auto counted = before->step();
    if (!counted)
        return counted.error();
    const std::int64_t removed = before->int64(0);
    m.deleted += removed;
    if (ctx.trace)
        CDC_TRY(traceTruncated(ctx, t, from + doomed, cut));
    CDC_TRY(run(ctx.db,
                "INSERT INTO main." + q(t.tables.changeFeedRows) + " SELECT " +
                    join(n, [](std::size_t i) { return col(i); }) + ", " +
                    std::to_string(static_cast<int>(ChangeType::Delete)) + ", ?2, ?3 + row_number() OVER ()" +
                    from + live,
                {cut.key, ctx.updateId, ctx.feedPosition}));
    ctx.feedPosition += removed + 1;
    CDC_TRY(run(ctx.db, "DELETE" + from + doomed, {cut.key}));
    return store::setTruncateWatermark(ctx, t.name, cut);
}

} // namespace

Status applyScd1(UpdateContext& ctx, const TargetPlan& t, const FlowPlan& f, FlowMetrics& m) {
    // Sequenced TRUNCATE leaves a table watermark: events below it are dropped (§2.5, Part 1 #5).
    auto stored = store::truncateWatermark(ctx.db, t.name);
    if (!stored)
        return stored.error();
    std::optional<store::Watermark> wm = stored.value();
    if (f.hasTruncate) {
        auto st = ctx.db.prepare("SELECT s, sv FROM " + ctx.batch + " WHERE op = 2 ORDER BY s DESC LIMIT 1");
        if (!st)
            return st.error();
        auto has = st->step();
        if (!has)
            return has.error();
        if (has.value()) {
            store::Watermark w{st->value(0), st->value(1)};
            if (!wm || compareValues(w.key, wm->key) > 0) {
                // Before the batch's keys, as sequence order has it: the events above the truncate apply to
                // what it left, so a partial update cannot take values from a row it removed.
                CDC_TRY(truncateBelow(ctx, t, m, w));
                wm = w;
            }
        }
    }
    Scd1Writer writer(ctx, t, f, m);
    return writer.run(wm);
}

} // namespace cdc::engine
