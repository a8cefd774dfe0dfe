// One pass over the bytes: a quote opens a quoted field only at its start, a lone CR ends a record like LF.
// Every byte that matters is ASCII, so UTF-8 text passes through untouched.
#include "core/common/Csv.h"

namespace cdc::csv {

std::vector<Record> parse(std::string_view text, char separator) {
    std::vector<Record> records;
    Record record;
    std::string field;
    bool inQuotes = false;
    bool fieldStarted = false;
    bool fieldQuoted = false;
    const auto endField = [&] {
        record.fields.push_back(std::move(field));
        record.quoted.push_back(fieldQuoted);
        field.clear();
        fieldStarted = false;
        fieldQuoted = false;
    };
    const auto endRecord = [&] {
        endField();
        if (!(record.fields.size() == 1 && record.fields.front().empty() && !record.quoted.front()))
            records.push_back(std::move(record));
        record = {};
    };
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inQuotes) {
            if (c == '"') {
                if (i + 1 < text.size() && text[i + 1] == '"') {
                    field += '"';
                    ++i;
                } else {
                    inQuotes = false;
                }
            } else {
                field += c;
            }
        } else if (c == '"' && !fieldStarted) {
            inQuotes = true;
            fieldStarted = true;
            fieldQuoted = true;
        } else if (c == separator) {
            endField();
        } else if (c == '\n') {
            endRecord();
        } else if (c == '\r') {
            if (i + 1 < text.size() && text[i + 1] == '\n')
                continue;
            endRecord();
        } else {
            field += c;
            fieldStarted = true;
        }
    }
    if (fieldStarted || !field.empty() || !record.fields.empty())
        endRecord();
    return records;
}

} // namespace cdc::csv
