#include "BenchDatabase.h"

#include <cstdio>

namespace cdc::bench {

Result<storage::Database> openFreshDatabase(const std::string& path, const std::vector<std::string>& pragmas) {
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

} // namespace cdc::bench
