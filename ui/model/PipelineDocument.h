#pragma once
/// The pipeline's one home: its text, the parse of that text, and every issue found in it, owned by the
/// project. The SQL editor and the graph designer are two views of it; both change it only through
/// commands on the project's undo stack, so one Ctrl+Z undoes the last thing done, wherever it was done.

#include "core/common/Diagnostic.h"
#include "core/engine/UpdateTypes.h"
#include "core/pipeline/Pipeline.h"
#include "core/sql/SqlApi.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>

#include <memory>
#include <vector>

class QTimer;
class QUndoStack;

namespace cdc::storage {
class Database;
}

namespace cdc::ui {

class Project;

/// What the pipeline text is written in. Fixed for a project's life: set when it is created or opened.
enum class PipelineLanguage { Sql, Python };

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
///
/// A Python pipeline is a program, so what it declares is known only by running it: while the project does
/// not trust it (Project::isPythonTrusted) the parse is the static reader's preview, which never runs
/// anything and cannot read every file (what it cannot read is a warning, not an error: running will tell);
/// once trusted, each parse also runs the file in a worker process off the GUI thread (`runPending()`), and
/// its result — the real graph, or the error at its .py line — replaces the preview.
class PipelineDocument : public QObject {
    Q_OBJECT
public:
    static constexpr int kDebounceMs = 350;
    static constexpr int kTypingPauseMs = 1500;
    /// The file name diagnostics carry (kPythonFileName for a Python pipeline).
    static const char* const kFileName;
    static const char* const kPythonFileName;

    PipelineDocument(Project* project, QUndoStack* undoStack, QObject* parent = nullptr);
    ~PipelineDocument() override;

    QString text() const { return m_text; }
    /// The user typed: `newText` is the editor's whole text. Pushed as (or merged into) an "Edit SQL" step.
    void type(const QString& newText);
    /// Replaces the text as one undo step named `description`. No step when the text is the same.
    void replace(const QString& newText, const QString& description);
    /// A new project's text: no undo step, parsed at once.
    void reset(const QString& text, PipelineLanguage language = PipelineLanguage::Sql);
    PipelineLanguage language() const { return m_language; }
    bool isPython() const { return m_language == PipelineLanguage::Python; }
    /// The file name the text's diagnostics carry.
    std::string fileName() const { return isPython() ? kPythonFileName : kFileName; }

    /// Parses now instead of after the debounce delay (before a run, for instance).
    void reparseNow();
    bool parsePending() const;
    /// A trusted Python file is being run to learn its pipeline.
    bool runPending() const;
    /// Blocks until the pending run (if any) has finished and its result is applied (tests, before a run).
    void waitForRun();
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
    /// A trusted Python file started (true) or finished (false) running to learn its pipeline.
    void runningChanged(bool running);

private:
    /// Re-reads the outdated targets; true when they changed.
    bool recheckOutdated();
    /// Replaces the parse with `parse`, validates it and tells the views.
    void applyParse(sql::PipelineParse parse);
    /// A Python parse: the static preview now, and a real run when the project trusts the file.
    sql::PipelineParse previewPython(const std::string& text) const;
    void startPythonRun(const std::string& text);
    /// Applies a finished run (the watcher's finished signal, or waitForRun).
    void takePythonRun();

    struct PythonRun;

    Project* m_project;
    QUndoStack* m_undo;
    QTimer* m_debounce;
    QString m_text;
    pipeline::Pipeline m_pipeline;
    std::vector<Diagnostic> m_parseDiagnostics;
    std::vector<Diagnostic> m_runtimeDiagnostics;
    std::vector<engine::OutdatedTarget> m_outdated;
    QElapsedTimer m_lastKeystroke; ///< for merging keystrokes into one typing step
    PipelineLanguage m_language = PipelineLanguage::Sql;
    std::unique_ptr<PythonRun> m_run;
};

} // namespace cdc::ui
