// Expressions by precedence climbing: OR, AND, NOT, predicates, comparisons, the binary operator
// levels, unary signs, postfix field / subscript / :: casts, and the primaries (literals, CASE, CAST,
// function calls, subqueries).
#include "core/sql/Parser.h"

#include "core/common/DataType.h"
#include "core/common/Text.h"
#include "core/sql/ParserText.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <string_view>
#include <variant>
#include <vector>

namespace cdc::sql {

using detail::upper;

namespace {

Expr makeBinary(std::string op, Expr left, Expr right, Span span) {
    Expr e;
    e.kind = ExprKind::Binary;
    e.text = std::move(op);
    e.args.push_back(std::move(left));
    e.args.push_back(std::move(right));
    e.span = span;
    return e;
}

} // namespace

// --- expressions
// ---------------------------------------------------------------------------------------------

/// A function argument: an expression, or a named argument `name => expr` (read_files(..., format => 'csv')).
Expr Parser::parseArgument() {
    if (cur().kind != TokenKind::Identifier || !tok(1).isSymbol("=>"))
        return parseExpr();
    Expr named;
    named.kind = ExprKind::NamedArg;
    named.span = beginSpan();
    named.text = cur().text;
    advance();
    advance();
    named.args.push_back(parseExpr());
    endSpan(named.span);
    return named;
}

Expr Parser::parseExpr() {
    Nesting level(*this); // parentheses, arguments, CASE and CAST parts: each a level deeper
    return parseOr();
}

Expr Parser::parseOr() {
    Expr left = parseAnd();
    std::optional<Nesting> chain;
    while (!failed() && atKeyword("OR")) {
        Span span = left.span;
        advance();
        deeperInChain(chain);
        Expr right = parseAnd();
        endSpan(span);
        left = makeBinary("OR", std::move(left), std::move(right), span);
    }
    return left;
}

Expr Parser::parseAnd() {
    Expr left = parseNot();
    std::optional<Nesting> chain;
    while (!failed() && atKeyword("AND")) {
        Span span = left.span;
        advance();
        deeperInChain(chain);
        Expr right = parseNot();
        endSpan(span);
        left = makeBinary("AND", std::move(left), std::move(right), span);
    }
    return left;
}

Expr Parser::parseNot() {
    if (atKeyword("NOT") || atSymbol("!")) { // Spark spells logical NOT either way
        Expr e;
        e.kind = ExprKind::Unary;
        e.text = "NOT";
        e.span = beginSpan();
        advance();
        Nesting level(*this);
        e.args.push_back(parseNot());
        endSpan(e.span);
        return e;
    }
    return parsePredicate();
}

// A value expression: the binary operator levels, then comparisons (the loosest, left-associative).
Expr Parser::parseComparison() {
    Expr left = parseBinary(0);
    std::optional<Nesting> chain;
    static const std::array<std::string_view, 9> kComparisons = {"=",  "==", "!=", "<>", "<",
                                                                 "<=", ">",  ">=", "<=>"};
    while (!failed() && cur().kind == TokenKind::Symbol &&
           std::find(kComparisons.begin(), kComparisons.end(), std::string_view(cur().text)) !=
               kComparisons.end()) {
        Span span = left.span;
        std::string op = cur().text == "==" ? "=" : (cur().text == "<>" ? "!=" : cur().text);
        advance();
        deeperInChain(chain);
        Expr right = parseBinary(0);
        endSpan(span);
        left = makeBinary(op, std::move(left), std::move(right), span);
    }
    return left;
}

// Predicates apply to a value expression and take value expressions as operands, as in Spark's
// grammar: `x BETWEEN 0 AND y = 1` bounds x by (y = 1), and nothing compares a predicate's result.
Expr Parser::parsePredicate() {
    Expr left = parseComparison();
    std::optional<Nesting> chain; // `x IS NULL IS NULL ...` nests like an operator chain
    for (;;) {
        if (failed())
            return left;
        if (atKeyword("IS") || atKeyword("NOT") || atKeyword("IN") || atKeyword("BETWEEN") ||
            atKeyword("LIKE") || atKeyword("ILIKE") || atKeyword("RLIKE") || atKeyword("REGEXP"))
            deeperInChain(chain);
        if (failed())
            return left;
        Span span = left.span;
        const Token& t = cur();
        if (t.isKeyword("IS")) {
            advance();
            bool negated = acceptKeyword("NOT");
            Expr e;
            e.span = span;
            e.negated = negated;
            if (acceptKeyword("NULL")) {
                e.kind = ExprKind::IsNull;
                e.args.push_back(std::move(left));
            } else if (acceptKeyword("DISTINCT")) {
                expectKeyword("FROM", "after IS DISTINCT");
                e.kind = ExprKind::IsDistinct;
                e.args.push_back(std::move(left));
                e.args.push_back(parseComparison());
            } else if (atKeyword("TRUE") || atKeyword("FALSE")) {
                // x IS [NOT] TRUE == x <=> TRUE (negated: NOT (x <=> TRUE))
                Expr lit;
                lit.kind = ExprKind::Literal;
                lit.literalKind = LiteralKind::Boolean;
                lit.text = atKeyword("TRUE") ? "TRUE" : "FALSE";
                lit.span = beginSpan();
                advance();
                e.kind = ExprKind::IsDistinct;
                e.negated = !negated;
                e.args.push_back(std::move(left));
                e.args.push_back(std::move(lit));
            } else {
                fail("expected NULL, NOT NULL, TRUE, FALSE or DISTINCT FROM after IS");
                return left;
            }
            endSpan(e.span);
            left = std::move(e);
            continue;
        }
        bool negated = false;
        if (t.isKeyword("NOT") &&
            (tok(1).isKeyword("IN") || tok(1).isKeyword("BETWEEN") || tok(1).isKeyword("LIKE") ||
             tok(1).isKeyword("ILIKE") || tok(1).isKeyword("RLIKE") || tok(1).isKeyword("REGEXP"))) {
            negated = true;
            advance();
        }
        if (acceptKeyword("IN")) {
            Expr e;
            e.span = span;
            e.negated = negated;
            e.args.push_back(std::move(left));
            expectSymbol("(", "after IN");
            if (atQueryStart() && !atSymbol("(")) {
                e.kind = ExprKind::InQuery;
                e.query = parseQuery();
            } else {
                e.kind = ExprKind::InList;
                do {
                    e.args.push_back(parseExpr());
                } while (!failed() && acceptSymbol(","));
            }
            expectSymbol(")", "to close the IN list");
            endSpan(e.span);
            left = std::move(e);
            continue;
        }
        if (acceptKeyword("BETWEEN")) {
            Expr e;
            e.kind = ExprKind::Between;
            e.span = span;
            e.negated = negated;
            e.args.push_back(std::move(left));
            e.args.push_back(parseComparison());
            expectKeyword("AND", "in BETWEEN");
            e.args.push_back(parseComparison());
            endSpan(e.span);
            left = std::move(e);
            continue;
        }
        if (atKeyword("LIKE") || atKeyword("ILIKE") || atKeyword("RLIKE") || atKeyword("REGEXP")) {
            Expr e;
            e.kind = ExprKind::Like;
            e.text = upper(cur().text);
            if (e.text == "REGEXP")
                e.text = "RLIKE";
            e.span = span;
            e.negated = negated;
            advance();
            e.args.push_back(std::move(left));
            e.args.push_back(parseComparison());
            if (e.text != "RLIKE" && acceptKeyword("ESCAPE"))
                e.args.push_back(parseComparison());
            endSpan(e.span);
            left = std::move(e);
            continue;
        }
        if (negated || t.isKeyword("NOT")) {
            if (!negated)
                advance();
            fail("expected IN, BETWEEN or LIKE after NOT");
        }
        return left;
    }
}

// Binary operator levels below the predicates, loosest first: | ^ & (+ - ||) (* / % DIV). Precedence
// climbing in one function, so a parenthesis costs one stack frame here rather than one per level.
Expr Parser::parseBinary(int minLevel) {
    static const std::array<std::vector<std::string_view>, 5> kLevels = {
        {{"|"}, {"^"}, {"&"}, {"+", "-", "||"}, {"*", "/", "%", "DIV"}}};
    auto levelOf = [&](const Token& t) -> int {
        for (std::size_t level = 0; level < kLevels.size(); ++level)
            for (auto candidate : kLevels[level])
                if ((t.kind == TokenKind::Symbol && t.text == candidate) ||
                    (candidate == "DIV" && t.isKeyword("DIV")))
                    return static_cast<int>(level);
        return -1;
    };
    Expr left = parseUnary();
    std::optional<Nesting> chain;
    for (;;) {
        if (failed())
            return left;
        const int level = levelOf(cur());
        if (level < minLevel)
            return left;
        std::string op = upper(cur().text);
        Span span = left.span;
        advance();
        deeperInChain(chain);
        Expr right = parseBinary(level + 1);
        endSpan(span);
        left = makeBinary(std::move(op), std::move(left), std::move(right), span);
    }
}

Expr Parser::parseUnary() {
    if (atSymbol("-") || atSymbol("+") || atSymbol("~")) {
        Span span = beginSpan();
        std::string op = cur().text;
        advance();
        Nesting level(*this);
        // Fold a sign into a numeric literal so that -1 types like Spark's literal.
        if (op == "-" && (cur().kind == TokenKind::Integer || cur().kind == TokenKind::Decimal) &&
            cur().offset == m_prevEnd) {
            Expr lit = parsePostfix();
            if (lit.kind == ExprKind::Literal) {
                lit.text = "-" + lit.text;
                lit.span = span;
                endSpan(lit.span);
                return lit;
            }
            Expr e;
            e.kind = ExprKind::Unary;
            e.text = op;
            e.span = span;
            e.args.push_back(std::move(lit));
            endSpan(e.span);
            return e;
        }
        Expr e;
        e.kind = ExprKind::Unary;
        e.text = op;
        e.span = span;
        e.args.push_back(parseUnary());
        endSpan(e.span);
        return e;
    }
    return parsePostfix();
}

Expr Parser::parsePostfix() {
    Expr e = parsePrimary();
    std::optional<Nesting> chain; // a.b.c, x[0][1], x::int::string nest like operator chains
    for (;;) {
        if (failed())
            return e;
        Span span = e.span;
        if (atSymbol(".") &&
            (tok(1).kind == TokenKind::Identifier || tok(1).kind == TokenKind::QuotedIdentifier)) {
            advance();
            deeperInChain(chain);
            Expr f;
            f.kind = ExprKind::Field;
            f.text = cur().text;
            advance();
            f.args.push_back(std::move(e));
            f.span = span;
            endSpan(f.span);
            e = std::move(f);
        } else if (acceptSymbol("[")) {
            deeperInChain(chain);
            Expr ix;
            ix.kind = ExprKind::Index;
            ix.args.push_back(std::move(e));
            ix.args.push_back(parseExpr());
            expectSymbol("]", "to close the subscript");
            ix.span = span;
            endSpan(ix.span);
            e = std::move(ix);
        } else if (acceptSymbol("::")) {
            deeperInChain(chain);
            Expr c;
            c.kind = ExprKind::Cast;
            c.args.push_back(std::move(e));
            c.text = parseType();
            c.span = span;
            endSpan(c.span);
            e = std::move(c);
        } else {
            return e;
        }
    }
}

Expr Parser::parsePrimary() {
    Expr e;
    e.span = beginSpan();
    const Token t = cur();
    switch (t.kind) {
    case TokenKind::String:
        e.kind = ExprKind::Literal;
        e.literalKind = LiteralKind::String;
        e.text = parseStringLiteral("");
        endSpan(e.span);
        return e;
    case TokenKind::Integer:
    case TokenKind::Decimal:
        e.kind = ExprKind::Literal;
        e.literalKind = t.kind == TokenKind::Integer ? LiteralKind::Integer : LiteralKind::Decimal;
        e.text = t.text;
        advance();
        endSpan(e.span);
        return e;
    case TokenKind::Symbol:
        if (t.text == "*") {
            advance();
            e.kind = ExprKind::Star;
            parseStarExcept(e);
            endSpan(e.span);
            return e;
        }
        if (t.text == "(") {
            if (atQueryStart()) {
                advance();
                e.kind = ExprKind::Subquery;
                e.query = parseQuery();
                expectSymbol(")", "to close the subquery");
                endSpan(e.span);
                return e;
            }
            advance();
            Expr inner = parseExpr();
            if (atSymbol(",")) {
                fail("row values (a, b, ...) are not supported here; use struct(a, b, ...)");
                return inner;
            }
            expectSymbol(")", "to close the parenthesis");
            // The parentheses belong to the expression: an error about it underlines "(a + b)".
            inner.span = e.span;
            endSpan(inner.span);
            return inner;
        }
        fail("expected an expression, found " + describe(t));
        return e;
    case TokenKind::End:
        fail("expected an expression, found end of input");
        return e;
    case TokenKind::Error:
        fail(t.text);
        return e;
    case TokenKind::Identifier:
    case TokenKind::QuotedIdentifier:
        break;
    }
    if (t.kind == TokenKind::Identifier) {
        if (t.isKeyword("NULL") || t.isKeyword("TRUE") || t.isKeyword("FALSE")) {
            e.kind = ExprKind::Literal;
            e.literalKind = t.isKeyword("NULL") ? LiteralKind::Null : LiteralKind::Boolean;
            e.text = upper(t.text);
            advance();
            endSpan(e.span);
            return e;
        }
        if (t.isKeyword("CASE")) {
            advance();
            return parseCase(e.span);
        }
        if ((t.isKeyword("CAST") || t.isKeyword("TRY_CAST")) && tok(1).isSymbol("(")) {
            advance();
            return parseCast(e.span);
        }
        if (t.isKeyword("EXISTS") && tok(1).isSymbol("(")) {
            advance();
            advance();
            e.kind = ExprKind::Exists;
            e.query = parseQuery();
            expectSymbol(")", "to close EXISTS (");
            endSpan(e.span);
            return e;
        }
        if ((t.isKeyword("DATE") || t.isKeyword("TIMESTAMP") || t.isKeyword("TIMESTAMP_NTZ")) &&
            tok(1).kind == TokenKind::String) {
            advance();
            e.kind = ExprKind::Cast;
            e.text = DataType::parse(t.text)->toString();
            Expr lit;
            lit.kind = ExprKind::Literal;
            lit.literalKind = LiteralKind::String;
            lit.span = beginSpan();
            lit.text = parseStringLiteral("");
            endSpan(lit.span);
            e.args.push_back(std::move(lit));
            endSpan(e.span);
            return e;
        }
        if (t.isKeyword("INTERVAL") &&
            (tok(1).kind == TokenKind::Integer || tok(1).kind == TokenKind::Decimal ||
             tok(1).kind == TokenKind::String || tok(1).isSymbol("-"))) {
            advance();
            return parseInterval(e.span);
        }
        if (isReservedWord(t.text) || startsAutoCdcClause()) {
            fail("expected an expression, found '" + t.text + "'");
            return e;
        }
    }
    Name name;
    name.span = e.span;
    name.parts.push_back(t.text);
    advance();
    while (atSymbol(".")) {
        if (tok(1).isSymbol("*")) {
            advance();
            advance();
            e.kind = ExprKind::Star;
            endSpan(name.span);
            e.name = std::move(name);
            parseStarExcept(e);
            endSpan(e.span);
            return e;
        }
        if (tok(1).kind != TokenKind::Identifier && tok(1).kind != TokenKind::QuotedIdentifier)
            break;
        advance();
        name.parts.push_back(cur().text);
        advance();
    }
    endSpan(name.span);
    if (atSymbol("("))
        return parseFunctionCall(std::move(name), e.span);
    static const std::array<std::string_view, 4> kNiladic = {"CURRENT_DATE", "CURRENT_TIMESTAMP",
                                                             "CURRENT_USER", "CURRENT_TIMEZONE"};
    if (name.parts.size() == 1 && t.kind == TokenKind::Identifier &&
        std::find(kNiladic.begin(), kNiladic.end(), upper(t.text)) != kNiladic.end()) {
        e.kind = ExprKind::Function;
        e.name = std::move(name);
        for (auto& c : e.name.parts[0])
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        endSpan(e.span);
        return e;
    }
    e.kind = ExprKind::Column;
    e.name = std::move(name);
    endSpan(e.span);
    return e;
}

/// Databricks' `* EXCEPT (a, b)` after a star: the columns go into the star's args. `EXCEPT (SELECT ...`
/// stays the set operator.
void Parser::parseStarExcept(Expr& star) {
    if (!atKeyword("EXCEPT") || !tok(1).isSymbol("(") || tok(2).isKeyword("SELECT") ||
        tok(2).isKeyword("WITH") || tok(2).isKeyword("VALUES") || tok(2).isSymbol("("))
        return;
    advance();
    for (Ident& id : parseParenIdentList("after EXCEPT")) {
        Expr column;
        column.kind = ExprKind::Column;
        column.span = id.span;
        column.name.span = id.span;
        column.name.parts.push_back(std::move(id.name));
        star.args.push_back(std::move(column));
    }
}

Expr Parser::parseFunctionCall(Name name, Span span) {
    // Function names are case-insensitive; the canonical spelling is lower case.
    for (auto& part : name.parts)
        for (auto& c : part)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    Expr e;
    e.kind = ExprKind::Function;
    e.name = std::move(name);
    e.span = span;
    expectSymbol("(", "");
    if (!atSymbol(")")) {
        if (acceptKeyword("DISTINCT"))
            e.distinct = true;
        else
            acceptKeyword("ALL");
        do {
            e.args.push_back(parseArgument());
        } while (!failed() && acceptSymbol(","));
    }
    expectSymbol(")", "to close the argument list of " + e.name.joined() + "(");
    // `lag(x) IGNORE NULLS OVER (...)`; RESPECT NULLS is the default, said out loud.
    if (!failed() && (atKeyword("IGNORE") || atKeyword("RESPECT")) && tok(1).isKeyword("NULLS")) {
        e.ignoreNulls = atKeyword("IGNORE");
        advance();
        advance();
    }
    if (!failed() && acceptKeyword("OVER"))
        e.over = parseOver();
    endSpan(e.span);
    return e;
}

namespace {

/// The fields of an `INTERVAL 'text' FROM TO TO` literal, largest first (unit, signed number text), or a
/// message saying what the text should look like. Spark's forms: 'Y-M' YEAR TO MONTH, 'D H[:M[:S]]' DAY TO
/// HOUR/MINUTE/SECOND, 'H:M[:S]' HOUR TO MINUTE/SECOND, 'M:S' MINUTE TO SECOND; one leading sign for all.
std::variant<std::vector<std::pair<std::string, std::string>>, std::string>
intervalFields(std::string_view text, const std::string& from, const std::string& to) {
    static const std::vector<std::string> kOrder = {"YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND"};
    const auto at = [&](const std::string& u) { return std::find(kOrder.begin(), kOrder.end(), u); };
    const bool yearMonth = from == "YEAR" && to == "MONTH";
    if (at(from) == kOrder.end() || at(to) == kOrder.end() || at(from) >= at(to) ||
        (!yearMonth && (at(from) < at("DAY") || from == "MONTH")))
        return "INTERVAL " + from + " TO " + to +
               " is not an interval type (YEAR TO MONTH, DAY TO HOUR|MINUTE|SECOND, HOUR TO MINUTE|SECOND, "
               "MINUTE TO SECOND)";
    std::vector<std::string> units(at(from), at(to) + 1);
    // The separators between the fields: '-' for YEAR TO MONTH, ' ' after DAY, ':' between the others.
    std::string pattern = "[+-]?";
    std::string shape;
    for (std::size_t i = 0; i < units.size(); ++i) {
        if (i > 0)
            shape += yearMonth ? "-" : (units[i - 1] == "DAY" ? " " : ":");
        shape += units[i] == "SECOND" ? "S[.f]" : std::string(1, units[i][0]);
    }
    const auto fail = [&] {
        return "the INTERVAL " + from + " TO " + to + " text must look like '" + shape + "', not '" +
               std::string(text) + "'";
    };
    std::string_view rest = trim(text);
    std::string sign;
    if (!rest.empty() && (rest.front() == '-' || rest.front() == '+')) {
        sign = rest.front() == '-' ? "-" : "";
        rest.remove_prefix(1);
    }
    std::vector<std::pair<std::string, std::string>> out;
    for (std::size_t i = 0; i < units.size(); ++i) {
        if (i > 0) {
            const char sep = yearMonth ? '-' : (units[i - 1] == "DAY" ? ' ' : ':');
            if (rest.empty() || rest.front() != sep)
                return fail();
            rest.remove_prefix(1);
        }
        std::size_t n = 0;
        while (n < rest.size() && std::isdigit(static_cast<unsigned char>(rest[n])))
            ++n;
        if (n == 0 || n > 9)
            return fail();
        if (units[i] == "SECOND" && n < rest.size() && rest[n] == '.') {
            std::size_t f = n + 1;
            while (f < rest.size() && std::isdigit(static_cast<unsigned char>(rest[f])))
                ++f;
            if (f == n + 1 || f - n - 1 > 9)
                return fail();
            n = f;
        }
        std::string number(rest.substr(0, n));
        rest.remove_prefix(n);
        while (number.size() > 1 && number[0] == '0' && number[1] != '.')
            number.erase(0, 1); // '2:03' is 3 minutes

        // The fields after the first are bounded, as Spark checks them.
        const double value = std::strtod(number.c_str(), nullptr);
        const double limit = units[i] == "MONTH" ? 11 : units[i] == "HOUR" ? 23 : 59.999999999;
        if (i > 0 && value > limit)
            return "the " + units[i] + " field of INTERVAL '" + std::string(text) + "' " + from + " TO " +
                   to + " is out of range (0 to " +
                   (units[i] == "MONTH"  ? "11"
                    : units[i] == "HOUR" ? "23"
                                         : "59") +
                   ")";
        out.emplace_back(units[i], sign + number);
    }
    if (!rest.empty())
        return fail();
    return out;
}

} // namespace

/// INTERVAL value unit [value unit ...] (the Databricks "INTERVAL type" page's multi-unit literal; each
/// value a number, possibly negative, or a string holding one), and `INTERVAL 'text' FROM TO TO` with its
/// fields in one string (`'1 2:30' DAY TO MINUTE`), which reads as the multi-unit literal of its fields.
Expr Parser::parseInterval(Span span) {
    static const std::array<std::pair<std::string_view, std::string_view>, 9> kUnits = {
        {{"YEAR", "YEARS"},
         {"MONTH", "MONTHS"},
         {"WEEK", "WEEKS"},
         {"DAY", "DAYS"},
         {"HOUR", "HOURS"},
         {"MINUTE", "MINUTES"},
         {"SECOND", "SECONDS"},
         {"MILLISECOND", "MILLISECONDS"},
         {"MICROSECOND", "MICROSECONDS"}}};
    auto unitAt = [&](std::size_t ahead) -> std::string {
        const Token& u = tok(ahead);
        if (u.kind != TokenKind::Identifier)
            return {};
        const std::string word = upper(u.text);
        for (const auto& [singular, plural] : kUnits)
            if (word == singular || word == plural)
                return std::string(singular);
        return {};
    };
    auto atValue = [&]() {
        const bool number = cur().kind == TokenKind::Integer || cur().kind == TokenKind::Decimal;
        if (number || cur().kind == TokenKind::String)
            return !unitAt(1).empty();
        return atSymbol("-") && (tok(1).kind == TokenKind::Integer || tok(1).kind == TokenKind::Decimal) &&
               !unitAt(2).empty();
    };
    Expr e;
    e.kind = ExprKind::Interval;
    e.span = span;
    do {
        Expr value;
        value.kind = ExprKind::Literal;
        value.span = beginSpan();
        const bool negative = acceptSymbol("-");
        const Token& valueToken = cur();
        if (cur().kind == TokenKind::String) {
            value.literalKind = LiteralKind::String;
            value.text = parseStringLiteral("");
        } else if (cur().kind == TokenKind::Integer || cur().kind == TokenKind::Decimal) {
            value.literalKind =
                cur().kind == TokenKind::Integer ? LiteralKind::Integer : LiteralKind::Decimal;
            value.text = (negative ? "-" : "") + cur().text;
            advance();
        } else {
            fail("expected a number or a string in INTERVAL");
            return e;
        }
        endSpan(value.span);
        const std::string unit = unitAt(0);
        if (unit.empty()) {
            fail("expected an interval unit (YEAR, MONTH, WEEK, DAY, HOUR, MINUTE, SECOND, MILLISECOND, "
                 "MICROSECOND)");
            return e;
        }
        advance();
        if (atKeyword("TO")) {
            const Token& toWord = cur();
            advance();
            const std::string to = unitAt(0);
            if (to.empty()) {
                fail("expected an interval unit after TO");
                return e;
            }
            advance();
            if (!e.args.empty() || value.literalKind != LiteralKind::String || negative) {
                failAt(toWord,
                       "INTERVAL ... " + unit + " TO " + to +
                           " takes one string of all its fields, e.g. INTERVAL '1 2:30' DAY TO MINUTE");
                return e;
            }
            auto fields = intervalFields(value.text, unit, to);
            if (const auto* message = std::get_if<std::string>(&fields)) {
                failAt(valueToken, *message);
                if (m_error)
                    m_error->code = "INVALID_INTERVAL_FORMAT"; // Spark's error class for it
                return e;
            }
            for (auto& [fieldUnit, number] : std::get<0>(fields)) {
                Expr field = value;
                field.literalKind =
                    number.find('.') == std::string::npos ? LiteralKind::Integer : LiteralKind::Decimal;
                field.text = number;
                e.args.push_back(std::move(field));
                e.text += (e.text.empty() ? "" : " ") + fieldUnit;
            }
            break; // one TO form is the whole literal
        }
        e.args.push_back(std::move(value));
        e.text += (e.text.empty() ? "" : " ") + unit;
    } while (!failed() && atValue());
    endSpan(e.span);
    return e;
}

Expr Parser::parseCase(Span span) {
    Expr e;
    e.kind = ExprKind::Case;
    e.span = span;
    if (!atKeyword("WHEN")) {
        e.hasCaseOperand = true;
        e.args.push_back(parseExpr());
    }
    if (!atKeyword("WHEN") && !failed())
        fail("expected WHEN in CASE");
    while (!failed() && acceptKeyword("WHEN")) {
        e.args.push_back(parseExpr());
        expectKeyword("THEN", "after the WHEN condition");
        e.args.push_back(parseExpr());
    }
    if (acceptKeyword("ELSE")) {
        e.hasElse = true;
        e.args.push_back(parseExpr());
    }
    expectKeyword("END", "to close CASE");
    endSpan(e.span);
    return e;
}

Expr Parser::parseCast(Span span) {
    Expr e;
    e.kind = ExprKind::Cast;
    e.span = span;
    expectSymbol("(", "after CAST");
    e.args.push_back(parseExpr());
    expectKeyword("AS", "in CAST");
    e.text = parseType();
    expectSymbol(")", "to close CAST(");
    endSpan(e.span);
    return e;
}

} // namespace cdc::sql
