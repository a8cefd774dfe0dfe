#include "core/sql/Lexer.h"

#include "core/common/Utf8.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace cdc::sql {

namespace {
bool isIdentStart(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || (c & 0x80);
}
bool isIdentPart(char c) {
    return isIdentStart(c) || std::isdigit(static_cast<unsigned char>(c)) || c == '$';
}
bool isDigit(char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

/// The operators and punctuation that start with `c`, in the order they are tried (longest first).
const std::vector<std::string_view>& symbolsStartingWith(char c) {
    static const auto table = [] {
        static constexpr std::string_view kSymbols[] = {
            "<=>", "==", "!=", "<>", "<=", ">=", "||", "=>", "::", "(", ")", ",", ";", ".", "*", "+",
            "-",   "/",  "%",  "=",  "<",  ">",  "[",  "]",  "&",  "|", "^", "~", ":", "!", "{", "}"};
        std::array<std::vector<std::string_view>, 256> byFirst;
        for (std::string_view s : kSymbols)
            byFirst[static_cast<unsigned char>(s[0])].push_back(s);
        return byFirst;
    }();
    return table[static_cast<unsigned char>(c)];
}
} // namespace

bool Token::isKeyword(std::string_view word) const {
    if (kind != TokenKind::Identifier || text.size() != word.size())
        return false;
    for (std::size_t i = 0; i < word.size(); ++i)
        if (std::toupper(static_cast<unsigned char>(text[i])) !=
            std::toupper(static_cast<unsigned char>(word[i])))
            return false;
    return true;
}

std::vector<Token> Lexer::tokenize() {
    std::vector<Token> tokens;
    // One allocation up front: growing a vector of a million tokens costs more than lexing them.
    tokens.reserve((m_text.size() - std::min(m_pos, m_text.size())) / 3 + 16);
    for (;;) {
        Token t = nextToken();
        const bool end = t.kind == TokenKind::End;
        tokens.push_back(std::move(t));
        if (end)
            return tokens;
    }
}

Token Lexer::nextToken() {
    if (m_ended)
        return finish(start(TokenKind::End));
    // SQL text is UTF-8 without NUL bytes. A bad byte anywhere (a string, a comment) would reach the
    // database or SQLite's own parser, which stops at a NUL; it is an error at its own position instead.
    if (!m_badKnown) {
        const std::string_view rest = m_text.substr(std::min(m_pos, m_text.size()));
        const std::size_t invalid = utf8::firstInvalid(rest);
        const std::size_t nul = rest.find('\0');
        const std::size_t first = std::min(nul, invalid);
        m_bad =
            first == std::string_view::npos || first >= rest.size() ? std::string_view::npos : m_pos + first;
        m_badKnown = true;
    }
    Token t = next();
    if (m_pos > m_bad) { // this token (or the space or comment before it) holds the bad byte
        m_ended = true;
        return badByte(m_bad);
    }
    if (t.kind == TokenKind::End)
        m_ended = true;
    return t;
}

Token Lexer::badByte(std::size_t offset) const {
    Token t;
    t.kind = TokenKind::Error;
    t.offset = offset;
    const utf8::LineColumn at = utf8::lineColumnAt(m_text, offset);
    t.line = at.line;
    t.column = at.column;
    t.length = 1;
    const auto byte = static_cast<unsigned char>(m_text[offset]);
    t.text = byte == 0 ? "the NUL byte is not allowed in SQL text"
                       : utf8::describeByte(byte) + " is not valid UTF-8; SQL text must be UTF-8";
    return t;
}

char Lexer::peek(std::size_t ahead) const {
    return m_pos + ahead < m_text.size() ? m_text[m_pos + ahead] : '\0';
}

void Lexer::advance(std::size_t n) {
    for (std::size_t i = 0; i < n && m_pos < m_text.size(); ++i) {
        if (m_text[m_pos] == '\n') {
            ++m_line;
            m_column = 1;
        } else {
            ++m_column;
        }
        ++m_pos;
    }
}

Token Lexer::start(TokenKind kind) const {
    Token t;
    t.kind = kind;
    t.offset = m_pos;
    t.line = m_line;
    t.column = m_column;
    return t;
}

Token Lexer::finish(Token&& t) const {
    t.length = m_pos - t.offset;
    return t;
}

void Lexer::skipSpaceAndComments(Token& errorOut) {
    for (;;) {
        char c = peek();
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            advance();
        } else if (c == '-' && peek(1) == '-') {
            std::size_t begin = m_pos;
            while (m_pos < m_text.size() && peek() != '\n')
                advance();
            m_comments.emplace_back(begin, m_pos - begin);
        } else if (c == '/' && peek(1) == '*') {
            Token open = start(TokenKind::Error);
            advance(2);
            int depth = 1; // Spark allows nested bracketed comments
            while (m_pos < m_text.size() && depth > 0) {
                if (peek() == '/' && peek(1) == '*') {
                    ++depth;
                    advance(2);
                } else if (peek() == '*' && peek(1) == '/') {
                    --depth;
                    advance(2);
                } else {
                    advance();
                }
            }
            if (depth > 0) {
                open.text = "unterminated comment";
                open.length = 2;
                errorOut = open;
                return;
            }
            m_comments.emplace_back(open.offset, m_pos - open.offset);
        } else {
            return;
        }
    }
}

