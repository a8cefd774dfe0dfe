#pragma once
/// The parse tree as an S-expression, for golden tests and an EXPLAIN view: `1 + 2 * 3` is
/// `(+ 1 (* 2 3))`. Operators and upper-case clause words (`AND`, `IS-NULL`, `CASE`, `INNER-JOIN`)
/// head their lists, a function call is headed by its lower-case name, statements and clauses by
/// lower-case words (`select`, `from`, `keys`); names and literals are spelled as the canonical
/// Printer spells them. Unlike the printer it shows the structure, so a parse that groups wrongly
/// cannot look right.

#include "core/sql/Ast.h"

#include <string>

namespace cdc::sql {

class TreePrinter {
public:
    struct Options {
        /// Adds `@line:column+length` (UTF-8 bytes) to every node that records its position.
        bool positions = false;
        /// Lists longer than this many characters break into one child per indented line.
        int width = 100;
    };

    static std::string statement(const Statement& st, const Options& options);
    static std::string query(const Query& q, const Options& options);
    static std::string expr(const Expr& e, const Options& options);
    static std::string statement(const Statement& st) { return statement(st, Options{}); }
    static std::string query(const Query& q) { return query(q, Options{}); }
    static std::string expr(const Expr& e) { return expr(e, Options{}); }
};

} // namespace cdc::sql
