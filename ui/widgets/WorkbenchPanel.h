#pragma once
#include <QWidget>

class QAction;

namespace cdc::ui {

class CodeEditor;
class FindReplaceBar;

/// The SQL workbench: the pipeline editor with its find / replace bar and the editing actions
/// (find, replace, toggle comment, undo / redo of the text).
class WorkbenchPanel : public QWidget {
    Q_OBJECT
public:
    explicit WorkbenchPanel(QWidget* parent = nullptr);

    CodeEditor* editor() const { return m_editor; }
    FindReplaceBar* findBar() const { return m_findBar; }
    QAction* findAction() const { return m_find; }
    QAction* replaceAction() const { return m_replace; }
    QAction* findNextAction() const { return m_findNext; }
    QAction* toggleCommentAction() const { return m_toggleComment; }

private:
    CodeEditor* m_editor;
    FindReplaceBar* m_findBar;
    QAction* m_find;
    QAction* m_replace;
    QAction* m_findNext;
    QAction* m_toggleComment;
};

} // namespace cdc::ui
