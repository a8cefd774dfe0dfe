#include "core/engine/Appliers.h"
#include "core/engine/SqlText.h"
#include "core/engine/ValueOrder.h"

namespace cdc::engine {

using storage::quoteIdentifier;
using storage::quoteString;
using namespace sqltext;

namespace {

std::string q(const std::string& s) { return quoteIdentifier(s); }

// Outcome of a key's winning event against the stored row (semantics.md §2.7 with Part 1 #2 ties).
enum Outcome { Stale = 0, Insert = 1, Update = 2, Resurrect = 3, Delete = 4, DeleteBump = 5, EarlyDelete = 6, DeleteNoop = 7 };

const char* kOutcomeSql = R"(CASE
  WHEN b.op = 0 THEN CASE
    WHEN t.rowid IS NULL THEN 1
    WHEN t.__cdc_d IS NULL THEN CASE WHEN t.__cdc_s IS NULL OR b.s >= t.__cdc_s THEN 2 ELSE 0 END
    ELSE CASE WHEN b.s >= t.__cdc_d THEN 3 ELSE 0 END END
  ELSE CASE
    WHEN t.rowid IS NULL THEN 6
    WHEN t.__cdc_d IS NULL THEN CASE WHEN t.__cdc_s IS NULL OR b.s > t.__cdc_s THEN 4 ELSE 0 END
    ELSE CASE WHEN b.s > t.__cdc_d THEN 5 ELSE 7 END END
END)";

bool isKey(const TargetPlan& t, std::size_t i) {
    for (int k : t.keyIndex)
        if (static_cast<std::size_t>(k) == i)
            return true;
    return false;
}

/// IGNORE NULL UPDATES / COLUMNS TO UPDATE: fills the columns the winning upsert does not supply from
/// the newest earlier event of its run that does, else from the stored live row (§2.7, §5).
Status foldPartialUpdates(UpdateContext& ctx, const TargetPlan& t, const std::vector<std::string>& wSupply,
                          const std::vector<std::string>& bSupply, const Value& watermark) {
    const std::size_t n = t.columns.size();
    CDC_TRY(run(ctx.db, "CREATE INDEX temp.__cdc_b_k ON __cdc_b(" + keyList(t.keyIndex) + ", s)"));
    std::string allSupplied = join(n, [&](std::size_t i) { return wSupply[i]; }, " AND ");
    auto cand = ctx.db.prepare("SELECT rowid, rid, outcome, s, os, od, " + keyList(t.keyIndex) + ", " +
                               join(n, [&](std::size_t i) { return wSupply[i]; }) + ", " +
                               join(n, [](std::size_t i) { return "o" + std::to_string(i); }) +
                               " FROM temp.__cdc_w WHERE op = 0 AND outcome IN (1, 2, 3) AND NOT (" + allSupplied + ")");
    if (!cand)
        return cand.error();
    const std::size_t nk = t.keyIndex.size();
    std::string keyMatch = join(nk, [&](std::size_t i) {
        return col(static_cast<std::size_t>(t.keyIndex[i])) + " = ?" + std::to_string(i + 1);
    }, " AND ");
    auto events = ctx.db.prepare("SELECT rid, op, s, " + join(n, [&](std::size_t i) { return bSupply[i]; }) + ", " +
                                 join(n, [](std::size_t i) { return col(i); }) + " FROM temp.__cdc_b WHERE " +
                                 keyMatch + " AND op <> 2 AND (?" + std::to_string(nk + 1) + " IS NULL OR s >= ?" +
                                 std::to_string(nk + 1) + ") ORDER BY s DESC, op ASC, rid DESC");
    if (!events)
        return events.error();
    auto upd = ctx.db.prepare("UPDATE temp.__cdc_w SET " +
                              join(n, [](std::size_t i) { return col(i) + " = ?" + std::to_string(i + 1); }) +
                              " WHERE rowid = ?" + std::to_string(n + 1));
    if (!upd)
        return upd.error();

    struct Fix {
        std::int64_t wRow;
        Row values;
    };
    std::vector<Fix> fixes;
    for (;;) {
        auto has = cand->step();
        if (!has)
            return has.error();
        if (!has.value())
            break;
        const std::int64_t wRow = cand->int64(0), winnerRid = cand->int64(1);
        const int outcome = static_cast<int>(cand->int64(2));
        const Value storedUp = cand->value(4), storedDel = cand->value(5);
        const int supplyAt = 6 + static_cast<int>(nk), oldAt = supplyAt + static_cast<int>(n);
        Row values(n);
        std::vector<bool> filled(n, false);
        events->reset();
        for (std::size_t k = 0; k < nk; ++k)
            events->bind(static_cast<int>(k + 1), cand->value(6 + static_cast<int>(k)));
        events->bind(static_cast<int>(nk + 1), watermark);
        bool passedWinner = false, fallback = outcome == Update;
        for (;;) {
            auto ev = events->step();
            if (!ev)
                return ev.error();
            if (!ev.value())
                break;
            const Value s = events->value(2);
            if (!passedWinner) {
                passedWinner = events->int64(0) == winnerRid;
                if (!passedWinner)
                    continue;
            } else {
                const Value& floor = outcome == Update ? storedUp : storedDel;
                if (outcome != Insert && compareValues(s, floor) < 0)
                    break; // older than the stored state: dropped, as §5.1.3 says
                if (events->int64(1) == 1) {
                    if (outcome == Update && compareValues(s, storedUp) <= 0)
                        break; // a delete that lost against the stored row
                    fallback = false;
                    break;
                }
            }
            bool all = true;
            for (std::size_t i = 0; i < n; ++i) {
                if (!filled[i] && events->int64(3 + static_cast<int>(i)) != 0) {
                    values[i] = events->value(3 + static_cast<int>(n + i));
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
                values[i] = cand->value(oldAt + static_cast<int>(i));
        (void)supplyAt;
        fixes.push_back({wRow, std::move(values)});
    }
    cand->reset();
    for (const Fix& fx : fixes) {
        upd->reset();
        for (std::size_t i = 0; i < n; ++i)
            upd->bind(static_cast<int>(i + 1), fx.values[i]);
        upd->bind(static_cast<int>(n + 1), fx.wRow);
        CDC_TRY(upd->run());
    }
    return Status::success();
}

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
                s = "(" + col(i) + " IS NOT NULL)";
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
    const std::string rule = t.scdType == pipeline::ScdType::Type1
                                 ? "the last-arriving upsert wins and an upsert beats a delete"
                                 : "a delete wins, else the last-arriving upsert";
    int shown = 0;
    for (;;) {
        auto has = st->step();
        if (!has)
            return has.error();
        if (!has.value() || shown == 5)
            break;
        ++shown;
        Row key;
        for (int k = 0; k < nk; ++k)
            key.push_back(st->value(k));
        ctx.warnings.push_back(Diagnostic::warning(
            "SEQUENCE_TIE", "flow '" + f.name + "': " + std::to_string(st->int64(nk + 1)) + " events for key " +
                                describeKey(t, key) + " share the sequence value " + displayText(st->value(nk)) + "; " +
                                rule + ". Make the order explicit with SEQUENCE BY STRUCT(..., tiebreaker)",
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
    const std::size_t n = t.columns.size();
    const std::string keys = keyList(t.keyIndex);
    const std::string data = join(n, [](std::size_t i) { return col(i); });

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
    const Value wmKey = wm ? wm->key : Value{};

    CDC_TRY(run(ctx.db, "DROP TABLE IF EXISTS temp.__cdc_w"));
    CDC_TRY(run(ctx.db,
                "CREATE TEMP TABLE __cdc_w AS SELECT b.rid, b.op, b.s, b.sv, " +
                    join(n, [](std::size_t i) { return "b." + col(i); }) + ", b.ctu, t.rowid AS trow, " +
                    join(n, [](std::size_t i) { return "t." + col(i) + " AS o" + std::to_string(i); }) +
                    ", t.__cdc_s AS os, t.__cdc_sv AS osv, t.__cdc_d AS od, t.__cdc_dv AS odv, "
                    "t.__cdc_deleted_at AS oat, " +
                    kOutcomeSql + " AS outcome, coalesce(b.ns = b.s, 0) AS tie FROM (SELECT *, row_number() OVER win "
                    "AS rn, lead(s) OVER win AS ns FROM " + ctx.batch + " WHERE op <> 2 AND (?1 IS NULL OR s >= ?1) WINDOW "
                    "win AS (PARTITION BY " + keys + " ORDER BY s DESC, op ASC, rid DESC)) b LEFT JOIN main." +
                    q(t.backing) + " t ON " + keyJoin(t.keyIndex, "t", "b") + " WHERE b.rn = 1",
                {wmKey}));

    auto wSupply = supplySql(t, f, "ctu");
    if (!wSupply.empty() && ctx.batchMaterialized)
        CDC_TRY(foldPartialUpdates(ctx, t, wSupply, wSupply, wmKey));

    const std::vector<Value> ub{ctx.updateId, static_cast<std::int64_t>(ctx.nextPhase())};
    // Undo: the pre-image of every key this flow changes (no saved row = the key did not exist).
    const std::string preImage =
        join(n, [&](std::size_t i) {
            return isKey(t, i) ? col(i) : "o" + std::to_string(i);
        }) + ", os, osv, od, odv, oat";
    CDC_TRY(run(ctx.db, "INSERT INTO main." + q(t.undoRows) + "(__u_upd, __u_phase, __u_saved, " +
                            store::backingColumns(t) + ") SELECT ?1, ?2, trow IS NOT NULL, " + preImage +
                            " FROM temp.__cdc_w WHERE outcome BETWEEN 1 AND 6",
                ub));

    // Change data feed (§9.1): identity = keys.
    const std::string old = join(n, [](std::size_t i) { return "o" + std::to_string(i); });
    const std::string feed = "INSERT INTO main." + q(t.changeFeed) + " SELECT ";
    const std::string stamp = ", ?1, ?2 FROM temp.__cdc_w WHERE outcome ";
    const std::vector<Value> fb{ctx.updateId, ctx.commitTimestamp};
    CDC_TRY(run(ctx.db, feed + data + ", 'insert'" + stamp + "IN (1, 3)", fb));
    CDC_TRY(run(ctx.db, feed + old + ", 'update_preimage'" + stamp + "= 2", fb));
    CDC_TRY(run(ctx.db, feed + data + ", 'update_postimage'" + stamp + "= 2", fb));
    CDC_TRY(run(ctx.db, feed + old + ", 'delete'" + stamp + "= 4", fb));

    // Apply.
    const Value now = ctx.now;
    CDC_TRY(run(ctx.db, "INSERT INTO main." + q(t.backing) + "(" + store::backingColumns(t) + ") SELECT " +
                            join(n, [&](std::size_t i) {
                                return isKey(t, i) ? col(i) : "CASE WHEN op = 0 THEN " + col(i) + " END";
                            }) +
                            ", CASE WHEN op = 0 THEN s END, CASE WHEN op = 0 THEN sv END, CASE WHEN op = 1 THEN s "
                            "END, CASE WHEN op = 1 THEN sv END, CASE WHEN op = 1 THEN ?1 END FROM temp.__cdc_w "
                            "WHERE outcome IN (1, 6)",
                {now}));
    std::string setValues;
    for (std::size_t i = 0; i < n; ++i)
        if (!isKey(t, i)) // keys are equal by the join; rewriting them would touch the key index
            setValues += col(i) + " = w." + col(i) + ", ";
    CDC_TRY(run(ctx.db, "UPDATE main." + q(t.backing) + " SET " + setValues +
                            "__cdc_s = w.s, __cdc_sv = w.sv, __cdc_d = NULL, __cdc_dv = NULL, __cdc_deleted_at = "
                            "NULL FROM temp.__cdc_w w WHERE w.trow = " +
                            q(t.backing) + ".rowid AND w.outcome IN (2, 3)"));
    CDC_TRY(run(ctx.db, "UPDATE main." + q(t.backing) +
                            " SET __cdc_d = w.s, __cdc_dv = w.sv, __cdc_deleted_at = ?1 FROM temp.__cdc_w w WHERE "
                            "w.trow = " +
                            q(t.backing) + ".rowid AND w.outcome IN (4, 5)",
                {now}));

    // Metrics.
    {
        auto st = ctx.db.prepare("SELECT outcome, count(*), sum(tie) FROM temp.__cdc_w GROUP BY outcome");
        if (!st)
            return st.error();
        std::int64_t applied = 0;
        for (;;) {
            auto has = st->step();
            if (!has)
                return has.error();
            if (!has.value())
                break;
            const auto o = st->int64(0), c = st->int64(1);
            m.ties += st->int64(2);
            if (o >= Insert && o <= EarlyDelete)
                applied += c;
            if (o == Insert || o == Update || o == Resurrect)
                m.upserted += c;
            if (o == Delete)
                m.deleted += c;
            if (o == Delete || o == EarlyDelete)
                m.tombstonesCreated += c;
        }
        m.staleDropped += m.rowsRead - ctx.batchTruncates - applied;
    }

    // Only ties at a key's winning sequence value decide a result; those are the ones reported.
    if (m.ties > 0)
        CDC_TRY(reportTies(ctx, t, f, m, "SELECT " + keys + ", sv, 2 FROM temp.__cdc_w WHERE tie LIMIT 6"));

    if (newTruncate) {
        const std::vector<Value> tb{ctx.updateId, static_cast<std::int64_t>(ctx.nextPhase()), newTruncate->key};
        const std::string doomed = " FROM main." + q(t.backing) + " WHERE __cdc_d IS NULL AND __cdc_s < ?3";
        CDC_TRY(run(ctx.db, "INSERT INTO main." + q(t.undoRows) + "(__u_upd, __u_phase, __u_saved, " +
                                store::backingColumns(t) + ") SELECT ?1, ?2, 1, " + store::backingColumns(t) + doomed,
                    tb));
        CDC_TRY(run(ctx.db, feed + data + ", 'delete', ?1, ?2" + doomed, {ctx.updateId, ctx.commitTimestamp, newTruncate->key}));
        auto cut = scalar(ctx.db, "SELECT count(*)" + doomed, {Value{}, Value{}, newTruncate->key});
        if (!cut)
            return cut.error();
        m.deleted += cut.value();
        CDC_TRY(run(ctx.db, "DELETE" + doomed, {Value{}, Value{}, newTruncate->key}));
        CDC_TRY(store::setTruncateWatermark(ctx, t.name, *newTruncate));
    }
    return Status::success();
}

} // namespace cdc::engine
