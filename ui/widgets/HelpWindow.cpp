// The contents tree is read from the pages themselves (the index's links, then each page's h2 anchors),
// so adding a page or section needs no list here. Only colours are set in code; layout is in help.css.
#include "ui/widgets/HelpWindow.h"

#include "ui/model/AppInfo.h"
#include "ui/model/ThemeColors.h"

#include <QAction>
#include <QEvent>
#include <QFile>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QSplitter>
#include <QStyle>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QToolBar>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <memory>

namespace cdc::ui {

namespace {
std::unique_ptr<QTextDocument> loadPage(const QUrl& url) {
    auto doc = std::make_unique<QTextDocument>();
    QFile file(QLatin1Char(':') + url.path());
    if (file.open(QIODevice::ReadOnly))
        doc->setHtml(QString::fromUtf8(file.readAll()));
    return doc;
}

QUrl withoutFragment(QUrl url) {
    url.setFragment(QString());
    return url;
}

/// Shift+Enter in the find field searches backwards (QLineEdit's returnPressed does not tell).
class FindKeys : public QObject {
public:
    explicit FindKeys(HelpWindow* window) : QObject(window), m_window(window) {}
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::KeyPress) {
            auto* key = static_cast<QKeyEvent*>(event);
            if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
                m_window->findInPage(m_window->findField()->text(), key->modifiers() & Qt::ShiftModifier);
                return true;
            }
        }
        return QObject::eventFilter(watched, event);
    }

private:
    HelpWindow* m_window;
};
} // namespace

HelpWindow::HelpWindow(QWidget* parent)
    : QWidget(parent, Qt::Window), m_browser(new QTextBrowser(this)), m_contents(new QTreeWidget(this)),
      m_find(new QLineEdit(this)), m_findStatus(new QLabel(this)) {
    setObjectName(QStringLiteral("helpWindow"));
    setWindowTitle(tr("%1 Help").arg(AppInfo::name()));
    m_browser->setObjectName(QStringLiteral("helpBrowser"));
    m_browser->setOpenLinks(true);
    m_browser->setOpenExternalLinks(false);
    m_browser->setSearchPaths({QStringLiteral(":/help")});
    m_browser->document()->setDocumentMargin(14);
    m_contents->setObjectName(QStringLiteral("helpContents"));
    m_contents->setHeaderHidden(true);
    m_contents->setRootIsDecorated(true);

    auto* toolBar = new QToolBar(this);
    toolBar->setIconSize(QSize(16, 16));
    toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_back = toolBar->addAction(style()->standardIcon(QStyle::SP_ArrowBack), tr("Back"));
    m_back->setShortcut(QKeySequence::Back);
    m_back->setToolTip(tr("Back (%1)").arg(m_back->shortcut().toString(QKeySequence::NativeText)));
    m_forward = toolBar->addAction(style()->standardIcon(QStyle::SP_ArrowForward), tr("Forward"));
    m_forward->setShortcut(QKeySequence::Forward);
    m_forward->setToolTip(tr("Forward (%1)").arg(m_forward->shortcut().toString(QKeySequence::NativeText)));
    QAction* home = toolBar->addAction(
        QIcon::fromTheme(QStringLiteral("go-home"), style()->standardIcon(QStyle::SP_DirHomeIcon)),
        tr("Contents"));
    home->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Home));
    home->setToolTip(tr("The contents page (Alt+Home)"));
    toolBar->addSeparator();
    m_find->setPlaceholderText(tr("Find in page"));
    m_find->setClearButtonEnabled(true);
    m_find->setMaximumWidth(260);
    m_find->installEventFilter(new FindKeys(this));
    toolBar->addWidget(m_find);
    QAction* previous = toolBar->addAction(style()->standardIcon(QStyle::SP_ArrowUp), tr("Previous Match"));
    previous->setShortcut(QKeySequence::FindPrevious);
    QAction* next = toolBar->addAction(style()->standardIcon(QStyle::SP_ArrowDown), tr("Next Match"));
    next->setShortcut(QKeySequence::FindNext);
    m_findStatus->setContentsMargins(8, 0, 8, 0);
    toolBar->addWidget(m_findStatus);
    auto* focusFind = new QAction(this);
    focusFind->setShortcut(QKeySequence::Find);
    addAction(focusFind);

    auto* splitter = new QSplitter(this);
    splitter->addWidget(m_contents);
    splitter->addWidget(m_browser);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({260, 740});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(toolBar);
    layout->addWidget(splitter, 1);

    connect(m_back, &QAction::triggered, m_browser, &QTextBrowser::backward);
    connect(m_forward, &QAction::triggered, m_browser, &QTextBrowser::forward);
    connect(home, &QAction::triggered, this, [this] { m_browser->setSource(homeUrl()); });
    connect(m_browser, &QTextBrowser::backwardAvailable, m_back, &QAction::setEnabled);
    connect(m_browser, &QTextBrowser::forwardAvailable, m_forward, &QAction::setEnabled);
    connect(m_browser, &QTextBrowser::sourceChanged, this, [this](const QUrl& url) {
        const QString title = m_browser->documentTitle();
        setWindowTitle(title.isEmpty() ? tr("%1 Help").arg(AppInfo::name())
                                       : tr("%1 — %2 Help").arg(title, AppInfo::name()));
        m_findStatus->clear();
        selectContentsItem(url);
    });
    connect(m_contents, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        if (item && item->data(0, Qt::UserRole).toUrl() != m_browser->source())
            m_browser->setSource(item->data(0, Qt::UserRole).toUrl());
    });
    connect(m_find, &QLineEdit::textEdited, this, [this](const QString& text) {
        // Incremental: every keystroke searches again from the top of the page.
        m_browser->moveCursor(QTextCursor::Start);
        findInPage(text);
    });
    connect(next, &QAction::triggered, this, [this] { findInPage(m_find->text()); });
    connect(previous, &QAction::triggered, this, [this] { findInPage(m_find->text(), true); });
    connect(focusFind, &QAction::triggered, this, [this] {
        m_find->setFocus();
        m_find->selectAll();
    });

    m_back->setEnabled(false);
    m_forward->setEnabled(false);
    applyColours();
    buildContents();
    resize(1040, 740);
}

