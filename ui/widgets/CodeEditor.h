#pragma once
/// QScintilla rather than QPlainTextEdit: folding, completion lists and squiggle indicators come with
/// it, and it counts positions in UTF-8 bytes as core's diagnostics do, so nothing converts offsets.

#include "core/common/Diagnostic.h"

#include <Qsci/qsciscintilla.h>

#include <vector>

class QsciAPIs;

namespace cdc::ui {

class PythonLexer;
class SqlLexer;

/// The pipeline SQL editor: Spark SQL highlighting, line numbers, folding, completion of keywords
/// and live table / column names, and squiggles for diagnostics whose message shows on hover.
/// Positions are UTF-8 byte offsets, as in Diagnostic, all the way to Scintilla.
class CodeEditor : public QsciScintilla {
    Q_OBJECT
public:
    enum Indicator { ErrorIndicator = 8, WarningIndicator = 9 };

    explicit CodeEditor(QWidget* parent = nullptr);

    SqlLexer* sqlLexer() const { return m_lexer; }
    /// Python highlighting, `#` comments and 4-space tabs for a Python pipeline; SQL otherwise.
    void setPython(bool python);
    bool isPython() const { return m_python; }
    /// Replaces the squiggles.
    void setDiagnostics(std::vector<Diagnostic> diagnostics);
    const std::vector<Diagnostic>& diagnostics() const { return m_diagnostics; }
    /// The diagnostic whose range covers a byte position (what hovering there shows), or null.
    const Diagnostic* diagnosticAt(int bytePosition) const;
    /// True when the given indicator is drawn at a byte position.
    bool hasIndicatorAt(Indicator indicator, int bytePosition) const;

    /// Completion words: keywords, functions and the project's tables and columns.
    void setCompletionWords(const QStringList& keywords, const QStringList& functions,
                            const QStringList& schemaNames);

    /// Moves the caret to a diagnostic's position (1-based line, byte column) and shows it.
    void goToLocation(const SourceLocation& location);
    /// Comments the selected lines out with `-- ` (`# ` in Python), or uncomments them when all are
    /// commented.
    void toggleComment();
    /// The text's history is kept elsewhere (the project's undo stack): the editor collects none, so its
    /// own undo can never disagree with it. Call yieldKeys with the undo / redo keys as well.
    void useExternalHistory();
    /// Drops the editor's own bindings of these keys (Scintilla binds Ctrl+T to swap lines, for one), so that
    /// the window's actions with those shortcuts work while the editor has the focus.
    void yieldKeys(const QList<QKeySequence>& keys);
    /// Re-reads colours from the palette (theme switch).
    void applyPalette();

protected:
    void changeEvent(QEvent* event) override;
    /// Enter at the end of a word the completion list already shows inserts a newline (typing line by
    /// line must not join lines); it accepts the list's choice once the user has moved in the list.
    void keyPressEvent(QKeyEvent* event) override;

private:
    void showHover(int position, int x, int y);
    /// The word left of the caret, as completion sees it.
    QString wordBeforeCaret() const;
    /// The entry the open completion list has selected.
    QString selectedCompletion() const;
    void updateMarginWidth();

    SqlLexer* m_lexer;
    PythonLexer* m_pythonLexer;
    QsciAPIs* m_apis;
    bool m_python = false;
    std::vector<Diagnostic> m_diagnostics;
    bool m_movedInList = false; ///< arrow keys were used in the completion list now open
};

} // namespace cdc::ui
