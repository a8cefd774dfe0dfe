#pragma once
/// Spark SQL lexer: `--` and `/* */` comments, '...' and "..." strings with backslash escapes, raw r'...',
/// `backtick` identifiers, numbers with Spark suffixes, multi-character operators.

#include "core/common/Diagnostic.h"
#include "core/sql/Token.h"

#include <string_view>
#include <utility>
#include <vector>

namespace cdc::sql {

/// Where lexing starts inside a text: a statement's first byte, line and column (1-based).
struct LexStart {
    std::size_t offset = 0;
    int line = 1;
    int column = 1;
};

class Lexer {
public:
    explicit Lexer(std::string_view text) : m_text(text) {}
    /// Lexes `text` from `start` on, positions counted in the whole text: a script's statements can be
    /// lexed (and parsed) one at a time and still report their lines.
    Lexer(std::string_view text, LexStart start)
        : m_text(text), m_pos(start.offset), m_line(start.line), m_column(start.column) {}
    /// The whole token stream, always ending with an End token. Lexical errors are Error tokens
    /// (the parser reports them with their position), so lexing itself never fails. A NUL byte or a byte
    /// that is not UTF-8 ends the stream with an Error token at that byte.
    std::vector<Token> tokenize();
    /// The next token, one at a time (what tokenize() collects): a long script is read without holding
    /// all its tokens. After an Error token for a bad byte or after End, End again.
    Token nextToken();
    /// Byte ranges (offset, length) of the comments skipped by tokenize(), in order.
    const std::vector<std::pair<std::size_t, std::size_t>>& comments() const { return m_comments; }

private:
    Token next();
    Token badByte(std::size_t offset) const;
    void skipSpaceAndComments(Token& errorOut);
    char peek(std::size_t ahead = 0) const;
    void advance(std::size_t n = 1);
    Token start(TokenKind kind) const;
    Token finish(Token&& t) const;
    Token lexString(char quote);
    Token lexRawString();
    Token lexQuotedIdentifier();
    Token lexNumber();
    bool exponentAt(std::size_t ahead) const;
    bool suffixAt(std::size_t ahead) const;

    std::string_view m_text;
    std::size_t m_pos = 0;
    int m_line = 1;
    int m_column = 1;
    std::vector<std::pair<std::size_t, std::size_t>> m_comments;
    std::size_t m_bad = 0;   ///< the first NUL or invalid UTF-8 byte from the start on
    bool m_badKnown = false; ///< m_bad has been computed (once, on the first token)
    bool m_ended = false;    ///< End (or a bad byte) has been returned
};

/// Sharpens a SQLite error about a statement ("no such column: x", "no such function: f") to the
/// position of that name inside the statement's text [begin, end); leaves other errors as they are.
void pointAtName(Diagnostic& error, std::string_view text, std::size_t begin, std::size_t end);

} // namespace cdc::sql
