#pragma once
/// Everything about the pipeline text, so MainWindow only wires it to the editor and the Issues dock.
/// The text keeps Scintilla's own undo history; the project learns it only for saving and "modified".

#include "core/common/Diagnostic.h"
#include "core/engine/Engine.h"
#include "core/pipeline/Pipeline.h"

#include <QObject>

#include <vector>

class QAction;
class QTimer;

namespace cdc::ui {

class CodeEditor;
class IssueListModel;
class Project;

/// Keeps the pipeline text, its parse and the issues list in step: re-parses (and validates
/// against the catalog) shortly after typing stops, paints squiggles, feeds completion with the
/// project's live table and column names, and formats the text on request.
class EditorController : public QObject {
    Q_OBJECT
public:
    EditorController(Project* project, CodeEditor* editor, IssueListModel* issues, QObject* parent = nullptr);

    QAction* formatAction() const { return m_format; }
    /// Parses now instead of after the debounce delay.
    void reparseNow();
    const pipeline::Pipeline& pipeline() const { return m_pipeline; }
    bool hasErrors() const;
    /// What the last run found (its updates' warnings, the error it stopped on) joins the parser's
    /// diagnostics in the list and the squiggles, each said once, until the next run.
    void setRuntimeDiagnostics(const std::vector<Diagnostic>& diagnostics);
    /// How many distinct warnings the last run reported.
    int runtimeWarningCount() const;
    /// The stored targets the current pipeline would compute differently (engine::outdatedTargets), each
    /// also a warning in the issues list; rechecked after every parse and every change of the data.
    const std::vector<engine::OutdatedTarget>& outdatedTargets() const { return m_outdated; }
    static constexpr int kDebounceMs = 350;

signals:
    void parsed(int errors, int warnings);
    /// The list of outdated targets changed (see outdatedTargets()).
    void outdatedChanged();
    void statusMessage(const QString& message);

private:
    void publish();
    /// Re-asks the engine which targets are out of date; publishes when the answer changed.
    void refreshOutdated(bool publishAlways);
    void refreshCompletion();
    void formatSql();

    Project* m_project;
    CodeEditor* m_editor;
    IssueListModel* m_issues;
    QTimer* m_debounce;
    QAction* m_format;
    pipeline::Pipeline m_pipeline;
    std::vector<Diagnostic> m_parseDiagnostics;
    std::vector<Diagnostic> m_runtimeDiagnostics;
    std::vector<engine::OutdatedTarget> m_outdated;
};

} // namespace cdc::ui
