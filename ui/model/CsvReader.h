#pragma once
/// CSV and tab-separated text as users paste or import it into a source table (Sources grid paste,
/// the CSV import dialog). Qt has no CSV reader and the rows are small, so a plain state machine does.

#include <QList>
#include <QStringList>

namespace cdc::ui::csvreader {

/// RFC 4180 records (quoted fields, doubled quotes, CRLF or LF). `separator` is usually ',' or '\t'.
QList<QStringList> parse(const QString& text, QChar separator = QLatin1Char(','));
/// The separator a clipboard or file most likely uses: tab when the first line has one, else semicolon
/// when it has more of them than commas, else comma.
QChar guessSeparator(const QString& text);
/// For each target column, the index of the header with the same name (case-insensitive), or -1.
QList<int> mapByName(const QStringList& header, const QStringList& columns);

} // namespace cdc::ui::csvreader
