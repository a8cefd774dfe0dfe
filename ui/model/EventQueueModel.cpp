// The queue is re-read whole on every Project::dataChanged, which every undoable change emits; the
// operation and sequence positions are worked out once per source and reload, not once per cell.
#include "ui/model/EventQueueModel.h"

#include "core/sql/SqlApi.h"
#include "core/storage/Catalog.h"
#include "ui/model/Project.h"
#include "ui/model/ValueText.h"

#include <QDataStream>
#include <QIODevice>
#include <QMimeData>

#include <algorithm>

namespace cdc::ui {

EventQueueModel::EventQueueModel(Project* project, QObject* parent)
    : QAbstractTableModel(parent), m_project(project) {
    connect(project, &Project::dataChanged, this, &EventQueueModel::reload);
    reload();
}

void EventQueueModel::reload() {
    beginResetModel();
    const auto guard = m_project->guardQuickRead("reading the event queue");
    // The head only: this runs after every step, and an imported feed may queue millions of events.
    auto loaded = projectstore::queueHead(m_project->db(), kShown);
    m_events.clear();
    if (loaded)
        for (auto& [event, position] : *loaded)
            m_events.append(std::move(event));
    auto total = projectstore::queuedCount(m_project->db());
    m_total = total ? std::max<qint64>(*total, m_events.size()) : m_events.size();
    layOutSources();
    endResetModel();
}

void EventQueueModel::setPipeline(const pipeline::Pipeline& pipeline) {
    EventColumnRoles roles = EventColumnRoles::fromPipeline(pipeline);
    if (roles == m_roles)
        return; // most edits leave the roles as they were: keep the view's selection and scroll
    beginResetModel();
    m_roles = std::move(roles);
    layOutSources();
    endResetModel();
}

void EventQueueModel::layOutSources() {
    m_layouts.clear();
    m_stepTables.clear();
    for (const auto& e : std::as_const(m_events)) {
        if (e.isStep()) {
            QStringList tables;
            if (auto written = sql::sourceScriptWrites(e.script.toStdString(), "step"))
                for (const auto& name : *written)
                    tables << QString::fromStdString(name).section(QLatin1Char('.'), -1);
            m_stepTables.insert(e.id, tables.join(QLatin1String(", ")));
            continue;
        }
        if (m_layouts.contains(e.source))
            continue;
        SourceLayout layout;
        if (auto table = storage::Catalog::find(m_project->db(), e.source.toStdString()); table && *table)
            for (const auto& c : (*table)->columns)
                layout.columns << QString::fromStdString(c.name);
        const EventColumns roles = m_roles.rolesFor(e.source, layout.columns);
        layout.operation = roles.operation.isEmpty() ? -1 : int(layout.columns.indexOf(roles.operation));
        layout.sequence = roles.sequence.isEmpty() ? -1 : int(layout.columns.indexOf(roles.sequence));
        m_layouts.insert(e.source, layout);
    }
}

int EventQueueModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_events.size());
}
int EventQueueModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

int EventQueueModel::rowOf(qint64 id) const {
    for (int i = 0; i < m_events.size(); ++i)
        if (m_events[i].id == id)
            return i;
    return -1;
}

QString EventQueueModel::valueText(const QueuedEvent& event, int column) const {
    if (column < 0 || column >= int(event.values.size()))
        return {};
    return displayText(event.values[std::size_t(column)], std::nullopt);
}

QString EventQueueModel::summary(const QueuedEvent& event) const {
    if (event.isStep())
        return event.label.isEmpty() ? event.script.simplified() : event.label;
    const SourceLayout layout = m_layouts.value(event.source);
    QStringList parts;
    for (int i = 0; i < int(event.values.size()); ++i) {
        if (i == layout.operation || i == layout.sequence)
            continue;
        const QString name =
            i < layout.columns.size() ? layout.columns[i] : QStringLiteral("col%1").arg(i + 1);
        parts << QStringLiteral("%1=%2").arg(name, valueText(event, i));
    }
    return parts.join(QLatin1String(", "));
}

QVariant EventQueueModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= m_events.size())
        return {};
    const auto& e = m_events[index.row()];
    if (e.isStep())
        return stepData(e, index, role);
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case PositionColumn:
            return index.row() + 1;
        case SourceColumn:
            return e.source.section(QLatin1Char('.'), -1);
        case OperationColumn:
            return valueText(e, m_layouts.value(e.source).operation);
        case SequenceColumn:
            return valueText(e, m_layouts.value(e.source).sequence);
        case ValuesColumn:
            return summary(e);
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        const QString where = tr("Event %1 for %2 — delivered as number %3 in arrival order")
                                  .arg(e.id)
                                  .arg(e.source)
                                  .arg(index.row() + 1);
        // The row's values may be wider than the column: the tooltip has them all.
        return index.column() == ValuesColumn ? summary(e) + QLatin1Char('\n') + where : where;
    }
    if (role == Qt::UserRole)
        return e.id;
    return {};
}

