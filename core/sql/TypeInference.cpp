#include "core/sql/TypeInference.h"

#include "core/common/Text.h"
#include "core/sql/Parser.h"
#include "core/sql/Printer.h"
#include "core/sql/Translator.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <limits>

namespace cdc::sql {

using K = DataType::Kind;

namespace {

// DECIMAL(p, s) with Spark's bound of 38 digits.
DataType decimal(int precision, int scale) {
    DataType t = DataType::of(DataType::Kind::Decimal);
    t.precision = std::clamp(precision, 1, 38);
    t.scale = std::clamp(scale, 0, t.precision);
    return t;
}

// DECIMAL(p, s) of a number as Java's BigDecimal reads Spark's literal: s is the digits after the point
// less the exponent, a negative scale widening the precision instead; p is the significant digits, at
// least s and at least 1, at most 38.
DataType decimalOf(std::string_view digitsText, long exponent) {
    if (!digitsText.empty() && (digitsText[0] == '-' || digitsText[0] == '+'))
        digitsText.remove_prefix(1);
    const std::size_t dot = digitsText.find('.');
    const std::string_view frac =
        dot == std::string_view::npos ? std::string_view() : digitsText.substr(dot + 1);
    std::string all = std::string(digitsText.substr(0, dot)) + std::string(frac);
    all.erase(0, std::min(all.find_first_not_of('0'), all.size()));
    const long digits = std::max<long>(static_cast<long>(all.size()), 1);
    const long scale = static_cast<long>(frac.size()) - exponent;
    return decimal(static_cast<int>(std::min<long>(scale < 0 ? digits - scale : std::max(digits, scale), 38)),
                   static_cast<int>(std::clamp<long>(scale, 0, 38)));
}

} // namespace

DataType TypeInference::literalType(const Expr& e) {
    switch (e.literalKind) {
    case LiteralKind::Null:
        return DataType::of(K::Void);
    case LiteralKind::Boolean:
        return DataType::of(K::Boolean);
    case LiteralKind::String:
        return DataType::of(K::String);
    case LiteralKind::Integer: {
        char suffix = static_cast<char>(std::toupper(static_cast<unsigned char>(e.text.back())));
        if (suffix == 'L')
            return DataType::of(K::BigInt);
        if (suffix == 'S')
            return DataType::of(K::SmallInt);
        if (suffix == 'Y')
            return DataType::of(K::TinyInt);
        errno = 0;
        long long v = std::strtoll(e.text.c_str(), nullptr, 10);
        if (errno == ERANGE) // beyond BIGINT: a DECIMAL of all its digits
            return decimalOf(e.text, 0);
        if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
            return DataType::of(K::BigInt);
        return DataType::of(K::Int);
    }
    case LiteralKind::Decimal: {
        std::string upper = toUpper(e.text);
        const bool bigDecimal = upper.size() > 2 && upper.compare(upper.size() - 2, 2, "BD") == 0;
        if (bigDecimal)
            upper.resize(upper.size() - 2);
        else if (upper.back() == 'D' || upper.find('E') != std::string::npos)
            return DataType::of(K::Double);
        else if (upper.back() == 'F')
            return DataType::of(K::Float);
        const std::size_t exp = upper.find('E');
        long exponent = 0;
        if (exp != std::string::npos)
            exponent = std::clamp(std::strtol(upper.c_str() + exp + 1, nullptr, 10), -1000L, 1000L);
        return decimalOf(std::string_view(upper).substr(0, exp), exponent);
    }
    }
    return DataType::of(K::Void);
}

namespace {
std::optional<DataType> merge(const std::optional<DataType>& a, const std::optional<DataType>& b) {
    if (!a || !b)
        return std::nullopt;
    return commonType(*a, *b);
}

bool isOneOf(const std::string& s, std::initializer_list<const char*> names) {
    for (const char* n : names)
        if (s == n)
            return true;
    return false;
}
} // namespace

std::optional<DataType> TypeInference::expr(const Expr& e, const std::vector<TypedColumn>& scope) {
    switch (e.kind) {
    case ExprKind::Literal:
        return literalType(e);
    case ExprKind::Column: {
        // t.x is x of relation t; failing that (a struct field, a stale qualifier), any x.
        const std::string& col = e.name.parts.back();
        const std::string qualifier = e.name.parts.size() > 1 ? e.name.parts[e.name.parts.size() - 2] : "";
        const TypedColumn* any = nullptr;
        for (const auto& c : scope) {
            if (!equalsIgnoreCase(c.name, col))
                continue;
            if (qualifier.empty() || equalsIgnoreCase(c.relation, qualifier))
                return c.type;
            any = any ? any : &c;
        }
        return any ? any->type : std::nullopt;
    }
    case ExprKind::Cast:
        return DataType::parse(e.text);
    case ExprKind::Unary:
        if (e.text == "NOT")
            return DataType::of(K::Boolean);
        return expr(e.args[0], scope);
    case ExprKind::Binary: {
        const std::string& op = e.text;
        if (e.args[0].kind == ExprKind::Interval || e.args[1].kind == ExprKind::Interval) {
            // Spark: DATE ± an interval of whole days, months and years stays a DATE; anything else is a
            // TIMESTAMP.
            const Expr& interval = e.args[1].kind == ExprKind::Interval ? e.args[1] : e.args[0];
            const Expr& value = e.args[1].kind == ExprKind::Interval ? e.args[0] : e.args[1];
            const std::vector<std::string> units = intervalUnits(interval);
            const bool timePart = std::any_of(units.begin(), units.end(), [](const std::string& u) {
                return u != "YEAR" && u != "MONTH" && u != "WEEK" && u != "DAY";
            });
            auto t = expr(value, scope);
            return DataType::of(t && t->kind == K::Date && !timePart ? K::Date : K::Timestamp);
        }
        if (isOneOf(op, {"AND", "OR", "=", "!=", "<", "<=", ">", ">=", "<=>"}))
            return DataType::of(K::Boolean);
        if (op == "||")
            return DataType::of(K::String);
        if (op == "/")
            return DataType::of(K::Double);
        if (op == "DIV")
            return DataType::of(K::BigInt);
        return merge(expr(e.args[0], scope), expr(e.args[1], scope));
    }
    case ExprKind::InList:
    case ExprKind::InQuery:
    case ExprKind::Between:
    case ExprKind::Like:
    case ExprKind::IsNull:
    case ExprKind::IsDistinct:
    case ExprKind::Exists:
        return DataType::of(K::Boolean);
    case ExprKind::Case: {
        std::optional<DataType> t = DataType::of(K::Void);
        std::size_t i = e.hasCaseOperand ? 1 : 0;
        std::size_t pairsEnd = e.args.size() - (e.hasElse ? 1 : 0);
        for (; i + 1 < pairsEnd; i += 2)
            t = merge(t, expr(e.args[i + 1], scope));
        if (e.hasElse)
            t = merge(t, expr(e.args.back(), scope));
        return t;
    }
    case ExprKind::Subquery: {
        auto cols = queryColumns(*e.query);
        if (cols && !cols->empty())
            return cols->front().type;
        return std::nullopt;
    }
    case ExprKind::Function: {
        std::string fn = toLower(e.name.joined());
        auto argType = [&](std::size_t i) {
            return i < e.args.size() ? expr(e.args[i], scope) : std::nullopt;
        };
        if (fn == "count")
            return DataType::of(K::BigInt);
        if (fn == "sum") { // Spark's Sum: BIGINT, DECIMAL(p + 10, s), else DOUBLE
            auto t = argType(0);
            if (!t)
                return std::nullopt; // a column of a table the query cannot see yet: the data decides
            if (t->isIntegral())
                return DataType::of(K::BigInt);
            return t && t->kind == K::Decimal ? decimal(t->precision + 10, t->scale)
                                              : DataType::of(K::Double);
        }
        if (fn == "avg" || fn == "mean") { // Spark's Average: DECIMAL(p + 4, s + 4), else DOUBLE
            auto t = argType(0);
            return t && t->kind == K::Decimal ? decimal(t->precision + 4, t->scale + 4)
                                              : DataType::of(K::Double);
        }
        if (isOneOf(fn, {"stddev", "variance", "sqrt", "exp", "ln", "log10", "power", "pow"}))
            return DataType::of(K::Double);
        if (isOneOf(fn, {"row_number", "rank", "dense_rank", "ntile"})) // Spark's ranking functions: INT
            return DataType::of(K::Int);
        if (isOneOf(fn, {"percent_rank", "cume_dist"}))
            return DataType::of(K::Double);
        if (isOneOf(fn, {"min", "max", "first", "any_value", "abs", "nullif", "first_value", "last",
                         "last_value", "lag", "lead", "nth_value"}))
            return argType(0);
        if (isOneOf(fn, {"coalesce", "nvl", "ifnull", "greatest", "least"})) {
            std::optional<DataType> t = DataType::of(K::Void);
            for (std::size_t i = 0; i < e.args.size(); ++i)
                t = merge(t, argType(i));
            return t;
        }
        if (fn == "if" || fn == "iff")
            return merge(argType(1), argType(2));
        if (isOneOf(fn, {"concat",  "concat_ws", "upper",          "lower",          "ucase",
                         "lcase",   "substr",    "substring",      "trim",           "ltrim",
                         "rtrim",   "replace",   "regexp_extract", "regexp_replace", "date_format",
                         "left",    "right",     "string",         "lpad",           "rpad",
                         "initcap", "md5",       "sha1",           "sha2",           "hex",
                         "repeat"}))
            return DataType::of(K::String);
        if (isOneOf(fn, {"length", "char_length", "character_length", "len", "year", "month", "day",
                         "dayofmonth", "hour", "minute", "second", "datediff", "size", "array_size",
                         "cardinality", "instr", "int"}))
            return DataType::of(K::Int);
        if (isOneOf(fn, {"current_timestamp", "now", "to_timestamp", "localtimestamp", "from_unixtime"}))
            return DataType::of(fn == "from_unixtime" ? K::String : K::Timestamp);
        if (isOneOf(fn, {"timestampadd", "dateadd", "date_add"}) && e.args.size() == 3)
            return DataType::of(K::Timestamp);
        if (isOneOf(fn,
                    {"current_date", "curdate", "to_date", "date_add", "date_sub", "dateadd", "add_months"}))
            return DataType::of(K::Date);
        if (isOneOf(fn, {"rlike", "regexp_like", "regexp", "isnull", "isnotnull", "array_contains"}))
            return DataType::of(K::Boolean);
        if (isOneOf(fn, {"unix_timestamp", "bigint"}))
            return DataType::of(K::BigInt);
        if (fn == "double")
            return DataType::of(K::Double);
        if (fn == "split")
            return DataType::arrayOf(DataType::of(K::String));
        if (fn == "array" || fn == "collect_list" || fn == "collect_set") {
            std::optional<DataType> t = DataType::of(K::Void);
            for (std::size_t i = 0; i < e.args.size(); ++i)
                t = merge(t, argType(i));
            return t ? std::optional<DataType>(DataType::arrayOf(*t)) : std::nullopt;
        }
        if (fn == "struct" || fn == "named_struct") {
            std::vector<std::string> names;
            std::vector<DataType> types;
            for (std::size_t i = 0; i < e.args.size(); ++i) {
                if (fn == "named_struct") {
                    if (i % 2 == 0)
                        continue;
                    names.push_back(e.args[i - 1].text);
                } else {
                    names.push_back(e.args[i].kind == ExprKind::Column ? e.args[i].name.parts.back()
                                                                       : "col" + std::to_string(i + 1));
                }
                auto t = argType(i);
                if (!t)
                    return std::nullopt;
                types.push_back(*t);
            }
            return DataType::structOf(std::move(names), std::move(types));
        }
        if (fn == "round" || fn == "bround" || fn == "floor" || fn == "ceil" || fn == "ceiling") {
            auto t = argType(0);
            const bool round = fn == "round" || fn == "bround";
            if (!t || (t->kind != K::Decimal && round))
                return t;
            if (t->kind != K::Decimal)
                return DataType::of(K::BigInt);
            if (!round && e.args.size() < 2) // Spark's Floor/Ceil: DECIMAL(p - s + 1, 0)
                return t->scale == 0 ? *t : decimal(t->precision - t->scale + 1, 0);
            // Spark's RoundBase: one more integral digit; the scale asked for, at most s.
            int scale = 0;
            if (e.args.size() > 1 && e.args[1].kind == ExprKind::Literal &&
                e.args[1].literalKind == LiteralKind::Integer)
                scale =
                    static_cast<int>(std::clamp(std::strtol(e.args[1].text.c_str(), nullptr, 10), -38L, 38L));
            const int integral = t->precision - t->scale + 1;
            if (scale < 0)
                return decimal(std::max(integral, 1 - scale), 0);
            return decimal(integral + std::min(t->scale, scale), std::min(t->scale, scale));
        }
        return std::nullopt;
    }
    default:
        return std::nullopt;
    }
}

std::optional<std::vector<TypedColumn>> TypeInference::queryColumns(const Query& q) {
    m_ctes.emplace_back();
    for (const auto& c : q.ctes) {
        auto cols = queryColumns(*c.query);
        if (cols) {
            for (std::size_t i = 0; i < c.columns.size() && i < cols->size(); ++i)
                (*cols)[i].name = c.columns[i];
            m_ctes.back()[toLower(c.name.name)] = *cols;
        }
    }
    auto out = term(q.body);
    m_ctes.pop_back();
    return out;
}

std::optional<std::vector<TypedColumn>> TypeInference::term(const QueryTerm& t) {
    switch (t.kind) {
    case QueryTerm::Kind::Values: {
        if (t.rows.empty())
            return std::nullopt;
        std::vector<TypedColumn> cols;
        for (std::size_t c = 0; c < t.rows[0].size(); ++c) {
            std::optional<DataType> type = DataType::of(K::Void);
            for (const auto& row : t.rows)
                type = merge(type, c < row.size() ? expr(row[c], {}) : std::nullopt);
            // A column of NULLs only is a STRING column in the table it creates.
            if (type && type->kind == K::Void)
                type = DataType::of(K::String);
            cols.push_back({"col" + std::to_string(c + 1), type, {}});
        }
        return cols;
    }
    case QueryTerm::Kind::Nested:
        return queryColumns(*t.nested);
    case QueryTerm::Kind::SetOp: {
        auto left = term(*t.left), right = term(*t.right);
        if (!left || !right || left->size() != right->size())
            return left;
        for (std::size_t i = 0; i < left->size(); ++i)
            (*left)[i].type = merge((*left)[i].type, (*right)[i].type);
        return left;
    }
    case QueryTerm::Kind::Select:
        break;
    }
    const Select& s = t.select;
    std::vector<TypedColumn> scope;
    bool scopeKnown = true;
    if (s.from) {
        auto from = fromScope(*s.from);
        if (from)
            scope = std::move(*from);
        else
            scopeKnown = false;
    }
    std::vector<TypedColumn> out;
    for (const auto& item : s.items) {
        if (item.expr.kind == ExprKind::Star) {
            if (!scopeKnown)
                return std::nullopt;
            auto excepted = [&](const TypedColumn& c) { // * EXCEPT (a, b)
                return std::any_of(item.expr.args.begin(), item.expr.args.end(), [&](const Expr& x) {
                    return equalsIgnoreCase(x.name.parts.back(), c.name);
                });
            };
            for (const auto& c : scope) // t.* takes the columns of t only
                if ((item.expr.name.empty() || equalsIgnoreCase(c.relation, item.expr.name.parts.back())) &&
                    !excepted(c))
                    out.push_back({c.name, c.type, {}});
            continue;
        }
        TypedColumn c;
        c.name = item.alias.empty() ? Translator::outputName(item.expr) : item.alias;
        c.type = expr(item.expr, scope);
        out.push_back(std::move(c));
    }
    return out;
}

std::optional<std::vector<TypedColumn>> TypeInference::fromScope(const TableRef& t) {
    std::optional<std::vector<TypedColumn>> cols;
    switch (t.kind) {
    case TableRefKind::Table: {
        std::string key = toLower(t.name.joined());
        for (auto it = m_ctes.rbegin(); it != m_ctes.rend() && !cols; ++it)
            if (auto found = it->find(key); found != it->end())
                cols = found->second;
        if (!cols && m_lookup) {
            if (auto info = m_lookup(t.name.joined())) {
                cols.emplace();
                for (const auto& c : *info)
                    cols->push_back({c.name, c.type, {}});
            }
        }
        break;
    }
    case TableRefKind::Subquery:
        cols = queryColumns(*t.query);
        break;
    case TableRefKind::Join: {
        auto left = fromScope(*t.left), right = fromScope(*t.right);
        if (!left || !right)
            return std::nullopt;
        left->insert(left->end(), right->begin(), right->end());
        return left;
    }
    case TableRefKind::Function:
        return std::nullopt;
    }
    if (!cols)
        return std::nullopt;
    // Qualified names (u.id, u.*) find the columns by the alias, else by the table's own name.
    const std::string relation = t.alias.empty() && !t.name.empty() ? t.name.parts.back() : t.alias;
    for (std::size_t i = 0; i < cols->size(); ++i) {
        (*cols)[i].relation = relation;
        if (i < t.columnAliases.size())
            (*cols)[i].name = t.columnAliases[i];
    }
    return cols;
}

std::vector<std::optional<DataType>> inferOutputTypes(const pipeline::Query& query,
                                                      const pipeline::RelationColumns& relations) {
    auto parsed = Parser(query.sparkText, {}).parseSingleQuery();
    if (!parsed)
        return {};
    TypeInference inference([&](const std::string& name) -> std::optional<std::vector<storage::ColumnInfo>> {
        auto columns = relations(name);
        if (!columns)
            return std::nullopt;
        std::vector<storage::ColumnInfo> out;
        for (const auto& c : *columns)
            out.push_back({c.name, c.type});
        return out;
    });
    std::vector<std::optional<DataType>> out;
    if (auto columns = inference.queryColumns(parsed.value()))
        for (const TypedColumn& c : *columns)
            out.push_back(c.type && c.type->kind != DataType::Kind::Void ? c.type : std::nullopt);
    return out;
}

} // namespace cdc::sql
