// The Spark SQL lexer: token kinds, values (escapes resolved), positions in UTF-8 bytes with
// line:column, comments, lexical errors; and pointAtName, which moves a SQLite error onto the name.
// (No raw string literals here: moc misreads them and skips the class.)
// Expected values follow the Databricks SQL reference (STRING literals, numeric literal suffixes,
// identifiers), not the lexer's own output.

#include "core/sql/Lexer.h"

#include <QTest>

using namespace cdc;
using namespace cdc::sql;

namespace {

const char* kindName(TokenKind k) {
    switch (k) {
    case TokenKind::Identifier:
        return "id";
    case TokenKind::QuotedIdentifier:
        return "qid";
    case TokenKind::String:
        return "str";
    case TokenKind::Integer:
        return "int";
    case TokenKind::Decimal:
        return "dec";
    case TokenKind::Symbol:
        return "sym";
    case TokenKind::Error:
        return "err";
    case TokenKind::End:
        return "end";
    }
    return "?";
}

/// A token's value with its control characters spelled as escapes, so that expected lists read as text.
QString visible(const std::string& value) {
    QByteArray out;
    for (char c : value) {
        switch (c) {
        case '\n':
            out += "\\n";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\0':
            out += "\\0";
            break;
        case '\x1a':
            out += "\\Z";
            break;
        default:
            out += c;
        }
    }
    return QString::fromUtf8(out);
}

/// Every token as `kind(value)@line:column+length` (bytes); the End token as `end@line:column`.
QString tokens(const std::string& text) {
    QStringList out;
    for (const Token& t : Lexer(text).tokenize()) {
        const QString where = QStringLiteral("@%1:%2").arg(t.line).arg(t.column);
        if (t.kind == TokenKind::End)
            out << "end" + where;
        else
            out << QString::fromLatin1(kindName(t.kind)) + "(" + visible(t.text) + ")" + where + "+" +
                       QString::number(t.length);
    }
    return out.join(' ');
}

} // namespace

