#include "core/storage/ProjectSettings.h"

namespace cdc::storage::projectsettings {

Status ensureSchema(Database& db) {
    if (db.tableExists("__cdc_project"))
        return Status::success();
    return db.exec("CREATE TABLE IF NOT EXISTS __cdc_project(key TEXT PRIMARY KEY, value TEXT NOT NULL)");
}

std::optional<std::string> value(const Database& db, std::string_view key) {
    auto stmt = db.prepare("SELECT value FROM __cdc_project WHERE key = ?1");
    if (!stmt)
        return std::nullopt;
    stmt->bind(1, key);
    auto has = stmt->step();
    if (!has || !*has)
        return std::nullopt;
    return stmt->text(0);
}

Status setValue(Database& db, std::string_view key, std::string_view value) {
    CDC_TRY(ensureSchema(db));
    auto stmt = db.prepare("INSERT INTO __cdc_project(key, value) VALUES(?1, ?2) "
                           "ON CONFLICT(key) DO UPDATE SET value = excluded.value");
    if (!stmt)
        return stmt.error();
    stmt->bind(1, key).bind(2, value);
    return stmt->run();
}

} // namespace cdc::storage::projectsettings
