#pragma once
/// The parser of the Python pipeline reader (core/python internal): the values a declarative pipeline file
/// is made of (literals, lists, dicts, dotted names and chained calls), never statements to run.

#include "core/python/PythonTokenizer.h"

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace cdc::python {

struct PyValue;
using PyValuePtr = std::shared_ptr<PyValue>;

struct PyValue {
    enum class Kind { String, Number, Bool, None, List, Dict, Call, Name };
    Kind kind = Kind::None;
    std::string text;              ///< String value, Number text, Name dotted path, Call callee path
    std::vector<PyValuePtr> items; ///< List items, Call positional args, Dict values
    std::vector<std::string> keys; ///< Dict keys (string keys only)
    std::map<std::string, PyValuePtr> kwargs;
    PyValuePtr receiver; ///< Call on the result of another call: a.b(x).c(y)
    Token token;         ///< first token (strings: the literal)
};

/// Reads values from a token list; the recognizer of the pipeline API drives it statement by statement.
class PythonParser {
public:
    PythonParser(const std::vector<Token>& tokens, const LineIndex& lines) : m_t(tokens), m_lines(lines) {}

    const Token& peek(std::size_t ahead = 0) const { return m_t[std::min(m_pos + ahead, m_t.size() - 1)]; }
    const Token& next() { return m_t[std::min(m_pos++, m_t.size() - 1)]; }
    bool atOp(const char* op) const { return peek().kind == Tok::Op && peek().text == op; }
    bool atName(const char* name) const { return peek().kind == Tok::Name && peek().text == name; }
    SourceLocation here() const { return m_lines.at(peek().offset, peek().length); }

    Status expectOp(const char* op, const char* context);
    Result<std::string> dottedName();
    /// One value; a call's arguments and chained calls included. Nested deeper than kMaxNestingDepth
    /// (lists, dicts, calls, a chain's calls each a level) it is the positioned NESTING error.
    Result<PyValuePtr> value();
    Status arguments(PyValue& call);
    void skipNewlines();

    std::size_t position() const { return m_pos; }

private:
    const std::vector<Token>& m_t;
    const LineIndex& m_lines;
    std::size_t m_pos = 0;
    int m_depth = 0; ///< levels of the value being read, see core/common/NestingLimit.h
};

} // namespace cdc::python