class TestLexer : public QObject {
    Q_OBJECT
private slots:
    void tokens_data() {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("expected");
        // Words: keywords are identifiers (the parser decides by context); digits may start one.
        QTest::newRow("words") << "SELECT a_1 FROM t"
                               << "id(SELECT)@1:1+6 id(a_1)@1:8+3 id(FROM)@1:12+4 id(t)@1:17+1 end@1:18";
        QTest::newRow("digits then letters") << "12abc a$b"
                                             << "id(12abc)@1:1+5 id(a$b)@1:7+3 end@1:10";
        QTest::newRow("empty input") << ""
                                     << "end@1:1";
        QTest::newRow("only blanks") << " \t\n "
                                     << "end@2:2";
        // Columns count UTF-8 bytes: "café" is five bytes long.
        QTest::newRow("utf8 identifier") << "café x"
                                         << "id(café)@1:1+5 id(x)@1:7+1 end@1:8";
        QTest::newRow("utf8 in string") << "'é😀' x"
                                        << "str(é😀)@1:1+8 id(x)@1:10+1 end@1:11";
        QTest::newRow("lines") << "a\n  b\r\n c"
                               << "id(a)@1:1+1 id(b)@2:3+1 id(c)@3:2+1 end@3:3";
        QTest::newRow("tab is one column") << "\tx"
                                           << "id(x)@1:2+1 end@1:3";
        // Backquoted identifiers: anything but a backquote, `` for one; never a keyword.
        QTest::newRow("backquoted") << "`my col` `select`"
                                    << "qid(my col)@1:1+8 qid(select)@1:10+8 end@1:18";
        QTest::newRow("doubled backquote") << "`a``b`"
                                           << "qid(a`b)@1:1+6 end@1:7";
        QTest::newRow("unterminated backquote")
            << "x `abc"
            << "id(x)@1:1+1 err(unterminated quoted identifier)@1:3+1 end@1:7";
        // Strings: single or double quotes; the documented escapes; \% and \_ keep their backslash.
        QTest::newRow("single and double quotes") << "'abc' \"d e\""
                                                  << "str(abc)@1:1+5 str(d e)@1:7+5 end@1:12";
        QTest::newRow("escaped quotes") << "'a\\'b' \"c\\\"d\""
                                        << "str(a'b)@1:1+6 str(c\"d)@1:8+6 end@1:14";
        QTest::newRow("doubled quote") << "'it''s'"
                                       << "str(it's)@1:1+7 end@1:8";
        QTest::newRow("control escapes") << "'\\n\\t\\r\\b\\0\\Z'"
                                         << "str(\\n\\t\\r\\b\\0\\Z)@1:1+14 end@1:15";
        QTest::newRow("backslash escape") << "'a\\\\b'"
                                          << "str(a\\b)@1:1+6 end@1:7";
        QTest::newRow("like wildcards keep the backslash") << "'\\%\\_'"
                                                           << "str(\\%\\_)@1:1+6 end@1:7";
        QTest::newRow("other escaped characters are themselves") << "'\\q\\d'"
                                                                 << "str(qd)@1:1+6 end@1:7";
        QTest::newRow("newline inside a string") << "'a\nb' c"
                                                 << "str(a\\nb)@1:1+5 id(c)@2:4+1 end@2:5";
        QTest::newRow("adjacent strings stay two tokens") << "'a' 'b'"
                                                          << "str(a)@1:1+3 str(b)@1:5+3 end@1:8";
        QTest::newRow("unterminated string")
            << "x = 'abc"
            << "id(x)@1:1+1 sym(=)@1:3+1 err(unterminated string literal)@1:5+1 end@1:9";
        QTest::newRow("unterminated after backslash") << "'abc\\"
                                                      << "err(unterminated string literal)@1:1+1 end@1:6";
        QTest::newRow("unterminated double quote") << "\"abc"
                                                   << "err(unterminated string literal)@1:1+1 end@1:5";
        // Raw literals (r'...' / R"..."): no escape character at all.
        QTest::newRow("raw strings") << "r'\\d+' R\"a\\b\""
                                     << "str(\\d+)@1:1+6 str(a\\b)@1:8+6 end@1:14";
        QTest::newRow("r is an identifier when apart") << "r 'x'"
                                                       << "id(r)@1:1+1 str(x)@1:3+3 end@1:6";
        QTest::newRow("unterminated raw string") << "r'abc"
                                                 << "err(unterminated string literal)@1:1+2 end@1:6";
        // Numbers: INT, BIGINT (L), SMALLINT (S), TINYINT (Y); DECIMAL with a point or BD, DOUBLE with an
        // exponent or D, FLOAT with F. Suffixes are case-insensitive.
        QTest::newRow("integers")
            << "1 1L 12S 7Y 007 10l"
            << "int(1)@1:1+1 int(1L)@1:3+2 int(12S)@1:6+3 int(7Y)@1:10+2 int(007)@1:13+3 "
               "int(10l)@1:17+3 end@1:20";
        QTest::newRow("decimals") << "1.5 1.5D 1e3 1E-2 2e+5 1.5BD 1bd .5 1. 2F 3d"
                                  << "dec(1.5)@1:1+3 dec(1.5D)@1:5+4 dec(1e3)@1:10+3 dec(1E-2)@1:14+4 "
                                     "dec(2e+5)@1:19+4 dec(1.5BD)@1:24+5 dec(1bd)@1:30+3 dec(.5)@1:34+2 "
                                     "dec(1.)@1:37+2 dec(2F)@1:40+2 dec(3d)@1:43+2 end@1:45";
        QTest::newRow("exponent without digits is a word") << "1e"
                                                           << "id(1e)@1:1+2 end@1:3";
        // Spark's literal reference: 123.BD, +3.e+3, -3.E-3D: a point directly before a suffix or exponent.
        QTest::newRow("point before a suffix or exponent")
            << "123.BD 3.e+3 3.E-3D 5.D 2.f"
            << "dec(123.BD)@1:1+6 dec(3.e+3)@1:8+5 dec(3.E-3D)@1:14+6 dec(5.D)@1:21+3 dec(2.f)@1:25+3 "
               "end@1:28";
        QTest::newRow("point before other letters") << "1.Dx 1.e"
                                                    << "int(1)@1:1+1 sym(.)@1:2+1 id(Dx)@1:3+2 int(1)@1:6+1 "
                                                       "sym(.)@1:7+1 id(e)@1:8+1 end@1:9";
        QTest::newRow("number then field") << "1.x"
                                           << "int(1)@1:1+1 sym(.)@1:2+1 id(x)@1:3+1 end@1:4";
        QTest::newRow("minus is a symbol") << "-1"
                                           << "sym(-)@1:1+1 int(1)@1:2+1 end@1:3";
        // Operators: the longest symbol wins.
        QTest::newRow("multi-character symbols")
            << "<=> == != <> <= >= || => ::"
            << "sym(<=>)@1:1+3 sym(==)@1:5+2 sym(!=)@1:8+2 sym(<>)@1:11+2 sym(<=)@1:14+2 sym(>=)@1:17+2 "
               "sym(||)@1:20+2 sym(=>)@1:23+2 sym(::)@1:26+2 end@1:28";
        QTest::newRow("single-character symbols")
            << "()[]{},;.*+-/%=<&>|^~:!"
            << "sym(()@1:1+1 sym())@1:2+1 sym([)@1:3+1 sym(])@1:4+1 sym({)@1:5+1 sym(})@1:6+1 sym(,)@1:7+1 "
               "sym(;)@1:8+1 sym(.)@1:9+1 sym(*)@1:10+1 sym(+)@1:11+1 sym(-)@1:12+1 sym(/)@1:13+1 "
               "sym(%)@1:14+1 sym(=)@1:15+1 sym(<)@1:16+1 sym(&)@1:17+1 sym(>)@1:18+1 sym(|)@1:19+1 "
               "sym(^)@1:20+1 sym(~)@1:21+1 sym(:)@1:22+1 sym(!)@1:23+1 end@1:24";
        QTest::newRow("symbols glued to words") << "a<=b"
                                                << "id(a)@1:1+1 sym(<=)@1:2+2 id(b)@1:4+1 end@1:5";
        QTest::newRow("unexpected character")
            << "a @ b"
            << "id(a)@1:1+1 err(unexpected character '@')@1:3+1 id(b)@1:5+1 end@1:6";
        // Comments: -- to the end of the line, /* */ nested as Spark allows.
        QTest::newRow("line comment") << "a -- x y\nb"
                                      << "id(a)@1:1+1 id(b)@2:1+1 end@2:2";
        QTest::newRow("dashes in a string are not a comment") << "'--x'"
                                                              << "str(--x)@1:1+5 end@1:6";
        QTest::newRow("block comment") << "a/**/b /* x\n y */ c"
                                       << "id(a)@1:1+1 id(b)@1:6+1 id(c)@2:7+1 end@2:8";
        QTest::newRow("nested block comment") << "/* a /* b */ c */ d"
                                              << "id(d)@1:19+1 end@1:20";
        QTest::newRow("unterminated comment") << "x /* a /* b */"
                                              << "id(x)@1:1+1 err(unterminated comment)@1:3+2 end@1:15";
    }
    void tokens() {
        QFETCH(QString, input);
        QFETCH(QString, expected);
        QCOMPARE(::tokens(input.toStdString()), expected);
    }

