#pragma once
/// How deep the trees read from user text may nest. Every reader of user text that builds a tree (the SQL
/// parser, the Python pipeline reader) counts the levels it opens and refuses the text past the limit with a
/// positioned error, so the recursive walks over its trees (translator, printers, type inference, copies,
/// destructors) never run out of stack: on the 8 MiB main thread, and on a 2 MiB worker thread (a QThread's
/// stack when RLIMIT_STACK is unlimited). tests/sql/tst_nesting_limits.cpp runs every walk at the limit on
/// such a thread.

#include "core/common/Diagnostic.h"

#include <string>

namespace cdc {

/// Levels a tree read from user text may have. One level each: a parenthesis, a function call's
/// arguments, CASE, CAST, a unary operator, a subquery, a nested FROM item or type, and every operand after
/// the first of a chain such as `a OR b OR c` (a chain is a left-deep tree: its last operand is that deep).
inline constexpr int kMaxNestingDepth = 100;

/// `expression nested too deeply (limit N)` at `where` (code NESTING).
inline Diagnostic nestingTooDeep(SourceLocation where, int limit = kMaxNestingDepth) {
    return Diagnostic::error("NESTING", "expression nested too deeply (limit " + std::to_string(limit) + ")",
                             std::move(where));
}

} // namespace cdc
