// Hidden unless a read runs off the GUI thread; the Esc shortcut exists only then, so that Esc keeps its
// other meanings (closing an editor, clearing a filter) the rest of the time.
#include "ui/widgets/QueryProgress.h"

#include "ui/widgets/ResultsController.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QShortcut>
#include <QToolButton>

namespace cdc::ui {

QueryProgress::QueryProgress(ResultsController* results, QWidget* window)
    : QWidget(window), m_cancel(new QToolButton(this)),
      m_escape(new QShortcut(QKeySequence(Qt::Key_Escape), window)) {
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
    m_escape->setEnabled(false);
    connect(m_cancel, &QToolButton::clicked, results, &ResultsController::cancelLoading);
    connect(m_escape, &QShortcut::activated, results, &ResultsController::cancelLoading);
    connect(results, &ResultsController::loadingChanged, this, &QueryProgress::setLoading);
    setLoading(results->isLoading());
}

void QueryProgress::setLoading(bool loading) {
    setVisible(loading);
    m_escape->setEnabled(loading);
}

} // namespace cdc::ui
