// Zoom is Scintilla's own (points added to every style), clamped and remembered in QSettings so a
// restart shows the same text size.
#include "ui/widgets/WorkbenchPanel.h"

#include "ui/widgets/CodeEditor.h"
#include "ui/widgets/FindReplaceBar.h"

#include <QAction>
#include <QSettings>
#include <QVBoxLayout>

#include <algorithm>

namespace cdc::ui {

namespace {
// Scintilla's zoom is points added to every style's size; beyond these the text is unreadable.
constexpr int kMinZoom = -8;
constexpr int kMaxZoom = 20;
} // namespace

WorkbenchPanel::WorkbenchPanel(QWidget* parent)
    : QWidget(parent), m_editor(new CodeEditor(this)), m_findBar(new FindReplaceBar(m_editor, this)) {
    m_layout = new QVBoxLayout(this);
    auto* layout = m_layout;
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

    // Scintilla binds only the keypad's + and -; the main keyboard's keys would type '=' and '+'.
    m_zoomIn = new QAction(tr("Zoom &In"), this);
    m_zoomIn->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Plus), QKeySequence(Qt::CTRL | Qt::Key_Equal)});
    m_zoomIn->setToolTip(tr("Larger text in the SQL editor (Ctrl++)"));
    m_zoomOut = new QAction(tr("Zoom &Out"), this);
    m_zoomOut->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Minus));
    m_zoomOut->setToolTip(tr("Smaller text in the SQL editor (Ctrl+-)"));
    m_zoomReset = new QAction(tr("&Reset Zoom"), this);
    m_zoomReset->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    m_zoomReset->setToolTip(tr("The SQL editor's normal text size (Ctrl+0)"));
    // The editor's zoom keys work where the editor is: the SCD2 timeline zooms its axis with the same keys.
    for (QAction* zoom : {m_zoomIn, m_zoomOut, m_zoomReset}) {
        zoom->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        addAction(zoom);
    }
    const auto zoomTo = [this](int zoom) {
        m_editor->zoomTo(std::clamp(zoom, kMinZoom, kMaxZoom));
        QSettings().setValue(QStringLiteral("editor/zoom"),
                             int(m_editor->SendScintilla(QsciScintilla::SCI_GETZOOM)));
    };
    connect(m_zoomIn, &QAction::triggered, this,
            [this, zoomTo] { zoomTo(int(m_editor->SendScintilla(QsciScintilla::SCI_GETZOOM)) + 1); });
    connect(m_zoomOut, &QAction::triggered, this,
            [this, zoomTo] { zoomTo(int(m_editor->SendScintilla(QsciScintilla::SCI_GETZOOM)) - 1); });
    connect(m_zoomReset, &QAction::triggered, this, [zoomTo] { zoomTo(0); });
    m_editor->zoomTo(
        std::clamp(QSettings().value(QStringLiteral("editor/zoom"), 0).toInt(), kMinZoom, kMaxZoom));
}

void WorkbenchPanel::addBanner(QWidget* banner) {
    m_layout->insertWidget(m_banners++, banner);
}

} // namespace cdc::ui
