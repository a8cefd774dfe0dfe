#pragma once
/// Small helpers shared by the result models: finding columns by name, rendering cells, row identity.

#include "core/common/ResultSet.h"

#include <QString>
#include <QStringList>
#include <QVariant>

#include <string>
#include <vector>

namespace cdc::ui::resulttext {

/// Index of `name` (case-insensitive, as Spark resolves names) in `rs.columns`, -1 when absent.
int columnIndex(const cdc::ResultSet& rs, const QString& name);
/// The indices of `names` in `rs`, -1 for each one missing.
std::vector<int> columnIndices(const cdc::ResultSet& rs, const QStringList& names);

/// A cell as people read it (NULL as "null"); empty for a missing column (index -1).
QString cellText(const cdc::ResultSet& rs, std::size_t row, int column);
/// The same cell as CellValueRole data (its value and column type); NULL for a missing column.
QVariant typedCell(const cdc::ResultSet& rs, std::size_t row, int column);

/// Where a model's cell reads its value: a row and column (-1: missing) of a result set.
struct CellRef {
    const cdc::ResultSet* rows;
    std::size_t row;
    int column;
    QString text() const { return cellText(*rows, row, column); }
    QVariant typed() const { return typedCell(*rows, row, column); }
};

/// A byte string equal for equal values of the given columns (NULL-safe): used to match rows of the
/// target with rows of its change feed.
std::string identity(const cdc::Row& row, const std::vector<int>& columns);
void appendIdentity(std::string& out, const cdc::Value& v);

/// Total order of values: NULL first, numbers numerically (integers and reals mixed), text binary.
int compareValues(const cdc::Value& a, const cdc::Value& b);

/// Numbers right-aligned, everything else left-aligned (by the column's type, else by the value).
Qt::Alignment cellAlignment(const cdc::ResultSet& rs, std::size_t row, int column);

/// "1 row" / "4 rows": a count with the right noun (the UI ships no translations to pick plurals).
QString countOf(qint64 n, const QString& singular, const QString& plural);

/// "name: value" lines for every column of one row (the full row in a tooltip).
QString rowDetails(const cdc::ResultSet& rs, std::size_t row);

/// The internal column names of an SCD2 target.
inline const QString startAt() {
    return QStringLiteral("__START_AT");
}
inline const QString endAt() {
    return QStringLiteral("__END_AT");
}

} // namespace cdc::ui::resulttext

namespace cdc::ui::resulttext {
/// Seconds since the epoch (UTC) of a stored timestamp ('YYYY-MM-DD HH:MM:SS[.ffffff]', with 'T'/'Z'
/// accepted) or a date ('YYYY-MM-DD'); nullopt when the text is neither.
std::optional<double> parseTimestampSeconds(const QString& text);
/// Seconds since the epoch rendered as ISO-8601 UTC, 'YYYY-MM-DDTHH:MM:SSZ' (milliseconds when present).
QString isoFromSeconds(double seconds);
} // namespace cdc::ui::resulttext
