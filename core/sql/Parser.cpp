// The parser's shared machinery: token access, error reporting, spans, the entry points and the
// small pieces (names, string literals, types) every statement family uses. The families live in
// ParserScript.cpp, ParserPipeline.cpp, ParserQueries.cpp and ParserExpressions.cpp.
#include "core/sql/Parser.h"

#include "core/common/DataType.h"
#include "core/common/NestingLimit.h"
#include "core/sql/Lexer.h"
#include "core/sql/ParserText.h"

#include <algorithm>
#include <array>

namespace cdc::sql {

using detail::upper;

namespace {

constexpr std::array<std::string_view, 47> kReserved = {
    "ALL",      "AND",       "ANTI",   "AS",     "ASC",    "BETWEEN", "BY",     "CASE",   "CROSS",   "DESC",
    "DISTINCT", "ELSE",      "END",    "EXCEPT", "EXISTS", "FROM",    "FULL",   "GROUP",  "HAVING",  "IN",
    "INNER",    "INTERSECT", "IS",     "JOIN",   "LEFT",   "LIKE",    "LIMIT",  "MINUS",  "NATURAL", "NOT",
    "OFFSET",   "ON",        "OR",     "ORDER",  "OUTER",  "QUALIFY", "RIGHT",  "SELECT", "SEMI",    "THEN",
    "UNION",    "USING",     "VALUES", "WHEN",   "WHERE",  "WITH",    "WINDOW",
};

} // namespace

bool isReservedWord(std::string_view word) {
    std::string w = upper(word);
    return std::find(kReserved.begin(), kReserved.end(), w) != kReserved.end();
}

std::string Name::joined() const {
    std::string out;
    for (const auto& p : parts)
        out += (out.empty() ? "" : ".") + p;
    return out;
}

Parser::Parser(std::string_view text, std::string file) : m_file(std::move(file)) {
    Lexer lexer(text);
    m_tokens = lexer.tokenize();
    m_comments = lexer.comments();
    m_endToken = m_tokens.back();
}

Parser::Parser(std::string_view text, std::string file, LexStart start, std::size_t end)
    : m_file(std::move(file)) {
    Lexer lexer(text.substr(0, std::min(end, text.size())), start);
    m_tokens = lexer.tokenize();
    m_comments = lexer.comments();
    m_endToken = m_tokens.back();
}

// --- token helpers -------------------------------------------------------------------------------------

const Token& Parser::tok(std::size_t ahead) const {
    if (failed())
        return m_endToken; // after an error the parser sees the end, so every loop unwinds quickly
    std::size_t i = std::min(m_pos + ahead, m_tokens.size() - 1);
    return m_tokens[i];
}

void Parser::advance() {
    if (failed() || m_tokens[m_pos].kind == TokenKind::End)
        return;
    m_prevEnd = m_tokens[m_pos].offset + m_tokens[m_pos].length;
    ++m_pos;
}

bool Parser::acceptKeyword(std::string_view kw) {
    if (!atKeyword(kw))
        return false;
    advance();
    return true;
}

bool Parser::acceptSymbol(std::string_view s) {
    if (!atSymbol(s))
        return false;
    advance();
    return true;
}

void Parser::expectKeyword(std::string_view kw, std::string_view context) {
    if (!acceptKeyword(kw))
        fail("expected " + std::string(kw) + (context.empty() ? "" : " " + std::string(context)));
}

void Parser::expectSymbol(std::string_view s, std::string_view context) {
    if (!acceptSymbol(s))
        fail("expected '" + std::string(s) + "'" + (context.empty() ? "" : " " + std::string(context)));
}

SourceLocation Parser::locationOf(const Token& t) const {
    SourceLocation loc;
    loc.file = m_file;
    loc.line = t.line;
    loc.column = t.column;
    loc.offset = t.offset;
    loc.length = t.length;
    return loc;
}

void Parser::fail(const std::string& message) {
    if (failed())
        return;
    failAt(m_tokens[m_pos], message);
}

void Parser::failAt(const Token& where, const std::string& message) {
    if (failed())
        return;
    // A lexical error where something else was expected is the real cause: report it instead.
    if (where.kind == TokenKind::Error)
        m_error = Diagnostic::error("PARSE", where.text, locationOf(where));
    else
        m_error = Diagnostic::error("PARSE", message, locationOf(where));
}

void Parser::Nesting::deeper() {
    ++m_levels;
    if (++m_parser.m_depth > kMaxNestingDepth && !m_parser.failed())
        m_parser.m_error = nestingTooDeep(m_parser.locationOf(m_parser.m_tokens[m_parser.m_pos]));
}

void Parser::deeperInChain(std::optional<Nesting>& chain) {
    if (chain)
        chain->deeper();
    else
        chain.emplace(*this);
}

Span Parser::beginSpan() const {
    Span s;
    s.location = locationOf(m_tokens[std::min(m_pos, m_tokens.size() - 1)]);
    return s;
}

void Parser::endSpan(Span& span) const {
    if (m_prevEnd >= span.location.offset)
        span.location.length = m_prevEnd - span.location.offset;
}

std::string Parser::describe(const Token& t) const {
    switch (t.kind) {
    case TokenKind::End:
        return "end of input";
    case TokenKind::String:
        return "string '" + t.text + "'";
    default:
        return "'" + t.text + "'";
    }
}

void Parser::expectEndOfInput() {
    acceptSymbol(";");
    if (!failed() && cur().kind != TokenKind::End)
        fail("unexpected " + describe(cur()) + " after the end of the statement");
}

// --- entry points -----------------------------------------------------------------------------------------

ParsedScript Parser::parseScript() {
    ParsedScript out;
    for (;;) {
        while (acceptSymbol(";")) {
        }
        if (cur().kind == TokenKind::End)
            break;
        Statement st = parseStatement();
        if (!failed() && !atSymbol(";") && cur().kind != TokenKind::End)
            fail("unexpected " + describe(cur()) + ": expected ';' or the end of the statement");
        if (failed()) {
            out.diagnostics.push_back(*m_error);
            m_error.reset();
            // Recover at the next statement boundary.
            while (m_tokens[m_pos].kind != TokenKind::End && !m_tokens[m_pos].isSymbol(";"))
                advance();
            continue;
        }
        out.statements.push_back(std::move(st));
    }
    return out;
}

Result<Query> Parser::parseSingleQuery() {
    acceptSymbol(">");
    if (!atQueryStart())
        fail(cur().kind == TokenKind::End ? std::string("expected a query")
                                          : "expected a query, found " + describe(cur()));
    Query q = parseQuery();
    expectEndOfInput();
    if (failed())
        return *m_error;
    return q;
}

Result<Expr> Parser::parseSingleExpression() {
    Expr e = parseExpr();
    if (!failed() && cur().kind != TokenKind::End)
        fail("unexpected " + describe(cur()) + " after the expression");
    if (failed())
        return *m_error;
    return e;
}

// --- names
// -----------------------------------------------------------------------------------------------------

bool Parser::atIdentifier() const {
    return cur().kind == TokenKind::Identifier || cur().kind == TokenKind::QuotedIdentifier;
}

Ident Parser::parseIdent(std::string_view what) {
    Ident id;
    id.span = beginSpan();
    if (!atIdentifier()) {
        fail("expected " + std::string(what) +
             (cur().kind == TokenKind::End ? "" : ", found " + describe(cur())));
        return id;
    }
    id.name = cur().text;
    advance();
    endSpan(id.span);
    return id;
}

Name Parser::parseName(std::string_view what) {
    Name n;
    n.span = beginSpan();
    n.parts.push_back(parseIdent(what).name);
    while (!failed() && atSymbol(".") &&
           (tok(1).kind == TokenKind::Identifier || tok(1).kind == TokenKind::QuotedIdentifier)) {
        advance();
        n.parts.push_back(cur().text);
        advance();
    }
    endSpan(n.span);
    return n;
}

std::vector<Ident> Parser::parseParenIdentList(std::string_view context) {
    std::vector<Ident> out;
    expectSymbol("(", context);
    do {
        out.push_back(parseIdent("a column name"));
    } while (!failed() && acceptSymbol(","));
    expectSymbol(")", "to close the column list");
    return out;
}

ColumnSel Parser::parseColumnSel(std::string_view context) {
    ColumnSel sel;
    sel.span = beginSpan();
    if (acceptSymbol("*")) {
        if (acceptKeyword("EXCEPT")) {
            sel.mode = ColumnSel::Mode::Except;
            sel.columns = parseParenIdentList("after * EXCEPT");
        } else {
            sel.mode = ColumnSel::Mode::All;
        }
    } else if (atSymbol("(")) {
        sel.mode = ColumnSel::Mode::Only;
        sel.columns = parseParenIdentList(context);
    } else {
        fail("expected '(' or '* EXCEPT' " + std::string(context));
    }
    endSpan(sel.span);
    return sel;
}

std::string Parser::parseStringLiteral(std::string_view context) {
    if (cur().kind != TokenKind::String) {
        fail("expected a string literal " + std::string(context));
        return {};
    }
    std::string s = cur().text;
    advance();
    while (cur().kind == TokenKind::String) { // adjacent literals concatenate, as in Spark
        s += cur().text;
        advance();
    }
    return s;
}

std::string Parser::parseType() {
    // Spells the type from tokens, then lets DataType parse and canonicalise it.
    Nesting level(*this); // ARRAY<ARRAY<...>> nests, and DataType::parse recurses as deep
    const Token start = cur();
    std::string text;
    auto word = [&]() {
        if (!atIdentifier()) {
            fail("expected a data type");
            return std::string();
        }
        std::string w = upper(cur().text);
        advance();
        return w;
    };
    std::string head = word();
    text = head;
    if (head == "ARRAY" || head == "MAP") {
        expectSymbol("<", "after " + head);
        text += "<" + parseType();
        if (head == "MAP") {
            expectSymbol(",", "between the MAP key and value types");
            text += ", " + parseType();
        }
        expectSymbol(">", "to close " + head + "<...>");
        text += ">";
    } else if (head == "STRUCT") {
        expectSymbol("<", "after STRUCT");
        text += "<";
        bool first = true;
        while (!failed() && !atSymbol(">")) {
            if (!first)
                expectSymbol(",", "between STRUCT fields");
            first = false;
            std::string field = parseIdent("a STRUCT field name").name;
            acceptSymbol(":");
            std::string ft = parseType();
            if (acceptKeyword("NOT"))
                expectKeyword("NULL", "after NOT");
            if (acceptKeyword("COMMENT"))
                parseStringLiteral("after COMMENT");
            text += (text.back() == '<' ? "" : ", ") + std::string("`") + field + "`: " + ft;
        }
        expectSymbol(">", "to close STRUCT<...>");
        text += ">";
    } else if (atSymbol("(")) {
        advance();
        text += "(";
        while (!failed() && !atSymbol(")")) {
            if (cur().kind != TokenKind::Integer && !atSymbol(",")) {
                fail("expected a number in the type arguments");
                break;
            }
            text += cur().text;
            advance();
        }
        expectSymbol(")", "to close the type arguments");
        text += ")";
    }
    if (failed())
        return {};
    auto type = DataType::parse(text);
    if (!type) {
        failAt(start, "unknown data type '" + text + "'");
        return {};
    }
    return type->toString();
}

} // namespace cdc::sql
