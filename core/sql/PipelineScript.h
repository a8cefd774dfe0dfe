#pragma once
/// A pipeline text as its statements, each with the exact bytes it occupies, and the gaps between them
/// (comments, blank lines) kept as the user typed them. Edits re-print only the statements they change
/// (`Printer::statement`) and splice them in: every other byte of the text stays as it was.

#include "core/common/Diagnostic.h"
#include "core/sql/Ast.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cdc::sql {

/// One statement of a pipeline text and the bytes it occupies.
struct ScriptStatement {
    Statement statement;
    std::size_t begin = 0; ///< offset of its first token
    std::size_t end = 0;   ///< past its terminating `;`, or past its last token when it has none
};

/// A change to one statement of a script: a new AST for it, or its removal.
struct StatementChange {
    std::size_t index = 0;
    std::optional<Statement> replacement; ///< empty: remove the statement
};

class PipelineScript {
public:
    /// Splits `text` into statements. A text that does not parse is refused with the parser's first
    /// error (file:line:col), so an edit never loses what the user typed.
    static Result<PipelineScript> parse(std::string text, const std::string& file = "pipeline.sql");

    const std::string& text() const { return m_text; }
    const std::vector<ScriptStatement>& statements() const { return m_statements; }

    /// The statement that defines the streaming table, view or materialized view `name` (case-insensitive,
    /// a `LIVE.` prefix ignored).
    std::optional<std::size_t> findDataset(std::string_view name) const;
    /// The statement that defines the flow `name`: CREATE FLOW, a streaming table whose FLOW AUTO CDC, FLOW
    /// INSERT or AS clause defines a flow named after it, or APPLY CHANGES INTO (named after its target).
    std::optional<std::size_t> findFlow(std::string_view name) const;

    /// The text with statement `index` re-printed from `statement`; all other bytes unchanged. A statement
    /// equal to the one there (the AST ignores positions and layout) leaves the text as it is.
    std::string replaced(std::size_t index, const Statement& statement) const;
    /// The text with `statement` printed at its end, after one blank line.
    std::string appended(const Statement& statement) const;
    /// The text without statement `index` and the blank line after it.
    std::string removed(std::size_t index) const;
    /// Several changes at once (each index at most once), then `additions` appended in order.
    std::string rewritten(std::vector<StatementChange> changes,
                          const std::vector<Statement>& additions = {}) const;

private:
    using Defines = std::optional<std::string> (*)(const Statement&);
    std::optional<std::size_t> findDefining(std::string_view name, Defines defines) const;

    std::string m_text;
    std::vector<ScriptStatement> m_statements;
};

/// The dataset (streaming table or view) a statement defines, as the pipeline model names it.
std::optional<std::string> definedDataset(const Statement& statement);
/// The flow a statement defines, as the pipeline model names it (see PipelineScript::findFlow).
std::optional<std::string> definedFlow(const Statement& statement);
/// The AUTO CDC specification of a statement: CREATE FLOW ... AS AUTO CDC, FLOW AUTO CDC, APPLY CHANGES.
AutoCdcSpec* autoCdcSpecOf(Statement& statement);
const AutoCdcSpec* autoCdcSpecOf(const Statement& statement);

} // namespace cdc::sql
