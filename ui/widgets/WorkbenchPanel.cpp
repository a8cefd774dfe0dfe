#include "ui/widgets/WorkbenchPanel.h"

#include "ui/widgets/CodeEditor.h"
#include "ui/widgets/FindReplaceBar.h"

#include <QAction>
#include <QVBoxLayout>

namespace cdc::ui {

WorkbenchPanel::WorkbenchPanel(QWidget* parent)
    : QWidget(parent), m_editor(new CodeEditor(this)), m_findBar(new FindReplaceBar(m_editor, this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_editor, 1);
    layout->addWidget(m_findBar);
    m_editor->setObjectName(QStringLiteral("pipelineEditor"));

    m_find = new QAction(QIcon::fromTheme(QStringLiteral("edit-find")), tr("&Find…"), this);
    m_find->setShortcut(QKeySequence::Find);
    m_find->setToolTip(tr("Find in the pipeline SQL (Ctrl+F)"));
    m_replace = new QAction(QIcon::fromTheme(QStringLiteral("edit-find-replace")), tr("&Replace…"), this);
    m_replace->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_H));
    m_replace->setToolTip(tr("Find and replace in the pipeline SQL (Ctrl+H)"));
    m_findNext = new QAction(tr("Find &Next"), this);
    m_findNext->setShortcut(QKeySequence::FindNext);
    m_toggleComment = new QAction(tr("Toggle &Comment"), this);
    m_toggleComment->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Slash));
    m_toggleComment->setToolTip(tr("Comment or uncomment the selected lines (Ctrl+/)"));
    connect(m_find, &QAction::triggered, m_findBar, &FindReplaceBar::showFind);
    connect(m_replace, &QAction::triggered, m_findBar, &FindReplaceBar::showReplace);
    connect(m_findNext, &QAction::triggered, m_findBar, [this] { m_findBar->findNext(true); });
    connect(m_toggleComment, &QAction::triggered, m_editor, &CodeEditor::toggleComment);
}

} // namespace cdc::ui
