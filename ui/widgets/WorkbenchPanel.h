#pragma once
/// The window's central widget. The editing actions live here rather than in MainWindow so the zoom
/// keys can be scoped to the editor: the SCD2 timeline zooms its axis with the same keys.

#include <QWidget>

class QAction;

class QVBoxLayout;

namespace cdc::ui {

class CodeEditor;
class FindReplaceBar;

/// The SQL workbench: the pipeline editor with its find / replace bar and the editing actions
/// (find, replace, toggle comment, zoom).
class WorkbenchPanel : public QWidget {
    Q_OBJECT
public:
    explicit WorkbenchPanel(QWidget* parent = nullptr);

    CodeEditor* editor() const { return m_editor; }
    /// Puts a banner (a NoticeBanner) over the editor; banners stack in the order added.
    void addBanner(QWidget* banner);
    FindReplaceBar* findBar() const { return m_findBar; }
    QAction* findAction() const { return m_find; }
    QAction* replaceAction() const { return m_replace; }
    QAction* findNextAction() const { return m_findNext; }
    QAction* toggleCommentAction() const { return m_toggleComment; }
    /// Editor text size: Ctrl++ (also Ctrl+=, the same key without Shift), Ctrl+-, Ctrl+0; remembered.
    QAction* zoomInAction() const { return m_zoomIn; }
    QAction* zoomOutAction() const { return m_zoomOut; }
    QAction* zoomResetAction() const { return m_zoomReset; }

private:
    QVBoxLayout* m_layout;
    int m_banners = 0;
    CodeEditor* m_editor;
    FindReplaceBar* m_findBar;
    QAction* m_find;
    QAction* m_replace;
    QAction* m_findNext;
    QAction* m_toggleComment;
    QAction* m_zoomIn;
    QAction* m_zoomOut;
    QAction* m_zoomReset;
};

} // namespace cdc::ui
