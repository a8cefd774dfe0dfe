// Moves go through the model's undoable reorder, which resets the model, so the selection is put back
// by event id. The shortcuts are scoped to the panel so Delete and Alt+arrows keep their meaning elsewhere.
#include "ui/widgets/EventQueuePanel.h"

#include "ui/model/EventQueueModel.h"
#include "ui/model/Project.h"

#include <QAction>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QStyle>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>

namespace cdc::ui {

EventQueuePanel::EventQueuePanel(EventQueueModel* model, QWidget* parent)
    : QWidget(parent), m_model(model), m_view(new QTableView(this)), m_toolBar(new QToolBar(this)),
      m_count(new QLabel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    m_toolBar->setIconSize(QSize(16, 16));
    m_toolBar->setToolButtonStyle(Qt::ToolButtonIconOnly);
    layout->addWidget(m_toolBar);
    layout->addWidget(m_view);
    auto* footer = new QWidget(this);
    auto* footerLayout = new QHBoxLayout(footer);
    footerLayout->setContentsMargins(6, 3, 6, 3);
    footerLayout->addWidget(m_count);
    layout->addWidget(footer);

    m_view->setModel(model);
    m_view->setObjectName(QStringLiteral("eventQueueView"));
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setDragEnabled(true);
    m_view->setAcceptDrops(true);
    m_view->setDropIndicatorShown(true);
    m_view->setDragDropMode(QAbstractItemView::InternalMove);
    m_view->setDefaultDropAction(Qt::MoveAction);
    m_view->setDragDropOverwriteMode(false);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 8);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->horizontalHeader()->setSectionResizeMode(EventQueueModel::PositionColumn,
                                                     QHeaderView::ResizeToContents);
    for (int column :
         {EventQueueModel::SourceColumn, EventQueueModel::OperationColumn, EventQueueModel::SequenceColumn})
        m_view->horizontalHeader()->setSectionResizeMode(column, QHeaderView::ResizeToContents);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->setToolTip(tr("Events written but not yet delivered, in arrival order. Drag to reorder."));

    m_moveUp = new QAction(style()->standardIcon(QStyle::SP_ArrowUp), tr("Move Up"), this);
    m_moveUp->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Up));
    m_moveUp->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_moveUp->setToolTip(tr("Deliver the selected events earlier (Alt+Up)"));
    m_moveDown = new QAction(style()->standardIcon(QStyle::SP_ArrowDown), tr("Move Down"), this);
    m_moveDown->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Down));
    m_moveDown->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_moveDown->setToolTip(tr("Deliver the selected events later (Alt+Down)"));
    m_remove = new QAction(style()->standardIcon(QStyle::SP_TrashIcon), tr("Delete Events"), this);
    m_remove->setShortcut(QKeySequence::Delete);
    m_remove->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_remove->setToolTip(tr("Remove the selected events from the queue (Del)"));
    addAction(m_moveUp);
    addAction(m_moveDown);
    addAction(m_remove);
    m_toolBar->addAction(m_moveUp);
    m_toolBar->addAction(m_moveDown);
    m_toolBar->addAction(m_remove);
    m_toolBar->addSeparator();

    connect(m_moveUp, &QAction::triggered, this, [this] { shift(-1); });
    connect(m_moveDown, &QAction::triggered, this, [this] { shift(+1); });
    connect(m_remove, &QAction::triggered, this, [this] {
        const auto ids = selectedIds();
        if (ids.isEmpty())
            return;
        if (auto st = m_model->project()->removeEvents(ids); !st)
            emit statusMessage(QString::fromStdString(st.error().message));
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &EventQueuePanel::updateActions);
    connect(model, &QAbstractItemModel::modelReset, this, &EventQueuePanel::updateActions);
    updateActions();
}

QList<qint64> EventQueuePanel::selectedIds() const {
    QList<qint64> ids;
    for (const auto& index : m_view->selectionModel()->selectedRows())
        ids << m_model->idAt(index.row());
    return ids;
}

void EventQueuePanel::selectIds(const QList<qint64>& ids) {
    QItemSelection selection;
    for (qint64 id : ids)
        if (int row = m_model->rowOf(id); row >= 0)
            selection.select(m_model->index(row, 0), m_model->index(row, EventQueueModel::ColumnCount - 1));
    m_view->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
}

void EventQueuePanel::shift(int delta) {
    const auto ids = selectedIds();
    if (ids.isEmpty())
        return;
    if (auto st = m_model->shiftEvents(ids, delta); !st)
        emit statusMessage(QString::fromStdString(st.error().message));
    selectIds(ids);
}

void EventQueuePanel::updateActions() {
    const bool any = !selectedIds().isEmpty();
    m_moveUp->setEnabled(any);
    m_moveDown->setEnabled(any);
    m_remove->setEnabled(any);
    const qint64 total = m_model->totalCount();
    const QString waiting = tr("%Ln event(s) waiting", nullptr, int(std::min<qint64>(total, INT_MAX)));
    m_count->setText(total > m_model->rowCount()
                         ? tr("%1 (the first %L2 shown)").arg(waiting).arg(m_model->rowCount())
                         : waiting);
}

} // namespace cdc::ui
