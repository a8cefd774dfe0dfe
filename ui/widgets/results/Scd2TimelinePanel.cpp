// The counts come from the model's lanes (ghost bars left out) rather than from the snapshot's rows,
// so they match what is drawn. The zoom keys are scoped to the panel: the SQL editor uses the same ones.
#include "ui/widgets/results/Scd2TimelinePanel.h"

#include "ui/model/results/ResultText.h"
#include "ui/model/results/Scd2TimelineModel.h"
#include "ui/widgets/results/ChangeLegend.h"
#include "ui/widgets/results/ResultIcons.h"
#include "ui/widgets/results/Scd2TimelineView.h"

#include <QAction>
#include <QToolBar>

namespace cdc::ui {

Scd2TimelinePanel::Scd2TimelinePanel(QWidget* parent)
    : ResultPanel(tr("No SCD type 2 target.\nA flow with STORED AS SCD TYPE 2 keeps every version of a key; "
                     "its history shows here after an update."),
                  parent),
      m_model(new Scd2TimelineModel(this)), m_view(new Scd2TimelineView(this)), m_zoomOut(new QAction(this)),
      m_zoomIn(new QAction(this)), m_zoomFit(new QAction(this)),
      m_legend(new ChangeLegend(ChangePalette::changes(), this)) {
    setObjectName(QStringLiteral("Scd2TimelinePanel"));
    m_view->setModel(m_model);
    m_view->setFrameShape(QFrame::NoFrame);
    setContent(m_view);

    const auto setUp = [this](QAction* action, const QIcon& icon, const QString& text, const QString& tip,
                              const QKeySequence& key, void (Scd2TimelineView::*slot)()) {
        action->setIcon(icon);
        action->setText(text);
        action->setToolTip(QStringLiteral("%1 (%2)").arg(tip, key.toString(QKeySequence::NativeText)));
        action->setShortcut(key);
        action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        addAction(action);
        toolBar()->addAction(action);
        connect(action, &QAction::triggered, m_view, slot);
    };
    setUp(m_zoomOut, resulticons::zoomOut(), tr("Zoom out"), tr("Zoom out of the sequence axis"),
          QKeySequence::ZoomOut, &Scd2TimelineView::zoomOut);
    setUp(m_zoomIn, resulticons::zoomIn(), tr("Zoom in"),
          tr("Zoom into the sequence axis; Ctrl+wheel zooms at the pointer"), QKeySequence::ZoomIn,
          &Scd2TimelineView::zoomIn);
    setUp(m_zoomFit, resulticons::zoomFit(), tr("Fit"), tr("Fit the whole history into the width"),
          QKeySequence(Qt::CTRL | Qt::Key_0), &Scd2TimelineView::zoomToFit);
    setFooterWidget(m_legend);

    connect(m_view, &Scd2TimelineView::zoomChanged, this, &Scd2TimelinePanel::updateZoomActions);
    connect(m_view, &Scd2TimelineView::versionActivated, this,
            [this](int row) { emit versionActivated(currentTarget(), row); });
    updateZoomActions();
}

void Scd2TimelinePanel::showSnapshot(const SharedSnapshot& snapshot) {
    m_model->setSnapshot(snapshot);
    int versions = 0;
    QMap<RowChange, int> counts;
    for (RowChange c : ChangePalette::changes())
        counts.insert(c, 0);
    for (const TimelineLane& lane : m_model->lanes())
        for (const TimelineBar& bar : lane.bars) {
            versions += !bar.ghost;
            if (bar.change != RowChange::None)
                ++counts[bar.change];
        }
    m_legend->setCounts(counts);
    setSummaryText(
        tr("update %1 · %2 · %3")
            .arg(snapshot->updateId)
            .arg(resulttext::countOf(m_model->lanes().size(), tr("key"), tr("keys")),
                 resulttext::countOf(versions, tr("version"), tr("versions"))) +
        (snapshot->sequenceType.isEmpty() ? QString() : tr(" · sequence %1").arg(snapshot->sequenceType)));
    updateZoomActions();
}

void Scd2TimelinePanel::clearSnapshot() {
    m_model->setSnapshot(emptySnapshot());
    m_legend->setCounts({}); // no update on show: no counts (they were the last update's)
    setSummaryText({});
    updateZoomActions();
}

void Scd2TimelinePanel::updateZoomActions() {
    const bool any = !m_model->lanes().isEmpty();
    m_zoomIn->setEnabled(any && m_view->zoom() < m_view->maximumZoom());
    m_zoomOut->setEnabled(any && m_view->zoom() > 1.0);
    m_zoomFit->setEnabled(any && m_view->zoom() > 1.0);
}

void Scd2TimelinePanel::selectRow(const QString& target, int row) {
    if (target.compare(currentTarget(), Qt::CaseInsensitive) != 0 && !selectTarget(target))
        return;
    m_view->selectRow(row);
}

} // namespace cdc::ui
