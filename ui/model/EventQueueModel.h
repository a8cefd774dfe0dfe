#pragma once
/// The model behind the Event Queue dock. The queue lives in the project's `__cdc_event_queue`
/// table (see ProjectStore.h), so undo, save and the simulation runner all see the same rows.

#include "ui/model/EventColumnRoles.h"
#include "ui/model/ProjectStore.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QStringList>

namespace cdc::ui {

class Project;

/// The event queue: rows written to source tables but not yet seen by the pipeline, in arrival order.
/// Reordering (drag and drop, move up/down) goes through the project's undo stack.
class EventQueueModel : public QAbstractTableModel {
    Q_OBJECT
public:
    /// The operation and the sequence get columns of their own (from the pipeline, see setPipeline):
    /// they are what users reorder events by. The row's other values follow in one column.
    enum Column { PositionColumn, SourceColumn, OperationColumn, SequenceColumn, ValuesColumn, ColumnCount };
    static constexpr auto kMimeType = "application/x-cdcstudio-event-ids";

    explicit EventQueueModel(Project* project, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    Qt::DropActions supportedDropActions() const override { return Qt::MoveAction; }
    QStringList mimeTypes() const override { return {QString::fromLatin1(kMimeType)}; }
    QMimeData* mimeData(const QModelIndexList& indexes) const override;
    bool dropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column,
                      const QModelIndex& parent) override;

    /// The events shown: the queue's head (reordering works within it; what waits behind keeps its order).
    static constexpr int kShown = 10000;
    Project* project() const { return m_project; }
    const QList<QueuedEvent>& events() const { return m_events; }
    /// Every event waiting, shown or not.
    qint64 totalCount() const { return m_total; }
    qint64 idAt(int row) const { return m_events.value(row).id; }
    int rowOf(qint64 id) const;

    /// Moves the events `ids` so that the first lands before `targetRow` (0..rowCount). Undoable.
    Status moveEvents(const QList<qint64>& ids, int targetRow);
    /// Moves each of `ids` one place up (delta -1) or down (+1). Undoable.
    Status shiftEvents(const QList<qint64>& ids, int delta);

    /// Which source columns hold each event's operation and sequence, as the pipeline reads them.
    void setPipeline(const pipeline::Pipeline& pipeline);

public slots:
    void reload();

private:
    /// A source's column names and where its operation and sequence are (-1: unknown).
    struct SourceLayout {
        QStringList columns;
        int operation = -1;
        int sequence = -1;
    };
    void layOutSources();
    QString valueText(const QueuedEvent& event, int column) const;
    /// A step's cells: the tables its script writes, STEP, its label; the script in the tooltip.
    QVariant stepData(const QueuedEvent& event, const QModelIndex& index, int role) const;
    /// The values other than the operation and the sequence, as `name=value` pairs; a step's label.
    QString summary(const QueuedEvent& event) const;
    Project* m_project;
    QList<QueuedEvent> m_events;
    qint64 m_total = 0;
    EventColumnRoles m_roles;
    QHash<QString, SourceLayout> m_layouts;
    QHash<qint64, QString> m_stepTables; ///< step id → the short names of the tables its script writes
};

} // namespace cdc::ui
