// Scintilla's Python lexer gives keyword set 2 the HighlightedIdentifier style: the pipeline API's
// names go there so a file's declarations stand out from its ordinary Python.
#include "ui/widgets/PythonLexer.h"

#include "ui/widgets/LexerPalette.h"

namespace cdc::ui {

PythonLexer::PythonLexer(QObject* parent)
    : QsciLexerPython(parent),
      m_pipelineWords("dp dlt pipelines spark dbutils table view temporary_view materialized_view "
                      "append_flow create_streaming_table create_auto_cdc_flow "
                      "create_auto_cdc_from_snapshot_flow apply_changes apply_changes_from_snapshot "
                      "create_sink expect expect_or_drop expect_or_fail") {
    setFoldComments(true);
    setIndentationWarning(QsciLexerPython::Inconsistent);
    applyPalette();
}

const char* PythonLexer::keywords(int set) const {
    return set == 2 ? m_pipelineWords.constData() : QsciLexerPython::keywords(set);
}

void PythonLexer::applyPalette() {
    using namespace lexerpalette;
    apply(*this,
          {{Keyword, kKeyword},
           {HighlightedIdentifier, kAccent},
           {Decorator, kAccent},
           {FunctionMethodName, kFunction},
           {ClassName, kFunction},
           {Comment, kComment},
           {CommentBlock, kComment},
           {SingleQuotedString, kString},
           {DoubleQuotedString, kString},
           {TripleSingleQuotedString, kString},
           {TripleDoubleQuotedString, kString},
           {SingleQuotedFString, kString},
           {DoubleQuotedFString, kString},
           {TripleSingleQuotedFString, kString},
           {TripleDoubleQuotedFString, kString},
           {UnclosedString, kString},
           {Number, kNumber}},
          TripleDoubleQuotedFString);
}

} // namespace cdc::ui
