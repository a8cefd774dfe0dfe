// A script's statements: the dispatch on the first keyword, CREATE's dispatch, and the source
// DDL/DML (CREATE TABLE / SCHEMA, INSERT, UPDATE, DELETE, TRUNCATE, DROP), with the column lists,
// properties and table clauses that pipeline datasets share.
#include "core/sql/Parser.h"

namespace cdc::sql {

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

} // namespace cdc::sql
