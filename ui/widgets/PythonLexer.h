#pragma once
/// Python highlighting for Python pipeline files, in the SQL editor's colours (LexerPalette), with the
/// pipeline API's words (dp, dlt, create_auto_cdc_flow...) in the accent style SQL gives pipeline keywords.

#include <Qsci/qscilexerpython.h>

#include <QByteArray>

namespace cdc::ui {

class PythonLexer : public QsciLexerPython {
    Q_OBJECT
public:
    explicit PythonLexer(QObject* parent = nullptr);

    const char* keywords(int set) const override;
    /// Re-derives the colours from the application palette (light or dark).
    void applyPalette();

private:
    QByteArray m_pipelineWords;
};

} // namespace cdc::ui
