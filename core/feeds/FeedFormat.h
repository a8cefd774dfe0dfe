#pragma once
/// The change feed formats CDC Studio imports into a source table, by name and by the look of a file.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cdc::feeds {

enum class FeedFormat {
    Debezium,  ///< Debezium change events, JSON one per line, with or without the schema wrapper
    Dms,       ///< AWS DMS change data: CSV with a header or JSON, an `Op` column (I / U / D)
    DeltaCdf,  ///< Delta change data feed rows (`_change_type`, `_commit_version`), CSV or JSON lines
    Flink,     ///< Flink changelog CSV: a row kind column (+I, -U, +U, -D)
    Csv,       ///< plain CSV with a header: every column is a value
    JsonLines, ///< plain JSON Lines: every member of each object is a value
};

/// The name the CLI and the project use: debezium, dms, cdf, flink, csv, jsonl.
std::string formatName(FeedFormat format);
/// What the GUI shows: "Debezium JSON", "AWS DMS", ...
std::string formatTitle(FeedFormat format);
std::optional<FeedFormat> parseFormat(std::string_view name);
const std::vector<FeedFormat>& allFormats();

/// Whether the format carries an operation per record (all but plain CSV and JSON Lines).
bool hasOperation(FeedFormat format);

/// The format a file most likely holds, from its first bytes (a few KiB are plenty): Debezium's
/// envelope (`"op"` with `"before"`/`"after"` or `"payload"`), a `_change_type` member or column, an `Op`
/// column or DMS's `"metadata"` / `"data"` pair, a column of +I/-U/+U/-D, else plain JSON Lines or CSV.
FeedFormat detectFormat(std::string_view head);

} // namespace cdc::feeds
