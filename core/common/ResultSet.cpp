#include "core/common/ResultSet.h"

#include "core/common/Utf8.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>

#include <nlohmann/json.hpp>

namespace cdc {

std::optional<OutputFormat> parseOutputFormat(const std::string& name) {
    if (name == "table")
        return OutputFormat::Table;
    if (name == "csv")
        return OutputFormat::Csv;
    if (name == "json")
        return OutputFormat::Json;
    if (name == "text")
        return OutputFormat::Text;
    return std::nullopt;
}

namespace {

using Json = nlohmann::ordered_json;

/// JSON must be UTF-8: a stored value that is not (written before SQL text was checked, or by another
/// program) shows its bad bytes as U+FFFD rather than making the whole document invalid.
Json jsonText(std::string_view s) {
    return utf8::firstInvalid(s) == std::string_view::npos ? Json(std::string(s)) : Json(utf8::repaired(s));
}

std::string dumped(const Json& j) {
    return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

} // namespace

std::string jsonString(std::string_view s) {
    return dumped(jsonText(s));
}

std::string timestampToIso(std::string_view stored) {
    std::string s(stored);
    if (s.size() >= 19 && s[10] == ' ')
        s[10] = 'T';
    if (s.size() == 10) // a bare date promoted to a timestamp
        s += "T00:00:00";
    if (!s.empty() && s.back() != 'Z' && s.find('+', 19) == std::string::npos)
        s += 'Z';
    return s;
}

std::string epochSecondsToIso(std::int64_t seconds) {
    using namespace std::chrono;
    const sys_seconds time{std::chrono::seconds{seconds}};
    const sys_days day = floor<days>(time);
    const year_month_day date{day};
    const long long inDay = (time - day).count();
    char buf[48];
    std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02lld:%02lld:%02lldZ", static_cast<int>(date.year()),
                  static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()), inDay / 3600,
                  inDay / 60 % 60, inDay % 60);
    return buf;
}

namespace {

/// An integer in a TIMESTAMP column: epoch seconds (the engine's own times).
const std::int64_t* epochSeconds(const Value& v, const std::optional<DataType>& type) {
    return type && type->kind == DataType::Kind::Timestamp ? std::get_if<std::int64_t>(&v) : nullptr;
}

/// A STRUCT, ARRAY or MAP value is stored as its JSON text: it goes into the document as that JSON, not as a
/// string (nullopt when the text is not JSON after all).
std::optional<Json> storedJson(const std::string& s) {
    if (s.empty() || (s.front() != '{' && s.front() != '['))
        return std::nullopt;
    Json parsed = Json::parse(s, nullptr, false);
    return parsed.is_discarded() ? std::nullopt : std::optional<Json>(std::move(parsed));
}

Json jsonOf(const Value& v, const std::optional<DataType>& type) {
    using K = DataType::Kind;
    if (isNull(v))
        return nullptr;
    if (type) {
        switch (type->kind) {
        case K::Boolean:
            if (auto* i = std::get_if<std::int64_t>(&v))
                return *i != 0;
            break;
        case K::Timestamp:
        case K::TimestampNtz:
            if (auto* s = std::get_if<std::string>(&v))
                return jsonText(timestampToIso(*s));
            if (auto* seconds = epochSeconds(v, type))
                return epochSecondsToIso(*seconds);
            break;
        case K::Array:
        case K::Map:
        case K::Struct:
            if (auto* s = std::get_if<std::string>(&v))
                if (auto json = storedJson(*s))
                    return *json;
            break;
        default:
            break;
        }
    }
    if (auto* i = std::get_if<std::int64_t>(&v))
        return *i;
    if (auto* d = std::get_if<double>(&v)) {
        // JSON has no NaN or infinity: Spark's JSON writes them as strings.
        if (*d != *d || *d == 1.0 / 0.0 || *d == -1.0 / 0.0)
            return *d != *d ? "NaN" : (*d > 0 ? "Infinity" : "-Infinity");
        return *d;
    }
    if (auto* s = std::get_if<std::string>(&v))
        return jsonText(*s);
    return jsonText(displayText(v));
}

} // namespace

std::string jsonValue(const Value& v, const std::optional<DataType>& type) {
    return dumped(jsonOf(v, type));
}

