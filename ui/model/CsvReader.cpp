// The records come from the core's RFC 4180 reader (core/common/Csv.h), shared with read_files; this
// file adds what pasting and importing need on top of it.
#include "ui/model/CsvReader.h"

#include "core/common/Csv.h"

namespace cdc::ui::csvreader {

QList<QStringList> parse(const QString& text, QChar separator) {
    QList<QStringList> records;
    for (const csv::Record& r : csv::parse(text.toStdString(), separator.toLatin1())) {
        QStringList fields;
        for (const std::string& f : r.fields)
            fields << QString::fromStdString(f);
        records << fields;
    }
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
