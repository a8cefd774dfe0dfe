// After an update of the shown target the rows model patches itself, so columns only widen (never
// narrow, which would make them jump); the hidden change feed is sized only when it is shown.
#include "ui/widgets/results/TargetTablePanel.h"

#include "ui/model/GridProxyModel.h"
#include "ui/model/results/ChangeFeedModel.h"
#include "ui/model/results/ResultText.h"
#include "ui/model/results/TargetRowsModel.h"
#include "ui/widgets/GridFilterBox.h"
#include "ui/widgets/GridTools.h"
#include "ui/widgets/results/ChangeLegend.h"
#include "ui/widgets/results/ResultIcons.h"

#include <algorithm>

#include <QAction>
#include <QHeaderView>
#include <QIcon>
#include <QStackedWidget>
#include <QTableView>
#include <QToolBar>

namespace cdc::ui {

TargetTablePanel::TargetTablePanel(QWidget* parent)
    : ResultPanel(tr("No target table yet.\nDeliver events and run an update to see what the targets hold."),
                  parent),
      m_rows(new TargetRowsModel(this)), m_feed(new ChangeFeedModel(this)),
      m_rowsGrid(makeGrid(m_rows, QStringLiteral("targetRowsView"))),
      m_feedGrid(makeGrid(m_feed, QStringLiteral("changeFeedView"))), m_rowsView(m_rowsGrid->view()),
      m_feedView(m_feedGrid->view()), m_filter(new GridFilterBox(this)), m_views(new QStackedWidget(this)),
      m_feedAction(new QAction(this)), m_explainAction(new QAction(this)),
      m_legend(new ChangeLegend(ChangePalette::changes(), this)) {
    setObjectName(QStringLiteral("TargetTablePanel"));
    m_views->addWidget(m_rowsView);
    m_views->addWidget(m_feedView);
    setContent(m_views);

    m_feedAction->setText(tr("Change feed"));
    m_feedAction->setIcon(resulticons::changeFeed());
    m_feedAction->setCheckable(true);
    m_feedAction->setToolTip(
        tr("Show the change data feed of the shown update, as table_changes() returns it"));
    m_feedAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_F6));
    m_feedAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addAction(m_feedAction);
    toolBar()->addAction(m_feedAction);
    m_explainAction->setObjectName(QStringLiteral("explainRowAction"));
    m_explainAction->setText(tr("Explain Row"));
    m_explainAction->setIcon(QIcon(QStringLiteral(":/icons/explain.svg")));
    m_explainAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Y));
    m_explainAction->setToolTip(tr("Why is this row like this? Every event of its key with what became of it "
                                   "(Ctrl+Shift+Y)"));
    toolBar()->addAction(m_explainAction);
    connect(m_explainAction, &QAction::triggered, this, [this] {
        if (auto key = currentKey())
            emit explainRequested(currentTarget(), *key);
    });
    toolBar()->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    addToolBarStretch();
    toolBar()->addWidget(m_filter);
    m_filter->setGrid(m_rowsGrid);
    setFooterWidget(m_legend);

    connect(m_feedAction, &QAction::toggled, this, &TargetTablePanel::setChangeFeedVisible);
    connect(m_rowsView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (current.isValid() && !m_selectingRow)
                    emit rowSelected(currentTarget(), m_rowsGrid->toSource(current).row());
            });
}

std::optional<cdc::Row> TargetTablePanel::currentKey() const {
    const QModelIndex current = m_rowsView->currentIndex();
    if (!current.isValid() || isChangeFeedVisible())
        return std::nullopt;
    const TargetSnapshot& snapshot = m_rows->snapshot();
    if (snapshot.kind != engine::DatasetKind::AutoCdc)
        return std::nullopt;
    const int row = m_rowsGrid->toSource(current).row();
    cdc::Row key;
    for (const QString& name : snapshot.keyColumns) {
        const auto& columns = snapshot.rows.columns;
        const auto at = std::find_if(columns.begin(), columns.end(), [&](const std::string& c) {
            return name.compare(QString::fromStdString(c), Qt::CaseInsensitive) == 0;
        });
        if (at == columns.end())
            return std::nullopt;
        key.push_back(
            GridProxyModel::cellAt(m_rows->index(row, static_cast<int>(at - columns.begin()))).value);
    }
    return key;
}

GridTools* TargetTablePanel::makeGrid(QAbstractItemModel* model, const QString& name) {
    auto* view = new QTableView(this);
    view->setObjectName(name);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
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
    return new GridTools(view, model);
}

void TargetTablePanel::showSnapshot(const SharedSnapshot& snapshot) {
    // After an update of the shown target the rows model patches itself: the columns keep their widths.
    const quint64 shown = m_rows->snapshot().serial;
    const bool patched = shown != 0 && (snapshot->serial == shown || snapshot->patch.baseSerial == shown);
    m_rows->setSnapshot(snapshot);
    m_feed->setSnapshot(*snapshot);
    m_rowsGrid->setExportName(snapshot->target);
    m_feedGrid->setExportName(snapshot->target + QStringLiteral("_changes"));
    if (patched)
        m_rowsGrid->widenColumns(); // longer values may have arrived; narrowing would make columns jump
    else
        m_rowsGrid->fitColumns();
    if (isChangeFeedVisible())
        fitFeedColumns(); // else when it is shown: sizing thousands of hidden changes is wasted
    else
        m_feedNeedsFit = true;
    updateSummary();
}

void TargetTablePanel::fitFeedColumns() {
    m_feedGrid->fitColumns();
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
    const QString kind = s->kind != engine::DatasetKind::AutoCdc ? kindName(s->kind)
                         : s->scd2                               ? tr("SCD type 2")
                                                                 : tr("SCD type 1");
    const QString count = isChangeFeedVisible()
                              ? resulttext::countOf(m_feed->rowCount(), tr("change"), tr("changes"))
                              : resulttext::countOf(rows, tr("row"), tr("rows"));
    setSummaryText(tr("%1 · update %2 · %3").arg(kind).arg(s->updateId).arg(count));
}

void TargetTablePanel::setChangeFeedVisible(bool visible) {
    if (m_feedAction->isChecked() != visible)
        m_feedAction->setChecked(visible); // re-enters through toggled
    m_views->setCurrentWidget(visible ? m_feedView : m_rowsView);
    m_filter->setGrid(visible ? m_feedGrid : m_rowsGrid);
    if (visible && m_feedNeedsFit)
        fitFeedColumns();
    m_legend->setVisible(!visible);
    updateSummary();
}

bool TargetTablePanel::isChangeFeedVisible() const {
    return m_views->currentWidget() == m_feedView;
}

void TargetTablePanel::selectRow(const QString& target, int row) {
    if (target.compare(currentTarget(), Qt::CaseInsensitive) != 0 && !selectTarget(target))
        return;
    setChangeFeedVisible(false);
    if (row < 0 || row >= m_rows->totalRows())
        return;
    m_rows->fetchUpTo(row);
    const QModelIndex index = m_rowsGrid->reveal(m_rows->index(row, 0));
    if (!index.isValid())
        return;
    m_selectingRow = true; // a programmatic selection is not the user's: no rowSelected echo
    m_rowsView->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect |
                                                             QItemSelectionModel::Rows);
    m_selectingRow = false;
    m_rowsView->scrollTo(index, QAbstractItemView::PositionAtCenter);
}

} // namespace cdc::ui
