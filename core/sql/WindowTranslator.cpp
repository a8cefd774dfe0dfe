// Window functions and QUALIFY in SQLite (3.25+ has window functions; 3.30+ NULLS FIRST / LAST).
// Spark's rules that SQLite does not share are written out here: the NULL ordering of the window's
// ORDER BY (Spark: NULLS FIRST for ASC, LAST for DESC), first / last / any_value as first_value /
// last_value, ranking and offset functions needing an ordered window and no frame, window functions
// refused in WHERE, GROUP BY and HAVING, and QUALIFY as a filter over a subquery that computes the
// select list and the condition together. Spark's default frame (RANGE BETWEEN UNBOUNDED PRECEDING AND
// CURRENT ROW with an ORDER BY, the whole partition without) is SQLite's, so it is left implicit.
// References: Databricks SQL "Window functions", "Window frame clause" and "QUALIFY clause" pages
// (docs.databricks.com/sql/language-manual/sql-ref-window-functions.html, ...-window-functions-frame,
// ...-syntax-qry-select-qualify).
#include "core/common/Text.h"
#include "core/sql/Printer.h"
#include "core/sql/Translator.h"
#include "core/storage/Database.h"
#include "core/storage/StarExpansion.h"

#include <algorithm>
#include <array>
#include <functional>

