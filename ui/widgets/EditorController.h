#pragma once
/// The SQL editor as a view of the project's PipelineDocument, so MainWindow only wires it to the editor
/// and the Issues dock. The editor keeps no undo history of its own: what the user types goes to the
/// document as undo steps on the project's stack, and every other change of the document (undo, redo,
/// Format SQL, a graph edit) comes back into the editor as the smallest replacement, keeping the caret.

#include <QObject>

class QAction;

namespace cdc::ui {

class CodeEditor;
class IssueListModel;
class PipelineDocument;
class Project;

/// Keeps the editor and the document in step, paints the document's issues as squiggles and lists them,
/// feeds completion with the project's live table and column names, and formats the text on request.
class EditorController : public QObject {
    Q_OBJECT
public:
    EditorController(Project* project, CodeEditor* editor, IssueListModel* issues, QObject* parent = nullptr);

    QAction* formatAction() const { return m_format; }
    PipelineDocument* document() const;

signals:
    /// The document's issues were shown anew (after a parse, a run, or a change of the outdated targets).
    void parsed(int errors, int warnings);
    void statusMessage(const QString& message);

private:
    /// The editor and its actions follow the pipeline's language (a new project may change it).
    void showLanguage();
    /// The document's text into the editor as one replacement of what differs.
    void showDocumentText();
    void publish();
    void refreshCompletion();
    void formatSql();

    Project* m_project;
    CodeEditor* m_editor;
    IssueListModel* m_issues;
    QAction* m_format;
    bool m_showing = false; ///< the editor is being changed to match the document, not typed into
};

} // namespace cdc::ui
