#pragma once
/// Whole-database copies through the sqlite3 online backup API: the GUI works on a temporary working
/// copy of a project and saves (or snapshots for undo) by copying pages, never by copying files.

#include "core/common/Diagnostic.h"
#include "core/storage/Database.h"

namespace cdc::storage {

/// Copies every page of `from` into `to` (replacing its content). Both connections stay usable.
Status copyDatabase(Database& from, Database& to);

/// An in-memory copy of `db`, e.g. to restore it later with copyDatabase(copy, db).
Result<Database> snapshotToMemory(Database& db);

} // namespace cdc::storage
