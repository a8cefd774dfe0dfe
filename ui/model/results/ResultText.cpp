// Integers and integral reals share one identity encoding because a feed may widen a column's type;
// compareValues is total across kinds (NULL, numbers, text, bytes) so a column of mixed cells still sorts.
#include "ui/model/results/ResultText.h"

#include "ui/model/ValueText.h"

#include <QDateTime>
#include <QTimeZone>

#include <cmath>
#include <cstring>

namespace cdc::ui::resulttext {

int columnIndex(const cdc::ResultSet& rs, const QString& name) {
    for (std::size_t i = 0; i < rs.columns.size(); ++i)
        if (QString::fromStdString(rs.columns[i]).compare(name, Qt::CaseInsensitive) == 0)
            return static_cast<int>(i);
    return -1;
}

std::vector<int> columnIndices(const cdc::ResultSet& rs, const QStringList& names) {
    std::vector<int> out;
    out.reserve(names.size());
    for (const QString& n : names)
        out.push_back(columnIndex(rs, n));
    return out;
}

QString cellText(const cdc::ResultSet& rs, std::size_t row, int column) {
    if (column < 0 || row >= rs.rows.size() || static_cast<std::size_t>(column) >= rs.rows[row].size())
        return {};
    return displayText(rs.rows[row][column], rs.typeOf(column));
}

QVariant typedCell(const cdc::ResultSet& rs, std::size_t row, int column) {
    if (column < 0 || row >= rs.rows.size() || static_cast<std::size_t>(column) >= rs.rows[row].size())
        return cellValue({}, std::nullopt);
    return cellValue(rs.rows[row][column], rs.typeOf(column));
}

void appendIdentity(std::string& out, const cdc::Value& v) {
    // Integers and integral reals must match (a feed may widen a type), so both encode as numbers.
    if (auto* i = std::get_if<std::int64_t>(&v)) {
        out += 'n';
        out += std::to_string(*i);
    } else if (auto* d = std::get_if<double>(&v)) {
        out += 'n';
        if (std::isfinite(*d) && *d == std::floor(*d) && std::fabs(*d) < 9e15)
            out += std::to_string(static_cast<std::int64_t>(*d));
        else
            out += cdc::displayText(v);
    } else if (auto* s = std::get_if<std::string>(&v)) {
        out += 's';
        out += *s;
    } else if (auto* b = std::get_if<cdc::Blob>(&v)) {
        out += 'b';
        out.append(b->bytes.begin(), b->bytes.end());
    } else {
        out += '0';
    }
    out += '\x1f';
}

std::string identity(const cdc::Row& row, const std::vector<int>& columns) {
    std::string out;
    for (int c : columns) {
        if (c >= 0 && static_cast<std::size_t>(c) < row.size())
            appendIdentity(out, row[c]);
        else
            out += "?\x1f";
    }
    return out;
}

namespace {
int rank(const cdc::Value& v) {
    if (cdc::isNull(v))
        return 0;
    if (std::holds_alternative<std::int64_t>(v) || std::holds_alternative<double>(v))
        return 1;
    if (std::holds_alternative<std::string>(v))
        return 2;
    return 3;
}
double asDouble(const cdc::Value& v) {
    if (auto* i = std::get_if<std::int64_t>(&v))
        return static_cast<double>(*i);
    return std::get<double>(v);
}
} // namespace

int compareValues(const cdc::Value& a, const cdc::Value& b) {
    const int ra = rank(a), rb = rank(b);
    if (ra != rb)
        return ra < rb ? -1 : 1;
    switch (ra) {
    case 0:
        return 0;
    case 1: {
        auto* ia = std::get_if<std::int64_t>(&a);
        auto* ib = std::get_if<std::int64_t>(&b);
        if (ia && ib)
            return *ia < *ib ? -1 : (*ia > *ib ? 1 : 0);
        const double da = asDouble(a), db = asDouble(b);
        return da < db ? -1 : (da > db ? 1 : 0);
    }
    case 2: {
        const int c = std::get<std::string>(a).compare(std::get<std::string>(b));
        return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    default: {
        const auto& ba = std::get<cdc::Blob>(a).bytes;
        const auto& bb = std::get<cdc::Blob>(b).bytes;
        for (std::size_t i = 0; i < ba.size() && i < bb.size(); ++i)
            if (ba[i] != bb[i])
                return ba[i] < bb[i] ? -1 : 1;
        return ba.size() < bb.size() ? -1 : (ba.size() > bb.size() ? 1 : 0);
    }
    }
}

Qt::Alignment cellAlignment(const cdc::ResultSet& rs, std::size_t row, int column) {
    bool numeric = false;
    if (const auto type = rs.typeOf(static_cast<std::size_t>(std::max(column, 0))); column >= 0 && type)
        numeric = type->isNumeric() && type->kind != cdc::DataType::Kind::Boolean;
    else if (column >= 0 && row < rs.rows.size() && static_cast<std::size_t>(column) < rs.rows[row].size()) {
        const cdc::Value& v = rs.rows[row][static_cast<std::size_t>(column)];
        numeric = std::holds_alternative<std::int64_t>(v) || std::holds_alternative<double>(v);
    }
    return (numeric ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter;
}

QString countOf(qint64 n, const QString& singular, const QString& plural) {
    return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? singular : plural);
}

QString rowDetails(const cdc::ResultSet& rs, std::size_t row) {
    QStringList lines;
    for (std::size_t c = 0; c < rs.columns.size(); ++c)
        lines << QStringLiteral("%1: %2").arg(QString::fromStdString(rs.columns[c]),
                                              cellText(rs, row, static_cast<int>(c)));
    return lines.join(QLatin1Char('\n'));
}

std::optional<double> parseTimestampSeconds(const QString& text) {
    const QString s = text.trimmed();
    if (s.size() < 10 || s[4] != QLatin1Char('-') || s[7] != QLatin1Char('-'))
        return std::nullopt;
    const QDate date = QDate::fromString(s.left(10), QStringLiteral("yyyy-MM-dd"));
    if (!date.isValid())
        return std::nullopt;
    double seconds = static_cast<double>(QDateTime(date, QTime(0, 0), QTimeZone::utc()).toSecsSinceEpoch());
    if (s.size() == 10)
        return seconds;
    if (s.size() < 19 || (s[10] != QLatin1Char(' ') && s[10] != QLatin1Char('T')))
        return std::nullopt;
    const QTime time = QTime::fromString(s.mid(11, 8), QStringLiteral("HH:mm:ss"));
    if (!time.isValid())
        return std::nullopt;
    seconds += time.msecsSinceStartOfDay() / 1000.0;
    qsizetype i = 19;
    if (i < s.size() && s[i] == QLatin1Char('.')) {
        double scale = 0.1;
        for (++i; i < s.size() && s[i].isDigit(); ++i, scale /= 10)
            seconds += s[i].digitValue() * scale;
    }
    if (i < s.size() && s[i] == QLatin1Char('Z'))
        ++i;
    return i == s.size() ? std::optional<double>(seconds) : std::nullopt;
}

QString isoFromSeconds(double seconds) {
    const auto ms = static_cast<qint64>(std::llround(seconds * 1000.0));
    const QDateTime dt = QDateTime::fromMSecsSinceEpoch(ms, QTimeZone::utc());
    return dt.toString(ms % 1000 ? QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzzZ")
                                 : QStringLiteral("yyyy-MM-ddTHH:mm:ssZ"));
}

} // namespace cdc::ui::resulttext