QVariant EventQueueModel::stepData(const QueuedEvent& e, const QModelIndex& index, int role) const {
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case PositionColumn:
            return index.row() + 1;
        case SourceColumn:
            return m_stepTables.value(e.id);
        case OperationColumn:
            return tr("STEP");
        case ValuesColumn:
            return summary(e);
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole)
        return tr("A step: this source SQL runs as one event, number %1 in arrival order\n\n%2")
            .arg(index.row() + 1)
            .arg(e.script.trimmed());
    if (role == Qt::UserRole)
        return e.id;
    return {};
}

QVariant EventQueueModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case PositionColumn:
            return tr("Arrival order: the pipeline sees the events in this order");
        case SourceColumn:
            return tr("The source table the event is written to");
        case OperationColumn:
            return tr("The column the flow's APPLY AS DELETE WHEN (or TRUNCATE WHEN) tests");
        case SequenceColumn:
            return tr(
                "The flow's SEQUENCE BY column: the highest value per key wins, whatever the arrival order");
        case ValuesColumn:
            return tr("The event's other values");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case PositionColumn:
        return tr("#");
    case SourceColumn:
        return tr("Source");
    case OperationColumn:
        return tr("Operation");
    case SequenceColumn:
        return tr("Sequence");
    case ValuesColumn:
        return tr("Row");
    default:
        return {};
    }
}

Qt::ItemFlags EventQueueModel::flags(const QModelIndex& index) const {
    if (!index.isValid())
        return Qt::ItemIsDropEnabled;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDragEnabled;
}

QMimeData* EventQueueModel::mimeData(const QModelIndexList& indexes) const {
    QList<qint64> ids;
    for (const auto& index : indexes)
        if (index.isValid() && !ids.contains(idAt(index.row())))
            ids << idAt(index.row());
    QByteArray bytes;
    QDataStream stream(&bytes, QIODevice::WriteOnly);
    stream << ids;
    auto* mime = new QMimeData;
    mime->setData(QString::fromLatin1(kMimeType), bytes);
    return mime;
}

bool EventQueueModel::dropMimeData(const QMimeData* data, Qt::DropAction action, int row, int,
                                   const QModelIndex& parent) {
    if (action != Qt::MoveAction || !data->hasFormat(QString::fromLatin1(kMimeType)))
        return false;
    QList<qint64> ids;
    QDataStream stream(data->data(QString::fromLatin1(kMimeType)));
    stream >> ids;
    const int target = row >= 0 ? row : (parent.isValid() ? parent.row() : int(m_events.size()));
    // The move is applied by the reload that the undo command triggers; report "not moved" so the
    // view does not remove the dragged rows itself.
    (void)moveEvents(ids, target);
    return false;
}

Status EventQueueModel::moveEvents(const QList<qint64>& ids, int targetRow) {
    QList<qint64> order;
    QList<qint64> moved;
    int insertAt = 0;
    for (int i = 0; i < m_events.size(); ++i) {
        if (i == targetRow)
            insertAt = int(order.size());
        if (ids.contains(m_events[i].id))
            moved << m_events[i].id;
        else
            order << m_events[i].id;
    }
    if (targetRow >= m_events.size())
        insertAt = int(order.size());
    if (moved.isEmpty())
        return {};
    for (int i = 0; i < moved.size(); ++i)
        order.insert(insertAt + i, moved[i]);
    QList<qint64> current;
    for (const auto& e : std::as_const(m_events))
        current << e.id;
    if (order == current)
        return {};
    return m_project->reorderEvents(order);
}

Status EventQueueModel::shiftEvents(const QList<qint64>& ids, int delta) {
    QList<qint64> order;
    for (const auto& e : std::as_const(m_events))
        order << e.id;
    if (delta < 0) {
        for (int i = 1; i < order.size(); ++i)
            if (ids.contains(order[i]) && !ids.contains(order[i - 1]))
                order.swapItemsAt(i, i - 1);
    } else {
        for (int i = int(order.size()) - 2; i >= 0; --i)
            if (ids.contains(order[i]) && !ids.contains(order[i + 1]))
                order.swapItemsAt(i, i + 1);
    }
    QList<qint64> current;
    for (const auto& e : std::as_const(m_events))
        current << e.id;
    if (order == current)
        return {};
    return m_project->reorderEvents(order);
}

} // namespace cdc::ui
