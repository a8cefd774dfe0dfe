#pragma once
/// F1 opens the page about where the user is, because the docks' subjects (tombstones, SCD2
/// versions, the update log) are exactly what a newcomer has to look up.

#include <QObject>
#include <QPointer>
#include <QUrl>

class QAction;
class QMainWindow;
class QWidget;

namespace cdc::ui {

class HelpWindow;

/// Help › User Guide (F1): opens the user guide at the page about the part of the window the user is
/// working in — the focused widget, or else the one under the mouse.
class HelpController : public QObject {
    Q_OBJECT
public:
    explicit HelpController(QMainWindow* window);

    QAction* userGuideAction() const { return m_userGuide; }
    /// The help window, created on first use.
    HelpWindow* helpWindow();

    /// The guide page (and section) about `widget`: the first widget up its parent chain whose
    /// objectName is a known part of the main window (a dock, the SQL editor) decides; anything in the
    /// central workbench is the SQL page. Null when nothing matches.
    QUrl topicFor(const QWidget* widget) const;
    /// Shows the page for the focused widget, else for the widget under the mouse, else the contents.
    void showContextHelp();

private:
    QMainWindow* m_window;
    QAction* m_userGuide;
    QPointer<HelpWindow> m_help;
};

} // namespace cdc::ui
