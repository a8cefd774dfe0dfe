#pragma once
/// Every database the benchmark measures is opened the way the product opens it (storage::Database::open),
/// plus optional `--pragma` settings applied to all of them alike, to try connection tuning fairly.

#include "core/common/Diagnostic.h"
#include "core/storage/Database.h"

#include <string>
#include <vector>

namespace cdc::bench {

/// Deletes `path` (and its journal / WAL files), then opens it and runs `PRAGMA p` for each entry.
Result<storage::Database> openFreshDatabase(const std::string& path, const std::vector<std::string>& pragmas);

/// Copies the WAL back into the database file and empties it. Every method's timing ends with one, so
/// none is credited for page copies that its connection's autocheckpoint threshold merely postponed.
Status checkpointWal(storage::Database& db);

} // namespace cdc::bench
