#pragma once
/// Grid cells as text for the clipboard and for files: tab-separated lines (copy), CSV and JSON
/// (export).

#include "ui/model/ValueText.h"

#include <QList>
#include <QStringList>

namespace cdc::ui {

/// A block of grid cells: the column headers and the rows, each cell with its typed value.
struct GridTable {
    QStringList headers;
    QList<QList<CellValue>> rows;
};

class GridFormat {
public:
    /// Tab-separated lines for the clipboard, after a header line if asked, with no final line break.
    /// NULL is an empty cell, so Paste Rows in a source grid reads it back as NULL; a cell holding a
    /// tab, a line break or a quote is quoted as in CSV, the way spreadsheets copy and paste it.
    static QString tsv(const GridTable& table, bool withHeaders);
    /// RFC 4180: a header record, then one record per row, each ended by CRLF; fields holding a
    /// comma, a quote or a line break quoted, quotes doubled; NULL is an empty field.
    static QString csv(const GridTable& table);
    /// An array of objects keyed by column name, in column order: numbers as numbers, NULL as null,
    /// BOOLEAN as true/false, anything else as a string (timestamps in ISO-8601) — the values
    /// `cdcstudio-cli --format json` writes.
    static QString json(const GridTable& table);
    /// A cell as it is copied: its display text, empty for NULL.
    static QString text(const CellValue& cell);
};

} // namespace cdc::ui
