// Spark's implicit casts where SQLite's type affinity would decide otherwise (Databricks SQL "SQL data type
// rules", ANSI mode as Databricks SQL runs:
// docs.databricks.com/sql/language-manual/sql-ref-datatype-rules.html). The operands of a comparison,
// BETWEEN, IN, a CASE's results and coalesce's arguments take their least common type: a STRING meeting a
// number becomes a BIGINT (a DOUBLE beside a fractional number), one meeting a DATE or TIMESTAMP becomes
// that, a DATE meeting a TIMESTAMP becomes a TIMESTAMP. In SQLite a TEXT value is greater than any number
// ('10' > 9 holds, '10' > '9' does not), so the operand that may be a string is converted:
// spark_implicit_cast leaves numbers as they are and casts text the ANSI way, a text that is no number
// failing the query with CAST_INVALID_INPUT as Spark does. Types come from TypeInference without a schema:
// literals, casts and functions are known, columns are not; two columns are left to SQLite, whose column
// affinity already compares a numeric column with a text one numerically.
#include "core/sql/Translator.h"
#include "core/sql/TypeInference.h"

#include <algorithm>
#include <cstdlib>

namespace cdc::sql {

namespace {

enum class Family { Unknown, Null, Integral, Fractional, String, Date, Timestamp, Other };

Family familyOf(const Expr& e) {
    TypeInference inference(
        [](const std::string&) { return std::nullopt; }); // no schema: columns stay unknown
    auto t = inference.expr(e, {});
    if (!t)
        return Family::Unknown;
    using K = DataType::Kind;
    switch (t->kind) {
    case K::Void:
        return Family::Null;
    case K::TinyInt:
    case K::SmallInt:
    case K::Int:
    case K::BigInt:
        return Family::Integral;
    case K::Float:
    case K::Double:
    case K::Decimal:
        return Family::Fractional;
    case K::String:
        return Family::String;
    case K::Date:
        return Family::Date;
    case K::Timestamp:
    case K::TimestampNtz:
        return Family::Timestamp;
    default:
        return Family::Other;
    }
}

/// The family the operands meet in, from the ones whose type is known and not a string: the widest number,
/// or TIMESTAMP over DATE. Unknown when no such operand decides it (or numbers meet datetimes: Spark refuses
/// those, the simulator leaves them to SQLite).
Family commonFamily(const std::vector<Family>& families) {
    bool integral = false, fractional = false, date = false, timestamp = false;
    for (Family f : families) {
        integral = integral || f == Family::Integral;
        fractional = fractional || f == Family::Fractional;
        date = date || f == Family::Date;
        timestamp = timestamp || f == Family::Timestamp;
    }
    if ((integral || fractional) && (date || timestamp))
        return Family::Unknown;
    if (fractional)
        return Family::Fractional;
    if (integral)
        return Family::Integral;
    if (timestamp)
        return Family::Timestamp;
    if (date)
        return Family::Date;
    return Family::Unknown;
}

const char* castTarget(Family f) {
    switch (f) {
    case Family::Integral:
        return "BIGINT";
    case Family::Fractional:
        return "DOUBLE";
    case Family::Date:
        return "DATE";
    case Family::Timestamp:
        return "TIMESTAMP";
    default:
        return nullptr;
    }
}

bool looksNumeric(const Expr& e) {
    if (e.kind != ExprKind::Literal || e.literalKind != LiteralKind::String || e.text.empty())
        return false;
    char* end = nullptr;
    std::strtod(e.text.c_str(), &end);
    return *end == '\0';
}

} // namespace

std::vector<std::string> Translator::commonOperands(const std::vector<const Expr*>& operands) {
    std::vector<Family> families;
    for (const Expr* e : operands)
        families.push_back(familyOf(*e));
    const Family target = commonFamily(families);
    std::vector<std::string> out;
    for (std::size_t i = 0; i < operands.size(); ++i) {
        std::string sql = expr(*operands[i]);
        const Family f = families[i];
        const char* type = castTarget(target);
        if (type && (f == Family::String || f == Family::Unknown))
            sql = "spark_implicit_cast(" + sql + ", '" + type + "')";
        else if (target == Family::Timestamp && f == Family::Date) // DATE -> TIMESTAMP: midnight
            sql = "spark_cast(" + sql + ", 'TIMESTAMP')";
        out.push_back(std::move(sql));
    }
    if (target != Family::Unknown)
        return out;
    // Nothing typed decides: a numeric string literal meeting a column takes the column's kind at run time
    // (`n > '9'` compares numbers when n holds numbers, text when it holds text). Other strings stay as they
    // are, so `op = 'DELETE'` is left to SQLite.
    const auto unknown = std::find(families.begin(), families.end(), Family::Unknown);
    if (unknown == families.end())
        return out;
    const std::string& column = out[static_cast<std::size_t>(unknown - families.begin())];
    for (std::size_t i = 0; i < operands.size(); ++i)
        if (families[i] == Family::String && looksNumeric(*operands[i]))
            out[i] = "spark_coerce_to(" + out[i] + ", " + column + ")";
    return out;
}

} // namespace cdc::sql
