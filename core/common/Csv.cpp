// One pass over the bytes: a quote opens a quoted field only at its start, a lone CR ends a record like LF.
// Every byte that matters is ASCII, so UTF-8 text passes through untouched.
#include "core/common/Csv.h"

#include <sstream>

namespace cdc::csv {

std::vector<Record> parse(std::string_view text, char separator) {
    std::istringstream in{std::string(text)};
    Reader reader(in, separator);
    std::vector<Record> records;
    while (auto record = reader.next())
        records.push_back(std::move(*record));
    return records;
}

Reader::Reader(std::istream& in, char separator, bool strict)
    : m_in(in), m_separator(separator), m_strict(strict) {}

// The stream's buffer is read directly: istream::get builds a sentry per character, which was a tenth of a
// large CSV import.
int Reader::get() {
    const int c = m_in.rdbuf()->sbumpc();
    if (c == std::char_traits<char>::eof()) {
        m_in.setstate(std::ios::eofbit);
        return c;
    }
    ++m_offset;
    if (c == '\n')
        ++m_line;
    else if (c == '\r' && peek() != '\n')
        ++m_line; // a lone CR ends a line too
    return c;
}

int Reader::peek() {
    return m_in.rdbuf()->sgetc();
}

void Reader::fail(std::string message) {
    m_error = std::move(message);
    m_errorLine = m_line;
    m_errorOffset = m_offset;
}

std::optional<Record> Reader::next() {
    constexpr int kEof = std::char_traits<char>::eof();
    if (!m_error.empty())
        return std::nullopt;
    for (;;) {
        m_recordLine = m_line;
        m_recordOffset = m_offset;
        Record record;
        std::string field;
        bool inQuotes = false;
        bool fieldStarted = false;
        bool fieldQuoted = false;
        bool closedQuote =
            false; // the field's closing quote was read: only a separator or line end may follow
        const auto endField = [&] {
            record.fields.push_back(std::move(field));
            record.quoted.push_back(fieldQuoted);
            field.clear();
            fieldStarted = false;
            fieldQuoted = false;
            closedQuote = false;
        };
        bool ended = false; // a line end (or the input's end) closed the record
        std::size_t quoteLine = 0;
        std::uint64_t quoteOffset = 0;
        bool sawAny = false;
        for (;;) {
            const std::size_t lineBefore = m_line;
            const std::uint64_t offsetBefore = m_offset;
            const int c = get();
            if (c == kEof) {
                if (inQuotes && m_strict) {
                    m_line = quoteLine; // point at the quote that was never closed
                    m_offset = quoteOffset;
                    fail("the quoted field that begins here is never closed");
                    return std::nullopt;
                }
                break;
            }
            sawAny = true;
            if (inQuotes) {
                if (c == '"') {
                    if (peek() == '"') {
                        get();
                        field += '"';
                    } else {
                        inQuotes = false;
                        closedQuote = true;
                    }
                } else {
                    field += char(c);
                }
            } else if (c == '"' && !fieldStarted) {
                quoteLine = lineBefore;
                quoteOffset = offsetBefore;
                inQuotes = true;
                fieldStarted = true;
                fieldQuoted = true;
            } else if (c == m_separator) {
                endField();
            } else if (c == '\n' || c == '\r') {
                if (c == '\r' && peek() == '\n')
                    get();
                ended = true;
                break;
            } else {
                if (m_strict && (closedQuote || c == '"')) {
                    m_line = lineBefore;
                    m_offset = offsetBefore;
                    fail(closedQuote ? "a character follows the closing quote of a field"
                                     : "a quote inside a field that does not begin with one");
                    return std::nullopt;
                }
                field += char(c);
                fieldStarted = true;
            }
        }
        if (!sawAny)
            return std::nullopt;
        endField();
        const bool blank =
            record.fields.size() == 1 && record.fields.front().empty() && !record.quoted.front();
        if (!blank)
            return record;
        if (!ended)
            return std::nullopt;
    }
}

} // namespace cdc::csv
