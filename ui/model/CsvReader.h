#pragma once
#include <QList>
#include <QStringList>

namespace cdc::ui::csvreader {

/// RFC 4180 records (quoted fields, doubled quotes, CRLF or LF). `separator` is usually ',' or '\t'.
QList<QStringList> parse(const QString& text, QChar separator = QLatin1Char(','));
/// The separator a clipboard or file most likely uses: tab when the first line has one, else comma.
QChar guessSeparator(const QString& text);
/// For each target column, the index of the header with the same name (case-insensitive), or -1.
QList<int> mapByName(const QStringList& header, const QStringList& columns);

} // namespace cdc::ui::csvreader
