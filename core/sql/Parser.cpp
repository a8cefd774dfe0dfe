#include "core/sql/Parser.h"

#include "core/common/DataType.h"
#include "core/sql/Lexer.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace cdc::sql {

namespace {

std::string upper(std::string_view s) {
    std::string out(s);
    for (auto& c : out)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

constexpr std::array<std::string_view, 46> kReserved = {
    "ALL",      "AND",       "ANTI", "AS",     "ASC",    "BETWEEN", "BY",     "CASE",  "CROSS",   "DESC",
    "DISTINCT", "ELSE",      "END",  "EXCEPT", "EXISTS", "FROM",    "FULL",   "GROUP", "HAVING",  "IN",
    "INNER",    "INTERSECT", "IS",   "JOIN",   "LEFT",   "LIKE",    "LIMIT",  "MINUS", "NATURAL", "NOT",
    "OFFSET",   "ON",        "OR",   "ORDER",  "OUTER",  "RIGHT",   "SELECT", "SEMI",  "THEN",    "UNION",
    "USING",    "VALUES",    "WHEN", "WHERE",  "WITH",   "WINDOW",
};

// AUTO CDC clauses in the only order the grammar accepts (semantics.md §11.1).
enum Clause {
    kKeys,
    kIgnoreNull,
    kApplyDelete,
    kApplyTruncate,
    kSequenceBy,
    kSystemSequenceBy,
    kColumns,
    kStoredAs,
    kTrackHistory,
    kColumnsToUpdate,
    kClauseCount
};
constexpr std::array<const char*, kClauseCount> kClauseNames = {"KEYS",
                                                                "IGNORE NULL UPDATES",
                                                                "APPLY AS DELETE WHEN",
                                                                "APPLY AS TRUNCATE WHEN",
                                                                "SEQUENCE BY",
                                                                "SYSTEM SEQUENCE BY",
                                                                "COLUMNS",
                                                                "STORED AS",
                                                                "TRACK HISTORY ON",
                                                                "COLUMNS TO UPDATE"};

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

std::vector<ColumnDef> Parser::parseColumnDefs(bool typed, std::vector<Expectation>* expectations) {
    std::vector<ColumnDef> cols;
    expectSymbol("(", "to start the column list");
    do {
        if (atKeyword("CONSTRAINT")) {
            if (!expectations) {
                fail("constraints are only allowed on pipeline datasets (CONSTRAINT ... EXPECT)");
                break;
            }
            advance();
            Expectation e;
            e.name = parseIdent("a constraint name after CONSTRAINT");
            expectKeyword("EXPECT", "after the constraint name");
            expectSymbol("(", "after EXPECT");
            e.condition = parseExpr();
            expectSymbol(")", "to close the EXPECT condition");
            if (acceptKeyword("ON")) {
                expectKeyword("VIOLATION", "after ON");
                if (acceptKeyword("DROP")) {
                    expectKeyword("ROW", "after ON VIOLATION DROP");
                    e.onViolation = "DROP ROW";
                } else if (acceptKeyword("FAIL")) {
                    expectKeyword("UPDATE", "after ON VIOLATION FAIL");
                    e.onViolation = "FAIL UPDATE";
                } else {
                    fail("expected DROP ROW or FAIL UPDATE after ON VIOLATION");
                }
            }
            expectations->push_back(std::move(e));
            continue;
        }
        ColumnDef c;
        c.name = parseIdent("a column name");
        // Tables need types; view column lists may give them or not.
        if (typed || (atIdentifier() && !atKeyword("COMMENT") && !atKeyword("NOT")))
            c.type = parseType();
        if (acceptKeyword("NOT")) {
            expectKeyword("NULL", "after NOT");
            c.notNull = true;
        }
        if (acceptKeyword("COMMENT"))
            c.comment = parseStringLiteral("after COMMENT");
        cols.push_back(std::move(c));
    } while (!failed() && acceptSymbol(","));
    expectSymbol(")", "to close the column list");
    return cols;
}

std::vector<Property> Parser::parseProperties() {
    std::vector<Property> props;
    expectSymbol("(", "after TBLPROPERTIES");
    do {
        Property p;
        if (cur().kind == TokenKind::String) {
            p.key = parseStringLiteral("");
        } else {
            // Unquoted dotted keys, e.g. pipelines.channel
            p.key = parseIdent("a property name").name;
            while (!failed() && acceptSymbol("."))
                p.key += "." + parseIdent("a property name part").name;
        }
        acceptSymbol("=");
        const Token& v = cur();
        if (v.kind == TokenKind::String) {
            p.value = parseStringLiteral("");
        } else if (v.kind == TokenKind::Integer || v.kind == TokenKind::Decimal ||
                   v.kind == TokenKind::Identifier) {
            p.value = v.text;
            advance();
        } else if (v.isSymbol("-") &&
                   (tok(1).kind == TokenKind::Integer || tok(1).kind == TokenKind::Decimal)) {
            advance();
            p.value = "-" + cur().text;
            advance();
        } else {
            fail("expected a property value for '" + p.key + "'");
        }
        props.push_back(std::move(p));
    } while (!failed() && acceptSymbol(","));
    expectSymbol(")", "to close TBLPROPERTIES");
    return props;
}

bool Parser::parseTableClause(std::optional<std::string>& comment, std::vector<Property>& properties) {
    if (acceptKeyword("COMMENT")) {
        comment = parseStringLiteral("after COMMENT");
        return true;
    }
    if (acceptKeyword("TBLPROPERTIES")) {
        auto props = parseProperties();
        properties.insert(properties.end(), props.begin(), props.end());
        return true;
    }
    // Storage clauses mean nothing to the simulator: accepted and dropped.
    if (acceptKeyword("USING")) {
        parseIdent("a data source after USING");
        return true;
    }
    if (acceptKeyword("LOCATION")) {
        parseStringLiteral("after LOCATION");
        return true;
    }
    if (atKeyword("PARTITIONED") || atKeyword("CLUSTER")) {
        bool cluster = atKeyword("CLUSTER");
        advance();
        expectKeyword("BY", cluster ? "after CLUSTER" : "after PARTITIONED");
        if (cluster && acceptKeyword("AUTO"))
            return true;
        parseParenIdentList("after BY");
        return true;
    }
    return false;
}

// --- statements
// ---------------------------------------------------------------------------------------------

Statement Parser::parseStatement() {
    acceptSymbol(">"); // the Databricks docs' prompt
    Statement st;
    st.span = beginSpan();
    const Token& t = cur();
    if (t.isKeyword("CREATE")) {
        st.body = parseCreate();
    } else if (t.isKeyword("INSERT")) {
        st.body = parseInsert();
    } else if (t.isKeyword("UPDATE")) {
        st.body = parseUpdate();
    } else if (t.isKeyword("DELETE")) {
        st.body = parseDelete();
    } else if (t.isKeyword("TRUNCATE")) {
        advance();
        expectKeyword("TABLE", "after TRUNCATE");
        TruncateStmt s;
        s.table = parseName("a table name after TRUNCATE TABLE");
        st.body = s;
    } else if (t.isKeyword("DROP")) {
        advance();
        DropTableStmt s;
        expectKeyword("TABLE", "after DROP");
        if (acceptKeyword("IF")) {
            expectKeyword("EXISTS", "after DROP TABLE IF");
            s.ifExists = true;
        }
        s.table = parseName("a table name after DROP TABLE");
        st.body = s;
    } else if (t.isKeyword("APPLY")) {
        advance();
        expectKeyword("CHANGES", "after APPLY");
        expectKeyword("INTO", "after APPLY CHANGES");
        ApplyChangesStmt s;
        s.spec = parseAutoCdc(true, true);
        st.body = std::move(s);
    } else if (atQueryStart()) {
        QueryStmt q;
        q.query = parseQuery();
        st.body = std::move(q);
    } else if (t.kind == TokenKind::Identifier) {
        fail("unknown statement '" + t.text + "'");
    } else {
        fail("expected a statement, found " + describe(t));
    }
    endSpan(st.span);
    return st;
}

StatementBody Parser::parseCreate() {
    advance(); // CREATE
    bool orRefresh = false, orReplace = false;
    if (acceptKeyword("OR")) {
        if (acceptKeyword("REFRESH"))
            orRefresh = true;
        else if (acceptKeyword("REPLACE"))
            orReplace = true;
        else
            fail("expected REFRESH or REPLACE after CREATE OR");
    }
    bool isPrivate = acceptKeyword("PRIVATE");
    bool temporary = acceptKeyword("TEMPORARY") || acceptKeyword("TEMP");
    ViewStmt view;
    view.orRefresh = orRefresh;
    view.orReplace = orReplace;
    view.isPrivate = isPrivate;
    view.temporary = temporary;
    if (acceptKeyword("STREAMING")) {
        bool live = acceptKeyword("LIVE");
        expectKeyword("TABLE", "after CREATE STREAMING");
        return parseStreamingTable(orRefresh || orReplace, isPrivate, live);
    }
    if (acceptKeyword("MATERIALIZED")) {
        expectKeyword("VIEW", "after MATERIALIZED");
        view.materialized = true;
        return parseView(std::move(view));
    }
    if (acceptKeyword("LIVE")) {
        view.live = true;
        if (acceptKeyword("TABLE")) {
            view.liveTable = true;
            view.materialized = true;
            return parseView(std::move(view));
        }
        expectKeyword("VIEW", "after LIVE");
        return parseView(std::move(view));
    }
    if (acceptKeyword("VIEW"))
        return parseView(std::move(view));
    if (acceptKeyword("FLOW"))
        return parseFlow();
    if (acceptKeyword("SCHEMA") || acceptKeyword("DATABASE")) {
        CreateSchemaStmt s;
        if (acceptKeyword("IF")) {
            expectKeyword("NOT", "after IF");
            expectKeyword("EXISTS", "after IF NOT");
            s.ifNotExists = true;
        }
        s.name = parseName("a schema name");
        while (!failed() && (atKeyword("COMMENT") || atKeyword("LOCATION") || atKeyword("MANAGED"))) {
            if (acceptKeyword("MANAGED"))
                expectKeyword("LOCATION", "after MANAGED");
            else
                advance();
            parseStringLiteral("after the schema option");
        }
        return s;
    }
    if (acceptKeyword("TABLE"))
        return parseCreateTable(orReplace);
    fail("expected TABLE, STREAMING TABLE, MATERIALIZED VIEW, VIEW, FLOW or SCHEMA after CREATE");
    return CreateSchemaStmt{};
}

CreateTableStmt Parser::parseCreateTable(bool orReplace) {
    CreateTableStmt s;
    s.orReplace = orReplace;
    if (acceptKeyword("IF")) {
        expectKeyword("NOT", "after IF");
        expectKeyword("EXISTS", "after IF NOT");
        s.ifNotExists = true;
    }
    s.name = parseName("a table name");
    if (atSymbol("("))
        s.columns = parseColumnDefs(true);
    while (!failed() && parseTableClause(s.comment, s.properties)) {
    }
    if (acceptKeyword("AS")) {
        if (!atQueryStart())
            fail("expected a query after AS");
        s.asQuery = parseQuery();
    } else if (s.columns.empty() && !failed()) {
        fail("expected a column list or AS query after the table name");
    }
    return s;
}

StreamingTableStmt Parser::parseStreamingTable(bool orRefresh, bool isPrivate, bool live) {
    StreamingTableStmt s;
    s.orRefresh = orRefresh;
    s.isPrivate = isPrivate;
    s.live = live;
    s.name = parseName("a table name after STREAMING TABLE");
    if (atSymbol("("))
        s.columns = parseColumnDefs(true, &s.expectations);
    while (!failed() && parseTableClause(s.comment, s.properties)) {
    }
    if (acceptKeyword("FLOW")) {
        if (acceptKeyword("AUTO")) {
            expectKeyword("CDC", "after FLOW AUTO");
            s.autoCdc = parseAutoCdc(false, false);
        } else if (acceptKeyword("INSERT")) {
            s.flowInsert = true;
            s.flowInsertOnce = acceptKeyword("ONCE");
            expectKeyword("BY", "after FLOW INSERT");
            expectKeyword("NAME", "after BY");
            if (!atQueryStart())
                fail("expected a query after BY NAME");
            s.query = parseQuery();
        } else {
            fail("expected AUTO CDC or INSERT after FLOW");
        }
    } else if (acceptKeyword("AS")) {
        if (!atQueryStart())
            fail("expected a query after AS");
        s.query = parseQuery();
    }
    return s;
}

ViewStmt Parser::parseView(ViewStmt view) {
    view.name = parseName("a view name");
    if (atSymbol("("))
        view.columns = parseColumnDefs(false, &view.expectations);
    while (!failed() && parseTableClause(view.comment, view.properties)) {
    }
    expectKeyword("AS", "after the view name");
    if (!failed() && !atQueryStart())
        fail("expected a query after AS");
    view.query = parseQuery();
    return view;
}

CreateFlowStmt Parser::parseFlow() {
    CreateFlowStmt f;
    f.name = parseIdent("a flow name after CREATE FLOW");
    if (acceptKeyword("COMMENT"))
        f.comment = parseStringLiteral("after COMMENT");
    expectKeyword("AS", "after the flow name");
    if (acceptKeyword("AUTO")) {
        expectKeyword("CDC", "after AUTO");
        f.autoCdc = parseAutoCdc(true, false);
    } else if (acceptKeyword("INSERT")) {
        expectKeyword("INTO", "after INSERT");
        f.insertOnce = acceptKeyword("ONCE");
        f.insertTarget = parseName("a target table after INSERT INTO");
        expectKeyword("BY", "after the target table");
        expectKeyword("NAME", "after BY");
        if (!failed() && !atQueryStart())
            fail("expected a query after BY NAME");
        f.insertQuery = parseQuery();
    } else if (atKeyword("APPLY")) {
        fail("use AUTO CDC INTO (or a standalone APPLY CHANGES INTO statement) after AS");
    } else {
        fail("expected AUTO CDC or INSERT INTO after AS");
    }
    return f;
}

bool Parser::startsAutoCdcClause() const {
    const Token& a = cur();
    const Token& b = tok(1);
    return (a.isKeyword("SEQUENCE") && b.isKeyword("BY")) || (a.isKeyword("APPLY") && b.isKeyword("AS")) ||
           (a.isKeyword("IGNORE") && b.isKeyword("NULL")) || (a.isKeyword("STORED") && b.isKeyword("AS")) ||
           (a.isKeyword("TRACK") && b.isKeyword("HISTORY")) ||
           (a.isKeyword("SYSTEM") && b.isKeyword("SEQUENCE")) || (a.isKeyword("KEYS") && b.isSymbol("(")) ||
           (a.isKeyword("COLUMNS") && (b.isSymbol("(") || b.isSymbol("*") || b.isKeyword("TO")));
}

int Parser::clauseAt() const {
    const Token& t = cur();
    if (t.isKeyword("KEYS"))
        return kKeys;
    if (t.isKeyword("IGNORE"))
        return kIgnoreNull;
    if (t.isKeyword("APPLY"))
        return tok(2).isKeyword("TRUNCATE") ? kApplyTruncate : kApplyDelete;
    if (t.isKeyword("SEQUENCE"))
        return kSequenceBy;
    if (t.isKeyword("SYSTEM"))
        return kSystemSequenceBy;
    if (t.isKeyword("COLUMNS"))
        return tok(1).isKeyword("TO") ? kColumnsToUpdate : kColumns;
    if (t.isKeyword("STORED"))
        return kStoredAs;
    if (t.isKeyword("TRACK"))
        return kTrackHistory;
    return -1;
}

void Parser::clauseOrderError(int clause, int last, const std::vector<bool>& seen) {
    if (seen[static_cast<std::size_t>(clause)])
        fail(std::string("duplicate ") + kClauseNames[static_cast<std::size_t>(clause)] + " clause");
    else
        fail(std::string(kClauseNames[static_cast<std::size_t>(clause)]) + " must come before " +
             kClauseNames[static_cast<std::size_t>(last)]);
}

AutoCdcSpec Parser::parseAutoCdc(bool withInto, bool legacy) {
    AutoCdcSpec spec;
    spec.span = beginSpan();
    if (!legacy) {
        spec.once = acceptKeyword("ONCE");
        if (withInto) {
            expectKeyword("INTO", spec.once ? "after AUTO CDC ONCE" : "after AUTO CDC");
        }
    }
    if (withInto)
        spec.target = parseName("a target table after INTO");
    expectKeyword("FROM", withInto ? "after the target table" : "after FLOW AUTO CDC");
    if (!legacy && acceptKeyword("SNAPSHOT")) {
        spec.fromSnapshot = true;
        if (acceptSymbol("(")) {
            if (!atQueryStart())
                fail("expected a snapshot query after FROM SNAPSHOT (");
            spec.snapshotQuery = parseQuery();
            expectSymbol(")", "to close the snapshot query");
        } else {
            spec.source = parseName("a snapshot source after FROM SNAPSHOT");
        }
        if (acceptKeyword("WITH")) {
            expectKeyword("VERSION", "after WITH");
            expectSymbol("(", "after WITH VERSION");
            if (!failed() && !atQueryStart())
                fail("expected a version query after WITH VERSION (");
            spec.versionQuery = parseQuery();
            expectSymbol(")", "to close the version query");
        }
    } else if (atKeyword("STREAM") &&
               (tok(1).isSymbol("(") || tok(1).kind == TokenKind::Identifier ||
                tok(1).kind == TokenKind::QuotedIdentifier) &&
               !tok(1).isKeyword("KEYS")) {
        advance();
        spec.sourceStream = true;
        if (acceptSymbol("(")) {
            spec.source = parseName("a table name in STREAM(...)");
            expectSymbol(")", "to close STREAM(");
        } else {
            spec.source = parseName("a table name after STREAM");
        }
    } else {
        spec.source = parseName("a source after FROM");
    }
    if (failed())
        return spec;
    if (!atKeyword("KEYS")) {
        fail("expected KEYS after source");
        return spec;
    }
    advance();
    spec.keys = parseParenIdentList("after KEYS");
    std::vector<bool> seen(kClauseCount, false);
    int last = kKeys;
    seen[kKeys] = true;
    auto take = [&](int clause) {
        seen[static_cast<std::size_t>(clause)] = true;
        last = clause;
    };
    if (!spec.fromSnapshot && atKeyword("IGNORE")) {
        advance();
        expectKeyword("NULL", "after IGNORE");
        expectKeyword("UPDATES", "after IGNORE NULL");
        spec.ignoreNullUpdates = true;
        if (acceptKeyword("ON"))
            spec.ignoreNullOn = parseColumnSel("after IGNORE NULL UPDATES ON");
        take(kIgnoreNull);
    }
    if (!spec.fromSnapshot && clauseAt() == kApplyDelete) {
        advance();
        expectKeyword("AS", "after APPLY");
        expectKeyword("DELETE", "after APPLY AS");
        expectKeyword("WHEN", "after APPLY AS DELETE");
        spec.applyAsDelete = parseExpr();
        take(kApplyDelete);
    }
    if (!spec.fromSnapshot && clauseAt() == kApplyTruncate) {
        advance();
        expectKeyword("AS", "after APPLY");
        expectKeyword("TRUNCATE", "after APPLY AS");
        expectKeyword("WHEN", "after APPLY AS TRUNCATE");
        spec.applyAsTruncate = parseExpr();
        take(kApplyTruncate);
    }
    if (failed())
        return spec;
    if (!spec.fromSnapshot) {
        if (!atKeyword("SEQUENCE")) {
            int c = clauseAt();
            if (c >= 0 && c < kSequenceBy)
                clauseOrderError(c, last, seen);
            else if (c > kSequenceBy)
                fail(std::string("expected SEQUENCE BY before ") + kClauseNames[static_cast<std::size_t>(c)]);
            else
                fail("expected SEQUENCE BY: AUTO CDC needs a sequencing column");
            return spec;
        }
        advance();
        expectKeyword("BY", "after SEQUENCE");
        spec.sequenceBy = parseExpr();
        take(kSequenceBy);
        if (atKeyword("SYSTEM")) {
            advance();
            expectKeyword("SEQUENCE", "after SYSTEM");
            expectKeyword("BY", "after SYSTEM SEQUENCE");
            spec.systemSequenceBy = parseExpr();
            take(kSystemSequenceBy);
        }
        if (clauseAt() == kColumns) {
            advance();
            spec.columns = parseColumnSel("after COLUMNS");
            take(kColumns);
        }
    }
    if (atKeyword("STORED")) {
        spec.storedAsSpan = beginSpan();
        advance();
        expectKeyword("AS", "after STORED");
        if (acceptKeyword("BITEMPORAL")) {
            spec.storedAs = 3;
        } else {
            expectKeyword("SCD", "after STORED AS");
            expectKeyword("TYPE", "after SCD");
            if (!failed() && cur().kind == TokenKind::Integer && (cur().text == "1" || cur().text == "2")) {
                spec.storedAs = cur().text == "1" ? 1 : 2;
                advance();
            } else {
                fail("expected 1 or 2 after SCD TYPE");
            }
        }
        endSpan(spec.storedAsSpan);
        take(kStoredAs);
    }
    if (atKeyword("TRACK")) {
        advance();
        expectKeyword("HISTORY", "after TRACK");
        expectKeyword("ON", "after TRACK HISTORY");
        spec.trackHistory = parseColumnSel("after TRACK HISTORY ON");
        take(kTrackHistory);
    }
    if (!spec.fromSnapshot && clauseAt() == kColumnsToUpdate) {
        advance();
        advance(); // TO
        expectKeyword("UPDATE", "after COLUMNS TO");
        spec.columnsToUpdate = parseIdent("a column name after COLUMNS TO UPDATE");
        take(kColumnsToUpdate);
    }
    if (failed())
        return spec;
    if (int c = clauseAt(); c >= 0) {
        if (spec.fromSnapshot && !seen[static_cast<std::size_t>(c)] && c != kKeys)
            fail(std::string(kClauseNames[static_cast<std::size_t>(c)]) +
                 " is not allowed with FROM SNAPSHOT");
        else
            clauseOrderError(c, last, seen);
    }
    endSpan(spec.span);
    return spec;
}

InsertStmt Parser::parseInsert() {
    advance(); // INSERT
    InsertStmt s;
    if (acceptKeyword("OVERWRITE")) {
        s.overwrite = true;
        acceptKeyword("TABLE");
    } else {
        expectKeyword("INTO", "after INSERT");
        acceptKeyword("TABLE");
    }
    s.table = parseName("a table name after INSERT INTO");
    if (acceptKeyword("BY")) {
        expectKeyword("NAME", "after BY");
        s.byName = true;
    }
    if (atSymbol("(") &&
        !(tok(1).isKeyword("SELECT") || tok(1).isKeyword("WITH") || tok(1).isKeyword("VALUES"))) {
        s.columns = parseParenIdentList("");
    }
    if (!failed() && !atQueryStart())
        fail("expected VALUES or a query after the table name");
    s.query = parseQuery();
    return s;
}

UpdateStmt Parser::parseUpdate() {
    advance(); // UPDATE
    UpdateStmt s;
    s.table = parseName("a table name after UPDATE");
    if (acceptKeyword("AS"))
        s.alias = parseIdent("an alias").name;
    else if (atIdentifier() && !atKeyword("SET"))
        s.alias = parseIdent("an alias").name;
    expectKeyword("SET", "after the table name");
    do {
        Assignment a;
        a.column = parseIdent("a column name after SET");
        // `alias.column = ...`: keep the column part
        if (acceptSymbol("."))
            a.column = parseIdent("a column name");
        expectSymbol("=", "after the column name");
        a.value = parseExpr();
        s.assignments.push_back(std::move(a));
    } while (!failed() && acceptSymbol(","));
    if (acceptKeyword("WHERE"))
        s.where = parseExpr();
    return s;
}

DeleteStmt Parser::parseDelete() {
    advance(); // DELETE
    DeleteStmt s;
    expectKeyword("FROM", "after DELETE");
    s.table = parseName("a table name after DELETE FROM");
    if (acceptKeyword("AS"))
        s.alias = parseIdent("an alias").name;
    else if (atIdentifier() && !atKeyword("WHERE"))
        s.alias = parseIdent("an alias").name;
    if (acceptKeyword("WHERE"))
        s.where = parseExpr();
    return s;
}

// --- queries
// -------------------------------------------------------------------------------------------------

bool Parser::atQueryStart() const {
    if (atKeyword("SELECT") || atKeyword("WITH") || atKeyword("VALUES"))
        return true;
    if (atSymbol("(")) {
        std::size_t i = 1;
        while (tok(i).isSymbol("("))
            ++i;
        return tok(i).isKeyword("SELECT") || tok(i).isKeyword("WITH") || tok(i).isKeyword("VALUES");
    }
    return false;
}

Query Parser::parseQuery() {
    Query q;
    q.span = beginSpan();
    if (acceptKeyword("WITH")) {
        do {
            Cte c;
            c.name = parseIdent("a name for the WITH query");
            if (atSymbol("(")) {
                for (auto& id : parseParenIdentList(""))
                    c.columns.push_back(id.name);
            }
            expectKeyword("AS", "after the WITH query name");
            expectSymbol("(", "after AS");
            c.query = parseQuery();
            expectSymbol(")", "to close the WITH query");
            q.ctes.push_back(std::move(c));
        } while (!failed() && acceptSymbol(","));
    }
    q.body = parseSetExpression();
    if (atKeyword("ORDER") || atKeyword("SORT")) {
        advance();
        expectKeyword("BY", "after ORDER");
        do {
            OrderItem item;
            item.expr = parseExpr();
            if (acceptKeyword("DESC"))
                item.descending = true;
            else
                acceptKeyword("ASC");
            if (acceptKeyword("NULLS")) {
                if (acceptKeyword("FIRST"))
                    item.nulls = NullsOrder::First;
                else if (acceptKeyword("LAST"))
                    item.nulls = NullsOrder::Last;
                else
                    fail("expected FIRST or LAST after NULLS");
            }
            q.orderBy.push_back(std::move(item));
        } while (!failed() && acceptSymbol(","));
    }
    if (acceptKeyword("LIMIT")) {
        if (!acceptKeyword("ALL"))
            q.limit = parseExpr();
    }
    if (acceptKeyword("OFFSET"))
        q.offset = parseExpr();
    endSpan(q.span);
    return q;
}

// UNION and EXCEPT (MINUS) chain left to right over INTERSECT chains: INTERSECT binds tighter, as
// Databricks documents for set operators.
QueryTerm Parser::parseSetExpression() {
    QueryTerm left = parseIntersection();
    while (!failed() && (atKeyword("UNION") || atKeyword("EXCEPT") || atKeyword("MINUS")))
        left = parseSetOperation(std::move(left), &Parser::parseIntersection);
    return left;
}

QueryTerm Parser::parseIntersection() {
    QueryTerm left = parseQueryPrimary();
    while (!failed() && atKeyword("INTERSECT"))
        left = parseSetOperation(std::move(left), &Parser::parseQueryPrimary);
    return left;
}

QueryTerm Parser::parseSetOperation(QueryTerm left, QueryTerm (Parser::*operand)()) {
    std::string op = upper(cur().text);
    if (op == "MINUS")
        op = "EXCEPT";
    advance();
    if (acceptKeyword("ALL"))
        op += " ALL";
    else
        acceptKeyword("DISTINCT");
    QueryTerm t;
    t.kind = QueryTerm::Kind::SetOp;
    t.span = left.span;
    t.setOp = op;
    t.left = std::move(left);
    t.right = (this->*operand)();
    endSpan(t.span);
    return t;
}

QueryTerm Parser::parseQueryPrimary() {
    QueryTerm t;
    t.span = beginSpan();
    if (atKeyword("SELECT")) {
        t.kind = QueryTerm::Kind::Select;
        t.select = parseSelect();
    } else if (acceptKeyword("VALUES")) {
        t.kind = QueryTerm::Kind::Values;
        t.rows = parseValuesRows();
    } else if (atSymbol("(")) {
        advance();
        t.kind = QueryTerm::Kind::Nested;
        t.nested = parseQuery();
        expectSymbol(")", "to close the subquery");
    } else {
        fail("expected SELECT, VALUES or WITH" +
             (cur().kind == TokenKind::End ? std::string() : ", found " + describe(cur())));
    }
    endSpan(t.span);
    return t;
}

std::vector<std::vector<Expr>> Parser::parseValuesRows() {
    std::vector<std::vector<Expr>> rows;
    do {
        std::vector<Expr> row;
        const Token rowStart = cur();
        if (atSymbol("(") && !(tok(1).isKeyword("SELECT") || tok(1).isKeyword("WITH"))) {
            advance();
            do {
                row.push_back(parseExpr());
            } while (!failed() && acceptSymbol(","));
            expectSymbol(")", "to close the VALUES row");
        } else {
            row.push_back(parseExpr());
        }
        if (!rows.empty() && row.size() != rows.front().size() && !failed())
            failAt(rowStart, "VALUES rows must all have " + std::to_string(rows.front().size()) +
                                 " columns, this one has " + std::to_string(row.size()));
        rows.push_back(std::move(row));
    } while (!failed() && acceptSymbol(","));
    return rows;
}

Select Parser::parseSelect() {
    Select s;
    expectKeyword("SELECT", "");
    if (acceptKeyword("DISTINCT"))
        s.distinct = true;
    else
        acceptKeyword("ALL");
    do {
        SelectItem item;
        if (atKeyword("FROM") || cur().kind == TokenKind::End) {
            fail("expected an expression in the SELECT list");
            break;
        }
        item.expr = parseExpr();
        if (acceptKeyword("AS"))
            item.alias = parseIdent("an alias after AS").name;
        else if (cur().kind == TokenKind::QuotedIdentifier ||
                 (cur().kind == TokenKind::Identifier && !isReservedWord(cur().text)))
            item.alias = parseIdent("an alias").name;
        s.items.push_back(std::move(item));
    } while (!failed() && acceptSymbol(","));
    if (acceptKeyword("FROM"))
        s.from = parseFrom();
    if (acceptKeyword("WHERE"))
        s.where = parseExpr();
    if (acceptKeyword("GROUP")) {
        expectKeyword("BY", "after GROUP");
        do {
            s.groupBy.push_back(parseExpr());
        } while (!failed() && acceptSymbol(","));
    }
    if (acceptKeyword("HAVING"))
        s.having = parseExpr();
    return s;
}

TableRef Parser::parseFrom() {
    TableRef left = parseJoinChain();
    while (!failed() && acceptSymbol(",")) {
        TableRef j;
        j.kind = TableRefKind::Join;
        j.span = left.span;
        j.joinType = ",";
        j.left = std::move(left);
        j.right = parseJoinChain();
        endSpan(j.span);
        left = std::move(j);
    }
    return left;
}

TableRef Parser::parseJoinChain() {
    TableRef left = parseTablePrimary();
    for (;;) {
        if (failed())
            return left;
        std::string type;
        if (acceptKeyword("JOIN")) {
            type = "INNER";
        } else if (atKeyword("INNER") || atKeyword("CROSS")) {
            type = upper(cur().text);
            advance();
            expectKeyword("JOIN", "after " + type);
        } else if (atKeyword("LEFT") || atKeyword("RIGHT") || atKeyword("FULL")) {
            type = upper(cur().text);
            advance();
            if (type == "LEFT" && (atKeyword("SEMI") || atKeyword("ANTI"))) {
                type += " " + upper(cur().text);
                advance();
            } else {
                acceptKeyword("OUTER");
            }
            expectKeyword("JOIN", "after " + type);
        } else {
            return left;
        }
        TableRef j;
        j.kind = TableRefKind::Join;
        j.span = left.span;
        j.joinType = type;
        j.left = std::move(left);
        j.right = parseTablePrimary();
        if (acceptKeyword("ON")) {
            j.condition = parseExpr();
        } else if (acceptKeyword("USING")) {
            for (auto& id : parseParenIdentList("after USING"))
                j.usingColumns.push_back(id.name);
        } else if (type != "CROSS" && !failed()) {
            fail("expected ON or USING after the joined table");
        }
        endSpan(j.span);
        left = std::move(j);
    }
}

void Parser::parseTableAlias(TableRef& ref) {
    if (acceptKeyword("AS"))
        ref.alias = parseIdent("an alias after AS").name;
    else if (cur().kind == TokenKind::QuotedIdentifier ||
             (cur().kind == TokenKind::Identifier && !isReservedWord(cur().text) && !atKeyword("LATERAL")))
        ref.alias = parseIdent("an alias").name;
    else
        return;
    if (atSymbol("(")) {
        for (auto& id : parseParenIdentList(""))
            ref.columnAliases.push_back(id.name);
    }
}

TableRef Parser::parseTablePrimary() {
    TableRef ref;
    ref.span = beginSpan();
    if (atKeyword("STREAM") && (tok(1).isSymbol("(") || tok(1).kind == TokenKind::QuotedIdentifier ||
                                (tok(1).kind == TokenKind::Identifier && !isReservedWord(tok(1).text)))) {
        advance();
        ref.kind = TableRefKind::Table;
        ref.stream = true;
        if (acceptSymbol("(")) {
            ref.name = parseName("a table name in STREAM(...)");
            expectSymbol(")", "to close STREAM(");
        } else {
            ref.name = parseName("a table name after STREAM");
        }
    } else if (atQueryStart()) {
        ref.kind = TableRefKind::Subquery;
        if (atKeyword("VALUES")) {
            Query q;
            q.span = beginSpan();
            q.body = parseQueryPrimary();
            endSpan(q.span);
            ref.query = std::move(q);
        } else {
            expectSymbol("(", "");
            ref.query = parseQuery();
            expectSymbol(")", "to close the subquery");
        }
    } else if (atSymbol("(")) {
        fail("expected a subquery after '('");
    } else {
        ref.name = parseName("a table name");
        if (acceptSymbol("(")) {
            ref.kind = TableRefKind::Function;
            for (auto& part : ref.name.parts)
                for (auto& c : part)
                    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            if (!atSymbol(")")) {
                do {
                    ref.args.push_back(parseArgument());
                } while (!failed() && acceptSymbol(","));
            }
            expectSymbol(")", "to close the table function arguments");
        }
    }
    parseTableAlias(ref);
    endSpan(ref.span);
    return ref;
}

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
    return parseOr();
}

Expr Parser::parseOr() {
    Expr left = parseAnd();
    while (!failed() && atKeyword("OR")) {
        Span span = left.span;
        advance();
        Expr right = parseAnd();
        endSpan(span);
        left = makeBinary("OR", std::move(left), std::move(right), span);
    }
    return left;
}

Expr Parser::parseAnd() {
    Expr left = parseNot();
    while (!failed() && atKeyword("AND")) {
        Span span = left.span;
        advance();
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
        e.args.push_back(parseNot());
        endSpan(e.span);
        return e;
    }
    return parsePredicate();
}

// A value expression: the binary operator levels, then comparisons (the loosest, left-associative).
Expr Parser::parseComparison() {
    Expr left = parseBinaryLevel(0);
    static const std::array<std::string_view, 9> kComparisons = {"=",  "==", "!=", "<>", "<",
                                                                 "<=", ">",  ">=", "<=>"};
    while (!failed() && cur().kind == TokenKind::Symbol &&
           std::find(kComparisons.begin(), kComparisons.end(), std::string_view(cur().text)) !=
               kComparisons.end()) {
        Span span = left.span;
        std::string op = cur().text == "==" ? "=" : (cur().text == "<>" ? "!=" : cur().text);
        advance();
        Expr right = parseBinaryLevel(0);
        endSpan(span);
        left = makeBinary(op, std::move(left), std::move(right), span);
    }
    return left;
}

// Predicates apply to a value expression and take value expressions as operands, as in Spark's
// grammar: `x BETWEEN 0 AND y = 1` bounds x by (y = 1), and nothing compares a predicate's result.
Expr Parser::parsePredicate() {
    Expr left = parseComparison();
    for (;;) {
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

// Binary operator levels below the predicates, loosest first: | ^ & (+ - ||) (* / % DIV).
Expr Parser::parseBinaryLevel(int level) {
    static const std::vector<std::vector<std::string_view>> kLevels = {
        {"|"}, {"^"}, {"&"}, {"+", "-", "||"}, {"*", "/", "%", "DIV"}};
    if (level >= static_cast<int>(kLevels.size()))
        return parseUnary();
    Expr left = parseBinaryLevel(level + 1);
    const auto& ops = kLevels[static_cast<std::size_t>(level)];
    for (;;) {
        if (failed())
            return left;
        std::string op;
        const Token& t = cur();
        for (auto candidate : ops) {
            if ((t.kind == TokenKind::Symbol && t.text == candidate) ||
                (candidate == "DIV" && t.isKeyword("DIV")))
                op = std::string(candidate);
        }
        if (op.empty())
            return left;
        Span span = left.span;
        advance();
        Expr right = parseBinaryLevel(level + 1);
        endSpan(span);
        left = makeBinary(op, std::move(left), std::move(right), span);
    }
}

Expr Parser::parseUnary() {
    if (atSymbol("-") || atSymbol("+") || atSymbol("~")) {
        Span span = beginSpan();
        std::string op = cur().text;
        advance();
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
    for (;;) {
        if (failed())
            return e;
        Span span = e.span;
        if (atSymbol(".") &&
            (tok(1).kind == TokenKind::Identifier || tok(1).kind == TokenKind::QuotedIdentifier)) {
            advance();
            Expr f;
            f.kind = ExprKind::Field;
            f.text = cur().text;
            advance();
            f.args.push_back(std::move(e));
            f.span = span;
            endSpan(f.span);
            e = std::move(f);
        } else if (acceptSymbol("[")) {
            Expr ix;
            ix.kind = ExprKind::Index;
            ix.args.push_back(std::move(e));
            ix.args.push_back(parseExpr());
            expectSymbol("]", "to close the subscript");
            ix.span = span;
            endSpan(ix.span);
            e = std::move(ix);
        } else if (acceptSymbol("::")) {
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
    if (!failed() && atKeyword("OVER"))
        fail("window functions (OVER) are not supported");
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
