#pragma once
/// RFC 4180 records from text: quoted fields, doubled quotes, CRLF or LF line ends. The one CSV reader of
/// the project: read_files (core/storage/FileTableFunctions), the GUI's paste and CSV import
/// (ui/model/CsvReader) and the change feed import (core/feeds) all use it.

#include <cstddef>
#include <cstdint>
#include <istream>
#include <optional>
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

/// Records one at a time from a stream, with where each begins: a file of any size is read in bounded
/// memory (one record at a time), and an error can name its line and byte. Lenient by default, as
/// parse() is (a quote inside a bare field is a character, an unterminated quote runs to the end); strict
/// mode refuses both, for imports where a damaged record must not pass as data.
class Reader {
public:
    Reader(std::istream& in, char separator = ',', bool strict = false);

    /// The next record, or nothing at the end of the input or at a strict-mode error (see error()).
    std::optional<Record> next();
    /// 1-based line where the last record returned (or the error) begins.
    std::size_t line() const { return m_recordLine; }
    /// Byte offset where the last record returned (or the error) begins.
    std::uint64_t offset() const { return m_recordOffset; }
    /// Bytes consumed so far (for progress).
    std::uint64_t consumed() const { return m_offset; }
    /// Strict mode's complaint about the record at line() / offset(), empty when there is none.
    const std::string& error() const { return m_error; }
    /// Line and byte offset of the offending character of error().
    std::size_t errorLine() const { return m_errorLine; }
    std::uint64_t errorOffset() const { return m_errorOffset; }

private:
    bool fill();
    int get();
    int peek();
    void appendPlainRun(std::string& field);
    void fail(std::string message);

    std::istream& m_in;
    // The reader's own buffer: bytes come in blocks (one virtual call per 64 KiB, not per character), and
    // the bytes of a bare field between separators are appended as one run.
    std::vector<char> m_buffer;
    std::size_t m_pos = 0;
    std::size_t m_end = 0;
    char m_separator;
    bool m_strict;
    std::size_t m_line = 1;
    std::uint64_t m_offset = 0;
    std::size_t m_recordLine = 1;
    std::uint64_t m_recordOffset = 0;
    std::string m_error;
    std::size_t m_errorLine = 0;
    std::uint64_t m_errorOffset = 0;
};

} // namespace cdc::csv
