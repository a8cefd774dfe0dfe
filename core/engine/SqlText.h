#pragma once
/// Small helpers to generate the engine's internal SQL. Internal tables name data columns c0, c1, ...
/// so user column names (any case, any character) only ever appear quoted in the public view and feed.

#include "core/common/Diagnostic.h"
#include "core/storage/Database.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace cdc::engine::sqltext {

inline std::string col(std::size_t i) {
    std::string name = "c"; // not `"c" + to_string(i)`: GCC 12 -O3 warns falsely (-Wrestrict) on that form
    name += std::to_string(i);
    return name;
}

/// `f(0) sep f(1) sep ...`
inline std::string join(std::size_t n, const std::function<std::string(std::size_t)>& f,
                        const char* sep = ", ") {
    std::string out;
    for (std::size_t i = 0; i < n; ++i)
        out += (i ? sep : "") + f(i);
    return out;
}

/// `text` with every `from` replaced by `to` (placeholders of the plans' SQL templates).
inline std::string replaceAll(std::string text, const std::string& from, const std::string& to) {
    for (std::size_t pos = 0; (pos = text.find(from, pos)) != std::string::npos; pos += to.size())
        text.replace(pos, from.size(), to);
    return text;
}

/// SCD2 version values live next to the event values of the same (key, sequence) row.
inline std::string vcol(std::size_t i) {
    std::string name = "v";
    name += std::to_string(i);
    return name;
}

/// `?1, ?2, ... ?n`
inline std::string placeholders(std::size_t n) {
    std::string out;
    for (std::size_t i = 1; i <= n; ++i) {
        if (i > 1)
            out += ", ";
        out += '?';
        out += std::to_string(i);
    }
    return out;
}

/// `a.cK0 = b.cK0 AND ...` over the key positions.
inline std::string keyJoin(const std::vector<int>& keys, const std::string& a, const std::string& b) {
    return join(
        keys.size(),
        [&](std::size_t i) {
            return a + "." + col(static_cast<std::size_t>(keys[i])) + " = " + b + "." +
                   col(static_cast<std::size_t>(keys[i]));
        },
        " AND ");
}

inline std::string keyList(const std::vector<int>& keys, const std::string& prefix = "") {
    return join(keys.size(), [&](std::size_t i) { return prefix + col(static_cast<std::size_t>(keys[i])); });
}

/// Runs a query and returns its first column of the first row as an integer (0 when no row / NULL).
inline Result<std::int64_t> scalar(const storage::Database& db, const std::string& sql,
                                   const std::vector<Value>& binds = {}) {
    auto st = db.prepare(sql);
    if (!st)
        return st.error();
    for (std::size_t i = 0; i < binds.size(); ++i)
        st->bind(static_cast<int>(i + 1), binds[i]);
    auto has = st->step();
    if (!has)
        return has.error();
    return has.value() && !st->isNull(0) ? st->int64(0) : 0;
}

inline Status run(storage::Database& db, const std::string& sql, const std::vector<Value>& binds = {}) {
    auto st = db.prepare(sql);
    if (!st)
        return Diagnostic::error("SQLITE", st.error().message + " [in: " + sql.substr(0, 200) + "]");
    for (std::size_t i = 0; i < binds.size(); ++i)
        st->bind(static_cast<int>(i + 1), binds[i]);
    return st->run();
}

} // namespace cdc::engine::sqltext
