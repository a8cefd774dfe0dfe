#pragma once
/// Whole-database copies through the sqlite3 online backup API: the GUI works on a temporary working
/// copy of a project and saves (or snapshots for undo) by copying pages, never by copying files.

#include "core/common/Diagnostic.h"
#include "core/storage/Database.h"

struct sqlite3_backup;

namespace cdc::storage {

/// A copy made a few pages at a time (sqlite3_backup_step), so that a caller on an event loop never blocks
/// for a whole large database. Changes made through `from`'s own connection between steps reach the copy;
/// a change by another connection makes SQLite start the copy over. Both connections must outlive it.
class IncrementalCopy {
public:
    static Result<IncrementalCopy> start(Database& from, Database& to);
    IncrementalCopy(IncrementalCopy&& other) noexcept;
    IncrementalCopy& operator=(IncrementalCopy&&) = delete;
    IncrementalCopy(const IncrementalCopy&) = delete;
    IncrementalCopy& operator=(const IncrementalCopy&) = delete;
    /// Abandons an unfinished copy (the destination is then incomplete).
    ~IncrementalCopy();

    /// Copies up to `pages` more pages (-1: all that are left). True once the copy is complete.
    Result<bool> step(int pages);
    /// Pages still to copy and the source's page count, as of the last step.
    int remaining() const;
    int pageCount() const;

private:
    explicit IncrementalCopy(sqlite3_backup* backup) : m_backup(backup) {}
    Status finish();
    sqlite3_backup* m_backup;
};

/// Copies every page of `from` into `to` (replacing its content). Both connections stay usable.
Status copyDatabase(Database& from, Database& to);

/// An in-memory copy of `db`, e.g. to restore it later with copyDatabase(copy, db).
Result<Database> snapshotToMemory(Database& db);

} // namespace cdc::storage
