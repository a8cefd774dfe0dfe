#pragma once
/// The window's side of Python trust: a Python pipeline is a program, so opening one never runs it. A
/// banner over the editor says the graph is a preview and offers "Trust and Run File…"; the first run of an
/// update asks the same question. The answer is the project's (Project::trustPython), remembered for the
/// file when the user ticks the box.

#include <QObject>

class QAction;
class QWidget;

namespace cdc::ui {

class NoticeBanner;
class Project;

class PythonTrustController : public QObject {
    Q_OBJECT
public:
    PythonTrustController(Project* project, QWidget* window);

    /// Asks to trust the pipeline and runs it when the user agrees (the banner's button).
    QAction* trustAction() const { return m_trust; }
    /// Shown over the editor while the pipeline is Python and not trusted.
    NoticeBanner* banner() const { return m_banner; }

    /// True when the pipeline may run: it is SQL, it is trusted, or the user trusts it now (asked here).
    bool ensureTrusted();

signals:
    void statusMessage(const QString& message, int timeoutMs = 5000);

private:
    /// The question, as a modal message box (objectName "pythonTrustPrompt", its Trust button "trustButton").
    bool ask();
    void refresh();

    Project* m_project;
    QWidget* m_window;
    QAction* m_trust;
    NoticeBanner* m_banner;
};

} // namespace cdc::ui