std::string displayValue(const Value& v, const std::optional<DataType>& type) {
    if (isNull(v))
        return "null";
    if (type && type->kind == DataType::Kind::Boolean)
        if (auto* i = std::get_if<std::int64_t>(&v))
            return *i ? "true" : "false";
    if (auto* seconds = epochSeconds(v, type))
        return epochSecondsToIso(*seconds);
    if (auto* d = std::get_if<double>(&v); d && type && type->kind == DataType::Kind::Decimal) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.*f", type->scale, *d);
        return buf;
    }
    return displayText(v);
}

std::string toJson(const ResultSet& rs) {
    // One row per line, so that a diff of two outputs shows the rows that differ. The object is joined here,
    // not built as a JSON object: a query may name two columns alike (SELECT a, a), and Spark's JSON keeps
    // both.
    std::vector<std::string> keys;
    for (const std::string& column : rs.columns)
        keys.push_back(jsonString(column) + ":");
    std::string out = "[";
    for (std::size_t r = 0; r < rs.rows.size(); ++r) {
        out += r ? ",\n  {" : "\n  {";
        for (std::size_t c = 0; c < keys.size(); ++c)
            out +=
                (c ? "," : "") + keys[c] +
                (c < rs.rows[r].size() ? dumped(jsonOf(rs.rows[r][c], rs.typeOf(c))) : std::string("null"));
        out += '}';
    }
    out += rs.rows.empty() ? "]\n" : "\n]\n";
    return out;
}

std::string toCsv(const ResultSet& rs) {
    auto field = [](const std::string& s) {
        if (s.find_first_of(",\"\n\r") == std::string::npos)
            return s;
        std::string q = "\"";
        for (char c : s) {
            if (c == '"')
                q += '"';
            q += c;
        }
        return q + "\"";
    };
    std::string out;
    for (std::size_t c = 0; c < rs.columns.size(); ++c)
        out += (c ? "," : "") + field(rs.columns[c]);
    out += "\n";
    for (const auto& row : rs.rows) {
        for (std::size_t c = 0; c < rs.columns.size(); ++c) {
            if (c)
                out += ",";
            if (c < row.size() && !isNull(row[c]))
                out += field(displayValue(row[c], rs.typeOf(c)));
        }
        out += "\n";
    }
    return out;
}

namespace {

/// Terminal columns a UTF-8 string takes: one per code point, two for East Asian wide characters
/// (the seed's Japanese city names must not break the table's alignment).
std::size_t displayWidth(std::string_view s) {
    std::size_t width = 0;
    for (std::size_t i = 0; i < s.size();) {
        unsigned char c = static_cast<unsigned char>(s[i]);
        std::size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
        char32_t cp = len == 1 ? c : c & (0x7F >> len);
        for (std::size_t k = 1; k < len && i + k < s.size(); ++k)
            cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
        bool wide = (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF) ||
                    (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
                    (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
                    (cp >= 0xFFE0 && cp <= 0xFFE6);
        width += wide ? 2 : 1;
        i += len;
    }
    return width;
}

} // namespace

std::string toTable(const ResultSet& rs) {
    std::vector<std::vector<std::string>> cells;
    std::vector<std::size_t> width(rs.columns.size());
    for (std::size_t c = 0; c < rs.columns.size(); ++c)
        width[c] = displayWidth(rs.columns[c]);
    for (const auto& row : rs.rows) {
        auto& line = cells.emplace_back();
        for (std::size_t c = 0; c < rs.columns.size(); ++c) {
            line.push_back(c < row.size() ? displayValue(row[c], rs.typeOf(c)) : "");
            width[c] = std::max(width[c], displayWidth(line.back()));
        }
    }
    auto rule = [&] {
        std::string s = "+";
        for (auto w : width)
            s += std::string(w + 2, '-') + "+";
        return s + "\n";
    };
    auto line = [&](const std::vector<std::string>& values) {
        std::string s = "|";
        for (std::size_t c = 0; c < width.size(); ++c)
            s += " " + values[c] + std::string(width[c] - displayWidth(values[c]), ' ') + " |";
        return s + "\n";
    };
    std::string out = rule() + line(rs.columns) + rule();
    for (const auto& row : cells)
        out += line(row);
    out += rule();
    out += "(" + std::to_string(rs.rows.size()) + (rs.rows.size() == 1 ? " row)\n" : " rows)\n");
    return out;
}

std::string format(const ResultSet& rs, OutputFormat f) {
    switch (f) {
    case OutputFormat::Json:
        return toJson(rs);
    case OutputFormat::Csv:
        return toCsv(rs);
    case OutputFormat::Table:
    case OutputFormat::Text:
        return toTable(rs);
    }
    return toTable(rs);
}

} // namespace cdc
