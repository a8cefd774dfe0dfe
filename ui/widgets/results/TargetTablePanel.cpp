#include "ui/widgets/results/TargetTablePanel.h"

#include "ui/model/results/ChangeFeedModel.h"
#include "ui/model/results/ResultText.h"
#include "ui/model/results/TargetRowsModel.h"
#include "ui/widgets/results/ChangeLegend.h"
#include "ui/widgets/results/ResultIcons.h"

#include <QAction>
#include <QHeaderView>
#include <QStackedWidget>
#include <QTableView>
#include <QToolBar>

namespace cdc::ui {

TargetTablePanel::TargetTablePanel(QWidget* parent)
    : ResultPanel(tr("No target table yet.\nDeliver events and run an update to see what the targets hold."), parent),
      m_rows(new TargetRowsModel(this)), m_feed(new ChangeFeedModel(this)), m_rowsView(makeView()),
      m_feedView(makeView()), m_views(new QStackedWidget(this)), m_feedAction(new QAction(this)),
      m_legend(new ChangeLegend(ChangePalette::changes(), this)) {
    setObjectName(QStringLiteral("TargetTablePanel"));
    m_rowsView->setModel(m_rows);
    m_feedView->setModel(m_feed);
    m_rowsView->setObjectName(QStringLiteral("targetRowsView"));
    m_feedView->setObjectName(QStringLiteral("changeFeedView"));
    m_views->addWidget(m_rowsView);
    m_views->addWidget(m_feedView);
    setContent(m_views);

    m_feedAction->setText(tr("Change feed"));
    m_feedAction->setIcon(resulticons::changeFeed());
    m_feedAction->setCheckable(true);
    m_feedAction->setToolTip(tr("Show the change data feed of the shown update, as table_changes() returns it"));
    m_feedAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_F6));
    m_feedAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addAction(m_feedAction);
    toolBar()->addAction(m_feedAction);
    toolBar()->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    setFooterWidget(m_legend);

    connect(m_feedAction, &QAction::toggled, this, &TargetTablePanel::setChangeFeedVisible);
    connect(m_rowsView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (current.isValid() && !m_selectingRow)
                    emit rowSelected(currentTarget(), current.row());
            });
}

QTableView* TargetTablePanel::makeView() {
    auto* view = new QTableView(this);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setWordWrap(false);
    view->setFrameShape(QFrame::NoFrame);
    view->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    view->horizontalHeader()->setStretchLastSection(false);
    view->horizontalHeader()->setHighlightSections(false);
    view->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 8);
    view->verticalHeader()->setDefaultAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return view;
}

void TargetTablePanel::showSnapshot(const SharedSnapshot& snapshot) {
    // After an update of the shown target the rows model patches itself: the columns keep their widths.
    const quint64 shown = m_rows->snapshot().serial;
    const bool patched = shown != 0 && (snapshot->serial == shown || snapshot->patch.baseSerial == shown);
    m_rows->setSnapshot(snapshot);
    m_feed->setSnapshot(*snapshot);
    if (patched)
        widenColumns(m_rowsView); // longer values may have arrived; narrowing would make columns jump
    else
        fitColumns(m_rowsView);
    if (isChangeFeedVisible())
        fitColumns(m_feedView); // else when it is shown: sizing thousands of hidden changes is wasted
    else
        m_feedNeedsFit = true;
    updateSummary();
}

namespace {
/// Content width (what resizeColumnToContents measures) plus a margin, within bounds.
int fittedWidth(QTableView* view, int column) {
    view->resizeColumnToContents(column);
    return std::clamp(view->columnWidth(column) + 12, 60, 320);
}
} // namespace

void TargetTablePanel::widenColumns(QTableView* view) {
    // Only the rows in view: measuring the default 1,000 rows of a large target costs more than the patch.
    QHeaderView* header = view->horizontalHeader();
    const int precision = header->resizeContentsPrecision();
    header->setResizeContentsPrecision(0);
    for (int c = 0; c < view->model()->columnCount(); ++c) {
        const int old = view->columnWidth(c);
        view->setColumnWidth(c, std::max(old, fittedWidth(view, c)));
    }
    header->setResizeContentsPrecision(precision);
}

void TargetTablePanel::fitColumns(QTableView* view) {
    for (int c = 0; c < view->model()->columnCount(); ++c)
        view->setColumnWidth(c, fittedWidth(view, c));
    if (view == m_feedView)
        m_feedNeedsFit = false;
}

void TargetTablePanel::clearSnapshot() {
    m_rows->clear();
    m_feed->setSnapshot({});
    updateSummary();
}

void TargetTablePanel::updateSummary() {
    const TargetSnapshot* s = currentSnapshot();
    QMap<RowChange, int> counts; // none without a snapshot: the legend then names the kinds only
    if (s)
        for (RowChange c : ChangePalette::changes())
            counts.insert(c, m_rows->count(c));
    m_legend->setCounts(counts);
    if (!s) {
        setSummaryText({});
        return;
    }
    const int rows = static_cast<int>(s->rows.rows.size());
    const QString kind = s->scd2 ? tr("SCD type 2") : tr("SCD type 1");
    const QString count = isChangeFeedVisible() ? resulttext::countOf(m_feed->rowCount(), tr("change"), tr("changes"))
                                                : resulttext::countOf(rows, tr("row"), tr("rows"));
    setSummaryText(tr("%1 · update %2 · %3").arg(kind).arg(s->updateId).arg(count));
}

void TargetTablePanel::setChangeFeedVisible(bool visible) {
    if (m_feedAction->isChecked() != visible)
        m_feedAction->setChecked(visible); // re-enters through toggled
    m_views->setCurrentWidget(visible ? m_feedView : m_rowsView);
    if (visible && m_feedNeedsFit)
        fitColumns(m_feedView);
    m_legend->setVisible(!visible);
    updateSummary();
}

bool TargetTablePanel::isChangeFeedVisible() const { return m_views->currentWidget() == m_feedView; }

void TargetTablePanel::selectRow(const QString& target, int row) {
    if (target.compare(currentTarget(), Qt::CaseInsensitive) != 0 && !selectTarget(target))
        return;
    setChangeFeedVisible(false);
    if (row < 0 || row >= m_rows->totalRows())
        return;
    m_rows->fetchUpTo(row);
    const QModelIndex index = m_rows->index(row, 0);
    m_selectingRow = true; // a programmatic selection is not the user's: no rowSelected echo
    m_rowsView->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_selectingRow = false;
    m_rowsView->scrollTo(index, QAbstractItemView::PositionAtCenter);
}

} // namespace cdc::ui
