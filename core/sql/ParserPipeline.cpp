// Pipeline statements: CREATE STREAMING TABLE, views, CREATE FLOW, and the AUTO CDC / APPLY CHANGES
// specification with its fixed clause order.
#include "core/sql/Parser.h"

#include <array>

namespace cdc::sql {

namespace {

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

} // namespace

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
        StoredAs& stored = spec.storedAs.emplace();
        stored.span = beginSpan();
        advance();
        expectKeyword("AS", "after STORED");
        if (!acceptKeyword("BITEMPORAL")) {
            expectKeyword("SCD", "after STORED AS");
            expectKeyword("TYPE", "after SCD");
            if (!failed() && cur().kind == TokenKind::Integer && (cur().text == "1" || cur().text == "2")) {
                stored.scdType = cur().text == "1" ? pipeline::ScdType::Type1 : pipeline::ScdType::Type2;
                advance();
            } else {
                fail("expected 1 or 2 after SCD TYPE");
            }
        }
        endSpan(stored.span);
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

} // namespace cdc::sql