    void badBytes_data() {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QString>("expected");
        // SQL text is UTF-8 without NUL: the first bad byte, wherever it is, ends the tokens with an error at
        // that byte (tokens before it stay).
        QTest::newRow("byte not UTF-8 in a string")
            << QByteArray("a\n 'caf\xE9' b")
            << "id(a)@1:1+1 err(the byte 0xE9 is not valid UTF-8; SQL text must be UTF-8)@2:6+1 end@2:8";
        QTest::newRow("truncated sequence in a comment")
            << QByteArray("a -- r\xE2\x82sum\nb")
            << "id(a)@1:1+1 err(the byte 0xE2 is not valid UTF-8; SQL text must be UTF-8)@1:7+1 end@2:2";
        QTest::newRow("NUL in a string") << QByteArray("x = 'a\0b'", 9)
                                         << "id(x)@1:1+1 sym(=)@1:3+1 err(the NUL byte is not allowed in SQL "
                                            "text)@1:7+1 end@1:10";
        QTest::newRow("NUL between tokens")
            << QByteArray("a \0 b", 5)
            << "id(a)@1:1+1 err(the NUL byte is not allowed in SQL text)@1:3+1 "
               "end@1:4";
    }
    void badBytes() {
        QFETCH(QByteArray, input);
        QFETCH(QString, expected);
        QCOMPARE(::tokens(input.toStdString()), expected);
    }

