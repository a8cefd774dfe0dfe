#include "core/engine/ProjectCheck.h"

#include "core/common/Text.h"
#include "core/engine/SequenceCodec.h"
#include "core/engine/StoredTarget.h"
#include "core/engine/TargetStore.h"
#include "core/storage/Catalog.h"
#include "core/storage/ProjectSettings.h"
#include "core/storage/TargetTables.h"

#include <charconv>
#include <map>

namespace cdc::engine {

namespace {

/// The largest column count SQLite allows (SQLITE_MAX_COLUMN): a bigger one was never written by the engine.
constexpr std::int64_t kMaxColumns = 2000;

/// One column as PRAGMA table_info describes it: name, declared type, NOT NULL, primary-key position.
using TableShape = std::vector<std::string>;

Result<TableShape> shapeOf(const storage::Database& db, const std::string& table) {
    auto st = db.prepare("SELECT name, type, \"notnull\", pk FROM pragma_table_info(?1)");
    if (!st)
        return st.error();
    st->bind(1, std::string_view(table));
    TableShape shape;
    CDC_TRY(st->forEachRow([&](const storage::Statement& row) {
        shape.push_back(toLower(row.text(0)) + " " + toLower(row.text(1)) + " " + row.text(2) + " " +
                        row.text(3));
    }));
    return shape;
}

/// The bookkeeping tables as this version creates them, made once in memory by the same code that makes them
/// in a project: the reference cannot drift from what the engine writes.
const std::map<std::string, TableShape>& referenceTables() {
    static const std::map<std::string, TableShape> tables = [] {
        std::map<std::string, TableShape> out;
        auto db = storage::Database::openMemory();
        if (!db || !store::ensureGlobalSchema(*db) || !storage::projectsettings::ensureSchema(*db))
            return out;
        auto names = db->prepare("SELECT name FROM sqlite_schema WHERE type = 'table'");
        if (!names)
            return out;
        std::vector<std::string> list;
        (void)names->forEachRow([&](const storage::Statement& row) { list.push_back(row.text(0)); });
        for (const std::string& name : list)
            if (auto shape = shapeOf(*db, name))
                out.emplace(toLower(name), std::move(shape.value()));
        return out;
    }();
    return tables;
}

std::string columnNames(const TableShape& shape) {
    std::string out;
    for (const std::string& column : shape)
        out += (out.empty() ? "" : ", ") + column.substr(0, column.find(' '));
    return out;
}

/// Key positions as the registry writes them (`0,2,`): nullopt when the text is anything else.
std::optional<std::vector<std::int64_t>> parseKeyList(const std::string& text) {
    std::vector<std::int64_t> keys;
    const char* p = text.data();
    const char* end = p + text.size();
    while (p < end) {
        std::int64_t k = 0;
        auto [next, ec] = std::from_chars(p, end, k);
        if (ec != std::errc() || next == end || *next != ',' || k < 0)
            return std::nullopt;
        keys.push_back(k);
        p = next + 1;
    }
    return keys;
}

/// The first column of the first row of a query with one text parameter; nothing when it has no row.
Result<std::optional<Value>> firstValue(const storage::Database& db, const std::string& sql,
                                        const std::string& bind) {
    auto st = db.prepare(sql);
    if (!st)
        return st.error();
    st->bind(1, std::string_view(bind));
    auto has = st->step();
    if (!has)
        return has.error();
    return has.value() ? std::optional<Value>(st->value(0)) : std::nullopt;
}

Result<std::int64_t> count(const storage::Database& db, const std::string& sql, const std::string& bind) {
    auto value = firstValue(db, sql, bind);
    if (!value)
        return value.error();
    const auto* n = value->has_value() ? std::get_if<std::int64_t>(&**value) : nullptr;
    return n ? *n : 0;
}

/// The registry row of one target, read as raw values: any of them may be wrong.
struct RegistryRow {
    std::string name;
    std::string scdTypeOf, ncolsOf; ///< SQLite's typeof() of scd_type and ncols
    std::int64_t scdType = 0;
    std::int64_t ncols = 0;
    std::string keys;
    std::string signature;
};

/// What is wrong with one target, or "" when nothing is.
Result<std::string> problemOf(const storage::Database& db, const RegistryRow& r) {
    if (r.scdTypeOf != "integer" || r.scdType < kAppendKindCode || r.scdType > kMaterializedKindCode)
        return std::string("its SCD type in __cdc_targets is not one CDC Studio writes");
    if (r.ncolsOf != "integer" || r.ncols < 1 || r.ncols > kMaxColumns)
        return std::string("its column count in __cdc_targets is not a possible one");
    const auto keys = parseKeyList(r.keys);
    if (!keys)
        return std::string("its key list in __cdc_targets does not read as key positions");
    for (std::int64_t k : *keys)
        if (k >= r.ncols)
            return "its key position " + std::to_string(k) + " is past its " + std::to_string(r.ncols) +
                   " columns";
    const bool autoCdc = r.scdType == 1 || r.scdType == 2;
    if (autoCdc && keys->empty())
        return std::string("it is an AUTO CDC target without keys");

    auto kind = count(db,
                      "SELECT count(*) FROM __cdc_catalog WHERE name = ?1 AND kind IN ('" +
                          storage::tableKindName(storage::TableKind::Target) + "', '" +
                          storage::tableKindName(storage::TableKind::MaterializedView) + "')",
                      r.name);
    if (!kind)
        return kind.error();
    if (kind.value() != 1)
        return std::string("the catalog does not list it as a target");
    // The catalog lists SCD2's __START_AT and __END_AT after the data columns.
    const std::int64_t publicColumns = r.ncols + (r.scdType == 2 ? 2 : 0);
    auto listed = count(db, "SELECT count(*) FROM __cdc_columns WHERE table_name = ?1", r.name);
    if (!listed)
        return listed.error();
    if (listed.value() != publicColumns)
        return "the catalog lists " + std::to_string(listed.value()) + " columns where its registry says " +
               std::to_string(publicColumns);

    const storage::TargetTables tables(r.name);
    auto data = count(db,
                      "SELECT count(*) FROM pragma_table_info(?1) WHERE name GLOB 'c[0-9]*' AND "
                      "substr(name, 2) NOT GLOB '*[^0-9]*'",
                      tables.backing);
    if (!data)
        return data.error();
    if (data.value() != r.ncols)
        return "its table " + tables.backing + " has " + std::to_string(data.value()) +
               " data columns where its registry says " + std::to_string(r.ncols);
    // Its views must be the engine's to the byte: a view is SQL that runs whenever the target is read, and
    // one edited to filter or invent rows (or to never end) would lie in every result.
    auto stored = findStoredTarget(db, r.name);
    if (!stored)
        return stored.error();
    if (!stored.value())
        return std::string("the catalog does not list it as a target");
    const std::pair<std::string, std::string> views[] = {
        {tables.view, store::publicViewSql(*stored.value())},
        {tables.changeFeed, store::changeFeedViewSql(*stored.value())}};
    for (const auto& [view, expected] : views) {
        auto sql = firstValue(db, "SELECT sql FROM sqlite_schema WHERE type = 'view' AND name = ?1", view);
        if (!sql)
            return sql.error();
        if (!sql->has_value())
            return "its view " + view + " is missing";
        if (**sql != Value(expected))
            return "its view " + view + " is not the one CDC Studio writes";
    }

    // A STRUCT sequence is stored as cdc_seq_key's bytes; a truncate watermark that does not decode would
    // order the next events wrongly. (Other sequence types are stored as they are.)
    if (toLower(r.signature).find(";seq=struct") != std::string::npos &&
        db.tableExists("__cdc_target_state")) {
        auto keysOf =
            db.prepare("SELECT wm_key FROM __cdc_target_state WHERE target = ?1 AND typeof(wm_key) = 'blob'");
        if (!keysOf)
            return keysOf.error();
        keysOf->bind(1, std::string_view(r.name));
        bool valid = true;
        CDC_TRY(keysOf->forEachRow([&](const storage::Statement& row) {
            const Value v = row.value(0);
            const auto& bytes = std::get<Blob>(v).bytes;
            valid =
                validSequenceKey(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
            return valid;
        }));
        if (!valid)
            return std::string("a truncate watermark of its sequence in __cdc_target_state does not decode");
    }
    return std::string();
}

} // namespace

Status checkEngineTables(const storage::Database& db) {
    for (const auto& [name, reference] : referenceTables()) {
        if (!db.tableExists(name))
            continue; // made when first needed
        auto shape = shapeOf(db, name);
        if (!shape)
            return shape.error();
        if (shape.value() != reference)
            return Diagnostic::error(
                "PROJECT_DAMAGED",
                "table " + name + " of the project has columns (" + columnNames(shape.value()) +
                    ") where CDC Studio makes (" + columnNames(reference) +
                    "): the file was changed outside CDC Studio and is not used; open a copy that was not");
    }
    return Status::success();
}

Result<std::vector<DamagedTarget>> damagedTargets(const storage::Database& db) {
    std::vector<DamagedTarget> out;
    if (!db.tablesExist({"__cdc_targets", "__cdc_catalog", "__cdc_columns"}))
        return out;
    auto st =
        db.prepare("SELECT name, typeof(scd_type), scd_type, typeof(ncols), ncols, keys, signature FROM "
                   "__cdc_targets ORDER BY name");
    if (!st)
        return st.error();
    std::vector<RegistryRow> rows;
    CDC_TRY(st->forEachRow([&](const storage::Statement& row) {
        rows.push_back(
            {row.text(0), row.text(1), row.text(3), row.int64(2), row.int64(4), row.text(5), row.text(6)});
    }));
    for (const RegistryRow& r : rows) {
        auto problem = problemOf(db, r);
        if (!problem)
            return problem.error();
        if (!problem->empty())
            out.push_back({r.name, problem.value()});
    }
    return out;
}

Diagnostic damagedTargetsError(const std::vector<DamagedTarget>& targets) {
    std::string what;
    for (const DamagedTarget& t : targets)
        what += (what.empty() ? "" : "; ") + t.name + ": " + t.problem;
    return Diagnostic::error("TARGET_DAMAGED",
                             "the project's stored state of " +
                                 std::string(targets.size() > 1 ? "targets" : "target") +
                                 " was changed outside CDC Studio (" + what +
                                 "); a full refresh rebuilds it (Run > Run Full Refresh in the app, "
                                 "update --full-refresh with cdcstudio-cli)");
}

} // namespace cdc::engine
