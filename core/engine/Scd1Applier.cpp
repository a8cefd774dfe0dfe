#include "core/engine/Appliers.h"
#include "core/engine/BatchEvents.h"
#include "core/engine/ChangeFeedWriter.h"
#include "core/engine/SqlText.h"
#include "core/engine/UndoJournal.h"
#include "core/engine/ValueOrder.h"

#include <algorithm>
#include <unordered_map>

namespace cdc::engine {

using storage::quoteIdentifier;
using storage::quoteString;
using namespace sqltext;

namespace {

std::string q(const std::string& s) { return quoteIdentifier(s); }

bool isKey(const TargetPlan& t, std::size_t i) {
    return std::find(t.keyIndex.begin(), t.keyIndex.end(), static_cast<int>(i)) != t.keyIndex.end();
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
};

/// A key's row in the backing table (data columns, then the bookkeeping of backingColumns()).
struct StoredRow {
    bool exists = false;
    std::int64_t rowid = 0;
    Row image; ///< c0.., __cdc_s, __cdc_sv, __cdc_d, __cdc_dv, __cdc_deleted_at, __cdc_upd
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
Row foldPartial(KeyGroup& g, Outcome outcome, const StoredRow& stored, std::size_t n) {
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
/// in memory, then every touched key — in key order, for B-tree locality — is looked up once and written
/// with prepared statements, together with its change-feed rows and the pre-image rewind needs.
class Scd1Writer {
public:
    Scd1Writer(UpdateContext& ctx, const TargetPlan& t, const FlowPlan& f, FlowMetrics& m)
        : m_ctx(ctx), m_t(t), m_f(f), m_m(m), m_n(t.columns.size()), m_undo(t.undoRows), m_feed(ctx, t) {}

    Status run(const Value& watermark) {
        CDC_TRY(readBatch(watermark));
        CDC_TRY(prepare());
        std::vector<std::pair<const Row*, KeyGroup*>> order;
        order.reserve(m_groups.size());
        for (auto& [key, group] : m_groups)
            order.emplace_back(&key, &group);
        std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return keyLess(*a.first, *b.first); });
        const int phase = m_ctx.nextPhase();
        std::int64_t applied = 0;
        std::vector<TieSample> ties;
        for (const auto& [key, group] : order) {
            auto outcome = applyKey(*key, *group);
            if (!outcome)
                return outcome.error();
            const Outcome o = outcome.value();
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
        CDC_TRY(m_feed.flush());
        CDC_TRY(m_undo.flush(m_ctx.db, m_ctx.updateId, phase));
        // Only ties at a key's winning sequence value decide a result; those are the ones reported.
        return ties.empty() ? Status::success() : reportTies(m_ctx, m_t, m_f, m_m, ties);
    }

private:
    Status readBatch(const Value& watermark) {
        return readBatchEvents(m_ctx, m_t, m_f, watermark, m_partial, [&](Event&& e) {
            auto [it, fresh] = m_groups.try_emplace(keyOf(m_t, e.values));
            KeyGroup& g = it->second;
            if (m_partial)
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

    Status prepare() {
        const std::string backing = "main." + q(m_t.backing);
        const std::string keyMatch = join(m_t.keyIndex.size(), [&](std::size_t i) {
            return col(static_cast<std::size_t>(m_t.keyIndex[i])) + " = ?" + std::to_string(i + 1);
        }, " AND ");
        const std::size_t width = m_n + 6;
        auto lookup = m_ctx.db.prepare("SELECT rowid, " + store::backingColumns(m_t) + " FROM " + backing + " WHERE " +
                                       keyMatch);
        auto insert = m_ctx.db.prepare("INSERT INTO " + backing + "(" + store::backingColumns(m_t) + ") VALUES (" +
                                       placeholders(width) + ")");
        std::string setValues;
        for (std::size_t i = 0; i < m_n; ++i)
            if (!isKey(m_t, i)) // keys are equal; assigning them would rewrite the key index
                setValues += col(i) + " = ?" + std::to_string(i + 1) + ", ";
        auto upsert = m_ctx.db.prepare("UPDATE " + backing + " SET " + setValues + "__cdc_s = ?" +
                                       std::to_string(m_n + 1) + ", __cdc_sv = ?" + std::to_string(m_n + 2) +
                                       ", __cdc_d = NULL, __cdc_dv = NULL, __cdc_deleted_at = NULL WHERE rowid = ?" +
                                       std::to_string(m_n + 3));
        auto remove = m_ctx.db.prepare("UPDATE " + backing +
                                       " SET __cdc_d = ?1, __cdc_dv = ?2, __cdc_deleted_at = ?3 WHERE rowid = ?4");
        for (auto* st : {&lookup, &insert, &upsert, &remove})
            if (!*st)
                return st->error();
        m_lookup.emplace(std::move(lookup.value()));
        m_insert.emplace(std::move(insert.value()));
        m_upsert.emplace(std::move(upsert.value()));
        m_remove.emplace(std::move(remove.value()));
        return Status::success();
    }

    Result<StoredRow> lookup(const Row& key) {
        StoredRow row;
        m_lookup->reset();
        for (std::size_t i = 0; i < key.size(); ++i)
            m_lookup->bindStatic(static_cast<int>(i + 1), key[i]);
        auto has = m_lookup->step();
        if (!has)
            return has.error();
        if (has.value()) {
            row.exists = true;
            row.rowid = m_lookup->int64(0);
            row.image.reserve(m_n + 6);
            for (std::size_t i = 0; i < m_n + 6; ++i)
                row.image.push_back(m_lookup->value(static_cast<int>(i + 1)));
        }
        m_lookup->reset();
        return row;
    }

    Status feed(const Row& values, ChangeType changeType) { return m_feed.add(values, changeType); }

    Result<Outcome> applyKey(const Row& key, KeyGroup& g) {
        auto found = lookup(key);
        if (!found)
            return found.error();
        const StoredRow& stored = found.value();
        Event& w = g.winner;
        const Outcome o = decide(w, stored, m_n);
        if (m_partial && !w.isDelete() && (o == Outcome::Insert || o == Outcome::Update || o == Outcome::Resurrect))
            w.values = foldPartial(g, o, stored, m_n);
        const Row oldValues = stored.exists ? Row(stored.image.begin(), stored.image.begin() + static_cast<long>(m_n)) : Row{};
        switch (o) {
        case Outcome::Stale:
        case Outcome::DeleteNoop:
            return o;
        case Outcome::Insert:
        case Outcome::EarlyDelete: {
            m_insert->reset();
            for (std::size_t i = 0; i < m_n; ++i)
                if (w.isDelete() && !isKey(m_t, i))
                    m_insert->bindNull(static_cast<int>(i + 1));
                else
                    m_insert->bindStatic(static_cast<int>(i + 1), w.values[i]);
            const int at = static_cast<int>(m_n + 1);
            if (w.isDelete())
                m_insert->bindNull(at).bindNull(at + 1).bind(at + 2, w.s).bind(at + 3, w.shown).bind(at + 4, m_ctx.now);
            else
                m_insert->bind(at, w.s).bind(at + 1, w.shown).bindNull(at + 2).bindNull(at + 3).bindNull(at + 4);
            m_insert->bind(at + 5, m_ctx.updateId);
            CDC_TRY(m_insert->run());
            if (o == Outcome::Insert)
                CDC_TRY(feed(w.values, ChangeType::Insert));
            return o;
        }
        case Outcome::Update:
        case Outcome::Resurrect: {
            m_undo.save(stored.image);
            m_upsert->reset();
            for (std::size_t i = 0; i < m_n; ++i)
                if (!isKey(m_t, i))
                    m_upsert->bindStatic(static_cast<int>(i + 1), w.values[i]);
            m_upsert->bind(static_cast<int>(m_n + 1), w.s).bind(static_cast<int>(m_n + 2), w.shown);
            m_upsert->bind(static_cast<int>(m_n + 3), stored.rowid);
            CDC_TRY(m_upsert->run());
            if (o == Outcome::Update) {
                CDC_TRY(feed(oldValues, ChangeType::UpdatePreimage));
                CDC_TRY(feed(w.values, ChangeType::UpdatePostimage));
            } else {
                CDC_TRY(feed(w.values, ChangeType::Insert));
            }
            return o;
        }
        case Outcome::Delete:
        case Outcome::DeleteBump: {
            m_undo.save(stored.image);
            m_remove->reset();
            m_remove->bind(1, w.s).bind(2, w.shown).bind(3, m_ctx.now).bind(4, stored.rowid);
            CDC_TRY(m_remove->run());
            if (o == Outcome::Delete)
                CDC_TRY(feed(oldValues, ChangeType::Delete));
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
    std::unordered_map<Row, KeyGroup, KeyHash, KeyEqual> m_groups;
    std::optional<storage::Statement> m_lookup, m_insert, m_upsert, m_remove;
    UndoJournal m_undo;
    ChangeFeedWriter m_feed;
};

} // namespace

std::vector<std::string> supplySql(const TargetPlan& t, const FlowPlan& f, const std::string& ctuColumn) {
    std::vector<std::string> out;
    bool any = false;
    for (std::size_t i = 0; i < t.columns.size(); ++i) {
        std::string s = "1";
        if (!isKey(t, i)) {
            if (f.columnsToUpdateSql) {
                s = "(EXISTS (SELECT 1 FROM json_each(" + ctuColumn + ") WHERE lower(value) = " +
                    quoteString(storage::toLower(t.columns[i].name)) + "))";
                any = true;
            } else if (f.ignoreNull[i]) {
                s = col(i); // built by appending: GCC 12 -O3 warns falsely (-Wrestrict) on `"(" + col(i)`
                s.insert(0, 1, '(');
                s += " IS NOT NULL)";
                any = true;
            }
        }
        out.push_back(s);
    }
    if (!any)
        out.clear();
    return out;
}

Status reportTies(UpdateContext& ctx, const TargetPlan& t, const FlowPlan& f, const FlowMetrics& m,
                  const std::string& sql) {
    auto st = ctx.db.prepare(sql);
    if (!st)
        return st.error();
    const int nk = static_cast<int>(t.keyIndex.size());
    std::vector<TieSample> samples;
    CDC_TRY(st->forEachRow([&](const storage::Statement& r) {
        TieSample sample;
        for (int k = 0; k < nk; ++k)
            sample.key.push_back(r.value(k));
        sample.shown = r.value(nk);
        sample.events = r.int64(nk + 1);
        samples.push_back(std::move(sample));
    }));
    return reportTies(ctx, t, f, m, samples);
}

Status reportTies(UpdateContext& ctx, const TargetPlan& t, const FlowPlan& f, const FlowMetrics& m,
                  const std::vector<TieSample>& samples) {
    const std::string rule = t.scdType == pipeline::ScdType::Type1
                                 ? "the last-arriving upsert wins and an upsert beats a delete"
                                 : "a delete wins, else the last-arriving upsert";
    const std::int64_t shown = std::min<std::int64_t>(5, static_cast<std::int64_t>(samples.size()));
    for (std::int64_t i = 0; i < shown; ++i) {
        const TieSample& tie = samples[static_cast<std::size_t>(i)];
        ctx.warnings.push_back(Diagnostic::warning(
            "SEQUENCE_TIE", "flow '" + f.name + "': " + std::to_string(tie.events) + " events for key " +
                                describeKey(t, tie.key) + " share the sequence value " + displayText(tie.shown) +
                                "; " + rule + ". Make the order explicit with SEQUENCE BY STRUCT(..., tiebreaker)",
            f.flow->sequenceBy.front().location));
    }
    if (m.ties > shown)
        ctx.warnings.push_back(Diagnostic::warning("SEQUENCE_TIE",
                                                   "flow '" + f.name + "': " + std::to_string(m.ties - shown) +
                                                       " more keys with events sharing a sequence value",
                                                   f.flow->sequenceBy.front().location));
    return Status::success();
}

std::string describeKey(const TargetPlan& t, const Row& keyValues) {
    std::string out;
    for (std::size_t i = 0; i < t.keyIndex.size() && i < keyValues.size(); ++i)
        out += (i ? ", " : "") + t.columns[static_cast<std::size_t>(t.keyIndex[i])].name + "=" + displayText(keyValues[i]);
    return out;
}

Status applyScd1(UpdateContext& ctx, const TargetPlan& t, const FlowPlan& f, FlowMetrics& m) {
    // Sequenced TRUNCATE leaves a table watermark: events below it are dropped (§2.5, Part 1 #5).
    auto stored = store::truncateWatermark(ctx.db, t.name);
    if (!stored)
        return stored.error();
    std::optional<store::Watermark> wm = stored.value(), newTruncate;
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
                newTruncate = w;
                wm = w;
            }
        }
    }

    Scd1Writer writer(ctx, t, f, m);
    CDC_TRY(writer.run(wm ? wm->key : Value{}));
    if (!newTruncate)
        return Status::success();

    // The truncate removes every live row sequenced before it.
    const int phase = ctx.nextPhase();
    const std::string doomed = " FROM main." + q(t.backing) + " WHERE __cdc_d IS NULL AND __cdc_s < ?1";
    UndoJournal undo(t.undoRows);
    CDC_TRY(undo.saveQuery(ctx.db, "SELECT " + store::backingColumns(t) + doomed, {newTruncate->key}));
    const std::int64_t cut = undo.rowCount();
    m.deleted += cut;
    CDC_TRY(undo.flush(ctx.db, ctx.updateId, phase));
    const std::size_t n = t.columns.size();
    CDC_TRY(run(ctx.db, "INSERT INTO main." + q(t.changeFeedRows) + " SELECT " +
                            join(n, [](std::size_t i) { return col(i); }) + ", " +
                            std::to_string(static_cast<int>(ChangeType::Delete)) + ", ?2, ?3 + row_number() OVER ()" +
                            doomed,
                {newTruncate->key, ctx.updateId, ctx.feedPosition}));
    ctx.feedPosition += cut + 1;
    CDC_TRY(run(ctx.db, "DELETE" + doomed, {newTruncate->key}));
    return store::setTruncateWatermark(ctx, t.name, *newTruncate);
}

} // namespace cdc::engine
