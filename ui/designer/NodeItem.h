#pragma once
/// One node of the designer's canvas. It shows the GraphNode the scene last gave it and keeps no state of
/// its own beyond that (its position is the scene's: the layout's, or where the user pinned it).

#include "core/pipeline/PipelineGraph.h"
#include "ui/designer/NodeState.h"

#include <QGraphicsItem>

namespace cdc::ui {

/// A pipeline node, drawn by kind: a source table as a cylinder, a view as a rounded box (dashed when
/// temporary, a double border when materialized), a streaming table as a table with a header and one row
/// per detail (SCD type, keys), a flow as a pill pointing downstream labelled AUTO CDC / FROM SNAPSHOT /
/// APPEND. Under the details a line of figures (rows, tombstones, a flow's last counts) and, at the
/// top-right corner, a round error or warning badge whose messages the tooltip lists. The item's position is
/// the node's centre; a user drag snaps it to the scene's grid.
class NodeItem : public QGraphicsItem {
public:
    static constexpr int kType = UserType + 701;

    explicit NodeItem(const pipeline::GraphNode& node, const NodeState& state = {});

    /// Shows `node` (same id, possibly new details or kind).
    void setNode(const pipeline::GraphNode& node);
    const pipeline::GraphNode& node() const { return m_node; }
    /// Shows `state` (the figures and issues the scene was given for this node).
    void setState(const NodeState& state);
    const NodeState& state() const { return m_state; }
    /// What the node's badge says: "error", "warning" or empty.
    QString badgeKind() const;
    QString id() const { return QString::fromStdString(m_node.id); }
    /// The node's outline rectangle around its centre (what the layout reserves).
    QRectF rect() const;
    /// The size a node needs for its text in the application's font.
    static QSizeF sizeFor(const pipeline::GraphNode& node, const NodeState& state = {});

    int type() const override { return kType; }
    /// Where edges leave and where a drag that connects nodes starts (item coordinates), and how near
    /// (scene units) a press must be to grab it.
    QPointF outputPort() const;
    static constexpr qreal kPortGrip = 8;
    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

protected:
    QVariant itemChange(GraphicsItemChange change, const QVariant& value) override;
    void mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) override;

private:
    /// Sets the size for the current node and state, telling the scene when it changes.
    void resize();
    void updateToolTip();

    pipeline::GraphNode m_node;
    NodeState m_state;
    QSizeF m_size;
};

} // namespace cdc::ui
