#include "core/python/PythonSqlWriter.h"

#include <algorithm>
#include <cctype>

namespace cdc::python {

void PythonSqlWriter::from(const Token& t, std::string_view s, bool exact) {
    Segment seg{m_sql.size(), 0, exact ? t.valueOffset : t.offset, t.length, exact};
    m_sql += s;
    seg.sqlEnd = m_sql.size();
    m_segments.push_back(seg);
}

SourceLocation PythonSqlWriter::map(const SourceLocation& sqlLoc, const LineIndex& py,
                                    const Token& statementToken) const {
    for (auto it = m_segments.rbegin(); it != m_segments.rend(); ++it) {
        if (sqlLoc.offset >= it->sqlBegin && sqlLoc.offset < std::max(it->sqlEnd, it->sqlBegin + 1)) {
            if (it->exact)
                return py.at(it->pyOffset + (sqlLoc.offset - it->sqlBegin), sqlLoc.length);
            return py.at(it->pyOffset, it->pyLength);
        }
    }
    return py.at(statementToken.offset, statementToken.length);
}

std::string ident(const std::string& name) {
    bool simple = !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_') &&
                  std::all_of(name.begin(), name.end(),
                              [](unsigned char c) { return std::isalnum(c) || c == '_' || c == '.'; });
    if (simple)
        return name;
    std::string out = "`";
    for (char c : name) {
        if (c == '`')
            out += '`';
        out += c;
    }
    return out + "`";
}

std::string sqlString(const std::string& s) {
    std::string out = "'";
    for (char c : s) {
        if (c == '\'' || c == '\\')
            out += '\\';
        out += c;
    }
    return out + "'";
}

} // namespace cdc::python
