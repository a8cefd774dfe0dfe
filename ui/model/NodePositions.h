#pragma once
/// Where the user put the designer's nodes, by node id ("table:users", "flow:apply_cdc"): kept in the project
/// file and across re-parsing, since ids are names. Nodes without a position are laid out automatically.

#include <QMap>
#include <QObject>
#include <QPointF>
#include <QString>

class QUndoStack;

namespace cdc::ui {

/// The designer's pinned node positions. Moves are undo steps on the project's stack (a drag is one step);
/// the project stores them as JSON beside the pipeline text.
class NodePositions : public QObject {
    Q_OBJECT
public:
    using Map = QMap<QString, QPointF>;

    NodePositions(QUndoStack* undoStack, QObject* parent = nullptr);

    const Map& positions() const { return m_positions; }
    /// Pins `moved` (id → scene position) as one undo step, "Move node x" or "Move n nodes".
    void move(const Map& moved);
    /// Forgets the positions of these nodes (laid out automatically again), as one undo step.
    void unpin(const QStringList& ids);
    /// A new project's positions: no undo step.
    void reset(const Map& positions);
    /// Called by the move command only.
    void apply(const Map& positions);

    /// The positions as compact JSON with sorted keys, and back (an invalid text gives no positions).
    static QString toJson(const Map& positions);
    static Map fromJson(const QString& json);

signals:
    void changed();

private:
    QUndoStack* m_undo;
    Map m_positions;
};

} // namespace cdc::ui
