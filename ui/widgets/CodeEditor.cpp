// Scintilla keeps colours of its own, so they are copied from the palette here and again on every
// PaletteChange; diagnostics become indicators on byte ranges, their messages shown on mouse dwell.
#include "ui/widgets/CodeEditor.h"

#include "ui/model/ThemeColors.h"
#include "ui/widgets/PythonLexer.h"
#include "ui/widgets/SqlLexer.h"

#include <Qsci/qsciapis.h>
#include <Qsci/qscicommand.h>
#include <Qsci/qscicommandset.h>

#include <QApplication>
#include <QEvent>
#include <QKeyEvent>
#include <QToolTip>

namespace cdc::ui {

CodeEditor::CodeEditor(QWidget* parent)
    : QsciScintilla(parent), m_lexer(new SqlLexer(this)), m_pythonLexer(new PythonLexer(this)),
      m_apis(new QsciAPIs(m_lexer)) {
    setUtf8(true);
    setLexer(m_lexer);
    setMarginType(0, NumberMargin);
    setMarginLineNumbers(0, true);
    setFolding(BoxedTreeFoldStyle, 2);
    setAutoIndent(true);
    setIndentationsUseTabs(false);
    setTabWidth(2);
    setBraceMatching(SloppyBraceMatch);
    setCaretLineVisible(true);
    setAutoCompletionSource(AcsAll);
    setAutoCompletionThreshold(2);
    setAutoCompletionCaseSensitivity(false);
    setAutoCompletionReplaceWord(true);
    setAutoCompletionUseSingle(AcusExplicit);
    setWrapMode(WrapNone);
    setEolMode(EolUnix);

    indicatorDefine(SquiggleLowIndicator, ErrorIndicator);
    indicatorDefine(SquiggleLowIndicator, WarningIndicator);
    SendScintilla(SCI_SETMOUSEDWELLTIME, 400);
    connect(this, &QsciScintilla::SCN_DWELLSTART, this, &CodeEditor::showHover);
    connect(this, &QsciScintilla::SCN_DWELLEND, this, [] { QToolTip::hideText(); });
    connect(this, &QsciScintilla::linesChanged, this, &CodeEditor::updateMarginWidth);
    applyPalette();
    updateMarginWidth();
}

void CodeEditor::updateMarginWidth() {
    setMarginWidth(0, QStringLiteral("00%1").arg(lines()));
}

void CodeEditor::setPython(bool python) {
    if (python == m_python)
        return;
    m_python = python;
    // Completion offers SQL words to SQL only; in Python it offers the file's own words.
    setAutoCompletionSource(python ? AcsDocument : AcsAll);
    setLexer(python ? static_cast<QsciLexer*>(m_pythonLexer) : m_lexer);
    setTabWidth(python ? 4 : 2);
    applyPalette();
}

void CodeEditor::applyPalette() {
    m_lexer->applyPalette();
    m_pythonLexer->applyPalette();
    const QPalette palette = QApplication::palette();
    setMarginsBackgroundColor(palette.color(QPalette::Window));
    setMarginsForegroundColor(palette.color(QPalette::PlaceholderText));
    setFoldMarginColors(palette.color(QPalette::Window), palette.color(QPalette::Window));
    QColor caretLine = palette.color(QPalette::Highlight);
    caretLine.setAlpha(28);
    setCaretLineBackgroundColor(caretLine);
    setCaretForegroundColor(palette.color(QPalette::Text));
    setSelectionBackgroundColor(palette.color(QPalette::Highlight));
    setSelectionForegroundColor(palette.color(QPalette::HighlightedText));
    setMatchedBraceBackgroundColor(caretLine.darker(110));
    setIndicatorForegroundColor(themecolors::error(palette), ErrorIndicator);
    setIndicatorForegroundColor(themecolors::warning(palette), WarningIndicator);
    recolor();
}

void CodeEditor::changeEvent(QEvent* event) {
    // After the base class has handled the change, so that these colours have the last word.
    QsciScintilla::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyPalette();
}

void CodeEditor::keyPressEvent(QKeyEvent* event) {
    if (!isListActive()) {
        m_movedInList = false;
    } else {
        switch (event->key()) {
        case Qt::Key_Up:
        case Qt::Key_Down:
        case Qt::Key_PageUp:
        case Qt::Key_PageDown:
            m_movedInList = true;
            break;
        case Qt::Key_Return:
        case Qt::Key_Enter:
            if (!m_movedInList && event->modifiers() == Qt::NoModifier &&
                wordBeforeCaret().compare(selectedCompletion(), Qt::CaseInsensitive) == 0)
                cancelList(); // the word is complete: Enter is a newline, as with no list open
            break;
        default:
            break;
        }
    }
    QsciScintilla::keyPressEvent(event);
}

void CodeEditor::useExternalHistory() {
    SendScintilla(SCI_SETUNDOCOLLECTION, 0UL);
    SendScintilla(SCI_EMPTYUNDOBUFFER);
}

void CodeEditor::yieldKeys(const QList<QKeySequence>& keys) {
    QList<int> combined;
    for (const QKeySequence& k : keys)
        if (k.count() == 1)
            combined << k[0].toCombined();
    for (QsciCommand* command : standardCommands()->commands()) {
        if (combined.contains(command->key()))
            command->setKey(0);
        if (combined.contains(command->alternateKey()))
            command->setAlternateKey(0);
    }
}

QString CodeEditor::wordBeforeCaret() const {
    const long caret = SendScintilla(SCI_GETCURRENTPOS);
    const long start = SendScintilla(SCI_WORDSTARTPOSITION, static_cast<unsigned long>(caret), 1L);
    return text(int(start), int(caret));
}

QString CodeEditor::selectedCompletion() const {
    const long length = SendScintilla(SCI_AUTOCGETCURRENTTEXT, 0UL, static_cast<void*>(nullptr));
    QByteArray bytes(qsizetype(std::max(length, 0L)) + 1, '\0');
    SendScintilla(SCI_AUTOCGETCURRENTTEXT, 0UL, static_cast<void*>(bytes.data()));
    return QString::fromUtf8(bytes.constData());
}

void CodeEditor::setDiagnostics(std::vector<Diagnostic> diagnostics) {
    m_diagnostics = std::move(diagnostics);
    const long length = SendScintilla(SCI_GETLENGTH);
    for (int indicator : {int(ErrorIndicator), int(WarningIndicator)}) {
        SendScintilla(SCI_SETINDICATORCURRENT, indicator);
        SendScintilla(SCI_INDICATORCLEARRANGE, 0, length);
    }
    for (const auto& d : m_diagnostics) {
        if (!d.location.valid() || d.severity == Severity::Note)
            continue;
        long start = long(d.location.offset);
        if (start > length)
            start = length;
        long span = long(std::max<std::size_t>(d.location.length, 1));
        // A zero-width error at the end of the text still needs something to squiggle.
        if (start >= length && length > 0)
            start = length - 1;
        if (start + span > length)
            span = length - start;
        SendScintilla(SCI_SETINDICATORCURRENT,
                      d.severity == Severity::Error ? int(ErrorIndicator) : int(WarningIndicator));
        SendScintilla(SCI_INDICATORFILLRANGE, start, span);
    }
}

const Diagnostic* CodeEditor::diagnosticAt(int bytePosition) const {
    const Diagnostic* best = nullptr;
    for (const auto& d : m_diagnostics) {
        if (!d.location.valid())
            continue;
        const auto begin = long(d.location.offset);
        const auto end = begin + long(std::max<std::size_t>(d.location.length, 1));
        if (bytePosition >= begin && bytePosition < end && (!best || d.severity < best->severity))
            best = &d;
    }
    return best;
}

bool CodeEditor::hasIndicatorAt(Indicator indicator, int bytePosition) const {
    return const_cast<CodeEditor*>(this)->SendScintilla(SCI_INDICATORVALUEAT, int(indicator), bytePosition) !=
           0;
}

void CodeEditor::showHover(int position, int x, int y) {
    if (position < 0)
        return;
    if (const Diagnostic* d = diagnosticAt(position))
        QToolTip::showText(mapToGlobal(QPoint(x, y + 16)), QString::fromStdString(d->format()), this);
}

void CodeEditor::setCompletionWords(const QStringList& keywords, const QStringList& functions,
                                    const QStringList& schemaNames) {
    m_lexer->setFunctionNames(functions);
    m_lexer->setSchemaNames(schemaNames);
    m_apis->clear();
    for (const auto& list : {keywords, functions, schemaNames})
        for (const auto& word : list)
            m_apis->add(word);
    m_apis->prepare();
    // Keyword lists are read when the lexer is set: re-apply so new names get their colour.
    if (!m_python)
        setLexer(m_lexer);
    applyPalette();
}

void CodeEditor::goToLocation(const SourceLocation& location) {
    if (!location.valid())
        return;
    const long lineStart = SendScintilla(SCI_POSITIONFROMLINE, location.line - 1);
    const long pos = lineStart + std::max(0, location.column - 1);
    SendScintilla(SCI_GOTOPOS, pos);
    if (location.length > 0)
        SendScintilla(SCI_SETSEL, pos, pos + long(location.length));
    ensureLineVisible(location.line - 1);
    setFocus();
}

void CodeEditor::toggleComment() {
    int lineFrom = 0, indexFrom = 0, lineTo = 0, indexTo = 0;
    if (hasSelectedText()) {
        getSelection(&lineFrom, &indexFrom, &lineTo, &indexTo);
        if (indexTo == 0 && lineTo > lineFrom)
            --lineTo;
    } else {
        getCursorPosition(&lineFrom, &indexFrom);
        lineTo = lineFrom;
    }
    const QString marker = m_python ? QStringLiteral("#") : QStringLiteral("--");
    bool allCommented = true;
    for (int l = lineFrom; l <= lineTo; ++l) {
        const QString t = text(l).trimmed();
        if (!t.isEmpty() && !t.startsWith(marker))
            allCommented = false;
    }
    beginUndoAction();
    for (int l = lineFrom; l <= lineTo; ++l) {
        const QString t = text(l);
        if (allCommented) {
            const int at = int(t.indexOf(marker));
            if (at < 0)
                continue;
            const int width =
                int(marker.size()) + (t.mid(at + marker.size(), 1) == QLatin1String(" ") ? 1 : 0);
            setSelection(l, at, l, at + width);
            removeSelectedText();
        } else {
            insertAt(marker + QLatin1Char(' '), l, 0);
        }
    }
    endUndoAction();
}

} // namespace cdc::ui
