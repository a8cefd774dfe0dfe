#pragma once
/// Which SQL statements an update spends its time in: SQLite's SQLITE_TRACE_PROFILE reports every
/// finished statement with its run time; times are summed per statement text.

#include <cstdint>
#include <iosfwd>
#include <map>
#include <string>

struct sqlite3;

namespace cdc::bench {

class StatementProfiler {
public:
    void attach(sqlite3* db);
    void detach(sqlite3* db);
    /// The `limit` most expensive statements, with their share of all traced time.
    void print(std::ostream& out, const std::string& title, std::size_t limit = 12) const;

private:
    static int onTrace(unsigned type, void* self, void* stmt, void* nanoseconds);

    struct Cost {
        std::int64_t calls = 0;
        std::int64_t nanoseconds = 0;
    };
    std::map<std::string, Cost> m_costs;
};

} // namespace cdc::bench
