// Files a previous run left are deleted first, so every method starts from an empty database whatever
// ran before; pragmas are stepped rather than exec()'d because some answer with a row.
#include "BenchDatabase.h"

#include <sqlite3.h>

#include <cstdio>

namespace cdc::bench {

Result<storage::Database> openFreshDatabase(const std::string& path,
                                            const std::vector<std::string>& pragmas) {
    for (const char* suffix : {"", "-journal", "-wal", "-shm"})
        std::remove((path + suffix).c_str());
    auto db = storage::Database::open(path);
    if (!db)
        return db;
    for (const std::string& pragma : pragmas) {
        // journal_mode answers with a row, so step a statement rather than exec().
        auto st = db->prepare("PRAGMA " + pragma);
        if (!st)
            return st.error();
        while (true) {
            auto row = st->step();
            if (!row)
                return row.error();
            if (!row.value())
                break;
        }
    }
    return db;
}

Status checkpointWal(storage::Database& db) {
    // TRUNCATE waits for nothing here (one connection) and is a no-op outside WAL mode.
    if (sqlite3_wal_checkpoint_v2(db.handle(), nullptr, SQLITE_CHECKPOINT_TRUNCATE, nullptr, nullptr) !=
        SQLITE_OK)
        return db.lastError("checkpoint");
    return Status::success();
}

} // namespace cdc::bench
