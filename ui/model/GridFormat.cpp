// One quoting rule for TSV and CSV (a field is quoted only when it must be), and JSON through
// core's value writer so the GUI's export and the CLI's `--format json` cannot drift apart.
#include "ui/model/GridFormat.h"

#include "core/common/ResultSet.h"

namespace cdc::ui {

namespace {

QString field(const QString& text, QChar separator) {
    if (!text.contains(separator) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n')) &&
        !text.contains(QLatin1Char('\r')))
        return text;
    QString quoted = text;
    quoted.replace(QLatin1Char('"'), QLatin1String("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QString record(const QStringList& cells, QChar separator) {
    QStringList fields;
    fields.reserve(cells.size());
    for (const QString& cell : cells)
        fields << field(cell, separator);
    return fields.join(separator);
}

/// The records of `table` (headers first when asked), each already joined by `separator`.
QStringList records(const GridTable& table, QChar separator, bool withHeaders) {
    QStringList lines;
    lines.reserve(table.rows.size() + 1);
    if (withHeaders)
        lines << record(table.headers, separator);
    for (const auto& row : table.rows) {
        QStringList cells;
        cells.reserve(row.size());
        for (const CellValue& cell : row)
            cells << GridFormat::text(cell);
        lines << record(cells, separator);
    }
    return lines;
}

} // namespace

QString GridFormat::text(const CellValue& cell) {
    return isNull(cell.value) ? QString() : displayText(cell.value, cell.type);
}

QString GridFormat::tsv(const GridTable& table, bool withHeaders) {
    return records(table, QLatin1Char('\t'), withHeaders).join(QLatin1Char('\n'));
}

QString GridFormat::csv(const GridTable& table) {
    QString out;
    for (const QString& line : records(table, QLatin1Char(','), true))
        out += line + QLatin1String("\r\n");
    return out;
}

QString GridFormat::json(const GridTable& table) {
    // Built by hand rather than with QJsonObject, which would sort the keys instead of keeping the columns'
    // order.
    std::string out = "[";
    for (qsizetype r = 0; r < table.rows.size(); ++r) {
        out += r ? ",\n  {" : "\n  {";
        const auto& row = table.rows[r];
        for (qsizetype c = 0; c < row.size() && c < table.headers.size(); ++c) {
            if (c)
                out += ", ";
            out += cdc::jsonString(table.headers[c].toStdString()) + ": " +
                   cdc::jsonValue(row[c].value, row[c].type);
        }
        out += "}";
    }
    out += table.rows.isEmpty() ? "]\n" : "\n]\n";
    return QString::fromStdString(out);
}

} // namespace cdc::ui
