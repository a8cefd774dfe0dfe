#pragma once
/// The pipeline's one home: its text, the parse of that text, and every issue found in it, owned by the
/// project. The SQL editor and the graph designer are two views of it; both change it only through
/// commands on the project's undo stack, so one Ctrl+Z undoes the last thing done, wherever it was done.

#include "core/common/Diagnostic.h"
#include "core/engine/UpdateTypes.h"
#include "core/pipeline/Pipeline.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>

#include <vector>

class QTimer;
class QUndoStack;

namespace cdc::storage {
class Database;
}

namespace cdc::ui {

class Project;

/// One text change as the editor reports it: `removed` bytes at `position` replaced by `inserted`.
/// Positions are QString indexes (the document compares strings, not bytes).
struct TextSplice {
    qsizetype position = 0;
    QString removed;
    QString inserted;
    /// The smallest splice turning `before` into `after` (common prefix and suffix left out).
    static TextSplice between(const QString& before, const QString& after);
};

/// The pipeline document.
///
/// Text changes are undo commands: typing (`type`) merges keystrokes into one step while they continue
/// where the last one ended and follow it within kTypingPauseMs; every other change (`replace`: Format
/// SQL, a graph or inspector edit) is its own step named by its description. Undo and redo restore the
/// text exactly.
///
/// The text is re-parsed kDebounceMs after typing stops and at once after any other change; the parse is
/// validated against the project's catalog, and the targets it would compute differently from what is
/// stored are reported (engine::outdatedTargets). `issues()` merges the parser's, the validator's, the
/// outdated targets' and the last run's diagnostics, each said once.
class PipelineDocument : public QObject {
    Q_OBJECT
public:
    static constexpr int kDebounceMs = 350;
    static constexpr int kTypingPauseMs = 1500;
    /// The file name diagnostics carry.
    static const char* const kFileName;

    PipelineDocument(Project* project, QUndoStack* undoStack, QObject* parent = nullptr);

    QString text() const { return m_text; }
    /// The user typed: `newText` is the editor's whole text. Pushed as (or merged into) an "Edit SQL" step.
    void type(const QString& newText);
    /// Replaces the text as one undo step named `description`. No step when the text is the same.
    void replace(const QString& newText, const QString& description);
    /// A new project's text: no undo step, parsed at once.
    void reset(const QString& text);

    /// Parses now instead of after the debounce delay (before a run, for instance).
    void reparseNow();
    bool parsePending() const;
    const pipeline::Pipeline& pipeline() const { return m_pipeline; }
    /// Errors of the parse or of validation: a pipeline with errors does not run.
    bool hasErrors() const;
    /// Everything to show: parse and validation, outdated targets, the last run.
    std::vector<Diagnostic> issues() const;

    /// What the last run found (its updates' warnings, the error it stopped on) joins the issues, each
    /// said once, until the text changes or the next run.
    void setRuntimeDiagnostics(const std::vector<Diagnostic>& diagnostics);
    int runtimeWarningCount() const;
    /// The stored targets the current pipeline would compute differently, rechecked after each parse and
    /// each change of the data.
    const std::vector<engine::OutdatedTarget>& outdatedTargets() const { return m_outdated; }
    void refreshOutdated();

    /// Called by the text command only: makes `text` current and re-parses it at once.
    void applyCommandText(const QString& text);

signals:
    /// The text changed (typing, a command, undo, redo or a new project). Views showing another text
    /// update to this one.
    void textChanged();
    /// A parse finished or the issues changed: pipeline(), issues() and hasErrors() are new.
    void parsed();
    /// The list of outdated targets changed.
    void outdatedChanged();

private:
    /// Re-reads the outdated targets; true when they changed.
    bool recheckOutdated();

    Project* m_project;
    QUndoStack* m_undo;
    QTimer* m_debounce;
    QString m_text;
    pipeline::Pipeline m_pipeline;
    std::vector<Diagnostic> m_parseDiagnostics;
    std::vector<Diagnostic> m_runtimeDiagnostics;
    std::vector<engine::OutdatedTarget> m_outdated;
    QElapsedTimer m_lastKeystroke; ///< for merging keystrokes into one typing step
};

} // namespace cdc::ui
