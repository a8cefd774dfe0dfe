#include "core/storage/ForeignObjects.h"

#include "core/common/Text.h"
#include "core/storage/Catalog.h"
#include "core/storage/TargetTables.h"

#include <set>

namespace cdc::storage {

namespace {

/// The views CDC Studio makes, lower-cased: per target or materialized view of the catalog, its public view
/// and its change feed. Read from the catalog's table itself (Catalog::list also loads every column).
Result<std::set<std::string>> ownViews(const Database& db) {
    std::set<std::string> out;
    if (!db.tableExists("__cdc_catalog"))
        return out;
    auto st = db.prepare("SELECT name FROM __cdc_catalog WHERE kind IN (?1, ?2)");
    if (!st)
        return st.error();
    const std::string target = tableKindName(TableKind::Target);
    const std::string materialized = tableKindName(TableKind::MaterializedView);
    st->bind(1, std::string_view(target)).bind(2, std::string_view(materialized));
    CDC_TRY(st->forEachRow([&](const Statement& row) {
        const TargetTables tables(row.text(0));
        out.insert(toLower(tables.view));
        out.insert(toLower(tables.changeFeed));
    }));
    return out;
}

} // namespace

Result<std::vector<ForeignObject>> foreignObjects(const Database& db) {
    auto own = ownViews(db);
    if (!own)
        return own.error();
    auto st = db.prepare("SELECT type, name, tbl_name FROM sqlite_schema WHERE type IN ('trigger', 'view') "
                         "ORDER BY type, name");
    if (!st)
        return st.error();
    std::vector<ForeignObject> out;
    CDC_TRY(st->forEachRow([&](const Statement& row) {
        ForeignObject o{row.text(0), row.text(1), row.text(2)};
        if (o.type == "trigger" || !own->count(toLower(o.name)))
            out.push_back(std::move(o));
    }));
    return out;
}

std::string describe(const std::vector<ForeignObject>& objects) {
    std::string out;
    for (const ForeignObject& o : objects)
        out += (out.empty() ? "" : ", ") + o.type + " " + o.name +
               (o.type == "trigger" ? " on " + o.table : std::string());
    return out;
}

Status checkForeignObjects(const Database& db) {
    auto found = foreignObjects(db);
    if (!found)
        return found.error();
    if (found->empty())
        return Status::success();
    return Diagnostic::error("FOREIGN_OBJECTS",
                             "the project holds objects CDC Studio did not make, which would run inside its "
                             "reads and writes: " +
                                 describe(*found) +
                                 "; it is not used as it is (cdcstudio-cli repair drops them)");
}

Result<std::vector<ForeignObject>> dropForeignObjects(Database& db) {
    auto found = foreignObjects(db);
    if (!found)
        return found.error();
    for (const ForeignObject& o : *found)
        CDC_TRY(db.exec(std::string(o.type == "trigger" ? "DROP TRIGGER " : "DROP VIEW ") +
                        quoteIdentifier(o.name)));
    return found;
}

} // namespace cdc::storage
