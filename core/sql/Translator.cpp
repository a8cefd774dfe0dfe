#include "core/sql/Translator.h"

#include "core/common/Text.h"
#include "core/sql/Printer.h"
#include "core/sql/SqlApi.h"
#include "core/storage/Catalog.h"
#include "core/storage/Database.h"
#include "core/storage/StarExpansion.h"

#include <algorithm>
#include <cctype>
#include <utility>

namespace cdc::sql {

using storage::quoteIdentifier;

namespace {

std::string lower(std::string_view s) {
    return toLower(s);
}

/// Strips Spark's numeric literal suffixes (L, S, Y, D, F, BD).
std::string numberText(std::string text) {
    while (!text.empty() && std::isalpha(static_cast<unsigned char>(text.back())) && text.back() != 'e' &&
           text.back() != 'E')
        text.pop_back();
    if (!text.empty() && text.back() == '.')
        text += "0";
    if (!text.empty() && text.front() == '.')
        text = "0" + text;
    if (text.size() > 1 && text[0] == '-' && text[1] == '.')
        text = "-0" + text.substr(1);
    return text;
}

} // namespace

std::string sqliteString(std::string_view text) {
    // Split any "{{" so that bindRelations never sees a placeholder inside a user's string.
    std::string out;
    std::size_t pos = 0;
    for (;;) {
        std::size_t hit = text.find("{{", pos);
        if (hit == std::string_view::npos) {
            std::string piece = storage::quoteString(text.substr(pos));
            return out.empty() ? piece : "(" + out + " || " + piece + ")";
        }
        out += (out.empty() ? "" : " || ") + storage::quoteString(text.substr(pos, hit + 1 - pos));
        pos = hit + 1;
    }
}

void Translator::fail(const std::string& message, const Span& where) {
    fail("UNSUPPORTED", message, where);
}

void Translator::fail(const std::string& code, const std::string& message, const Span& where) {
    if (!m_error)
        m_error = Diagnostic::error(code, message, where.location);
}

std::string Translator::outputName(const Expr& e) {
    if (e.kind == ExprKind::Column)
        return e.name.parts.back();
    if (e.kind == ExprKind::Star)
        return "*";
    return Printer::expr(e);
}

Status checkQuotedNames(std::string_view sql, const SourceLocation& where) {
    char quote = 0;
    for (std::size_t i = 0; i < sql.size(); ++i) {
        const char c = sql[i];
        if (quote == 0 && (c == '\'' || c == '"'))
            quote = c;
        else if (c == quote)
            quote = 0; // a doubled quote closes and reopens
        else if (quote != 0 && sql.substr(i, 2) == "{{")
            return Diagnostic::error("UNSUPPORTED", "a name containing '{{' is not supported", where);
    }
    return Status::success();
}

Result<TranslatedQuery> Translator::translateQuery(const Query& q) {
    installSparkFunctions(); // for the connections that will run what this writes
    Translator t;
    TranslatedQuery out;
    out.sql = t.query(q);
    if (t.error())
        return *t.error();
    CDC_TRY(checkQuotedNames(out.sql, q.span.location));
    out.relations = t.relations();
    const QueryTerm* body = &q.body;
    while (body->kind == QueryTerm::Kind::SetOp)
        body = body->left.get();
    if (body->kind == QueryTerm::Kind::Select) {
        for (const auto& item : body->select.items)
            out.outputColumns.push_back(item.alias.empty() ? outputName(item.expr) : item.alias);
    } else if (body->kind == QueryTerm::Kind::Values && !body->rows.empty()) {
        for (std::size_t i = 0; i < body->rows[0].size(); ++i)
            out.outputColumns.push_back("col" + std::to_string(i + 1));
    } else {
        out.outputColumns.push_back("*");
    }
    return out;
}

Result<std::string> Translator::translateExpression(const Expr& e) {
    installSparkFunctions();
    Translator t;
    std::string sql = t.expr(e);
    if (t.error())
        return *t.error();
    CDC_TRY(checkQuotedNames(sql, e.span.location));
    if (!t.relations().empty())
        return Diagnostic::error("UNSUPPORTED", "a subquery that reads a table is not allowed here",
                                 e.span.location);
    return sql;
}

// --- expressions ------------------------------------------------------------------------------------------

std::string Translator::literal(const Expr& e) {
    switch (e.literalKind) {
    case LiteralKind::Null:
        return "NULL";
    case LiteralKind::Boolean:
        return e.text == "TRUE" ? "1" : "0";
    case LiteralKind::String:
        return sqliteString(e.text);
    case LiteralKind::Integer:
    case LiteralKind::Decimal:
        return numberText(e.text);
    }
    return "NULL";
}

/// The levels a node's SQL takes on SQLite's parser stack, measured on SQLite 3.40 by nesting each construct
/// until "parser stack overflow" (tests/sql/tst_nesting_limits.cpp runs each at the limit): an operator
/// chain's link `(a OR b) OR c` takes 1, a right operand `a + (b + c)` 3, a call or CAST 3, a CASE 5, a query
/// 5 and more around it for the subquery forms.
class Translator::SqliteNesting {
public:
    SqliteNesting(Translator& t, int levels, const Span& where) : m_t(t), m_levels(levels) {
        m_t.m_sqliteDepth += levels;
        if (m_t.m_sqliteDepth > kSqliteNestingLimit && !m_t.m_error)
            m_t.m_error =
                Diagnostic::error("NESTING",
                                  "expression nested too deeply for SQLite (limit " +
                                      std::to_string(kSqliteNestingLimit) + " levels of its parser)",
                                  where.location);
    }
    ~SqliteNesting() { m_t.m_sqliteDepth -= m_levels; }
    SqliteNesting(const SqliteNesting&) = delete;
    SqliteNesting& operator=(const SqliteNesting&) = delete;
    bool ok() const { return m_t.m_sqliteDepth <= kSqliteNestingLimit; }

private:
    Translator& m_t;
    int m_levels;
};

namespace {

int sqliteLevels(const Expr& e, bool chainOperand) {
    switch (e.kind) {
    case ExprKind::Literal:
    case ExprKind::Column:
    case ExprKind::Star:
    case ExprKind::NamedArg:
        return 0;
    case ExprKind::Unary:
        return 2;
    case ExprKind::Binary:
        return chainOperand && e.text != "/" && e.text != "DIV" && e.text != "^" ? 1 : 3;
    case ExprKind::IsNull:
    case ExprKind::IsDistinct:
    case ExprKind::Between:
    case ExprKind::InList:
        return 2;
    case ExprKind::Case:
        return 5;
    case ExprKind::Subquery: // and the query's own 5
        return 1;
    case ExprKind::InQuery:
    case ExprKind::Exists:
        return 3;
    case ExprKind::Function:
    case ExprKind::Cast:
    case ExprKind::Like:
    case ExprKind::Field:
    case ExprKind::Index:
    case ExprKind::Interval:
        return 3;
    }
    return 3;
}

} // namespace

std::string Translator::expr(const Expr& e) {
    SqliteNesting level(*this, sqliteLevels(e, std::exchange(m_chainOperand, false)), e.span);
    if (!level.ok())
        return "NULL";
    return translate(e);
}

std::string Translator::translate(const Expr& e) {
    auto arg = [&](std::size_t i) { return expr(e.args.at(i)); };
    switch (e.kind) {
    case ExprKind::Literal:
        return literal(e);
    case ExprKind::Column:
        return column(e);
    case ExprKind::Star:
        return e.name.empty() ? "*" : star(e);
    case ExprKind::Unary:
        if (e.text == "NOT")
            return "(NOT " + arg(0) + ")";
        if (e.text == "+")
            return arg(0);
        return "(" + e.text + " " + arg(0) + ")";
    case ExprKind::Binary: {
        if (e.args[0].kind == ExprKind::Interval || e.args[1].kind == ExprKind::Interval)
            return intervalArithmetic(e);
        const std::string& op = e.text;
        const bool comparison =
            op == "=" || op == "!=" || op == "<" || op == "<=" || op == ">" || op == ">=" || op == "<=>";
        std::string a, b;
        if (comparison) {
            auto both = commonOperands({&e.args[0], &e.args[1]});
            a = both[0];
            b = both[1];
        } else {
            m_chainOperand = true; // `(a OR b) OR c` nests only a parenthesis deeper in SQLite
            a = arg(0);
            b = arg(1);
        }
        if (op == "/")
            return "(CAST(" + a + " AS REAL) / " + b + ")";
        if (op == "DIV")
            return "(CAST(" + a + " AS INTEGER) / CAST(" + b + " AS INTEGER))";
        if (op == "!=")
            return "(" + a + " <> " + b + ")";
        if (op == "<=>")
            return "(" + a + " IS " + b + ")";
        if (op == "^") // SQLite has no XOR; (a | b) - (a & b) would double a chain's SQL per term
            return "spark_bit_xor(" + a + ", " + b + ")";
        return "(" + a + " " + op + " " + b + ")";
    }
    case ExprKind::Function:
        return function(e);
    case ExprKind::Case: {
        // The operand meets its WHEN values, and the results meet each other, in their common type.
        std::vector<const Expr*> keys, results;
        std::size_t i = 0;
        if (e.hasCaseOperand)
            keys.push_back(&e.args[i++]);
        const std::size_t pairsEnd = e.args.size() - (e.hasElse ? 1 : 0);
        for (; i + 1 < pairsEnd; i += 2) {
            if (e.hasCaseOperand)
                keys.push_back(&e.args[i]);
            results.push_back(&e.args[i + 1]);
        }
        if (e.hasElse)
            results.push_back(&e.args.back());
        const std::vector<std::string> key = commonOperands(keys);
        const std::vector<std::string> result = commonOperands(results);
        std::string s = "CASE";
        if (e.hasCaseOperand)
            s += " " + key[0];
        std::size_t k = 0;
        for (i = e.hasCaseOperand ? 1 : 0; i + 1 < pairsEnd; i += 2, ++k)
            s += " WHEN " + (e.hasCaseOperand ? key[k + 1] : expr(e.args[i])) + " THEN " + result[k];
        if (e.hasElse)
            s += " ELSE " + result.back();
        return s + " END";
    }
    case ExprKind::Cast:
        return "spark_cast(" + arg(0) + ", " + storage::quoteString(e.text) + ")";
    case ExprKind::InList: {
        std::vector<const Expr*> operands;
        for (const auto& x : e.args)
            operands.push_back(&x);
        const std::vector<std::string> sql = commonOperands(operands);
        std::string s = "(" + sql[0] + (e.negated ? " NOT IN (" : " IN (");
        for (std::size_t i = 1; i < sql.size(); ++i)
            s += (i > 1 ? ", " : "") + sql[i];
        return s + "))";
    }
    case ExprKind::InQuery: {
        std::string a = arg(0);
        return "(" + a + (e.negated ? " NOT IN (" : " IN (") + query(*e.query) + "))";
    }
    case ExprKind::Between: {
        // Operands are translated in order, one statement each: relation numbering must follow the text.
        const std::vector<std::string> sql = commonOperands({&e.args[0], &e.args[1], &e.args[2]});
        return "(" + sql[0] + (e.negated ? " NOT BETWEEN " : " BETWEEN ") + sql[1] + " AND " + sql[2] + ")";
    }
    case ExprKind::Like: {
        std::string a = arg(0), p = arg(1), esc = e.args.size() > 2 ? ", " + arg(2) : "";
        std::string s;
        if (e.text == "RLIKE")
            s = "spark_rlike(" + a + ", " + p + ")";
        else if (e.text == "ILIKE")
            s = "spark_like(lower(" + a + "), lower(" + p + ")" + esc + ")";
        else
            s = "spark_like(" + a + ", " + p + esc + ")";
        return e.negated ? "(NOT " + s + ")" : s;
    }
    case ExprKind::IsNull:
        return "(" + arg(0) + (e.negated ? " IS NOT NULL)" : " IS NULL)");
    case ExprKind::IsDistinct: {
        std::string a = arg(0), b = arg(1);
        return "(" + a + (e.negated ? " IS " : " IS NOT ") + b + ")";
    }
    case ExprKind::Exists:
        return "(EXISTS (" + query(*e.query) + "))";
    case ExprKind::Subquery:
        return "(" + query(*e.query) + ")";
    case ExprKind::NamedArg:
        fail("named argument '" + e.text + "' is only allowed in table-valued functions", e.span);
        return "NULL";
    case ExprKind::Field:
        return structField(arg(0), e.text);
    case ExprKind::Index: {
        std::string a = arg(0), i = arg(1);
        return "json_extract(" + a + ", '$[' || (" + i + ") || ']')";
    }
    case ExprKind::Interval:
        fail("DATATYPE_MISMATCH",
             "an INTERVAL value can only be added to or subtracted from a date or timestamp", e.span);
        return "NULL";
    }
    return "NULL";
}

std::string Translator::function(const Expr& e) {
    if (e.over)
        return windowFunction(e);
    std::string fn = lower(e.name.joined());
    if (isWindowOnlyFunction(fn))
        fail("WINDOW_FUNCTION_WITHOUT_OVER_CLAUSE",
             "window function " + fn + "() requires an OVER clause, e.g. " + fn + "() OVER (ORDER BY ...)",
             e.span);
    // As an aggregate, first / any_value already skip NULLs here (min); nothing else takes IGNORE NULLS.
    if (e.ignoreNulls && fn != "first" && fn != "first_value" && fn != "any_value")
        fail("IGNORE NULLS applies to window functions (first, last, nth_value, lag, lead OVER (...)) and "
             "to the first() aggregate, not " +
                 fn + "()",
             e.span);
    // coalesce's operands are translated once, in their common type below (twice would double per level).
    const bool commonType = fn == "coalesce" || fn == "nvl" || fn == "ifnull";
    std::vector<std::string> a(commonType ? e.args.size() : 0);
    if (!commonType)
        for (const auto& x : e.args)
            a.push_back(expr(x));
    auto call = [&](const std::string& name) {
        std::string s = name + "(" + (e.distinct ? "DISTINCT " : "");
        for (std::size_t i = 0; i < a.size(); ++i)
            s += (i ? ", " : "") + a[i];
        return s + ")";
    };
    auto need = [&](std::size_t min, std::size_t max) {
        if (a.size() < min || a.size() > max)
            fail(fn + "() takes " +
                     (min == max ? std::to_string(min) : std::to_string(min) + " to " + std::to_string(max)) +
                     " arguments, got " + std::to_string(a.size()),
                 e.span);
        return a.size() >= min;
    };
    auto datePart = [&](const char* fmt) {
        if (!need(1, 1))
            return std::string("NULL");
        return "CAST(strftime('" + std::string(fmt) + "', " + a[0] + ") AS INTEGER)";
    };

    if (fn == "concat") {
        if (a.empty())
            return "''";
        std::string s = "(" + a[0];
        for (std::size_t i = 1; i < a.size(); ++i)
            s += " || " + a[i];
        return s + ")";
    }
    if (fn == "coalesce" || fn == "nvl" || fn == "ifnull") {
        if (!need(1, 64))
            return "NULL";
        std::vector<const Expr*> operands;
        for (const auto& x : e.args)
            operands.push_back(&x);
        a = commonOperands(operands);
        return a.size() == 1 ? a[0] : call("coalesce");
    }
    if (fn == "if" || fn == "iff") {
        if (!need(3, 3))
            return "NULL";
        return "CASE WHEN " + a[0] + " THEN " + a[1] + " ELSE " + a[2] + " END";
    }
    if (fn == "struct" || fn == "named_struct") {
        std::string s = "json_object(";
        if (fn == "struct") {
            for (std::size_t i = 0; i < a.size(); ++i) {
                std::string field = e.args[i].kind == ExprKind::Column ? e.args[i].name.parts.back()
                                                                       : "col" + std::to_string(i + 1);
                s += (i ? ", " : "") + storage::quoteString(field) + ", " + a[i];
            }
        } else {
            for (std::size_t i = 0; i < a.size(); ++i)
                s += (i ? ", " : "") + a[i];
        }
        return s + ")";
    }
    if (fn == "array")
        return call("json_array");
    if (fn == "size" || fn == "array_size" || fn == "cardinality")
        return need(1, 1) ? "json_array_length(" + a[0] + ")" : "NULL";
    if (fn == "array_contains")
        return need(2, 2) ? "(EXISTS (SELECT 1 FROM json_each(" + a[0] + ") WHERE value = " + a[1] + "))"
                          : "NULL";
    if (fn == "element_at")
        return need(2, 2) ? "json_extract(" + a[0] + ", '$[' || ((" + a[1] + ") - 1) || ']')" : "NULL";
    if (fn == "collect_list" || fn == "array_agg")
        return call("json_group_array");
    if (fn == "collect_set")
        return need(1, 1) ? "json_group_array(DISTINCT " + a[0] + ")" : "NULL";
    if (fn == "lcase")
        return call("lower");
    if (fn == "ucase")
        return call("upper");
    if (fn == "char_length" || fn == "character_length" || fn == "len")
        return call("length");
    if (fn == "substring")
        return call("substr");
    if (fn == "left")
        return need(2, 2) ? "substr(" + a[0] + ", 1, " + a[1] + ")" : "NULL";
    if (fn == "right")
        return need(2, 2) ? "substr(" + a[0] + ", -(" + a[1] + "))" : "NULL";
    if (fn == "greatest")
        return call("spark_greatest");
    if (fn == "least")
        return call("spark_least");
    if (fn == "concat_ws")
        return call("spark_concat_ws");
    if (fn == "current_timestamp" || fn == "now" || fn == "localtimestamp")
        return "spark_current_timestamp()";
    if (fn == "current_date" || fn == "curdate")
        return "date(spark_current_timestamp())";
    if (fn == "to_timestamp")
        return call("spark_to_timestamp");
    if (fn == "to_date") // without a pattern it is CAST(x AS DATE): a zone in the text is not applied
        return !need(1, 2)     ? "NULL"
               : a.size() == 1 ? "spark_cast(" + a[0] + ", 'DATE')"
                               : "date(" + call("spark_to_timestamp") + ")";
    if (fn == "date_format")
        return call("spark_date_format");
    if (fn == "regexp_extract")
        return call("spark_regexp_extract");
    if (fn == "regexp_replace")
        return call("spark_regexp_replace");
    if (fn == "rlike" || fn == "regexp_like" || fn == "regexp")
        return call("spark_rlike");
    if (fn == "split")
        return call("spark_split");
    if (fn == "repeat")
        return call("spark_repeat");
    if (fn == "year")
        return datePart("%Y");
    if (fn == "month")
        return datePart("%m");
    if (fn == "day" || fn == "dayofmonth")
        return datePart("%d");
    if (fn == "hour")
        return datePart("%H");
    if (fn == "minute")
        return datePart("%M");
    if (fn == "second")
        return datePart("%S");
    if (fn == "timestampadd" || ((fn == "dateadd" || fn == "date_add") && e.args.size() == 3))
        return timestampAdd(e);
    if (fn == "add_months") // a DATE, the day clamped to the end of the month
        return need(2, 2) ? "spark_add_interval(" + a[0] + ", CAST(" + a[1] + " AS INTEGER), 0, 0, 'DATE')"
                          : "NULL";
    if (fn == "dateadd" || fn == "date_add") // dateadd(start, days) is date_add
        return need(2, 2) ? "spark_add_interval(" + a[0] + ", 0, CAST(" + a[1] + " AS INTEGER), 0, 'DATE')"
                          : "NULL";
    if (fn == "date_sub")
        return need(2, 2) ? "spark_add_interval(" + a[0] + ", 0, -CAST(" + a[1] + " AS INTEGER), 0, 'DATE')"
                          : "NULL";
    if (fn == "datediff")
        return need(2, 2) ? "CAST(julianday(date(" + a[0] + ")) - julianday(date(" + a[1] + ")) AS INTEGER)"
                          : "NULL";
    if (fn == "unix_timestamp")
        return a.empty() ? "CAST(strftime('%s', spark_current_timestamp()) AS INTEGER)"
                         : "CAST(strftime('%s', " + a[0] + ") AS INTEGER)";
    if (fn == "from_unixtime")
        return need(1, 1) ? "datetime(" + a[0] + ", 'unixepoch')" : "NULL";
    if (fn == "ceiling")
        return call("ceil");
    if (fn == "pow")
        return call("power");
    if (fn == "mod")
        return need(2, 2) ? "(" + a[0] + " % " + a[1] + ")" : "NULL";
    if (fn == "isnull")
        return need(1, 1) ? "(" + a[0] + " IS NULL)" : "NULL";
    if (fn == "isnotnull")
        return need(1, 1) ? "(" + a[0] + " IS NOT NULL)" : "NULL";
    if (fn == "string")
        return need(1, 1) ? "spark_cast(" + a[0] + ", 'STRING')" : "NULL";
    if (fn == "int" || fn == "bigint")
        return need(1, 1)
                   ? "spark_cast(" + a[0] + ", " + storage::quoteString(fn == "int" ? "INT" : "BIGINT") + ")"
                   : "NULL";
    if (fn == "double")
        return need(1, 1) ? "spark_cast(" + a[0] + ", 'DOUBLE')" : "NULL";
    if (fn == "first" || fn == "any_value" || fn == "first_value")
        return need(1, 2) ? "min(" + a[0] + ")" : "NULL";
    if (fn == "count" && e.args.size() == 1 && e.args[0].kind == ExprKind::Star)
        return "count(*)";
    return call(fn);
}

// --- queries -----------------------------------------------------------------------------------------------

std::string Translator::relation(pipeline::RelationRef ref) {
    for (std::size_t i = 0; i < m_relations.size(); ++i) {
        const auto& r = m_relations[i];
        if (equalsIgnoreCase(r.name, ref.name) && r.stream == ref.stream && r.changeFeed == ref.changeFeed)
            return "{{REL:" + std::to_string(i) + "}}";
    }
    m_relations.push_back(std::move(ref));
    return "{{REL:" + std::to_string(m_relations.size() - 1) + "}}";
}

std::string Translator::query(const Query& q) {
    SqliteNesting level(*this, 5, q.span);
    if (!level.ok())
        return "SELECT NULL";
    std::string s;
    m_cteScopes.emplace_back();
    m_cteDefinitions.emplace_back();
    if (!q.ctes.empty()) {
        s += "WITH ";
        for (std::size_t i = 0; i < q.ctes.size(); ++i) {
            const Cte& c = q.ctes[i];
            std::string definition = quoteIdentifier(c.name.name);
            if (!c.columns.empty()) {
                definition += "(";
                for (std::size_t k = 0; k < c.columns.size(); ++k)
                    definition += (k ? ", " : "") + quoteIdentifier(c.columns[k]);
                definition += ")";
            }
            definition += " AS (" + query(*c.query) + ")";
            s += (i ? ", " : "") + definition;
            m_cteScopes.back().insert(lower(c.name.name));
            m_cteDefinitions.back().push_back(std::move(definition));
        }
        s += " ";
    }
    s += term(q.body);
    if (!q.orderBy.empty()) {
        // ORDER BY may qualify columns by the select's relations (`ORDER BY a.x`).
        m_aliasScopes.push_back(q.body.kind == QueryTerm::Kind::Select ? fromAliases(q.body.select.from.get())
                                                                       : AliasScope{});
        s += " ORDER BY " + orderItems(q.orderBy);
        m_aliasScopes.pop_back();
    }
    if (q.limit)
        s += " LIMIT " + expr(*q.limit);
    if (q.offset)
        s += (q.limit ? " OFFSET " : " LIMIT -1 OFFSET ") + expr(*q.offset);
    m_cteScopes.pop_back();
    m_cteDefinitions.pop_back();
    return s;
}

std::string Translator::orderItems(const std::vector<OrderItem>& items) {
    std::string s;
    for (std::size_t i = 0; i < items.size(); ++i) {
        const OrderItem& o = items[i];
        // Spark: ASC puts NULLs first, DESC last, unless the query says otherwise.
        bool nullsFirst = o.nulls == NullsOrder::Default ? !o.descending : o.nulls == NullsOrder::First;
        s += (i ? ", " : "") + expr(o.expr) + (o.descending ? " DESC" : " ASC") +
             (nullsFirst ? " NULLS FIRST" : " NULLS LAST");
    }
    return s;
}

std::string Translator::term(const QueryTerm& t) {
    switch (t.kind) {
    case QueryTerm::Kind::Select:
        return select(t.select);
    case QueryTerm::Kind::Values: {
        // SQLite's VALUES has no row limit (a UNION ALL chain stops at 500 terms); Spark names the columns
        // col1..colN where SQLite says column1..columnN.
        std::string names, rows;
        for (std::size_t c = 0; c < (t.rows.empty() ? 0 : t.rows[0].size()); ++c)
            names += (c ? ", " : "") + quoteIdentifier("column" + std::to_string(c + 1)) + " AS " +
                     quoteIdentifier("col" + std::to_string(c + 1));
        for (std::size_t r = 0; r < t.rows.size(); ++r) {
            rows += r ? ", (" : "(";
            for (std::size_t c = 0; c < t.rows[r].size(); ++c)
                rows += (c ? ", " : "") + expr(t.rows[r][c]);
            rows += ")";
        }
        return "SELECT " + names + " FROM (VALUES " + rows + ")";
    }
    case QueryTerm::Kind::SetOp: {
        if (t.setOp == "EXCEPT ALL" || t.setOp == "INTERSECT ALL")
            fail(t.setOp + " is not supported", t.span);
        std::string left = term(*t.left);
        return left + " " + t.setOp + " " + term(*t.right);
    }
    case QueryTerm::Kind::Nested:
        return "SELECT * FROM (" + query(*t.nested) + ")";
    }
    return {};
}

std::string Translator::select(const Select& s) {
    if (s.qualify)
        return qualifiedSelect(s);
    m_windowScopes.push_back(&s.windows);
    m_aliasScopes.push_back(fromAliases(s.from.get()));
    refuseWindows(s.where.get(), "WHERE");
    for (const auto& g : s.groupBy)
        refuseWindows(&g, "GROUP BY");
    refuseWindows(s.having.get(), "HAVING");
    std::vector<std::string> items;
    for (const SelectItem& item : s.items) {
        if (item.expr.kind == ExprKind::Star && (!item.expr.args.empty() || isStructStar(item.expr))) {
            items.emplace_back(); // * EXCEPT (...) and s.*: listed once the FROM clause is written
            continue;
        }
        std::string sql = expr(item.expr);
        if (!item.alias.empty())
            sql += " AS " + quoteIdentifier(item.alias);
        else if ((item.expr.kind != ExprKind::Column && item.expr.kind != ExprKind::Star) ||
                 readsStructField(item.expr))
            sql += " AS " + quoteIdentifier(outputName(item.expr));
        items.push_back(std::move(sql));
    }
    const std::string from = s.from ? tableRef(*s.from) : std::string();
    for (std::size_t i = 0; i < s.items.size(); ++i)
        if (items[i].empty())
            items[i] = starExcept(s.items[i].expr, from);
    std::string out = s.distinct ? "SELECT DISTINCT " : "SELECT ";
    for (std::size_t i = 0; i < items.size(); ++i)
        out += (i ? ", " : "") + items[i];
    if (s.from)
        out += " FROM " + from;
    if (s.where)
        out += " WHERE " + expr(*s.where);
    if (!s.groupBy.empty()) {
        out += " GROUP BY ";
        for (std::size_t i = 0; i < s.groupBy.size(); ++i)
            out += (i ? ", " : "") + expr(s.groupBy[i]);
    }
    if (s.having)
        out += " HAVING " + expr(*s.having);
    m_windowScopes.pop_back();
    m_aliasScopes.pop_back();
    return out;
}

// The database lists the columns once the relations are bound: a marker around a probe of the FROM clause
// (with the WITH queries in scope, which the probe may read).
std::string Translator::starExcept(const Expr& star, const std::string& from) {
    if (from.empty()) {
        fail("UNRESOLVED_COLUMN", Printer::expr(star) + " needs a FROM clause to take the columns from",
             star.span);
        return "NULL";
    }
    storage::StarSelection selection;
    std::string columns = "*";
    if (isStructStar(star)) {
        Expr value = star;
        value.kind = ExprKind::Column;
        value.args.clear();
        selection.structSql = column(value);
        columns = selection.structSql + " AS \"__cdc_struct\"";
    } else if (!star.name.empty()) {
        selection.qualifier = star.name.parts.back();
        columns = quoteIdentifier(selection.qualifier) + ".*";
    }
    for (const auto& column : star.args) {
        if (column.name.parts.size() != 1)
            fail("EXCEPT of a struct field (" + column.name.joined() + ") is not supported", column.span);
        selection.except.push_back(column.name.parts.back());
    }
    selection.location = star.span.location;
    return storage::starMarker(selection, withClauseInScope() + "SELECT " + columns + " FROM " + from);
}

std::string Translator::withClauseInScope() const {
    std::string out;
    for (const auto& scope : m_cteDefinitions)
        for (const auto& definition : scope)
            out += (out.empty() ? "WITH " : ", ") + definition;
    return out.empty() ? out : out + " ";
}

TableFunctionCall Translator::tableFunctionCall(const TableRef& t) {
    TableFunctionCall call;
    call.function = lower(t.name.joined());
    call.location = t.span.location;
    for (const Expr& a : t.args) {
        TableFunctionCall::Argument arg;
        const Expr& value = a.kind == ExprKind::NamedArg ? a.args.at(0) : a;
        if (a.kind == ExprKind::NamedArg)
            arg.name = a.text;
        arg.text = Printer::expr(value);
        arg.location = value.span.location;
        arg.literal = value.kind == ExprKind::Literal;
        if (arg.literal && value.literalKind == LiteralKind::String)
            arg.value = value.text;
        else if (arg.literal && value.literalKind == LiteralKind::Boolean)
            arg.value = std::int64_t{value.text == "TRUE" ? 1 : 0};
        else if (arg.literal && value.literalKind != LiteralKind::Null)
            arg.value = numberText(value.text);
        call.arguments.push_back(std::move(arg));
    }
    return call;
}

std::string Translator::tableRef(const TableRef& t) {
    std::string s;
    std::string alias = t.alias;
    switch (t.kind) {
    case TableRefKind::Table: {
        std::string key = lower(t.name.joined());
        bool isCte =
            t.name.parts.size() == 1 && std::any_of(m_cteScopes.begin(), m_cteScopes.end(),
                                                    [&](const auto& scope) { return scope.count(key); });
        if (isCte) {
            s = quoteIdentifier(t.name.parts[0]);
        } else {
            pipeline::RelationRef ref;
            ref.name = t.name.joined();
            ref.stream = t.stream;
            ref.location = t.name.span.location;
            // Wrapped so that the FROM-item bound in its place may carry its own alias.
            s = "(SELECT * FROM " + relation(std::move(ref)) + ")";
            if (alias.empty())
                alias = t.name.parts.back();
        }
        break;
    }
    case TableRefKind::Function: {
        std::string fn = lower(t.name.joined());
        if (fn == "table_changes") {
            if (t.args.size() < 2 || t.args.size() > 3 || t.args[0].kind != ExprKind::Literal ||
                t.args[0].literalKind != LiteralKind::String) {
                fail("table_changes('table', from_version[, to_version]) takes a table name and one or two "
                     "versions",
                     t.span);
                return "NULL";
            }
            pipeline::RelationRef ref;
            ref.name = t.args[0].text;
            ref.changeFeed = true;
            ref.location = t.args[0].span.location;
            s = "(SELECT * FROM " + relation(std::move(ref));
            s += " WHERE \"_commit_version\" >= " + expr(t.args[1]);
            if (t.args.size() == 3)
                s += " AND \"_commit_version\" <= " + expr(t.args[2]);
            s += ")";
            if (alias.empty())
                alias = "table_changes";
        } else {
            // Pipeline table-valued functions (read_files, last_snapshot_version, ...): whoever runs the
            // query binds them by their Spark text.
            pipeline::RelationRef ref;
            ref.name = Printer::expr([&] {
                Expr call;
                call.kind = ExprKind::Function;
                call.name = t.name;
                call.args = t.args;
                return call;
            }());
            ref.location = t.span.location;
            ref.call = tableFunctionCall(t);
            // Not wrapped: the table bound here may have hidden columns (read_files' `_metadata`) that a
            // `SELECT *` around it would drop.
            s = relation(std::move(ref));
            if (alias.empty())
                alias = t.name.parts.back();
        }
        break;
    }
    case TableRefKind::Subquery: {
        SqliteNesting level(*this, 2, t.span); // a FROM item's subquery nests deeper than its query
        if (!level.ok())
            return "NULL";
        if (!t.columnAliases.empty()) {
            std::string cols;
            for (std::size_t i = 0; i < t.columnAliases.size(); ++i)
                cols += (i ? ", " : "") + quoteIdentifier(t.columnAliases[i]);
            s = "(WITH \"__aliased\"(" + cols + ") AS (" + query(*t.query) + ") SELECT * FROM \"__aliased\")";
        } else {
            s = "(" + query(*t.query) + ")";
        }
        if (alias.empty())
            alias = "__subquery_" + std::to_string(++m_subqueryCounter);
        break;
    }
    case TableRefKind::Join: {
        std::string left = tableRef(*t.left);
        if (t.joinType == ",")
            return left + ", " + tableRef(*t.right);
        std::string type = t.joinType;
        if (type == "LEFT SEMI" || type == "LEFT ANTI") {
            fail(type + " JOIN is not supported; use EXISTS / NOT EXISTS", t.span);
            type = "INNER";
        }
        if (type == "FULL")
            type = "FULL OUTER";
        s = left + " " + type + " JOIN ";
        s += tableRef(*t.right);
        if (t.condition)
            s += " ON " + expr(*t.condition);
        if (!t.usingColumns.empty()) {
            s += " USING (";
            for (std::size_t i = 0; i < t.usingColumns.size(); ++i)
                s += (i ? ", " : "") + quoteIdentifier(t.usingColumns[i]);
            s += ")";
        }
        return s;
    }
    }
    if (!alias.empty())
        s += " AS " + quoteIdentifier(alias);
    return s;
}

} // namespace cdc::sql