Token Lexer::next() {
    Token error;
    skipSpaceAndComments(error);
    if (error.kind == TokenKind::Error)
        return error;
    if (m_pos >= m_text.size())
        return finish(start(TokenKind::End));
    char c = peek();
    if (c == '\'' || c == '"')
        return lexString(c);
    if (c == '`')
        return lexQuotedIdentifier();
    if ((c == 'r' || c == 'R') && (peek(1) == '\'' || peek(1) == '"'))
        return lexRawString();
    if (isDigit(c) || (c == '.' && isDigit(peek(1))))
        return lexNumber();
    if (isIdentStart(c)) {
        Token t = start(TokenKind::Identifier);
        while (m_pos < m_text.size() && isIdentPart(peek()))
            advance();
        t.text = std::string(m_text.substr(t.offset, m_pos - t.offset));
        return finish(std::move(t));
    }
    Token t = start(TokenKind::Symbol);
    // Longest operators first; only those starting with `c` are tried (a script of a million VALUES
    // rows is mostly `(`, `,` and `)`: scanning every operator for each was a fifth of its load time).
    for (std::string_view s : symbolsStartingWith(c)) {
        if (m_text.substr(m_pos, s.size()) == s) {
            advance(s.size());
            t.text = std::string(s);
            return finish(std::move(t));
        }
    }
    t.kind = TokenKind::Error;
    advance();
    t.text = std::string("unexpected character '") + c + "'";
    return finish(std::move(t));
}

Token Lexer::lexString(char quote) {
    Token t = start(TokenKind::String);
    advance();
    std::string value;
    for (;;) {
        if (m_pos >= m_text.size()) {
            t.kind = TokenKind::Error;
            t.text = "unterminated string literal";
            t.length = 1;
            return t;
        }
        char c = peek();
        if (c == quote) {
            if (peek(1) == quote) { // doubled quote: a literal quote character
                value += quote;
                advance(2);
                continue;
            }
            advance();
            break;
        }
        if (c == '\\' && m_pos + 1 < m_text.size()) {
            char e = peek(1);
            advance(2);
            switch (e) {
            case 'n':
                value += '\n';
                break;
            case 't':
                value += '\t';
                break;
            case 'r':
                value += '\r';
                break;
            case 'b':
                value += '\b';
                break;
            case '0':
                value += '\0';
                break;
            case 'Z':
                value += '\x1a';
                break;
            // Spark keeps the backslash for the LIKE wildcards so that patterns still escape them.
            case '%':
                value += "\\%";
                break;
            case '_':
                value += "\\_";
                break;
            default:
                value += e;
                break;
            }
            continue;
        }
        // A run of plain characters at once (no quote, backslash or line break: one column per byte).
        std::size_t run = m_pos + 1;
        while (run < m_text.size() && m_text[run] != quote && m_text[run] != '\\' && m_text[run] != '\n')
            ++run;
        if (c == '\n') {
            value += c;
            advance();
            continue;
        }
        value.append(m_text.data() + m_pos, run - m_pos);
        m_column += static_cast<int>(run - m_pos);
        m_pos = run;
    }
    t.text = std::move(value);
    return finish(std::move(t));
}

// r'...' / R"...": the text as written, with no escape character (Databricks raw literals).
Token Lexer::lexRawString() {
    Token t = start(TokenKind::String);
    const char quote = peek(1);
    advance(2);
    const std::size_t begin = m_pos;
    while (m_pos < m_text.size() && peek() != quote)
        advance();
    if (m_pos >= m_text.size()) {
        t.kind = TokenKind::Error;
        t.text = "unterminated string literal";
        t.length = 2;
        return t;
    }
    t.text = std::string(m_text.substr(begin, m_pos - begin));
    advance();
    return finish(std::move(t));
}

