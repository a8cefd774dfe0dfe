#include "core/engine/Engine.h"

#include "core/common/Text.h"
#include "core/engine/ChangeFeedWriter.h"
#include "core/engine/FlowPlan.h"
#include "core/engine/ProjectCheck.h"
#include "core/engine/SequenceCodec.h"
#include "core/engine/SqlText.h"
#include "core/engine/StoredTarget.h"
#include "core/engine/TargetStore.h"
#include "core/engine/UpdateRunner.h"
#include "core/storage/Catalog.h"
#include "core/storage/ForeignObjects.h"
#include "core/storage/QueryGuard.h"
#include "core/storage/TargetTables.h"

#include <algorithm>
#include <ctime>

namespace cdc::engine {

using storage::quoteIdentifier;
using namespace sqltext;

namespace {

/// A target's stored definition by (possibly partial) name.
Result<StoredTarget> findTarget(const storage::Database& db, const std::string& target) {
    auto found = findStoredTarget(db, target);
    if (!found)
        return found.error();
    if (!found.value())
        return Diagnostic::error("UNKNOWN_TARGET",
                                 "'" + target + "' is not an AUTO CDC target of this database");
    return std::move(*found.value());
}

Result<ResultSet> collect(const storage::Database& db, const std::string& sql,
                          const std::vector<Value>& binds, std::vector<std::optional<DataType>> types) {
    auto st = db.prepare(sql);
    if (!st)
        return st.error();
    for (std::size_t i = 0; i < binds.size(); ++i)
        st->bind(static_cast<int>(i + 1), binds[i]);
    ResultSet rs;
    for (int c = 0; c < st->columnCount(); ++c)
        rs.columns.push_back(st->columnName(c));
    rs.types = std::move(types);
    rs.types.resize(rs.columns.size());
    CDC_TRY(st->forEachRow([&](const storage::Statement& row) { rs.rows.push_back(row.row()); }));
    return rs;
}

Result<ResultSet> tombstoneRows(storage::Database& db, const std::string& target,
                                std::optional<std::int64_t> gcUpdate) {
    auto ref = findTarget(db, target);
    if (!ref)
        return ref.error();
    if (!ref->autoCdc()) // append targets and materialized views delete nothing: no tombstones
        return ResultSet{{"__SEQUENCE", "__DELETED_AT", "__GC_DUE_AT"}, {}, {}};
    const std::int64_t threshold = gcThresholdFrom(ref->properties);
    const storage::TargetTables tables(ref->name);
    std::vector<std::optional<DataType>> types;
    std::string keys;
    for (int k : ref->keyIndex) {
        const storage::ColumnInfo& c = ref->columns[static_cast<std::size_t>(k)];
        keys += (keys.empty() ? "" : ", ") + quoteIdentifier(c.name);
        types.push_back(c.type);
    }
    const auto ts = DataType::of(DataType::Kind::Timestamp);
    types.insert(types.end(), {ref->sequenceType, ts, ts});
    std::string sql;
    std::vector<Value> binds;
    if (gcUpdate) {
        types.push_back(DataType::of(DataType::Kind::BigInt));
        sql = "SELECT " + keys + ", __SEQUENCE, __DELETED_AT, __GC_DUE_AT, __COLLECTED_IN FROM " +
              quoteIdentifier(tables.gcLog) + " WHERE __COLLECTED_IN = ?1 ORDER BY " + keys;
        binds.push_back(*gcUpdate);
    } else {
        // Internal tables name data columns c<i> by their position.
        std::string sel;
        for (int k : ref->keyIndex)
            sel += col(static_cast<std::size_t>(k)) + " AS " +
                   quoteIdentifier(ref->columns[static_cast<std::size_t>(k)].name) + ", ";
        if (!ref->scd2())
            sql = "SELECT " + sel +
                  "__cdc_dv AS __SEQUENCE, __cdc_deleted_at AS __DELETED_AT, __cdc_deleted_at + ?1 "
                  "AS __GC_DUE_AT FROM " +
                  quoteIdentifier(tables.backing) + " WHERE __cdc_d IS NOT NULL ORDER BY " + keys;
        else // SCD2 keeps delete events in its event log; they are never collected (history must not change)
            sql = "SELECT " + sel +
                  "__cdc_sv AS __SEQUENCE, __cdc_deleted_at AS __DELETED_AT, NULL AS __GC_DUE_AT FROM " +
                  quoteIdentifier(tables.backing) + " WHERE __cdc_del ORDER BY " + keys + ", __cdc_s";
        binds.push_back(threshold);
    }
    // __DELETED_AT and __GC_DUE_AT stay epoch seconds, typed TIMESTAMP: text only when shown.
    return collect(db, sql, binds, types);
}

/// runUpdate under its guard: every transaction here ends (rolled back on an error) before the guard does.
Result<UpdateReport> runGuardedUpdate(storage::Database& db, const pipeline::Pipeline& pipeline,
                                      const UpdateOptions& options) {
    // Once per connection: registering a function again expires every prepared statement, and the
    // connection keeps them for reuse across updates (storage::Database::prepare).
    if (!db.prepare("SELECT cdc_seq_key(0), cdc_ts_key(0)"))
        registerSequenceFunctions(db.handle());
    // Batches live in temp tables: keep them in memory (changing the setting outside a transaction only).
    if (!db.inTransaction()) {
        auto mode = scalar(db, "PRAGMA temp_store");
        if (mode && mode.value() != 2)
            CDC_TRY(db.exec("PRAGMA temp_store = MEMORY"));
    }
    // An update touches keys all over the backing table: with SQLite's default 2 MB page cache its cost
    // would grow with the table. A connection still at the default gets 64 MB (a user's choice stays).
    auto cache = scalar(db, "PRAGMA cache_size");
    if (cache && cache.value() == -2000)
        CDC_TRY(db.exec("PRAGMA cache_size = -65536"));
    // Set-up, as a Databricks update's SETTING_UP_TABLES step: every declared table that does not exist
    // yet is created, empty, and registered, and that is committed on its own. So a first update whose
    // flow then fails leaves the tables existing and empty; no row of any table is written here.
    // The file is untrusted: nothing of it runs (a trigger) or is computed from (a damaged table) unchecked.
    CDC_TRY(storage::checkForeignObjects(db));
    CDC_TRY(checkEngineTables(db));
    auto setup = storage::Transaction::begin(db, "cdc_setup");
    if (!setup)
        return setup.error();
    CDC_TRY(store::ensureGlobalSchema(db));
    auto plan = planPipeline(db, pipeline);
    if (!plan)
        return plan.error();
    auto last = scalar(db, "SELECT max(update_id) FROM __cdc_updates");
    if (!last)
        return last.error();
    UpdateContext ctx(db);
    // A damaged target is rebuilt by a full refresh, and refused otherwise (verifyProject's other checks ran
    // before the set-up). One the pipeline no longer declares cannot be rebuilt by it.
    auto damaged = damagedTargets(db);
    if (!damaged)
        return damaged.error();
    for (const DamagedTarget& d : damaged.value()) {
        const bool declared =
            std::any_of(plan->targets.begin(), plan->targets.end(),
                        [&](const TargetPlan& t) { return equalsIgnoreCase(t.name, d.name); });
        if (!options.fullRefresh || !declared)
            return damagedTargetsError(damaged.value());
        ctx.rebuild.insert(toLower(d.name));
    }
    ctx.updateId = last.value() + 1;
    ctx.now = options.now.value_or(static_cast<std::int64_t>(std::time(nullptr)));
    ctx.trace = options.trace;
    for (const TargetPlan& t : plan->targets)
        CDC_TRY(store::setUpTarget(ctx, t, options.fullRefresh));
    CDC_TRY(setup->commit());

    // The flows: all of them or nothing.
    auto tx = storage::Transaction::begin(db, "cdc_update");
    if (!tx)
        return tx.error();
    UpdateRunner runner(ctx, plan.value(), options);
    auto report = runner.run();
    if (!report)
        return report.error(); // the transaction rolls back on destruction
    CDC_TRY(tx->commit());
    return report;
}

} // namespace

Status validate(storage::Database& db, const pipeline::Pipeline& pipeline) {
    db.runNewConnectionSetups(); // planning compiles the flows' SQL, which calls the front end's functions
    auto plan = planPipeline(db, pipeline);
    if (!plan)
        return plan.error();
    return Status::success();
}

Status verifyProject(const storage::Database& db) {
    CDC_TRY(storage::checkForeignObjects(db));
    CDC_TRY(checkEngineTables(db));
    auto damaged = damagedTargets(db);
    if (!damaged)
        return damaged.error();
    if (!damaged->empty())
        return damagedTargetsError(damaged.value());
    return Status::success();
}

Result<UpdateReport> runUpdate(storage::Database& db, const pipeline::Pipeline& pipeline,
                               const UpdateOptions& options) {
    db.runNewConnectionSetups(); // the flows' SQL calls the SQL front end's functions
    const storage::QueryGuard guard(db, "update", {options.timeout, options.cancel});
    return guard.explain(runGuardedUpdate(db, pipeline, options));
}

Result<ResultSet> tombstones(storage::Database& db, const std::string& target) {
    return tombstoneRows(db, target, std::nullopt);
}

Result<ResultSet> collectedTombstones(storage::Database& db, const std::string& target,
                                      std::int64_t updateId) {
    return tombstoneRows(db, target, updateId);
}

Result<ResultSet> updateLog(storage::Database& db) {
    if (!db.tableExists("__cdc_update_log"))
        return ResultSet{{"update_id", "flow", "target"}, {}, {}};
    const auto i = DataType::of(DataType::Kind::BigInt);
    const auto d = DataType::of(DataType::Kind::Double);
    const auto s = DataType::of(DataType::Kind::String);
    return collect(
        db,
        "SELECT l.update_id, u.now AS time, l.flow, l.target, l.rows_read, l.upserted, l.deleted, "
        "l.stale_dropped, l.versions_opened, l.versions_closed, l.versions_split, l.tombstones_created, "
        "l.tombstones_collected, l.ties, l.duration_ms, l.error FROM __cdc_update_log l JOIN "
        "__cdc_updates u USING (update_id) ORDER BY l.update_id, l.rowid",
        {}, {i, DataType::of(DataType::Kind::Timestamp), s, s, i, i, i, i, i, i, i, i, i, i, d, s});
}

Status rewindTo(storage::Database& db, std::int64_t updateId) {
    auto tx = storage::Transaction::begin(db, "cdc_rewind");
    if (!tx)
        return tx.error();
    CDC_TRY(store::rewind(db, updateId));
    return tx->commit();
}

Result<std::int64_t> lastUpdateId(storage::Database& db) {
    if (!db.tableExists("__cdc_updates"))
        return std::int64_t{0};
    return scalar(db, "SELECT max(update_id) FROM __cdc_updates");
}

Result<std::vector<OutdatedTarget>> outdatedTargets(storage::Database& db,
                                                    const pipeline::Pipeline& pipeline) {
    std::vector<OutdatedTarget> out;
    db.runNewConnectionSetups(); // as validate()
    auto plan = planPipeline(db, pipeline);
    if (!plan)
        return plan.error();
    if (!db.tablesExist({"__cdc_updates", "__cdc_targets", "__cdc_target_definitions"}))
        return out; // no update yet (or a file from before definitions were recorded)
    auto lastFull = scalar(db, "SELECT coalesce(max(update_id), 0) FROM __cdc_updates WHERE full_refresh");
    if (!lastFull)
        return lastFull.error();
    // Definitions are recorded when they change: the rows since the target was last built are the one in
    // effect then and every later one.
    auto definitions = db.prepare(
        "SELECT DISTINCT definition FROM __cdc_target_definitions WHERE target = ?1 AND update_id >= "
        "(SELECT coalesce(max(update_id), 0) FROM __cdc_target_definitions WHERE target = ?1 AND update_id "
        "<= ?2)");
    if (!definitions)
        return definitions.error();
    for (std::size_t i = 0; i < plan->targets.size(); ++i) {
        const TargetPlan& t = plan->targets[i];
        if (t.kind == DatasetKind::MaterializedView)
            continue; // recomputed by every update: never out of date
        auto stored = findStoredTarget(db, t.name);
        if (!stored)
            return stored.error();
        if (!stored.value())
            continue;
        if (stored.value()->signature != t.signature()) {
            out.push_back(
                {stored.value()->name, "SCHEMA_CHANGED",
                 "the keys, columns, sequence type or SCD type of '" + stored.value()->name +
                     "' changed since it was built; the next update refuses to run until a full refresh "
                     "rebuilds it",
                 t.location});
            continue;
        }
        const auto current = static_cast<std::int64_t>(definitionHash(plan.value(), i));
        bool differs = false;
        definitions->reset();
        definitions->bind(1, std::string_view(stored.value()->name))
            .bind(2, std::max(lastFull.value(), stored.value()->createdIn));
        CDC_TRY(definitions->forEachRow([&](const storage::Statement& row) {
            differs = row.int64(0) != current;
            return !differs;
        }));
        if (differs)
            out.push_back(
                {stored.value()->name, "DEFINITION_CHANGED",
                 "'" + stored.value()->name +
                     "' is out of date with the pipeline: its rows were computed "
                     "by an earlier definition of its flows (a source, a view, an expression or an option "
                     "changed), and rows already processed keep those values; a full refresh recomputes them",
                 t.location});
    }
    return out;
}

Result<bool> wasFullRefresh(storage::Database& db, std::int64_t updateId) {
    if (!db.tableExists("__cdc_updates"))
        return false;
    auto st = db.prepare("SELECT full_refresh FROM __cdc_updates WHERE update_id = ?1");
    if (!st)
        return st.error();
    st->bind(1, updateId);
    auto has = st->step();
    if (!has)
        return has.error();
    return has.value() && st->int64(0) != 0;
}

Result<ResultSet> changeFeed(storage::Database& db, const std::string& target, std::int64_t fromUpdate,
                             std::optional<std::int64_t> toUpdate) {
    auto found = storage::Catalog::find(db, target);
    if (!found)
        return found.error();
    if (!found.value() || (found.value()->kind != storage::TableKind::Target &&
                           found.value()->kind != storage::TableKind::MaterializedView))
        return Diagnostic::error("UNKNOWN_TARGET",
                                 "'" + target + "' is not an AUTO CDC target of this database");
    const storage::TableInfo& info = *found.value();
    std::vector<std::optional<DataType>> types;
    for (const auto& c : info.columns)
        types.push_back(c.type);
    types.push_back(DataType::of(DataType::Kind::String));
    types.push_back(DataType::of(DataType::Kind::BigInt));
    types.push_back(DataType::of(DataType::Kind::Timestamp));
    std::string columns;
    for (const auto& c : info.columns)
        columns += quoteIdentifier(c.name) + ", ";
    return collect(
        db,
        "SELECT " + columns + changeFeedMetadataSql() + " FROM " +
            quoteIdentifier(storage::TargetTables(info.name).changeFeedRows) +
            " WHERE _commit_version >= ?1 AND _commit_version <= ?2 ORDER BY _commit_version, __pos",
        {fromUpdate, toUpdate.value_or(INT64_MAX)}, types);
}

} // namespace cdc::engine
