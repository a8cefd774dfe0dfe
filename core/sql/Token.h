#pragma once
/// Tokens of Spark SQL as the hand-written lexer produces them.

#include <cstddef>
#include <string>
#include <string_view>

namespace cdc::sql {

enum class TokenKind {
    Identifier,       ///< bare word (keywords are identifiers; the parser decides by context)
    QuotedIdentifier, ///< `backticked`: never a keyword
    String,           ///< '...' or "..." (Spark: double quotes delimit strings), escapes resolved
    Integer,          ///< 123, 123L, 12S, 12Y
    Decimal,          ///< 1.5, 1e3, 1.5D, 1.5BD
    Symbol, ///< operators and punctuation: ( ) , ; . * + - / % = == <=> != <> < <= > >= || => :: [ ] & | ^ ~
    Error,  ///< a lexical error; text holds the message
    End,
};

struct Token {
    TokenKind kind = TokenKind::End;
    std::string text; ///< identifier / symbol as written, string value unescaped, number as written
    std::size_t offset = 0;
    std::size_t length = 0;
    int line = 1;
    int column = 1;

    bool isSymbol(std::string_view s) const { return kind == TokenKind::Symbol && text == s; }
    /// A bare word equal to `word` ignoring case (backticked names are never keywords).
    bool isKeyword(std::string_view word) const;
};

} // namespace cdc::sql