Token Lexer::lexQuotedIdentifier() {
    Token t = start(TokenKind::QuotedIdentifier);
    advance();
    std::string value;
    for (;;) {
        if (m_pos >= m_text.size()) {
            t.kind = TokenKind::Error;
            t.text = "unterminated quoted identifier";
            t.length = 1;
            return t;
        }
        char c = peek();
        if (c == '`') {
            if (peek(1) == '`') {
                value += '`';
                advance(2);
                continue;
            }
            advance();
            break;
        }
        value += c;
        advance();
    }
    t.text = std::move(value);
    return finish(std::move(t));
}

// Whether an exponent (e3, E-2) starts `ahead` characters on.
bool Lexer::exponentAt(std::size_t ahead) const {
    const char sign = peek(ahead + 1);
    return (peek(ahead) == 'e' || peek(ahead) == 'E') &&
           (isDigit(sign) || ((sign == '+' || sign == '-') && isDigit(peek(ahead + 2))));
}

// Whether an exponent or a type suffix (BD, D, F) starts `ahead` characters on.
bool Lexer::suffixAt(std::size_t ahead) const {
    const char a = static_cast<char>(std::toupper(static_cast<unsigned char>(peek(ahead))));
    const char b = static_cast<char>(std::toupper(static_cast<unsigned char>(peek(ahead + 1))));
    if (exponentAt(ahead))
        return true;
    if (a == 'B' && b == 'D')
        return !isIdentPart(peek(ahead + 2));
    return (a == 'D' || a == 'F') && !isIdentPart(peek(ahead + 1));
}

Token Lexer::lexNumber() {
    Token t = start(TokenKind::Integer);
    while (isDigit(peek()))
        advance();
    if (peek() == '.' && isDigit(peek(1))) {
        t.kind = TokenKind::Decimal;
        advance();
        while (isDigit(peek()))
            advance();
    } else if (peek() == '.' && (!isIdentStart(peek(1)) || suffixAt(1))) {
        // "1." is a decimal literal in Spark, and so are "123.BD" and "3.e+3"
        t.kind = TokenKind::Decimal;
        advance();
    }
    if (exponentAt(0)) {
        t.kind = TokenKind::Decimal;
        advance(2);
        while (isDigit(peek()))
            advance();
    }
    // Type suffixes: L (BIGINT), S (SMALLINT), Y (TINYINT), D (DOUBLE), F (FLOAT), BD (DECIMAL).
    char s = static_cast<char>(std::toupper(static_cast<unsigned char>(peek())));
    char s2 = static_cast<char>(std::toupper(static_cast<unsigned char>(peek(1))));
    if (s == 'B' && s2 == 'D' && !isIdentPart(peek(2))) {
        t.kind = TokenKind::Decimal;
        advance(2);
    } else if ((s == 'L' || s == 'S' || s == 'Y') && !isIdentPart(peek(1)) && t.kind == TokenKind::Integer) {
        advance();
    } else if ((s == 'D' || s == 'F') && !isIdentPart(peek(1))) {
        t.kind = TokenKind::Decimal;
        advance();
    }
    if (isIdentStart(peek())) {
        // "12abc": Spark reads this as an identifier; we do too.
        while (isIdentPart(peek()))
            advance();
        t.kind = TokenKind::Identifier;
    }
    t.text = std::string(m_text.substr(t.offset, m_pos - t.offset));
    return finish(std::move(t));
}

void pointAtName(Diagnostic& error, std::string_view text, std::size_t begin, std::size_t end) {
    static const std::string_view kColumn = "no such column: ", kFunction = "no such function: ";
    std::string_view message = error.message;
    bool function = message.rfind(kFunction, 0) == 0;
    if (!function && message.rfind(kColumn, 0) != 0)
        return;
    std::string_view name = message.substr(function ? kFunction.size() : kColumn.size());
    // "t.x" names the column x qualified by t: look for the last part.
    std::string_view last = name.substr(name.rfind('.') == std::string_view::npos ? 0 : name.rfind('.') + 1);
    std::vector<Token> tokens = Lexer(text).tokenize();
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const Token& t = tokens[i];
        if (t.offset < begin || t.offset >= end)
            continue;
        bool identifier = t.kind == TokenKind::Identifier || t.kind == TokenKind::QuotedIdentifier;
        if (!identifier || t.text.size() != last.size())
            continue;
        bool same = true;
        for (std::size_t k = 0; k < last.size() && same; ++k)
            same = std::tolower(static_cast<unsigned char>(t.text[k])) ==
                   std::tolower(static_cast<unsigned char>(last[k]));
        bool call = i + 1 < tokens.size() && tokens[i + 1].isSymbol("(");
        if (!same || call != function)
            continue;
        error.location.line = t.line;
        error.location.column = t.column;
        error.location.offset = t.offset;
        error.location.length = t.length;
        return;
    }
}

} // namespace cdc::sql
