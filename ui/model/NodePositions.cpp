// Positions are rounded to whole scene units before they are stored: the file then saves the same bytes
// after a reopen, and a position never drifts by a rounding error from one session to the next.
#include "ui/model/NodePositions.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUndoCommand>
#include <QUndoStack>

#include <cmath>

namespace cdc::ui {

namespace {

QPointF rounded(QPointF p) {
    return {std::round(p.x()), std::round(p.y())};
}

/// One change of the pinned positions, kept as the whole map before and after.
class MoveNodesCommand : public QUndoCommand {
public:
    MoveNodesCommand(NodePositions* positions, NodePositions::Map before, NodePositions::Map after,
                     const QString& text)
        : QUndoCommand(text), m_positions(positions), m_before(std::move(before)), m_after(std::move(after)) {
    }
    void undo() override { m_positions->apply(m_before); }
    void redo() override { m_positions->apply(m_after); }

private:
    NodePositions* m_positions;
    NodePositions::Map m_before;
    NodePositions::Map m_after;
};

} // namespace

NodePositions::NodePositions(QUndoStack* undoStack, QObject* parent) : QObject(parent), m_undo(undoStack) {}

void NodePositions::move(const Map& moved) {
    Map after = m_positions;
    for (auto it = moved.begin(); it != moved.end(); ++it)
        after.insert(it.key(), rounded(it.value()));
    if (after == m_positions)
        return;
    const QString text = moved.size() == 1
                             ? tr("Move node %1").arg(moved.firstKey().section(QLatin1Char(':'), 1))
                             : tr("Move %1 nodes").arg(moved.size());
    m_undo->push(new MoveNodesCommand(this, m_positions, after, text));
}

void NodePositions::unpin(const QStringList& ids) {
    Map after = m_positions;
    for (const QString& id : ids)
        after.remove(id);
    if (after == m_positions)
        return;
    const qsizetype count = m_positions.size() - after.size();
    m_undo->push(new MoveNodesCommand(this, m_positions, after,
                                      count == 1 ? tr("Lay out 1 node automatically")
                                                 : tr("Lay out %1 nodes automatically").arg(count)));
}

void NodePositions::reset(const Map& positions) {
    m_positions = positions;
    emit changed();
}

void NodePositions::apply(const Map& positions) {
    if (positions == m_positions)
        return;
    m_positions = positions;
    emit changed();
}

QString NodePositions::toJson(const Map& positions) {
    QJsonObject object; // QJsonObject keeps its keys sorted
    for (auto it = positions.begin(); it != positions.end(); ++it)
        object.insert(it.key(), QJsonArray{it.value().x(), it.value().y()});
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

NodePositions::Map NodePositions::fromJson(const QString& json) {
    Map out;
    const QJsonObject object = QJsonDocument::fromJson(json.toUtf8()).object();
    for (auto it = object.begin(); it != object.end(); ++it) {
        const QJsonArray xy = it.value().toArray();
        if (xy.size() == 2 && xy[0].isDouble() && xy[1].isDouble())
            out.insert(it.key(), rounded(QPointF(xy[0].toDouble(), xy[1].toDouble())));
    }
    return out;
}

} // namespace cdc::ui
