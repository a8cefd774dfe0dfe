// SCD2 keeps every delete as a tombstone, so columns are measured on the rows in view only; a clock
// change widens them because a status may now read "Due for GC".
#include "ui/widgets/results/TombstonePanel.h"

#include "ui/model/results/TombstoneModel.h"
#include "ui/widgets/GridFilterBox.h"
#include "ui/widgets/GridTools.h"

#include <QHeaderView>
#include <QTableView>
#include <QToolBar>

namespace cdc::ui {

TombstonePanel::TombstonePanel(QWidget* parent)
    : ResultPanel(tr("No target yet.\nA delete leaves a tombstone here so that late, older events cannot "
                     "bring the row back — until garbage collection removes it."),
                  parent),
      m_model(new TombstoneModel(this)), m_view(new QTableView(this)), m_grid(new GridTools(m_view, m_model)),
      m_filter(new GridFilterBox(this)) {
    setObjectName(QStringLiteral("TombstonePanel"));
    m_view->setObjectName(QStringLiteral("tombstoneView"));
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setWordWrap(false);
    m_view->setFrameShape(QFrame::NoFrame);
    m_view->horizontalHeader()->setStretchLastSection(true); // the status: room for "Collected in update 12"
    m_view->horizontalHeader()->setHighlightSections(false);
    m_view->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 8);
    // Column widths from the rows in view: SCD2 keeps every delete, thousands of rows to measure otherwise.
    m_view->horizontalHeader()->setResizeContentsPrecision(0);
    setContent(m_view);
    addToolBarStretch();
    toolBar()->addWidget(m_filter);
    m_filter->setGrid(m_grid);
}

void TombstonePanel::setSimulatedNow(std::optional<qint64> now) {
    m_model->setSimulatedNow(now);
    m_grid->widenColumns(); // "Live" may now read "Due for GC"
}

void TombstonePanel::showSnapshot(const SharedSnapshot& snapshot) {
    m_model->setSnapshot(*snapshot);
    m_grid->setExportName(snapshot->target + QStringLiteral("_tombstones"));
    m_grid->fitColumns();
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
