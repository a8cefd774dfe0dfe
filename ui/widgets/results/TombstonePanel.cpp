#include "ui/widgets/results/TombstonePanel.h"

#include "ui/model/results/TombstoneModel.h"

#include <QHeaderView>
#include <QTableView>
#include <QToolBar>

namespace cdc::ui {

TombstonePanel::TombstonePanel(QWidget* parent)
    : ResultPanel(tr("No target yet.\nA delete leaves a tombstone here so that late, older events cannot "
                     "bring the row back — until garbage collection removes it."),
                  parent),
      m_model(new TombstoneModel(this)), m_view(new QTableView(this)) {
    setObjectName(QStringLiteral("TombstonePanel"));
    m_view->setObjectName(QStringLiteral("tombstoneView"));
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setWordWrap(false);
    m_view->setFrameShape(QFrame::NoFrame);
    m_view->horizontalHeader()->setStretchLastSection(false);
    m_view->horizontalHeader()->setHighlightSections(false);
    m_view->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 8);
    // Column widths from the rows in view: SCD2 keeps every delete, thousands of rows to measure otherwise.
    m_view->horizontalHeader()->setResizeContentsPrecision(0);
    setContent(m_view);
}

void TombstonePanel::setSimulatedNow(std::optional<qint64> now) { m_model->setSimulatedNow(now); }

void TombstonePanel::showSnapshot(const SharedSnapshot& snapshot) {
    m_model->setSnapshot(*snapshot);
    m_view->resizeColumnsToContents();
    for (int c = 0; c < m_model->columnCount(); ++c)
        m_view->setColumnWidth(c, std::clamp(m_view->columnWidth(c) + 16, 70, 320));
    if (m_model->rowCount() == 0)
        setSummaryText(tr("update %1 · no tombstones").arg(snapshot->updateId));
    else
        setSummaryText(m_model->collectedCount() > 0
                               ? tr("update %1 · %2 live · %3 collected by this update")
                                     .arg(snapshot->updateId)
                                     .arg(m_model->liveCount())
                                     .arg(m_model->collectedCount())
                               : tr("update %1 · %2 live").arg(snapshot->updateId).arg(m_model->liveCount()));
}

void TombstonePanel::clearSnapshot() {
    m_model->setSnapshot({});
    setSummaryText({});
}

} // namespace cdc::ui
