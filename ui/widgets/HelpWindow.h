#pragma once
/// A QTextBrowser over pages compiled into the binary rather than Qt Assistant or a web view: the guide
/// is a handful of static pages, so help works offline and needs no extra runtime package.

#include <QList>
#include <QUrl>
#include <QWidget>

class QAction;
class QLabel;
class QLineEdit;
class QTextBrowser;
class QTreeWidget;
class QTreeWidgetItem;

namespace cdc::ui {

/// The user guide: HTML pages compiled into the application (docs/guide, `qrc:/help/`), read
/// offline in a QTextBrowser with back / forward / home, a contents tree of every page and its
/// sections, and find in page (Ctrl+F, Enter for the next match, Shift+Enter for the previous).
/// Colours come from the palette, so the guide follows the light and dark themes.
class HelpWindow : public QWidget {
    Q_OBJECT
public:
    explicit HelpWindow(QWidget* parent = nullptr);

    /// The contents page, `qrc:/help/index.html`.
    static QUrl homeUrl();
    /// Every page of the guide in contents order: the home page, then the pages it links to.
    static QList<QUrl> pages();

    /// Shows `url` (a page, optionally with `#section`) and brings the window to the front.
    void showTopic(const QUrl& url);
    /// Finds `text` in the shown page from the current match on, wrapping at the end; false when absent.
    bool findInPage(const QString& text, bool backward = false);

    QTextBrowser* browser() const { return m_browser; }
    QTreeWidget* contentsTree() const { return m_contents; }
    QLineEdit* findField() const { return m_find; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void buildContents();
    void selectContentsItem(const QUrl& url);
    void applyColours();

    QTextBrowser* m_browser;
    QTreeWidget* m_contents;
    QLineEdit* m_find;
    QLabel* m_findStatus;
    QAction* m_back = nullptr;
    QAction* m_forward = nullptr;
};

} // namespace cdc::ui
