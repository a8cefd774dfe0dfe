#pragma once
/// The status bar's sign that the result views are being read off the GUI thread: a busy bar and a
/// Cancel button; Esc in the window cancels too, while the read runs.

#include <QWidget>

class QToolButton;

namespace cdc::ui {

class ResultsController;

class QueryProgress : public QWidget {
    Q_OBJECT
public:
    /// `window` receives the Esc shortcut.
    QueryProgress(ResultsController* results, QWidget* window);
    QToolButton* cancelButton() const { return m_cancel; }

protected:
    /// Esc pressed anywhere in the window while the read runs.
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void setLoading(bool loading);

    ResultsController* m_results;
    QWidget* m_window;
    QToolButton* m_cancel;
};

} // namespace cdc::ui
