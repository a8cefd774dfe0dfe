#pragma once
/// The SQL writer of the Python pipeline reader (core/python internal): builds the pipeline SQL and keeps
/// for each piece the Python token it came from, so a diagnostic on the SQL maps back into the .py file.

#include "core/python/PythonTokenizer.h"

#include <string>
#include <string_view>
#include <vector>

namespace cdc::python {

/// A piece of generated SQL and where it came from in the .py file.
struct Segment {
    std::size_t sqlBegin = 0, sqlEnd = 0;
    std::size_t pyOffset = 0, pyLength = 0;
    bool exact = false; ///< SQL bytes correspond 1:1 to Python bytes (verbatim string contents)
};

/// Pipeline SQL written piece by piece, each piece attributed to the Python token it came from.
class PythonSqlWriter {
public:
    void raw(std::string_view s) { m_sql += s; }
    /// Text attributed to a Python token (approximately, or exactly for verbatim string content).
    void from(const Token& t, std::string_view s, bool exact = false);
    const std::string& sql() const { return m_sql; }

    /// Where a position in the generated SQL lies in the Python file.
    SourceLocation map(const SourceLocation& sqlLoc, const LineIndex& py, const Token& statementToken) const;

private:
    std::string m_sql;
    std::vector<Segment> m_segments;
};

/// A SQL identifier: as is when simple, else in backquotes.
std::string ident(const std::string& name);
/// A SQL string literal.
std::string sqlString(const std::string& s);

} // namespace cdc::python
