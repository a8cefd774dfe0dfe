// Word lists are lower-cased because Scintilla's SQL lexer matches lowered words.
#include "ui/widgets/SqlLexer.h"

#include "ui/widgets/LexerPalette.h"

namespace cdc::ui {

namespace {
QByteArray joinLower(const QStringList& words) {
    return words.join(QLatin1Char(' ')).toLower().toUtf8();
}
} // namespace

QStringList SqlLexer::sqlKeywords() {
    static const QStringList words =
        QStringLiteral("ADD ALL ALTER AND ANTI ANY ARRAY AS ASC BETWEEN BIGINT BINARY BOOLEAN BOTH BY CASE "
                       "CAST CHAR COLLATE COLUMN "
                       "COMMENT CREATE CROSS CURRENT DATABASE DATE DECIMAL DEFAULT DELETE DESC DISTINCT "
                       "DOUBLE DROP ELSE END ESCAPE "
                       "EXCEPT EXISTS EXPLAIN FALSE FILTER FIRST FLOAT FOLLOWING FOR FROM FULL FUNCTION "
                       "GROUP HAVING IF IN INNER INSERT "
                       "INT INTEGER INTERSECT INTERVAL INTO IS JOIN LAST LATERAL LEADING LEFT LIKE ILIKE "
                       "LIMIT LONG MAP NOT NULL NULLS "
                       "OF OFFSET ON OR ORDER OUTER OVER PARTITION PRECEDING QUALIFY RANGE REPLACE RIGHT "
                       "RLIKE ROW ROWS SCHEMA SELECT "
                       "SEMI SET SHORT SMALLINT STRING STRUCT TABLE TEMPORARY THEN TIMESTAMP TIMESTAMP_NTZ "
                       "TINYINT TO TRAILING TRUE "
                       "TRUNCATE UNBOUNDED UNION UPDATE USING VALUES VARCHAR VIEW WHEN WHERE WINDOW WITH")
            .split(QLatin1Char(' '));
    return words;
}

QStringList SqlLexer::pipelineKeywords() {
    // Words that only mean something in pipeline SQL get their own colour so they stand out.
    static const QStringList words = QStringLiteral("AUTO CDC APPLY CHANGES KEYS SEQUENCE STORED SCD TYPE "
                                                    "TRACK HISTORY IGNORE UPDATES COLUMNS STREAMING "
                                                    "REFRESH FLOW STREAM ONCE SNAPSHOT VERSION MATERIALIZED "
                                                    "TBLPROPERTIES EXPECT CONSTRAINT VIOLATION FAIL "
                                                    "PRIVATE LIVE BITEMPORAL SYSTEM table_changes")
                                         .split(QLatin1Char(' '));
    return words;
}

SqlLexer::SqlLexer(QObject* parent) : QsciLexerSQL(parent) {
    m_keywords = joinLower(sqlKeywords());
    m_pipeline = joinLower(pipelineKeywords());
    setBackslashEscapes(true);
    setFoldComments(true);
    setFoldCompact(false);
    applyPalette();
}

const char* SqlLexer::keywords(int set) const {
    switch (set) {
    case 1:
        return m_keywords.constData();
    case 5:
        return m_pipeline.constData();
    case 6:
        return m_functions.constData();
    case 7:
        return m_schema.constData();
    default:
        return QsciLexerSQL::keywords(set);
    }
}

QString SqlLexer::description(int style) const {
    switch (style) {
    case KeywordSet5:
        return tr("Pipeline keyword");
    case KeywordSet6:
        return tr("Function");
    case KeywordSet7:
        return tr("Table or column");
    default:
        return QsciLexerSQL::description(style);
    }
}

void SqlLexer::setFunctionNames(const QStringList& names) {
    m_functions = joinLower(names);
}
void SqlLexer::setSchemaNames(const QStringList& names) {
    m_schema = joinLower(names);
}

void SqlLexer::applyPalette() {
    using namespace lexerpalette;
    // Operators and identifiers keep the text colour apply() gives every style first.
    apply(*this,
          {{Keyword, kKeyword},
           {KeywordSet5, kAccent},
           {KeywordSet6, kFunction},
           {KeywordSet7, kName},
           {Comment, kComment},
           {CommentLine, kComment},
           {CommentDoc, kComment},
           {SingleQuotedString, kString},
           {DoubleQuotedString, kString},
           {Number, kNumber},
           {QuotedIdentifier, kQuoted}},
          QuotedOperator);
}

} // namespace cdc::ui
