#include "core/python/PythonTokenizer.h"

#include <cctype>

namespace cdc::python {

Result<std::vector<Token>> PythonTokenizer::run(const LineIndex& lines) {
    std::vector<Token> out;
    int depth = 0;
    std::size_t i = 0;
    bool lineStart = true;
    while (i < m_text.size()) {
        char c = m_text[i];
        if (lineStart) {
            // Measure indentation; skip blank and comment-only lines entirely.
            std::size_t j = i;
            int indent = 0;
            while (j < m_text.size() && (m_text[j] == ' ' || m_text[j] == '\t')) {
                indent += m_text[j] == '\t' ? 8 : 1;
                ++j;
            }
            if (j >= m_text.size())
                break;
            if (m_text[j] == '\n' || m_text[j] == '\r' || m_text[j] == '#') {
                while (j < m_text.size() && m_text[j] != '\n')
                    ++j;
                i = j + 1;
                continue;
            }
            if (!out.empty() && out.back().kind != Tok::Newline)
                out.push_back({Tok::Newline, "", j, 0, 0, true, indent});
            else if (!out.empty())
                out.back().indent = indent;
            lineStart = false;
            i = j;
            continue;
        }
        if (c == '#') {
            while (i < m_text.size() && m_text[i] != '\n')
                ++i;
            continue;
        }
        if (c == '\\' && i + 1 < m_text.size() && m_text[i + 1] == '\n') {
            i += 2;
            continue;
        }
        if (c == '\n') {
            ++i;
            if (depth == 0)
                lineStart = true;
            continue;
        }
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
            continue;
        }
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            std::size_t start = i;
            while (i < m_text.size() &&
                   (std::isalnum(static_cast<unsigned char>(m_text[i])) || m_text[i] == '_'))
                ++i;
            std::string word(m_text.substr(start, i - start));
            // String prefixes (r"...", f"...", b"...") glue onto the following quote.
            if (i < m_text.size() && (m_text[i] == '"' || m_text[i] == '\'') && word.size() <= 2 &&
                word.find_first_not_of("rRbBfFuU") == std::string::npos) {
                auto s = readString(i, start, lines, word);
                if (!s)
                    return s.error();
                out.push_back(*s);
                i = s->offset + s->length;
                continue;
            }
            out.push_back({Tok::Name, word, start, i - start});
            continue;
        }
        if (std::isdigit(static_cast<unsigned char>(c))) {
            std::size_t start = i;
            while (i < m_text.size() && (std::isalnum(static_cast<unsigned char>(m_text[i])) ||
                                         m_text[i] == '.' || m_text[i] == '_'))
                ++i;
            out.push_back({Tok::Number, std::string(m_text.substr(start, i - start)), start, i - start});
            continue;
        }
        if (c == '"' || c == '\'') {
            auto s = readString(i, i, lines, "");
            if (!s)
                return s.error();
            out.push_back(*s);
            i = s->offset + s->length;
            continue;
        }
        if (c == '-' && i + 1 < m_text.size() && m_text[i + 1] == '>') {
            out.push_back({Tok::Op, "->", i, 2});
            i += 2;
            continue;
        }
        if (c == '*' && i + 1 < m_text.size() && m_text[i + 1] == '*') {
            out.push_back({Tok::Op, "**", i, 2});
            i += 2;
            continue;
        }
        if (std::string_view("()[]{},:=.@*").find(c) != std::string_view::npos) {
            if (c == '(' || c == '[' || c == '{')
                ++depth;
            if ((c == ')' || c == ']' || c == '}') && depth > 0)
                --depth;
            out.push_back({Tok::Op, std::string(1, c), i, 1});
            ++i;
            continue;
        }
        return Diagnostic::error("PYTHON", std::string("unexpected character '") + c + "' in a pipeline file",
                                 lines.at(i, 1));
    }
    out.push_back({Tok::Newline, "", m_text.size(), 0, 0, true, 0});
    out.push_back({Tok::End, "", m_text.size(), 0});
    return out;
}

Result<Token> PythonTokenizer::readString(std::size_t quotePos, std::size_t tokenStart,
                                          const LineIndex& lines, const std::string& prefix) {
    char q = m_text[quotePos];
    bool triple = m_text.substr(quotePos, 3) == std::string(3, q);
    std::size_t contentStart = quotePos + (triple ? 3 : 1);
    bool raw = prefix.find_first_of("rR") != std::string::npos;
    std::string value;
    bool verbatim = true;
    std::size_t i = contentStart;
    for (;;) {
        if (i >= m_text.size() || (!triple && m_text[i] == '\n'))
            return Diagnostic::error("PYTHON", "unterminated string literal", lines.at(quotePos, 1));
        if (triple ? m_text.substr(i, 3) == std::string(3, q) : m_text[i] == q)
            break;
        if (m_text[i] == '\\' && !raw && i + 1 < m_text.size()) {
            verbatim = false;
            char e = m_text[i + 1];
            value += e == 'n' ? '\n' : e == 't' ? '\t' : e;
            i += 2;
            continue;
        }
        value += m_text[i++];
    }
    std::size_t end = i + (triple ? 3 : 1);
    Token t{Tok::String, value, tokenStart, end - tokenStart};
    t.valueOffset = contentStart;
    t.rawString = verbatim;
    return t;
}

} // namespace cdc::python