QUrl HelpWindow::homeUrl() {
    return QUrl(QStringLiteral("qrc:/help/index.html"));
}

QList<QUrl> HelpWindow::pages() {
    QList<QUrl> out{homeUrl()};
    const auto index = loadPage(homeUrl());
    for (QTextBlock block = index->begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QString href = it.fragment().charFormat().anchorHref();
            const QUrl page = withoutFragment(homeUrl().resolved(QUrl(href)));
            if (!href.isEmpty() && page.scheme() == QLatin1String("qrc") && !out.contains(page))
                out << page;
        }
    return out;
}

void HelpWindow::buildContents() {
    for (const QUrl& page : pages()) {
        const auto doc = loadPage(page);
        auto* item = new QTreeWidgetItem(m_contents, {doc->metaInformation(QTextDocument::DocumentTitle)});
        item->setData(0, Qt::UserRole, page);
        // Sections are the h2 headings, found by the anchor each one carries (id="...").
        for (QTextBlock block = doc->begin(); block.isValid(); block = block.next()) {
            if (block.blockFormat().headingLevel() != 2)
                continue;
            for (auto it = block.begin(); !it.atEnd(); ++it)
                if (const QStringList names = it.fragment().charFormat().anchorNames(); !names.isEmpty()) {
                    QUrl section = page;
                    section.setFragment(names.first());
                    auto* child = new QTreeWidgetItem(item, {block.text().trimmed()});
                    child->setData(0, Qt::UserRole, section);
                    break;
                }
        }
    }
}

void HelpWindow::selectContentsItem(const QUrl& url) {
    QTreeWidgetItem* best = nullptr;
    for (int i = 0; i < m_contents->topLevelItemCount() && !best; ++i) {
        QTreeWidgetItem* page = m_contents->topLevelItem(i);
        if (page->data(0, Qt::UserRole).toUrl() != withoutFragment(url))
            continue;
        best = page;
        for (int c = 0; c < page->childCount(); ++c)
            if (page->child(c)->data(0, Qt::UserRole).toUrl() == url)
                best = page->child(c);
    }
    const QSignalBlocker block(m_contents);
    m_contents->setCurrentItem(best);
    if (best && best->parent())
        best->parent()->setExpanded(true);
}

void HelpWindow::showTopic(const QUrl& url) {
    if (m_browser->source() == url)
        m_browser->scrollToAnchor(url.fragment());
    else
        m_browser->setSource(url);
    show();
    raise();
    activateWindow();
}

bool HelpWindow::findInPage(const QString& text, bool backward) {
    if (text.isEmpty()) {
        m_findStatus->clear();
        return false;
    }
    const QTextDocument::FindFlags flags =
        backward ? QTextDocument::FindBackward : QTextDocument::FindFlags();
    bool found = m_browser->find(text, flags);
    if (!found) {
        // Wrap around, as the editor's find bar does.
        m_browser->moveCursor(backward ? QTextCursor::End : QTextCursor::Start);
        found = m_browser->find(text, flags);
    }
    m_findStatus->setText(found ? QString() : tr("Not found"));
    return found;
}

void HelpWindow::applyColours() {
    using namespace themecolors;
    const QPalette pal = palette();
    const QColor base = pal.color(QPalette::Base), text = pal.color(QPalette::Text);
    // Only colours live here; layout is in help.css, which the pages link.
    const QString css =
        QStringLiteral("pre, code { background-color: %1; }\n"
                       "pre { border: 1px solid %2; }\n"
                       "th { background-color: %3; }\n"
                       "table { border-color: %2; }\n"
                       "kbd { background-color: %4; }\n"
                       ".note { background-color: %5; }\n"
                       ".muted { color: %6; }\n")
            .arg(mix(base, text, 0.06).name(), mix(base, text, 0.18).name(), mix(base, text, 0.09).name(),
                 mix(base, text, 0.12).name(), mix(base, pal.color(QPalette::Highlight), 0.12).name(),
                 mutedText(pal).name());
    m_browser->document()->setDefaultStyleSheet(css);
    QPalette status = m_findStatus->palette();
    status.setColor(QPalette::WindowText, error(pal));
    m_findStatus->setPalette(status);
}

void HelpWindow::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyColours();
        // The document keeps the colours it was laid out with: lay the page out again.
        if (!m_browser->source().isEmpty())
            m_browser->reload();
    }
}

} // namespace cdc::ui
