#include "core/engine/TargetStore.h"

#include "core/common/Text.h"
#include "core/engine/ChangeFeedWriter.h"
#include "core/engine/SqlText.h"
#include "core/engine/StoredTarget.h"
#include "core/engine/UndoJournal.h"
#include "core/storage/Catalog.h"

#include <algorithm>

namespace cdc::engine::store {

using storage::quoteIdentifier;
using storage::quoteString;
using namespace sqltext;

namespace {

std::string q(const std::string& s) {
    return quoteIdentifier(s);
}

std::string affinity(const DataType& t) {
    std::string a = t.sqliteAffinity();
    return a.empty() ? "" : " " + a;
}

/// A single integral key is the SCD1 backing table's rowid: lookups and upserts touch one B-tree.
bool keyIsRowId(const TargetPlan& t) {
    return t.scdType == pipeline::ScdType::Type1 && t.keyIndex.size() == 1 &&
           (t.columns[static_cast<std::size_t>(t.keyIndex[0])].type.isIntegral());
}

std::string dataColumnDefs(const TargetPlan& t, bool rowIdKey = false) {
    return join(t.columns.size(), [&](std::size_t i) {
        if (rowIdKey && static_cast<int>(i) == t.keyIndex[0])
            return col(i) + " INTEGER PRIMARY KEY";
        return col(i) + affinity(t.columns[i].type);
    });
}

std::string dataColumns(std::size_t n) {
    return join(n, [](std::size_t i) { return col(i); });
}

/// How a backing table is laid out: SCD1 / SCD2 (the SCD type), or plain rows (append targets and
/// materialized views: a row id, the data columns, the update that wrote the row).
constexpr int kRowsLayout = 0;

int layoutOf(const TargetPlan& t) {
    return t.autoCdc() ? static_cast<int>(t.scdType) : kRowsLayout;
}

int layoutOf(const StoredTarget& t) {
    return t.kind == DatasetKind::AutoCdc ? static_cast<int>(t.scdType) : kRowsLayout;
}

std::string backingColumnsFor(int scdType, std::size_t n) {
    if (scdType == kRowsLayout)
        return "__cdc_rid, " + dataColumns(n) + ", __cdc_upd";
    if (scdType == 2)
        return dataColumns(n) +
               ", __cdc_ctu, __cdc_s, __cdc_sv, __cdc_del, __cdc_ups, __cdc_deleted_at, __cdc_upd, __v, " +
               join(n, [](std::size_t i) { return vcol(i); }) + ", __START_AT, __cdc_e, __END_AT";
    return dataColumns(n) + ", __cdc_s, __cdc_sv, __cdc_d, __cdc_dv, __cdc_deleted_at, __cdc_upd";
}

std::size_t backingWidthFor(int scdType, std::size_t n) {
    return scdType == kRowsLayout ? n + 2 : scdType == 2 ? 2 * n + 11 : n + 6;
}

} // namespace

std::size_t rowWidth(const TargetPlan& t, std::size_t columns, bool partialUpdates) {
    const int layout = layoutOf(t);
    return backingWidthFor(layout, columns) + (layout == 2 && partialUpdates ? columns : 0);
}

namespace {

/// Drops a table or view by name, whichever it is (older files kept the change feed in a table).
Status dropNamed(storage::Database& db, const std::string& name) {
    auto st = db.prepare(
        "SELECT type FROM sqlite_schema WHERE name = ?1 COLLATE NOCASE AND type IN ('table', 'view')");
    if (!st)
        return st.error();
    st->bind(1, std::string_view(name));
    auto has = st->step();
    if (!has)
        return has.error();
    if (!has.value())
        return Status::success();
    const std::string type = st->text(0);
    st->reset();
    return db.exec("DROP " + type + " " + q(name));
}

Status dropObjects(storage::Database& db, const std::string& target) {
    for (const std::string& name : storage::TargetTables(target).all())
        CDC_TRY(dropNamed(db, name));
    return Status::success();
}

/// The public columns' names: the data columns, and SCD2's validity columns.
std::vector<std::string> publicNames(const std::vector<storage::ColumnInfo>& columns, bool scd2) {
    std::vector<std::string> names;
    for (const storage::ColumnInfo& c : columns)
        names.push_back(c.name);
    if (scd2)
        names.insert(names.end(), {"__START_AT", "__END_AT"});
    return names;
}

std::string quotedList(const std::vector<std::string>& names) {
    return join(names.size(), [&](std::size_t i) { return q(names[i]); });
}

/// The views are written from what the registry also holds (layout, names, keys), so that verifyProject can
/// write the same text and compare it with the file's.
std::string publicViewFor(const storage::TargetTables& tables, int layout,
                          const std::vector<std::string>& names, std::size_t n,
                          const std::vector<int>& keyIndex) {
    const std::string head = "CREATE VIEW " + q(tables.view) + "(" + quotedList(names) + ") AS SELECT ";
    if (layout == static_cast<int>(pipeline::ScdType::Type2))
        return head +
               join(n,
                    [&](std::size_t i) {
                        const bool key = std::find(keyIndex.begin(), keyIndex.end(), static_cast<int>(i)) !=
                                         keyIndex.end();
                        return key ? col(i) : vcol(i);
                    }) +
               ", __START_AT, __END_AT FROM " + q(tables.backing) + " WHERE __v";
    return head + dataColumns(n) + " FROM " + q(tables.backing) +
           (layout == kRowsLayout ? "" : " WHERE __cdc_d IS NULL");
}

std::string changeFeedViewFor(const storage::TargetTables& tables, const std::vector<std::string>& names) {
    return "CREATE VIEW " + q(tables.changeFeed) + " AS SELECT " + quotedList(names) + ", " +
           changeFeedMetadataSql() + " FROM " + q(tables.changeFeedRows);
}

/// The change feed is clustered on (commit version, position): appends go to the end of one B-tree and
/// table_changes(t, from, to) is a range of it. It is the largest table an update writes, so a row holds
/// its change type as a number and no timestamp (one per update, in __cdc_updates); the view shows the
/// Databricks columns.
std::string changeFeedSchema(const TargetPlan& t) {
    auto pub = t.publicColumns();
    return "CREATE TABLE " + q(t.tables.changeFeedRows) + "(" +
           join(pub.size(), [&](std::size_t i) { return q(pub[i].name) + affinity(pub[i].type); }) +
           ", _change_type INTEGER NOT NULL, _commit_version INTEGER NOT NULL, __pos INTEGER NOT NULL, "
           "PRIMARY KEY(_commit_version, __pos)) WITHOUT ROWID;" +
           changeFeedViewFor(t.tables, publicNames(t.columns, t.scdType == pipeline::ScdType::Type2)) + ";";
}

/// Append targets and materialized views: rows with an id (INSERT OR REPLACE by it restores a pre-image) and
/// the update that wrote them (rewind deletes them by it).
Status createRowObjects(storage::Database& db, const TargetPlan& t) {
    const std::size_t n = t.columns.size();
    return db.exec("CREATE TABLE " + q(t.tables.backing) + "(__cdc_rid INTEGER PRIMARY KEY, " +
                   dataColumnDefs(t) + ", __cdc_upd INTEGER);" + "CREATE INDEX " +
                   q(t.tables.backing + "_u") + " ON " + q(t.tables.backing) + "(__cdc_upd);" +
                   undoJournalSchema(t.tables.undo) +
                   publicViewFor(t.tables, kRowsLayout, publicNames(t.columns, false), n, t.keyIndex) + ";" +
                   changeFeedSchema(t));
}

Status createObjects(storage::Database& db, const TargetPlan& t) {
    if (!t.autoCdc())
        return createRowObjects(db, t);
    const bool scd2 = t.scdType == pipeline::ScdType::Type2;
    const std::size_t n = t.columns.size();
    const std::string keys = keyList(t.keyIndex);
    std::string sql;
    std::string seqAff = affinity(t.sequenceType);
    if (scd2) {
        // One row per (key, sequence): the event-log entry of that sequence and, when a version starts there,
        // the version (__v = 1, its values v0.., its end). Clustered on (key, sequence), so a key's events
        // and versions share a page: a new event touches one leaf page, not one per table. __cdc_upd: the
        // update that created the row (rewind removes the rows of undone updates).
        sql +=
            "CREATE TABLE " + q(t.tables.backing) + "(" + dataColumnDefs(t) +
            ", __cdc_ctu, __cdc_s, __cdc_sv, __cdc_del INTEGER, __cdc_ups INTEGER, __cdc_deleted_at INTEGER, "
            "__cdc_upd INTEGER, __v INTEGER NOT NULL, " +
            join(n, [&](std::size_t i) { return vcol(i) + affinity(t.columns[i].type); }) + ", __START_AT" +
            seqAff + ", __cdc_e, __END_AT" + seqAff + ", PRIMARY KEY(" + keys + ", __cdc_s)) WITHOUT ROWID;";
    } else {
        sql += "CREATE TABLE " + q(t.tables.backing) + "(" + dataColumnDefs(t, keyIsRowId(t)) +
               ", __cdc_s, __cdc_sv, __cdc_d, __cdc_dv, __cdc_deleted_at INTEGER, __cdc_upd INTEGER);";
        if (!keyIsRowId(t))
            sql += "CREATE UNIQUE INDEX " + q(t.tables.backing + "_k") + " ON " + q(t.tables.backing) + "(" +
                   keys + ");";
        sql += "CREATE INDEX " + q(t.tables.backing + "_gc") + " ON " + q(t.tables.backing) +
               "(__cdc_deleted_at) WHERE __cdc_d IS NOT NULL;";
    }
    sql += undoJournalSchema(t.tables.undo);

    sql += publicViewFor(t.tables, layoutOf(t), publicNames(t.columns, scd2), n, t.keyIndex) + ";";
    sql += changeFeedSchema(t);
    sql += "CREATE TABLE " + q(t.tables.gcLog) + "(" +
           join(t.keyIndex.size(),
                [&](std::size_t i) { return q(t.columns[static_cast<std::size_t>(t.keyIndex[i])].name); }) +
           ", __SEQUENCE, __DELETED_AT INTEGER, __GC_DUE_AT INTEGER, __COLLECTED_IN INTEGER);";
    return db.exec(sql);
}

/// Saves and removes the whole stored state of a target (full refresh keeping the schema).
Status resetState(UpdateContext& ctx, const TargetPlan& t) {
    const int phase = ctx.nextPhase();
    UndoJournal rows(t.tables.undo);
    CDC_TRY(rows.saveQuery(ctx.db, "SELECT " + backingColumns(t) + " FROM " + q(t.tables.backing)));
    CDC_TRY(rows.flush(ctx.db, ctx.updateId, phase));
    return run(ctx.db, "DELETE FROM " + q(t.tables.backing));
}

std::string keysText(const std::vector<int>& keys) {
    std::string s;
    for (int k : keys)
        s += std::to_string(k) + ",";
    return s;
}

/// Puts back the pre-images update `u` saved, newest phase first; within an entry the earliest saved
/// image of a row is restored last, so it wins.
Status restoreJournal(storage::Database& db, const StoredTarget& t, const storage::TargetTables& n,
                      std::int64_t u) {
    const int scdType = layoutOf(t);
    auto entries = db.prepare("SELECT __u_data FROM " + q(n.undo) +
                              " WHERE __u_upd = ?1 ORDER BY __u_phase DESC, __u_chunk DESC");
    if (!entries)
        return entries.error();
    entries->bind(1, u);
    const std::size_t width = backingWidthFor(scdType, t.columns.size());
    // Every backing table is unique on the row's identity (keys, plus the sequence for SCD2), so REPLACE
    // removes whatever the update put in its place.
    auto put =
        db.prepare("INSERT OR REPLACE INTO " + q(n.backing) + "(" +
                   backingColumnsFor(scdType, t.columns.size()) + ") VALUES (" + placeholders(width) + ")");
    if (!put)
        return put.error();
    std::vector<Value> blobs;
    CDC_TRY(entries->forEachRow([&](const storage::Statement& r) { blobs.push_back(r.value(0)); }));
    for (const Value& data : blobs) {
        const auto* blob = std::get_if<Blob>(&data);
        if (!blob)
            return Diagnostic::error("UNDO_CORRUPT", "the rewind journal of '" + t.name + "' is damaged");
        auto rows = decodeUndoRows(
            std::string_view(reinterpret_cast<const char*>(blob->bytes.data()), blob->bytes.size()), width);
        if (!rows)
            return rows.error();
        for (auto row = rows->rbegin(); row != rows->rend(); ++row) {
            put->reset();
            for (std::size_t i = 0; i < width; ++i)
                put->bind(static_cast<int>(i + 1), (*row)[i]);
            CDC_TRY(put->run());
        }
    }
    return Status::success();
}

} // namespace

std::string publicViewSql(const StoredTarget& t) {
    return publicViewFor(storage::TargetTables(t.name), layoutOf(t), publicNames(t.columns, t.scd2()),
                         t.columns.size(), t.keyIndex);
}

std::string changeFeedViewSql(const StoredTarget& t) {
    return changeFeedViewFor(storage::TargetTables(t.name), publicNames(t.columns, t.scd2()));
}

std::string backingColumns(const TargetPlan& t) {
    return backingColumnsFor(layoutOf(t), t.columns.size());
}

Status ensureGlobalSchema(storage::Database& db) {
    CDC_TRY(storage::Catalog::ensureSchema(db));
    if (db.tablesExist({"__cdc_updates", "__cdc_update_log", "__cdc_checkpoints", "__cdc_targets",
                        "__cdc_target_state", "__cdc_target_definitions", "__cdc_snapshot_versions"}))
        return Status::success(); // every update asks: a query instead of parsing seven CREATEs
    return db.exec(R"sql(
CREATE TABLE IF NOT EXISTS __cdc_updates(
  update_id INTEGER PRIMARY KEY, now INTEGER NOT NULL, full_refresh INTEGER NOT NULL, duration_ms REAL);
CREATE TABLE IF NOT EXISTS __cdc_update_log(
  update_id INTEGER NOT NULL, flow TEXT NOT NULL, target TEXT NOT NULL, rows_read INTEGER, upserted INTEGER,
  deleted INTEGER, stale_dropped INTEGER, versions_opened INTEGER, versions_closed INTEGER, versions_split INTEGER,
  tombstones_created INTEGER, tombstones_collected INTEGER, ties INTEGER, duration_ms REAL, error TEXT);
CREATE TABLE IF NOT EXISTS __cdc_checkpoints(
  flow TEXT NOT NULL COLLATE NOCASE, input TEXT NOT NULL COLLATE NOCASE, update_id INTEGER NOT NULL,
  last_rowid INTEGER NOT NULL, change_seq INTEGER NOT NULL, PRIMARY KEY(flow, input, update_id));
CREATE TABLE IF NOT EXISTS __cdc_targets(
  name TEXT PRIMARY KEY COLLATE NOCASE, signature TEXT NOT NULL, scd_type INTEGER NOT NULL, keys TEXT NOT NULL,
  ncols INTEGER NOT NULL, created_in INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS __cdc_target_state(
  target TEXT NOT NULL COLLATE NOCASE, update_id INTEGER NOT NULL, wm_key, wm_value, PRIMARY KEY(target, update_id));
CREATE TABLE IF NOT EXISTS __cdc_target_definitions(
  target TEXT NOT NULL COLLATE NOCASE, update_id INTEGER NOT NULL, definition INTEGER NOT NULL,
  PRIMARY KEY(target, update_id));
CREATE TABLE IF NOT EXISTS __cdc_snapshot_versions(
  flow TEXT NOT NULL COLLATE NOCASE, update_id INTEGER NOT NULL, version_key, version,
  PRIMARY KEY(flow, update_id));
)sql");
}

namespace {

/// The signature the registry holds for `name`, if it holds the target.
Result<std::optional<std::string>> storedSignature(const storage::Database& db, const std::string& name) {
    auto st = db.prepare("SELECT signature FROM __cdc_targets WHERE name = ?1");
    if (!st)
        return st.error();
    st->bind(1, std::string_view(name));
    auto has = st->step();
    if (!has)
        return has.error();
    if (!has.value())
        return std::optional<std::string>();
    return std::optional<std::string>(st->text(0));
}

Diagnostic schemaChanged(const TargetPlan& t, const std::string& stored) {
    return Diagnostic::error(
        "TARGET_SCHEMA_CHANGED",
        "the definition of '" + t.name + "' changed (" +
            (stored.rfind(kStoreLayoutTag, 0) == 0
                 ? std::string(t.autoCdc() ? "keys, columns, sequence type or SCD type" : "its columns")
                 : std::string("it was stored by an older CDC Studio")) +
            "); a full refresh rebuilds it (Run > Run Full Refresh in the app, "
            "--full-refresh with cdcstudio-cli)",
        t.location);
}

/// A target built afresh starts without a truncate watermark (§10.4: a full refresh drops all CDC state),
/// also over the state rows an earlier target of this name left; rewind removes this row.
Status clearState(UpdateContext& ctx, const TargetPlan& t) {
    return run(ctx.db,
               "INSERT OR REPLACE INTO __cdc_target_state(target, update_id, wm_key, wm_value) "
               "VALUES (?1, ?2, NULL, NULL)",
               {t.name, ctx.updateId});
}

/// The registry's scd_type column also tells the dataset kinds apart (StoredTarget.cpp reads it back).
std::int64_t kindCode(const TargetPlan& t) {
    switch (t.kind) {
    case DatasetKind::Append:
        return kAppendKindCode;
    case DatasetKind::MaterializedView:
        return kMaterializedKindCode;
    case DatasetKind::AutoCdc:
        break;
    }
    return static_cast<std::int64_t>(t.scdType);
}

Status registerInCatalog(UpdateContext& ctx, const TargetPlan& t) {
    storage::TableInfo info;
    info.name = t.name;
    info.sqliteName = t.tables.view;
    info.kind = t.kind == DatasetKind::MaterializedView ? storage::TableKind::MaterializedView
                                                        : storage::TableKind::Target;
    info.columns = t.publicColumns();
    for (const auto& [k, v] : t.properties)
        info.properties[toLower(k)] = v;
    // Re-registering an unchanged target rewrote its catalog rows on every update.
    auto registered = storage::Catalog::find(ctx.db, t.name);
    if (!registered)
        return registered.error();
    if (registered.value() && *registered.value() == info)
        return Status::success();
    return storage::Catalog::put(ctx.db, info);
}

/// (Re)creates every object of the target, empty, and registers it.
Status createTarget(UpdateContext& ctx, const TargetPlan& t, bool registered) {
    auto existing = storage::Catalog::find(ctx.db, t.name);
    if (!existing)
        return existing.error();
    if (!registered && existing.value() && equalsIgnoreCase(existing.value()->name, t.name))
        return Diagnostic::error("NAME_CONFLICT",
                                 "'" + t.name + "' already exists as a " +
                                     storage::tableKindName(existing.value()->kind) +
                                     "; a table of the pipeline needs a name of its own",
                                 t.location);
    CDC_TRY(clearState(ctx, t));
    CDC_TRY(dropObjects(ctx.db, t.name));
    CDC_TRY(createObjects(ctx.db, t));
    CDC_TRY(run(ctx.db,
                "INSERT OR REPLACE INTO __cdc_targets(name, signature, scd_type, keys, ncols, created_in) "
                "VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                {t.name, t.signature(), kindCode(t), keysText(t.keyIndex),
                 static_cast<std::int64_t>(t.columns.size()), ctx.updateId}));
    return registerInCatalog(ctx, t);
}

} // namespace

Status setUpTarget(UpdateContext& ctx, const TargetPlan& t, bool reset) {
    auto stored = storedSignature(ctx.db, t.name);
    if (!stored)
        return stored.error();
    if (!stored.value())
        return createTarget(ctx, t, false);
    // A changed definition is rebuilt by the update itself (a full refresh, or any update of a
    // materialized view): dropping stored rows is not set-up.
    if (*stored.value() != t.signature() && !reset && t.kind != DatasetKind::MaterializedView)
        return schemaChanged(t, *stored.value());
    return Status::success();
}

Status prepareTarget(UpdateContext& ctx, const TargetPlan& t, bool reset) {
    auto stored = storedSignature(ctx.db, t.name);
    if (!stored)
        return stored.error();
    if (stored.value() && *stored.value() == t.signature() && !ctx.rebuild.count(toLower(t.name))) {
        if (reset) {
            CDC_TRY(clearState(ctx, t));
            CDC_TRY(resetState(ctx, t));
        }
        return registerInCatalog(ctx, t);
    }
    if (stored.value() && !reset && t.kind != DatasetKind::MaterializedView)
        return schemaChanged(t, *stored.value());
    return createTarget(ctx, t, stored.value().has_value());
}

Status recordDefinition(UpdateContext& ctx, const std::string& target, std::uint64_t definition) {
    // A row per change of definition, not per update: most updates only read, and write no page here.
    auto last = ctx.db.prepare(
        "SELECT definition FROM __cdc_target_definitions WHERE target = ?1 ORDER BY update_id DESC LIMIT 1");
    if (!last)
        return last.error();
    last->bind(1, std::string_view(target));
    auto has = last->step();
    if (!has)
        return has.error();
    if (has.value() && last->int64(0) == static_cast<std::int64_t>(definition))
        return Status::success();
    last->reset();
    return run(
        ctx.db,
        "INSERT OR REPLACE INTO __cdc_target_definitions(target, update_id, definition) VALUES (?1, ?2, ?3)",
        {target, ctx.updateId, static_cast<std::int64_t>(definition)});
}

Result<std::int64_t> collectTombstones(UpdateContext& ctx, const TargetPlan& t) {
    if (t.scdType != pipeline::ScdType::Type1 || !t.autoCdc())
        return 0;
    const int phase = ctx.nextPhase();
    const std::int64_t cutoff = ctx.now - t.gcThresholdSeconds;
    const std::string due = "__cdc_d IS NOT NULL AND __cdc_deleted_at <= ?1";
    auto count = scalar(ctx.db, "SELECT count(*) FROM " + q(t.tables.backing) + " WHERE " + due, {cutoff});
    if (!count || count.value() == 0)
        return count;
    UndoJournal undo(t.tables.undo);
    CDC_TRY(undo.saveQuery(
        ctx.db, "SELECT " + backingColumns(t) + " FROM " + q(t.tables.backing) + " WHERE " + due, {cutoff}));
    CDC_TRY(undo.flush(ctx.db, ctx.updateId, phase));
    CDC_TRY(run(ctx.db,
                "INSERT INTO " + q(t.tables.gcLog) + " SELECT " + keyList(t.keyIndex) +
                    ", __cdc_dv, __cdc_deleted_at, __cdc_deleted_at + ?2, ?3 FROM " + q(t.tables.backing) +
                    " WHERE " + due,
                {cutoff, t.gcThresholdSeconds, ctx.updateId}));
    CDC_TRY(run(ctx.db, "DELETE FROM " + q(t.tables.backing) + " WHERE " + due, {cutoff}));
    return count;
}

Result<std::optional<Watermark>> truncateWatermark(const storage::Database& db, const std::string& target) {
    auto st = db.prepare("SELECT wm_key, wm_value FROM __cdc_target_state WHERE target = ?1 "
                         "ORDER BY update_id DESC LIMIT 1");
    if (!st)
        return st.error();
    st->bind(1, std::string_view(target));
    auto has = st->step();
    if (!has)
        return has.error();
    if (!has.value() || st->isNull(0))
        return std::optional<Watermark>{};
    return std::optional<Watermark>(Watermark{st->value(0), st->value(1)});
}

Status setTruncateWatermark(UpdateContext& ctx, const std::string& target, const Watermark& w) {
    return run(ctx.db,
               "INSERT OR REPLACE INTO __cdc_target_state(target, update_id, wm_key, wm_value) VALUES (?1, "
               "?2, ?3, ?4)",
               {target, ctx.updateId, w.key, w.value});
}

Result<Checkpoint> checkpoint(const storage::Database& db, const std::string& flow,
                              const std::string& input) {
    auto st =
        db.prepare("SELECT last_rowid, change_seq FROM __cdc_checkpoints WHERE flow = ?1 AND input = ?2 "
                   "ORDER BY update_id DESC LIMIT 1");
    if (!st)
        return st.error();
    st->bind(1, std::string_view(flow)).bind(2, std::string_view(input));
    auto has = st->step();
    if (!has)
        return has.error();
    Checkpoint c;
    if (has.value()) {
        c.lastRowId = st->int64(0);
        c.changeSeq = st->int64(1);
        c.exists = true;
    }
    return c;
}

Status saveCheckpoint(UpdateContext& ctx, const std::string& flow, const std::string& input,
                      const Checkpoint& c) {
    return run(ctx.db,
               "INSERT OR REPLACE INTO __cdc_checkpoints(flow, input, update_id, last_rowid, change_seq) "
               "VALUES (?1, ?2, ?3, ?4, ?5)",
               {flow, input, ctx.updateId, c.lastRowId, c.changeSeq});
}

Status rewind(storage::Database& db, std::int64_t updateId) {
    CDC_TRY(ensureGlobalSchema(db));
    auto targets = storedTargets(db);
    if (!targets)
        return targets.error();
    std::vector<std::int64_t> updates;
    {
        auto st =
            db.prepare("SELECT update_id FROM __cdc_updates WHERE update_id > ?1 ORDER BY update_id DESC");
        if (!st)
            return st.error();
        st->bind(1, updateId);
        CDC_TRY(st->forEachRow([&](const storage::Statement& row) { updates.push_back(row.int64(0)); }));
    }
    for (std::int64_t u : updates) {
        for (const StoredTarget& t : targets.value()) {
            if (t.createdIn > u)
                continue; // rebuilt later than u: its objects do not hold u's undo rows
            const storage::TargetTables n(t.name);
            CDC_TRY(restoreJournal(db, t, n, u));
            CDC_TRY(run(db, "DELETE FROM " + q(n.undo) + " WHERE __u_upd = ?1", {u}));
            // Rows the update created carry its id; rows it changed were restored above.
            CDC_TRY(run(db, "DELETE FROM " + q(n.backing) + " WHERE __cdc_upd = ?1", {u}));
            CDC_TRY(run(db, "DELETE FROM " + q(n.changeFeedRows) + " WHERE _commit_version = ?1", {u}));
            if (t.kind == DatasetKind::AutoCdc)
                CDC_TRY(run(db, "DELETE FROM " + q(n.gcLog) + " WHERE __COLLECTED_IN = ?1", {u}));
        }
        for (const char* table : {"__cdc_update_log", "__cdc_checkpoints", "__cdc_target_state",
                                  "__cdc_target_definitions", "__cdc_snapshot_versions", "__cdc_updates"})
            CDC_TRY(run(db, std::string("DELETE FROM ") + table + " WHERE update_id = ?1", {u}));
    }
    for (const StoredTarget& t : targets.value()) {
        if (t.createdIn <= updateId)
            continue;
        CDC_TRY(dropObjects(db, t.name));
        CDC_TRY(storage::Catalog::remove(db, t.name));
        CDC_TRY(run(db, "DELETE FROM __cdc_targets WHERE name = ?1", {t.name}));
    }
    return Status::success();
}

} // namespace cdc::engine::store
