#pragma once
/// QsciLexerSQL's own keyword sets are generic SQL; pipeline words, function names and the project's
/// tables and columns need sets of their own (5 to 7) so that each can get its own style.

#include <Qsci/qscilexersql.h>

#include <QByteArray>
#include <QStringList>

namespace cdc::ui {

/// Spark SQL highlighting: SQL keywords, the pipeline keywords (AUTO CDC, SEQUENCE BY, TRACK
/// HISTORY...) in their own style, function names, and the live table / column names of the project.
class SqlLexer : public QsciLexerSQL {
    Q_OBJECT
public:
    explicit SqlLexer(QObject* parent = nullptr);

    const char* keywords(int set) const override;
    QString description(int style) const override;

    /// Keywords and function names, for completion.
    static QStringList sqlKeywords();
    static QStringList pipelineKeywords();
    void setFunctionNames(const QStringList& names);
    void setSchemaNames(const QStringList& names);
    /// Re-derives the colours from the application palette (light or dark).
    void applyPalette();

private:
    QByteArray m_keywords;
    QByteArray m_pipeline;
    QByteArray m_functions;
    QByteArray m_schema;
};

} // namespace cdc::ui
