// Hidden unless a read runs off the GUI thread. Esc is caught by an application event filter that exists
// only then: a window shortcut would lose to whichever widget has the focus and wants Esc itself (the editor
// closes its completion list with it), and to a window that is not active; the rest of the time Esc keeps
// those meanings.
#include "ui/widgets/QueryProgress.h"

#include "ui/widgets/ResultsController.h"

#include <QApplication>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QProgressBar>
#include <QToolButton>

namespace cdc::ui {

QueryProgress::QueryProgress(ResultsController* results, QWidget* window)
    : QWidget(window), m_results(results), m_window(window), m_cancel(new QToolButton(this)) {
    setObjectName(QStringLiteral("queryProgress"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* label = new QLabel(tr("Reading the target tables…"), this);
    auto* bar = new QProgressBar(this);
    bar->setRange(0, 0); // how far a query is SQLite cannot tell: a busy bar
    bar->setMaximumWidth(120);
    bar->setTextVisible(false);
    m_cancel->setObjectName(QStringLiteral("queryCancelButton"));
    m_cancel->setText(tr("Cancel"));
    m_cancel->setToolTip(tr("Stop reading the target tables (Esc)"));
    layout->addWidget(label);
    layout->addWidget(bar);
    layout->addWidget(m_cancel);
    connect(m_cancel, &QToolButton::clicked, results, &ResultsController::cancelLoading);
    connect(results, &ResultsController::loadingChanged, this, &QueryProgress::setLoading);
    setLoading(results->isLoading());
}

void QueryProgress::setLoading(bool loading) {
    setVisible(loading);
    if (loading)
        qApp->installEventFilter(this);
    else
        qApp->removeEventFilter(this);
}

bool QueryProgress::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::KeyPress && watched->isWidgetType() &&
        static_cast<QWidget*>(watched)->window() == m_window) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Escape && key->modifiers() == Qt::NoModifier) {
            m_results->cancelLoading();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace cdc::ui
