#include "core/storage/Backup.h"

#include <sqlite3.h>

namespace cdc::storage {

Status copyDatabase(Database& from, Database& to) {
    sqlite3_backup* backup = sqlite3_backup_init(to.handle(), "main", from.handle(), "main");
    if (!backup)
        return to.lastError("cannot start the database copy");
    const int stepRc = sqlite3_backup_step(backup, -1);
    const int finishRc = sqlite3_backup_finish(backup);
    if (stepRc != SQLITE_DONE || finishRc != SQLITE_OK)
        return Diagnostic::error("SQLITE", std::string("database copy failed: ") + sqlite3_errstr(stepRc != SQLITE_DONE ? stepRc : finishRc));
    return {};
}

Result<Database> snapshotToMemory(Database& db) {
    auto memory = Database::openMemory();
    if (!memory)
        return memory.error();
    CDC_TRY(copyDatabase(db, *memory));
    return std::move(memory).value();
}

} // namespace cdc::storage
