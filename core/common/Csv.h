#pragma once
/// RFC 4180 records from text: quoted fields, doubled quotes, CRLF or LF line ends. The one CSV reader of
/// the project: read_files (core/storage/FileTableFunctions) and the GUI's paste and CSV import
/// (ui/model/CsvReader) both use it.

#include <string>
#include <string_view>
#include <vector>

namespace cdc::csv {

/// One record's fields; `quoted[i]` tells whether field i was written in quotes (an empty quoted field is
/// an empty string, an empty bare one may stand for NULL).
struct Record {
    std::vector<std::string> fields;
    std::vector<bool> quoted;
};

/// Every record of `text` (UTF-8; the separator is one ASCII character, usually ',' or '\t'). Blank lines
/// are dropped rather than read as empty records.
std::vector<Record> parse(std::string_view text, char separator = ',');

} // namespace cdc::csv
