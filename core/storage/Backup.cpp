#include "core/storage/Backup.h"

#include <sqlite3.h>

#include <chrono>
#include <thread>
#include <utility>

namespace cdc::storage {

namespace {

Status copyPages(Database& from, Database& to) {
    auto copy = IncrementalCopy::start(from, to);
    if (!copy)
        return copy.error();
    auto done = copy->step(-1);
    if (!done)
        return done.error();
    if (!done.value())
        return Diagnostic::error("SQLITE", "database copy failed: the database is locked");
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

/// Takes `db` out of WAL mode. That needs every other connection to the file closed, which SQLite does
/// not wait for as it waits for a write lock (busy timeout): a connection that is about to close (the
/// checkpoint the GUI runs after an update, a reader) is waited for as long, instead of failing the copy.
Status leaveWal(Database& db) {
    using Clock = std::chrono::steady_clock;
    const auto giveUp = Clock::now() + std::chrono::seconds(5);
    while (true) {
        Status left = db.exec("PRAGMA journal_mode = DELETE");
        if (left || (sqlite3_errcode(db.handle()) & 0xff) != SQLITE_BUSY || Clock::now() > giveUp)
            return left;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
}

} // namespace

Result<IncrementalCopy> IncrementalCopy::start(Database& from, Database& to) {
    sqlite3_backup* backup = sqlite3_backup_init(to.handle(), "main", from.handle(), "main");
    if (!backup)
        return to.lastError("cannot start the database copy");
    return IncrementalCopy(backup);
}

IncrementalCopy::IncrementalCopy(IncrementalCopy&& other) noexcept
    : m_backup(std::exchange(other.m_backup, nullptr)) {}

IncrementalCopy::~IncrementalCopy() {
    if (m_backup)
        sqlite3_backup_finish(m_backup);
}

Status IncrementalCopy::finish() {
    const int rc = sqlite3_backup_finish(std::exchange(m_backup, nullptr));
    if (rc != SQLITE_OK)
        return Diagnostic::error("SQLITE", std::string("database copy failed: ") + sqlite3_errstr(rc));
    return {};
}

Result<bool> IncrementalCopy::step(int pages) {
    if (!m_backup)
        return true;
    const int rc = sqlite3_backup_step(m_backup, pages);
    if (rc == SQLITE_DONE) {
        CDC_TRY(finish());
        return true;
    }
    // BUSY and LOCKED are passing states: the next step tries again.
    if (rc == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
        return false;
    (void)finish();
    return Diagnostic::error("SQLITE", std::string("database copy failed: ") + sqlite3_errstr(rc));
}

int IncrementalCopy::remaining() const {
    return m_backup ? sqlite3_backup_remaining(m_backup) : 0;
}

int IncrementalCopy::pageCount() const {
    return m_backup ? sqlite3_backup_pagecount(m_backup) : 0;
}

Status copyDatabase(Database& from, Database& to) {
    // The copy takes the source's page size, which a database in WAL mode cannot change: files written
    // with another page size (older projects, other tools) could not be copied. Leave WAL for the copy.
    auto wal = inWalMode(to);
    if (!wal)
        return wal.error();
    if (wal.value())
        CDC_TRY(leaveWal(to));
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
