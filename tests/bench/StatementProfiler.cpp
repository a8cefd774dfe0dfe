// SQLite's own trace hook rather than a wrapper around storage::Statement, so profiling needs no change
// in core and sees every statement the connection runs.
#include "StatementProfiler.h"

#include <sqlite3.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <ostream>
#include <vector>

namespace cdc::bench {

namespace {
std::string oneLine(const char* sql, std::size_t max) {
    std::string out;
    bool space = false;
    for (const char* p = sql; *p && out.size() < max; ++p) {
        const bool ws = *p == ' ' || *p == '\n' || *p == '\t' || *p == '\r';
        if (ws && !space && !out.empty())
            out += ' ';
        if (!ws)
            out += *p;
        space = ws;
    }
    return out;
}
/// Statements that embed per-update literals (a source rowid range) are one statement: numbers that are
/// not part of an identifier or a `?N` parameter become `#`.
std::string normalized(const char* sql) {
    std::string out;
    for (const char* p = sql; *p; ++p) {
        const unsigned char prev = out.empty() ? ' ' : static_cast<unsigned char>(out.back());
        const bool numberStart = std::isdigit(static_cast<unsigned char>(*p)) && !std::isalnum(prev) &&
                                 prev != '_' && prev != '?' && prev != '#';
        if (!numberStart) {
            out += *p;
            continue;
        }
        while (std::isdigit(static_cast<unsigned char>(p[1])))
            ++p;
        out += '#';
    }
    return out;
}
} // namespace

void StatementProfiler::attach(sqlite3* db) {
    sqlite3_trace_v2(db, SQLITE_TRACE_PROFILE, &onTrace, this);
}

void StatementProfiler::detach(sqlite3* db) {
    sqlite3_trace_v2(db, 0, nullptr, nullptr);
}

int StatementProfiler::onTrace(unsigned type, void* self, void* stmt, void* nanoseconds) {
    if (type != SQLITE_TRACE_PROFILE)
        return 0;
    auto* profiler = static_cast<StatementProfiler*>(self);
    const char* sql = sqlite3_sql(static_cast<sqlite3_stmt*>(stmt));
    Cost& cost = profiler->m_costs[sql ? normalized(sql) : "?"];
    ++cost.calls;
    cost.nanoseconds += *static_cast<sqlite3_int64*>(nanoseconds);
    return 0;
}

void StatementProfiler::print(std::ostream& out, const std::string& title, std::size_t limit) const {
    std::vector<std::pair<std::string, Cost>> sorted(m_costs.begin(), m_costs.end());
    std::sort(sorted.begin(), sorted.end(),
              [](const auto& a, const auto& b) { return a.second.nanoseconds > b.second.nanoseconds; });
    std::int64_t total = 0;
    for (const auto& entry : sorted)
        total += entry.second.nanoseconds;
    char line[96];
    std::snprintf(line, sizeof line, "%.1f", static_cast<double>(total) / 1e6);
    out << "\n" << title << ": time per SQL statement (" << line << " ms traced in all)\n";
    out << "      ms  share   calls  statement\n";
    for (std::size_t i = 0; i < sorted.size() && i < limit; ++i) {
        const Cost& c = sorted[i].second;
        std::snprintf(line, sizeof line, "%8.1f %5.1f%% %7lld  ", static_cast<double>(c.nanoseconds) / 1e6,
                      total ? 100.0 * static_cast<double>(c.nanoseconds) / static_cast<double>(total) : 0.0,
                      static_cast<long long>(c.calls));
        out << line << oneLine(sorted[i].first.c_str(), 400) << "\n";
    }
}

} // namespace cdc::bench