namespace cdc::sql {

using storage::quoteIdentifier;

namespace {

constexpr std::array<std::string_view, 9> kWindowOnly = {
    "row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile", "lag", "lead", "nth_value"};
// The ranking and offset functions: they need an ORDER BY and take no frame of their own.
constexpr std::array<std::string_view, 8> kOrdered = {"row_number", "rank",  "dense_rank", "percent_rank",
                                                      "cume_dist",  "ntile", "lag",        "lead"};
constexpr std::array<std::string_view, 17> kAggregates = {
    "avg",          "count",       "max",       "min",      "sum",         "mean",
    "collect_list", "collect_set", "array_agg", "first",    "first_value", "last",
    "last_value",   "any_value",   "count_if",  "bool_and", "bool_or"};

template <std::size_t N> bool among(const std::array<std::string_view, N>& names, std::string_view fn) {
    return std::find(names.begin(), names.end(), fn) != names.end();
}

std::string lowerName(const Expr& e) {
    return toLower(e.name.joined());
}

/// The first node of `e` (not looking into subqueries, which are their own queries) that `hit` accepts.
const Expr* findNode(const Expr& e, const std::function<bool(const Expr&)>& hit) {
    if (hit(e))
        return &e;
    for (const auto& a : e.args)
        if (const Expr* found = findNode(a, hit))
            return found;
    return nullptr;
}

bool isWindowCall(const Expr& e) {
    return e.kind == ExprKind::Function && e.over;
}

/// An aggregate call outside any window: `count(*)`, not `count(*) OVER (...)` nor what it contains.
const Expr* findPlainAggregate(const Expr& e) {
    if (isWindowCall(e))
        return nullptr;
    if (e.kind == ExprKind::Function && among(kAggregates, lowerName(e)))
        return &e;
    for (const auto& a : e.args)
        if (const Expr* found = findPlainAggregate(a))
            return found;
    return nullptr;
}

/// QUALIFY may name the select list's aliases (`QUALIFY rank = 1`): each becomes the aliased expression.
Expr withAliasesResolved(Expr e, const std::vector<SelectItem>& items) {
    if (e.kind == ExprKind::Column && e.name.parts.size() == 1) {
        for (const auto& item : items)
            if (!item.alias.empty() && equalsIgnoreCase(item.alias, e.name.parts[0])) {
                Expr replaced = item.expr;
                replaced.span = e.span;
                return replaced;
            }
        return e;
    }
    for (auto& a : e.args)
        a = withAliasesResolved(std::move(a), items);
    return e;
}

bool isLiteralFalse(const Expr& e) {
    return e.kind == ExprKind::Literal && e.literalKind == LiteralKind::Boolean && e.text == "FALSE";
}

bool isLiteralTrue(const Expr& e) {
    return e.kind == ExprKind::Literal && e.literalKind == LiteralKind::Boolean && e.text == "TRUE";
}

} // namespace

bool isWindowOnlyFunction(std::string_view lowerName) {
    return among(kWindowOnly, lowerName);
}

void Translator::refuseWindows(const Expr* e, const char* clause) {
    if (!e)
        return;
    if (const Expr* w = findNode(*e, isWindowCall))
        fail("WINDOW_FUNCTION_NOT_ALLOWED_IN_CLAUSE",
             std::string("window functions are not allowed in the ") + clause +
                 " clause (filter on them with QUALIFY)",
             w->span);
}

std::string Translator::windowFunction(const Expr& e) {
    const std::string fn = lowerName(e);
    const bool windowOnly = among(kWindowOnly, fn);
    if (!windowOnly && !among(kAggregates, fn)) {
        fail(fn + "() is not a window or aggregate function and cannot take OVER", e.span);
        return "NULL";
    }
    if (e.distinct) {
        fail("DISTINCT_WINDOW_FUNCTION_UNSUPPORTED", "DISTINCT is not supported in a window function",
             e.span);
        return "NULL";
    }
    // The spec is resolved first so that a named window's ORDER BY counts below.
    WindowSpec spec = *e.over;
    if (!spec.baseName.empty()) {
        const NamedWindow* base = nullptr;
        for (auto it = m_windowScopes.rbegin(); it != m_windowScopes.rend() && !base; ++it)
            for (const auto& w : **it)
                if (equalsIgnoreCase(w.name.name, spec.baseName))
                    base = &w;
        if (!base) {
            fail("MISSING_WINDOW_SPECIFICATION",
                 "window '" + spec.baseName + "' is not defined in the query's WINDOW clause", spec.span);
            return "NULL";
        }
        if (spec.partitionBy.empty())
            spec.partitionBy = base->spec.partitionBy;
        if (spec.orderBy.empty())
            spec.orderBy = base->spec.orderBy;
        if (!spec.frame)
            spec.frame = base->spec.frame;
        spec.baseName.clear();
    }
    if (among(kOrdered, fn) && spec.orderBy.empty())
        fail("WINDOW_FUNCTION_FRAME_NOT_ORDERED",
             "window function " + fn +
                 "() requires the window to be ordered: add ORDER BY to its OVER clause",
             e.span);
    if (among(kOrdered, fn) && spec.frame)
        fail("WINDOW_FRAME_NOT_ALLOWED", "window function " + fn + "() takes no ROWS or RANGE frame",
             spec.span);

    // IGNORE NULLS (or first / last's second argument true): SQLite has no such option, so the frame's
    // n-th value that is not NULL is read by our window functions (SparkWindowFunctions.cpp).
    bool ignoreNulls = e.ignoreNulls;
    std::string call;
    if (fn == "first" || fn == "first_value" || fn == "any_value" || fn == "last" || fn == "last_value") {
        if (e.args.empty() || e.args.size() > 2) {
            fail(fn + "() takes 1 or 2 arguments, got " + std::to_string(e.args.size()), e.span);
            return "NULL";
        }
        if (e.args.size() == 2 && isLiteralTrue(e.args[1]))
            ignoreNulls = true;
        else if (e.args.size() == 2 && !isLiteralFalse(e.args[1]))
            fail("the second argument of " + fn + "() (ignore nulls) must be true or false", e.args[1].span);
        const bool fromEnd = fn.rfind("last", 0) == 0;
        if (ignoreNulls)
            call = std::string(fromEnd ? "spark_nth_nonnull_last(" : "spark_nth_nonnull_first(") +
                   expr(e.args[0]) + ")";
        else
            call = (fromEnd ? "last_value(" : "first_value(") + expr(e.args[0]) + ")";
    } else if (ignoreNulls && fn == "nth_value") {
        if (e.args.size() != 2) {
            fail("nth_value() takes 2 arguments, got " + std::to_string(e.args.size()), e.span);
            return "NULL";
        }
        call = "spark_nth_nonnull_first(" + expr(e.args[0]) + ", " + expr(e.args[1]) + ")";
    } else if (ignoreNulls && (fn == "lag" || fn == "lead")) {
        // lag: the n-th value that is not NULL among the rows before this one, counted back from it; lead:
        // among the rows after it. The default when there is none.
        if (e.args.empty() || e.args.size() > 3) {
            fail(fn + "() takes 1 to 3 arguments, got " + std::to_string(e.args.size()), e.span);
            return "NULL";
        }
        const bool lag = fn == "lag";
        WindowSpec rows = spec;
        rows.frame = {};
        std::string over = windowSpec(rows);
        over +=
            std::string(over.empty() ? "" : " ") + (lag ? "ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING"
                                                        : "ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING");
        std::string value = std::string(lag ? "spark_nth_nonnull_last(" : "spark_nth_nonnull_first(") +
                            expr(e.args[0]) + ", " + (e.args.size() > 1 ? expr(e.args[1]) : "1") +
                            ") OVER (" + over + ")";
        return e.args.size() > 2 ? "coalesce(" + value + ", " + expr(e.args[2]) + ")" : value;
    } else if (ignoreNulls) {
        fail("IGNORE NULLS applies to first, last, first_value, last_value, any_value, nth_value, lag and "
             "lead, "
             "not " +
                 fn + "()",
             e.span);
        return "NULL";
    } else if (windowOnly) {
        call = fn + "(";
        for (std::size_t i = 0; i < e.args.size(); ++i)
            call += (i ? ", " : "") + expr(e.args[i]);
        call += ")";
    } else {
        Expr plain = e;
        plain.over = {};
        call = function(plain);
    }
    return call + " OVER (" + windowSpec(spec) + ")";
}

std::string Translator::windowSpec(const WindowSpec& w) {
    std::string s;
    if (!w.partitionBy.empty()) {
        s += "PARTITION BY ";
        for (std::size_t i = 0; i < w.partitionBy.size(); ++i)
            s += (i ? ", " : "") + expr(w.partitionBy[i]);
    }
    if (!w.orderBy.empty())
        s += std::string(s.empty() ? "" : " ") + "ORDER BY " + orderItems(w.orderBy);
    if (w.frame) {
        auto bound = [&](const FrameBound& b) -> std::string {
            switch (b.kind) {
            case FrameBound::Kind::UnboundedPreceding:
                return "UNBOUNDED PRECEDING";
            case FrameBound::Kind::Preceding:
                return expr(*b.offset) + " PRECEDING";
            case FrameBound::Kind::CurrentRow:
                return "CURRENT ROW";
            case FrameBound::Kind::Following:
                return expr(*b.offset) + " FOLLOWING";
            case FrameBound::Kind::UnboundedFollowing:
                return "UNBOUNDED FOLLOWING";
            }
            return {};
        };
        s += std::string(s.empty() ? "" : " ") + w.frame->unit + " BETWEEN " + bound(w.frame->start) +
             " AND " + bound(w.frame->end);
    }
    return s;
}

// SELECT items ... QUALIFY cond  =>  SELECT <the items' names> FROM (SELECT items, cond AS "__cdc_qualify"
// ...) WHERE "__cdc_qualify": the window functions of both are computed over the same rows, before the
// filter. A star in the list leaves the names to the database: the outer list is then every column but the
// condition's (a star marker, expanded where the relations are bound).
std::string Translator::qualifiedSelect(const Select& s) {
    Expr condition = withAliasesResolved(*s.qualify, s.items);
    const bool windowInList = std::any_of(s.items.begin(), s.items.end(), [](const SelectItem& item) {
        return findNode(item.expr, isWindowCall) != nullptr;
    });
    if (!windowInList && !findNode(condition, isWindowCall)) {
        fail("QUALIFY_WITHOUT_WINDOW_FUNCTION",
             "QUALIFY needs a window function in the SELECT list or in its condition", s.qualify->span);
        return "NULL";
    }
    if (const Expr* aggregate = findPlainAggregate(condition)) {
        fail("QUALIFY_WITH_AGGREGATE",
             "QUALIFY cannot contain aggregate functions (" + Printer::expr(*aggregate) + ")",
             aggregate->span);
        return "NULL";
    }
    const Span where = s.qualify->span;
    Select inner = s;
    inner.qualify = {};
    SelectItem flag;
    flag.expr = std::move(condition);
    flag.alias = "__cdc_qualify";
    inner.items.push_back(std::move(flag));
    const std::string innerSql = select(inner);

    const bool star = std::any_of(s.items.begin(), s.items.end(),
                                  [](const SelectItem& item) { return item.expr.kind == ExprKind::Star; });
    std::string columns;
    if (star) {
        storage::StarSelection all;
        all.except = {"__cdc_qualify"};
        all.location = where.location;
        columns = storage::starMarker(all, withClauseInScope() + "SELECT * FROM (" + innerSql + ")");
    } else {
        for (const auto& item : s.items)
            columns += (columns.empty() ? "" : ", ") +
                       quoteIdentifier(item.alias.empty() ? outputName(item.expr) : item.alias);
    }
    return "SELECT " + columns + " FROM (" + innerSql + ") AS \"__cdc_qualified\" WHERE \"__cdc_qualify\"";
}

} // namespace cdc::sql
