#pragma once
/// SparkRegex: a regular expression with Spark's (java.util.regex) semantics, run by PCRE2.
///
/// Patterns are UTF-8 and match by code point; `\w`, `\d` and `\b` are ASCII as in Java; `.` and `$` know
/// CR, LF and CRLF as line ends; `\uhhhh`, `\xhh` and `\x{h...}` are Java's escapes. Matching uses PCRE2's
/// JIT where the platform has it, bounded by a match limit, a depth limit and a heap limit, so a value of any
/// length never exhausts the stack and a catastrophic pattern fails with REGEX_TOO_COMPLEX instead of
/// running for hours. Every error is a Diagnostic whose message starts with its code (the form a SQL
/// function raises).
#include "core/common/Diagnostic.h"

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace cdc::sql {

class SparkRegex {
public:
    /// Compiles `pattern` for the SQL function `function` (named in its errors). An invalid pattern is
    /// INVALID_PARAMETER_VALUE.PATTERN naming the pattern, the function and what is wrong where.
    static Result<std::unique_ptr<SparkRegex>> compile(std::string_view pattern, std::string function);

    ~SparkRegex();
    SparkRegex(const SparkRegex&) = delete;
    SparkRegex& operator=(const SparkRegex&) = delete;

    /// Whether the pattern matches anywhere in `subject` (RLIKE, Java's Matcher.find()).
    Result<bool> find(std::string_view subject) const;

    /// regexp_extract: group `group` of the first match, "" when nothing matches or the group took no part.
    /// A group the pattern does not have is INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX.
    Result<std::string> extract(std::string_view subject, long long group) const;

    /// regexp_replace: every match replaced as Java's Matcher.replaceAll does: `$n` and `${name}` insert a
    /// group, a backslash makes the next character literal. A bad reference is REGEX_REPLACEMENT.
    Result<std::string> replaceAll(std::string_view subject, std::string_view replacement) const;

    /// split: the pieces between matches as Java's Pattern.split(s, -1) gives them (trailing empty pieces
    /// kept, no empty first piece for a zero-width match at the start); an empty pattern splits into
    /// characters, as Spark does.
    Result<std::vector<std::string>> split(std::string_view subject) const;

    /// Number of capturing groups.
    std::size_t groupCount() const { return m_groups; }

private:
    struct Compiled;
    SparkRegex(std::string pattern, std::string function, std::unique_ptr<Compiled> compiled);

    /// Calls `onMatch(ovector)` for each match in order (Java's find() loop: after an empty match the next
    /// search starts one character later); stops early when onMatch returns false.
    template <class F> Status forEachMatch(std::string_view subject, F&& onMatch) const;
    Diagnostic matchError(int code, std::string_view subject) const;

    std::string m_pattern;
    std::string m_function;
    std::unique_ptr<Compiled> m_compiled;
    std::size_t m_groups = 0;
};

} // namespace cdc::sql
