#pragma once
/// The status bar's sign that the result views are being read off the GUI thread: a busy bar and a
/// Cancel button; Esc in the window cancels too, while the read runs.

#include <QWidget>

class QShortcut;
class QToolButton;

namespace cdc::ui {

class ResultsController;

class QueryProgress : public QWidget {
    Q_OBJECT
public:
    /// `window` receives the Esc shortcut.
    QueryProgress(ResultsController* results, QWidget* window);
    QToolButton* cancelButton() const { return m_cancel; }

private:
    void setLoading(bool loading);

    QToolButton* m_cancel;
    QShortcut* m_escape;
};

} // namespace cdc::ui
