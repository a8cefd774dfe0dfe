// Window functions: the OVER clause (a window name or a parenthesised spec), PARTITION BY, ORDER BY,
// ROWS / RANGE frames and the WINDOW clause of a SELECT, as the Databricks reference "Window functions"
// and "Window frame clause" pages write them (DISTRIBUTE BY and SORT BY accepted as Spark's aliases).
#include "core/sql/Parser.h"

namespace cdc::sql {

WindowSpec Parser::parseOver() {
    if (atIdentifier() && !atSymbol("(")) {
        WindowSpec spec;
        spec.span = beginSpan();
        spec.baseName = parseIdent("a window name after OVER").name;
        endSpan(spec.span);
        return spec;
    }
    return parseWindowSpec();
}

WindowSpec Parser::parseWindowSpec() {
    WindowSpec spec;
    spec.span = beginSpan();
    expectSymbol("(", "to start the window specification");
    // `(w ...)` starts from a named window; PARTITION, ORDER, ROWS and RANGE begin the spec's own clauses.
    if (atIdentifier() && !atKeyword("PARTITION") && !atKeyword("DISTRIBUTE") && !atKeyword("ORDER") &&
        !atKeyword("SORT") && !atKeyword("ROWS") && !atKeyword("RANGE"))
        spec.baseName = parseIdent("a window name").name;
    if (atKeyword("PARTITION") || atKeyword("DISTRIBUTE")) {
        advance();
        expectKeyword("BY", "after PARTITION");
        do {
            spec.partitionBy.push_back(parseExpr());
        } while (!failed() && acceptSymbol(","));
    }
    if (atKeyword("ORDER") || atKeyword("SORT")) {
        advance();
        expectKeyword("BY", "after ORDER");
        spec.orderBy = parseOrderItems();
    }
    if (atKeyword("ROWS") || atKeyword("RANGE")) {
        WindowFrame frame;
        frame.unit = atKeyword("ROWS") ? "ROWS" : "RANGE";
        advance();
        if (acceptKeyword("BETWEEN")) {
            frame.start = parseFrameBound();
            expectKeyword("AND", "between the frame's bounds");
            frame.end = parseFrameBound();
        } else {
            frame.start = parseFrameBound(); // the one-bound form ends at the current row
        }
        spec.frame = std::move(frame);
    }
    expectSymbol(")", "to close the window specification");
    endSpan(spec.span);
    return spec;
}

FrameBound Parser::parseFrameBound() {
    FrameBound b;
    if (acceptKeyword("UNBOUNDED")) {
        if (acceptKeyword("PRECEDING"))
            b.kind = FrameBound::Kind::UnboundedPreceding;
        else if (acceptKeyword("FOLLOWING"))
            b.kind = FrameBound::Kind::UnboundedFollowing;
        else
            fail("expected PRECEDING or FOLLOWING after UNBOUNDED");
        return b;
    }
    if (acceptKeyword("CURRENT")) {
        expectKeyword("ROW", "after CURRENT");
        b.kind = FrameBound::Kind::CurrentRow;
        return b;
    }
    b.offset = parseBinary(0);
    if (acceptKeyword("PRECEDING"))
        b.kind = FrameBound::Kind::Preceding;
    else if (acceptKeyword("FOLLOWING"))
        b.kind = FrameBound::Kind::Following;
    else if (!failed())
        fail("expected PRECEDING or FOLLOWING after the frame offset");
    return b;
}

std::vector<NamedWindow> Parser::parseWindowClause() {
    expectKeyword("WINDOW", "");
    std::vector<NamedWindow> windows;
    do {
        NamedWindow w;
        w.name = parseIdent("a window name");
        expectKeyword("AS", "after the window name");
        w.spec = parseWindowSpec();
        windows.push_back(std::move(w));
    } while (!failed() && acceptSymbol(","));
    return windows;
}

} // namespace cdc::sql
