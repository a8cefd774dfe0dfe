#include "core/storage/StarExpansion.h"

#include "core/common/Text.h"

#include <cstdlib>

namespace cdc::storage {

namespace {

constexpr std::string_view kOpen = "{{STAR:";
constexpr std::string_view kClose = "{{/STAR}}";
constexpr char kField = '\x1f';
constexpr char kItem = '\x1e';

// Hex keeps the payload free of the `}}` that ends the marker and of anything SQL would read.
std::string toHex(const std::string& s) {
    static const char* digits = "0123456789abcdef";
    std::string out;
    for (unsigned char c : s) {
        out += digits[c >> 4];
        out += digits[c & 15];
    }
    return out;
}

std::string fromHex(std::string_view s) {
    auto nibble = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
    std::string out;
    for (std::size_t i = 0; i + 1 < s.size(); i += 2)
        out += static_cast<char>(nibble(s[i]) * 16 + nibble(s[i + 1]));
    return out;
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::size_t pos = 0;
    for (;;) {
        std::size_t hit = s.find(sep, pos);
        out.push_back(s.substr(pos, hit == std::string::npos ? hit : hit - pos));
        if (hit == std::string::npos)
            return out;
        pos = hit + 1;
    }
}

StarSelection decode(const std::string& payload) {
    std::vector<std::string> f = split(fromHex(payload), kField);
    f.resize(8);
    StarSelection s;
    s.qualifier = f[0];
    if (!f[1].empty())
        s.except = split(f[1], kItem);
    s.location.file = f[2];
    s.location.line = std::atoi(f[3].c_str());
    s.location.column = std::atoi(f[4].c_str());
    s.location.offset = std::strtoull(f[5].c_str(), nullptr, 10);
    s.location.length = std::strtoull(f[6].c_str(), nullptr, 10);
    s.structSql = f[7];
    return s;
}

/// The fields of `s.*`: the keys of the first value of the struct that is not NULL, in their order.
Result<std::vector<std::string>> structFields(const Database& db, const std::string& probe,
                                              const StarSelection& star) {
    auto st = db.prepare("SELECT key FROM json_each((SELECT \"__cdc_struct\" FROM (" + probe +
                         ") WHERE \"__cdc_struct\" IS NOT NULL LIMIT 1))");
    if (!st)
        return Diagnostic::error("INVALID_EXTRACT_BASE_FIELD_TYPE",
                                 "the fields of a struct cannot be listed: " + st.error().message,
                                 star.location);
    std::vector<std::string> names;
    auto status = st->forEachRow([&](Statement& row) { names.push_back(row.text(0)); });
    if (!status)
        return Diagnostic::error("INVALID_EXTRACT_BASE_FIELD_TYPE",
                                 "the value is not a struct: " + status.error().message, star.location);
    if (names.empty())
        return Diagnostic::error("INVALID_EXTRACT_BASE_FIELD_TYPE",
                                 "the struct's fields cannot be listed: it has no value yet", star.location);
    return names;
}

} // namespace

std::string starMarker(const StarSelection& selection, const std::string& probeSql) {
    std::string except;
    for (const auto& name : selection.except)
        except += (except.empty() ? "" : std::string(1, kItem)) + name;
    const SourceLocation& l = selection.location;
    const std::string payload = selection.qualifier + kField + except + kField + l.file + kField +
                                std::to_string(l.line) + kField + std::to_string(l.column) + kField +
                                std::to_string(l.offset) + kField + std::to_string(l.length) + kField +
                                selection.structSql;
    return std::string(kOpen) + toHex(payload) + "}}" + probeSql + std::string(kClose);
}

bool hasStarMarker(const std::string& sql) {
    return sql.find(kOpen) != std::string::npos;
}

Result<std::string> expandStarMarkers(const Database& db, std::string sql,
                                      const std::function<std::string(std::string)>& probeFixup,
                                      std::string* mirror) {
    for (;;) {
        // The first close belongs to the innermost marker: its open is the last one before it.
        const std::size_t close = sql.find(kClose);
        if (close == std::string::npos)
            return sql;
        const std::size_t open = sql.rfind(kOpen, close);
        const std::size_t payloadEnd = sql.find("}}", open);
        const StarSelection star = decode(sql.substr(open + kOpen.size(), payloadEnd - open - kOpen.size()));
        std::string probe = sql.substr(payloadEnd + 2, close - payloadEnd - 2);
        if (probeFixup)
            probe = probeFixup(std::move(probe));
        auto st = db.prepare("SELECT * FROM (" + probe + ") LIMIT 0");
        if (!st)
            return Diagnostic::error("UNRESOLVED_COLUMN",
                                     "the columns of " +
                                         (star.qualifier.empty() ? "*" : star.qualifier + ".*") +
                                         " cannot be listed: " + st.error().message,
                                     star.location);
        std::vector<std::string> names;
        if (star.structSql.empty()) {
            for (int c = 0; c < st->columnCount(); ++c)
                names.push_back(st->columnName(c));
        } else {
            auto fields = structFields(db, probe, star);
            if (!fields)
                return fields.error();
            names = std::move(fields.value());
        }
        for (std::size_t i = 0; i < star.except.size(); ++i) {
            const std::string& name = star.except[i];
            for (std::size_t k = 0; k < i; ++k)
                if (equalsIgnoreCase(star.except[k], name))
                    return Diagnostic::error("EXCEPT_OVERLAPPING_COLUMNS",
                                             "column '" + name + "' is named twice in EXCEPT", star.location);
            bool found = false;
            for (const auto& n : names)
                found = found || equalsIgnoreCase(n, name);
            if (!found) {
                std::string all;
                for (const auto& n : names)
                    all += (all.empty() ? "" : ", ") + n;
                return Diagnostic::error("UNRESOLVED_COLUMN",
                                         "EXCEPT names column '" + name + "', which " +
                                             (star.qualifier.empty() ? "the FROM clause" : star.qualifier) +
                                             " does not have (columns: " + all + ")",
                                         star.location);
            }
        }
        std::string list;
        for (const auto& n : names) {
            bool excluded = false;
            for (const auto& e : star.except)
                excluded = excluded || equalsIgnoreCase(n, e);
            if (excluded)
                continue;
            list += list.empty() ? "" : ", ";
            if (!star.structSql.empty())
                list += "json_extract(" + star.structSql + ", " + quoteString("$.\"" + n + "\"") + ") AS " +
                        quoteIdentifier(n);
            else
                list += (star.qualifier.empty() ? "" : quoteIdentifier(star.qualifier) + ".") +
                        quoteIdentifier(n);
        }
        if (list.empty())
            return Diagnostic::error("UNRESOLVED_COLUMN", "EXCEPT leaves no column to select", star.location);
        sql.replace(open, close + kClose.size() - open, list);
        if (mirror) {
            const std::size_t mirrorClose = mirror->find(kClose);
            const std::size_t mirrorOpen =
                mirrorClose == std::string::npos ? std::string::npos : mirror->rfind(kOpen, mirrorClose);
            if (mirrorOpen == std::string::npos)
                return Diagnostic::error("INTERNAL", "star markers differ between a query and its probe",
                                         star.location);
            mirror->replace(mirrorOpen, mirrorClose + kClose.size() - mirrorOpen, list);
        }
    }
}

} // namespace cdc::storage
