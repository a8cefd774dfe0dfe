#pragma once
/// A materialized query result with Spark types, and its renderings for the CLI and the GUI.

#include "core/common/DataType.h"
#include "core/common/Value.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cdc {

struct ResultSet {
    std::vector<std::string> columns;
    /// Spark type per column when known (from the catalog or the query), nullopt = judge by the value.
    std::vector<std::optional<DataType>> types;
    std::vector<Row> rows;

    std::optional<DataType> typeOf(std::size_t column) const {
        return column < types.size() ? types[column] : std::nullopt;
    }
};

enum class OutputFormat { Table, Csv, Json, Text };

std::optional<OutputFormat> parseOutputFormat(const std::string& name);

/// One JSON array of objects, one per row, keys = column names; types as cli.md specifies.
std::string toJson(const ResultSet& rs);
/// RFC 4180 CSV with a header row; NULL is an empty field.
std::string toCsv(const ResultSet& rs);
/// A boxed text table with a row count footer.
std::string toTable(const ResultSet& rs);
std::string format(const ResultSet& rs, OutputFormat f);

/// A value rendered for people (tables, GUI cells): NULL as "null", timestamps as stored (an integer in a
/// TIMESTAMP column as ISO-8601 UTC: see epochSecondsToIso), booleans as true/false.
std::string displayValue(const Value& v, const std::optional<DataType>& type);
/// A value rendered as a JSON token (for --format json and JSON payloads).
std::string jsonValue(const Value& v, const std::optional<DataType>& type);
/// `s` as a JSON string literal; bytes that are not UTF-8 become U+FFFD, so the JSON is always valid.
std::string jsonString(std::string_view s);

/// 'YYYY-MM-DD HH:MM:SS[.ffffff]' (or with 'T'/'Z') -> ISO-8601 UTC 'YYYY-MM-DDTHH:MM:SS[.ffffff]Z'.
std::string timestampToIso(std::string_view stored);
/// Epoch seconds -> ISO-8601 UTC 'YYYY-MM-DDTHH:MM:SSZ'. The engine's own times (when a tombstone was
/// recorded and falls due, when an update ran) travel as epoch seconds in TIMESTAMP columns and become
/// text only here, when they are shown.
std::string epochSecondsToIso(std::int64_t seconds);

} // namespace cdc
