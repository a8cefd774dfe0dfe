#include "core/storage/Backup.h"

#include <sqlite3.h>

namespace cdc::storage {

namespace {

Status copyPages(Database& from, Database& to) {
    sqlite3_backup* backup = sqlite3_backup_init(to.handle(), "main", from.handle(), "main");
    if (!backup)
        return to.lastError("cannot start the database copy");
    const int stepRc = sqlite3_backup_step(backup, -1);
    const int finishRc = sqlite3_backup_finish(backup);
    if (stepRc != SQLITE_DONE || finishRc != SQLITE_OK)
        return Diagnostic::error("SQLITE", std::string("database copy failed: ") +
                                               sqlite3_errstr(stepRc != SQLITE_DONE ? stepRc : finishRc));
    return {};
}

Result<bool> inWalMode(Database& db) {
    auto mode = db.prepare("PRAGMA journal_mode");
    if (!mode)
        return mode.error();
    auto has = mode->step();
    if (!has)
        return has.error();
    return has.value() && mode->text(0) == "wal";
}

} // namespace

Status copyDatabase(Database& from, Database& to) {
    // The copy takes the source's page size, which a database in WAL mode cannot change: files written
    // with another page size (older projects, other tools) could not be copied. Leave WAL for the copy.
    auto wal = inWalMode(to);
    if (!wal)
        return wal.error();
    if (wal.value())
        CDC_TRY(to.exec("PRAGMA journal_mode = DELETE"));
    CDC_TRY(copyPages(from, to));
    return wal.value() ? to.exec("PRAGMA journal_mode = WAL") : Status::success();
}

Result<Database> snapshotToMemory(Database& db) {
    auto memory = Database::openMemory();
    if (!memory)
        return memory.error();
    CDC_TRY(copyDatabase(db, *memory));
    return std::move(memory).value();
}

} // namespace cdc::storage
