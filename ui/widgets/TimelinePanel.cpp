// A rewind is one Project::change (the engine's rewind, later deliveries back into the queue, the
// clock reset), so one Ctrl+Z restores all three. Selecting the last row means "follow the latest" (-1).
#include "ui/widgets/TimelinePanel.h"

#include "ui/model/Project.h"
#include "ui/model/UpdateTimelineModel.h"
#include "ui/widgets/ColumnChooser.h"

#include <QAction>
#include <QHeaderView>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>

namespace cdc::ui {

TimelinePanel::TimelinePanel(Project* project, UpdateTimelineModel* model, QWidget* parent)
    : QWidget(parent), m_project(project), m_model(model), m_view(new QTableView(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    auto* toolBar = new QToolBar(this);
    toolBar->setIconSize(QSize(16, 16));
    toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    layout->addWidget(toolBar);
    layout->addWidget(m_view);
    m_rewind = toolBar->addAction(QIcon(QStringLiteral(":/icons/rewind.svg")), tr("Rewind Here"));
    m_rewind->setToolTip(
        tr("Discard every update after the selected one; their events go back to the queue (Ctrl+Z undoes)"));
    m_rewind->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Backspace));
    m_rewind->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addAction(m_rewind);
    auto* latest = toolBar->addAction(tr("Show Latest"));
    latest->setToolTip(tr("Show the state after the last update"));
    connect(latest, &QAction::triggered, this, [this] { selectUpdate(-1); });

    m_view->setModel(model);
    m_view->setObjectName(QStringLiteral("timelineView"));
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 8);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setAlternatingRowColors(true);
    // The dock is narrow: the metrics the update log also has wait behind a right-click on the header.
    new ColumnChooser(m_view, QStringLiteral("timeline/hiddenColumns"),
                      {UpdateTimelineModel::TombstonesColumn, UpdateTimelineModel::DurationColumn});
    m_view->horizontalHeader()->setToolTip(tr("Right-click to choose the columns"));

    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (!current.isValid())
                    return;
                const qint64 id = m_model->updateIdAt(current.row());
                const qint64 wanted = id == m_model->lastUpdateId() ? -1 : id;
                if (wanted != m_selected) {
                    m_selected = wanted;
                    emit updateSelected(m_selected);
                }
                updateActions();
            });
    connect(model, &QAbstractItemModel::modelReset, this, [this] {
        // After an update (or undo) follow the latest state unless an older update is still there to show.
        if (m_selected >= 0 && m_model->rowOfUpdate(m_selected) < 0)
            m_selected = -1;
        const int row = m_selected < 0 ? m_model->rowCount() - 1 : m_model->rowOfUpdate(m_selected);
        const QSignalBlocker block(m_view->selectionModel());
        m_view->selectRow(row);
        m_view->scrollTo(m_model->index(row, 0));
        updateActions();
        emit updateSelected(m_selected);
    });
    connect(m_rewind, &QAction::triggered, this, [this] {
        const qint64 target = selectedUpdate() < 0 ? m_model->lastUpdateId() : selectedUpdate();
        if (auto st = rewindTo(target); !st)
            emit statusMessage(QString::fromStdString(st.error().message));
    });
    updateActions();
}

qint64 TimelinePanel::selectedUpdate() const {
    return m_selected;
}

void TimelinePanel::selectUpdate(qint64 updateId) {
    const int row = updateId < 0 ? m_model->rowCount() - 1 : m_model->rowOfUpdate(updateId);
    if (row >= 0)
        m_view->selectionModel()->setCurrentIndex(
            m_model->index(row, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

Status TimelinePanel::rewindTo(qint64 updateId) {
    if (updateId >= m_model->lastUpdateId())
        return Diagnostic::error("NOTHING_TO_REWIND", "select an earlier update to rewind to");
    CDC_TRY(m_project->rewindTo(updateId));
    m_selected = -1;
    selectUpdate(-1);
    emit statusMessage(tr("Rewound to update %1; later events are back in the queue").arg(updateId));
    return {};
}

void TimelinePanel::updateActions() {
    const qint64 last = m_model->lastUpdateId();
    m_rewind->setEnabled(m_selected >= 0 && m_selected < last);
}

} // namespace cdc::ui
