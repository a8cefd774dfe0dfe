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

// The stream is read in blocks through its buffer: istream::get builds a sentry per character, which was a
// tenth of a large CSV import. The stream is left at the end of what was read, not of the last record.
bool Reader::fill() {
    if (m_pos < m_end)
        return true;
    if (m_buffer.empty())
        m_buffer.resize(std::size_t(1) << 16);
    m_pos = 0;
    m_end = static_cast<std::size_t>(m_in.rdbuf()->sgetn(m_buffer.data(), std::streamsize(m_buffer.size())));
    if (m_end == 0) {
        m_in.setstate(std::ios::eofbit);
        return false;
    }
    return true;
}

int Reader::get() {
    if (!fill())
        return std::char_traits<char>::eof();
    const int c = static_cast<unsigned char>(m_buffer[m_pos++]);
    ++m_offset;
    if (c == '\n')
        ++m_line;
    else if (c == '\r' && peek() != '\n')
        ++m_line; // a lone CR ends a line too
    return c;
}

int Reader::peek() {
    return fill() ? static_cast<unsigned char>(m_buffer[m_pos]) : std::char_traits<char>::eof();
}

// The rest of a bare field that is in the buffer: every byte up to a separator, quote or line end is text.
void Reader::appendPlainRun(std::string& field) {
    const std::size_t from = m_pos;
    while (m_pos < m_end) {
        const char c = m_buffer[m_pos];
        if (c == m_separator || c == '"' || c == '\n' || c == '\r')
            break;
        ++m_pos;
    }
    field.append(m_buffer.data() + from, m_pos - from);
    m_offset += m_pos - from;
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
                appendPlainRun(field);
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