    void commentRanges() {
        const std::string text = "-- head\nSELECT /* in /* nested */ line */ 1 -- tail";
        Lexer lexer(text);
        const auto tokens = lexer.tokenize();
        QStringList ranges;
        for (const auto& [offset, length] : lexer.comments())
            ranges << QString::fromStdString(text.substr(offset, length));
        QCOMPARE(ranges, QStringList({"-- head", "/* in /* nested */ line */", "-- tail"}));
        QCOMPARE(tokens.size(), std::size_t(3)); // SELECT 1 End
    }

    void keywordsIgnoreCaseButNotBackquotes() {
        const auto tokens = Lexer("select `select` Selected").tokenize();
        QVERIFY(tokens[0].isKeyword("SELECT"));
        QVERIFY(tokens[0].isKeyword("select"));
        QVERIFY(!tokens[1].isKeyword("SELECT")); // a backquoted name is never a keyword
        QVERIFY(!tokens[2].isKeyword("SELECT"));
        QVERIFY(!tokens[0].isKeyword("SELECTED"));
    }

    void pointAtNameMovesSqliteErrorsOntoTheName_data() {
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("column") << "no such column: nam"
                                << "SELECT x,\n  nam FROM t"
                                << "2:3+3";
        QTest::newRow("qualified column") << "no such column: t.zz"
                                          << "SELECT t.zz FROM t"
                                          << "1:10+2";
        QTest::newRow("backquoted column") << "no such column: a b"
                                           << "SELECT `a b` FROM t"
                                           << "1:8+5";
        QTest::newRow("case-insensitive") << "no such column: ABC"
                                          << "SELECT abc FROM t"
                                          << "1:8+3";
        QTest::newRow("function, not the column of that name") << "no such function: f"
                                                               << "SELECT f, f(1) FROM t"
                                                               << "1:11+1";
        QTest::newRow("column, not the function of that name") << "no such column: f"
                                                               << "SELECT f(1), f FROM t"
                                                               << "1:14+1";
        QTest::newRow("other errors stay where they were") << "near \"x\": syntax error"
                                                           << "SELECT x"
                                                           << "9:9+9";
        QTest::newRow("name outside the statement") << "no such column: q"
                                                    << "SELECT 1; SELECT q"
                                                    << "9:9+9";
    }
    void pointAtNameMovesSqliteErrorsOntoTheName() {
        QFETCH(QString, message);
        QFETCH(QString, text);
        QFETCH(QString, expected);
        Diagnostic d = Diagnostic::error("SQLITE", message.toStdString(), {"f.sql", 9, 9, 99, 9});
        const std::string sql = text.toStdString();
        // The statement is the text up to its first ';'.
        pointAtName(d, sql, 0, std::min(sql.find(';'), sql.size()));
        QCOMPARE(
            QStringLiteral("%1:%2+%3").arg(d.location.line).arg(d.location.column).arg(d.location.length),
            expected);
    }
};

QTEST_GUILESS_MAIN(TestLexer)
#include "tst_lexer.moc"
