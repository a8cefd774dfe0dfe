// Queries: WITH, set operations (INTERSECT binding tighter), SELECT, VALUES, FROM with joins,
// table functions and STREAM(...) sources.
#include "core/sql/Parser.h"
#include "core/sql/ParserText.h"

#include <cctype>

namespace cdc::sql {

using detail::upper;

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
    Nesting level(*this); // a subquery, a WITH query, a parenthesized query term
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
        q.orderBy = parseOrderItems();
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

/// `expr [ASC | DESC] [NULLS FIRST | LAST], ...` after ORDER BY (of a query or a window).
std::vector<OrderItem> Parser::parseOrderItems() {
    std::vector<OrderItem> items;
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
        items.push_back(std::move(item));
    } while (!failed() && acceptSymbol(","));
    return items;
}

// UNION and EXCEPT (MINUS) chain left to right over INTERSECT chains: INTERSECT binds tighter, as
// Databricks documents for set operators.
QueryTerm Parser::parseSetExpression() {
    QueryTerm left = parseIntersection();
    std::optional<Nesting> chain; // set operations chain into left-deep trees
    while (!failed() && (atKeyword("UNION") || atKeyword("EXCEPT") || atKeyword("MINUS"))) {
        deeperInChain(chain);
        left = parseSetOperation(std::move(left), &Parser::parseIntersection);
    }
    return left;
}

QueryTerm Parser::parseIntersection() {
    QueryTerm left = parseQueryPrimary();
    std::optional<Nesting> chain;
    while (!failed() && atKeyword("INTERSECT")) {
        deeperInChain(chain);
        left = parseSetOperation(std::move(left), &Parser::parseQueryPrimary);
    }
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
    // Databricks writes QUALIFY after HAVING; the WINDOW clause is accepted on either side of it.
    if (atKeyword("WINDOW"))
        s.windows = parseWindowClause();
    if (acceptKeyword("QUALIFY"))
        s.qualify = parseExpr();
    if (s.windows.empty() && atKeyword("WINDOW"))
        s.windows = parseWindowClause();
    return s;
}

TableRef Parser::parseFrom() {
    TableRef left = parseJoinChain();
    std::optional<Nesting> chain; // joins chain into left-deep trees
    while (!failed() && acceptSymbol(",")) {
        deeperInChain(chain);
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
    std::optional<Nesting> chain;
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
        deeperInChain(chain);
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

} // namespace cdc::sql
