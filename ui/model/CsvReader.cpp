// The RFC 4180 reader as one pass over the characters: a quote opens a quoted field only at its
// start, a lone CR ends a record like LF, and blank lines are dropped rather than read as empty rows.
#include "ui/model/CsvReader.h"

namespace cdc::ui::csvreader {

QList<QStringList> parse(const QString& text, QChar separator) {
    QList<QStringList> records;
    QStringList record;
    QString field;
    bool quoted = false;
    bool fieldStarted = false;
    const auto endField = [&] {
        record << field;
        field.clear();
        fieldStarted = false;
    };
    const auto endRecord = [&] {
        endField();
        if (!(record.size() == 1 && record.first().isEmpty()))
            records << record;
        record.clear();
    };
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == QLatin1Char('"')) {
                if (i + 1 < text.size() && text[i + 1] == QLatin1Char('"')) {
                    field += QLatin1Char('"');
                    ++i;
                } else {
                    quoted = false;
                }
            } else {
                field += c;
            }
        } else if (c == QLatin1Char('"') && !fieldStarted) {
            quoted = true;
            fieldStarted = true;
        } else if (c == separator) {
            endField();
        } else if (c == QLatin1Char('\n')) {
            endRecord();
        } else if (c == QLatin1Char('\r')) {
            if (i + 1 < text.size() && text[i + 1] == QLatin1Char('\n'))
                continue;
            endRecord();
        } else {
            field += c;
            fieldStarted = true;
        }
    }
    if (fieldStarted || !field.isEmpty() || !record.isEmpty())
        endRecord();
    return records;
}

QChar guessSeparator(const QString& text) {
    const QString firstLine = text.section(QLatin1Char('\n'), 0, 0);
    if (firstLine.contains(QLatin1Char('\t')))
        return QLatin1Char('\t');
    if (firstLine.count(QLatin1Char(';')) > firstLine.count(QLatin1Char(',')))
        return QLatin1Char(';');
    return QLatin1Char(',');
}

QList<int> mapByName(const QStringList& header, const QStringList& columns) {
    QList<int> mapping;
    for (const auto& column : columns) {
        int found = -1;
        for (int i = 0; i < header.size(); ++i)
            if (header[i].trimmed().compare(column, Qt::CaseInsensitive) == 0)
                found = i;
        mapping << found;
    }
    return mapping;
}

} // namespace cdc::ui::csvreader
