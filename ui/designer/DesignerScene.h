#pragma once
/// The designer's canvas: a QGraphicsScene that mirrors a PipelineGraph by node id. The graph is the
/// truth; setGraph adds, updates and removes items so they match it, keeping the items (and the
/// selection) of ids that persist. Where nodes go comes from GraphLayout, except for nodes a user moved:
/// those stay pinned where they were put, across later graphs too.

#include "core/pipeline/PipelineGraph.h"
#include "ui/designer/NodeState.h"

#include <QGraphicsScene>
#include <QHash>
#include <QMap>
#include <QPointF>

class QGraphicsLineItem;

namespace cdc::ui {

class EdgeItem;
class NodeItem;

class DesignerScene : public QGraphicsScene {
    Q_OBJECT
public:
    /// The grid a user's drag snaps node centres to.
    static constexpr qreal kGrid = 20;

    explicit DesignerScene(QObject* parent = nullptr);
    /// Silent while its items go: the base class deletes them one by one, which would otherwise announce
    /// selection changes to listeners that read a half-destroyed scene.
    ~DesignerScene() override;

    /// Shows `graph`: items for new ids, updated items for kept ids, none for gone ids; lays it out.
    void setGraph(const pipeline::PipelineGraph& graph);
    const pipeline::PipelineGraph& graph() const { return m_graph; }

    /// Shows `states` on the nodes with those ids (the others show none), now and on the items later graphs
    /// add; lays the graph out again when a node's size changed.
    void setNodeStates(const QHash<QString, NodeState>& states);
    const QHash<QString, NodeState>& nodeStates() const { return m_states; }

    NodeItem* node(const QString& id) const { return m_nodes.value(id); }
    EdgeItem* edge(const QString& from, const QString& to) const;
    QList<NodeItem*> nodeItems() const { return m_nodes.values(); }
    QList<EdgeItem*> edgeItems() const { return m_edges.values(); }

    /// Node centres the layout keeps as given (the user's moves; the document may restore them).
    const QMap<QString, QPointF>& pins() const { return m_pins; }
    /// Replaces the pins and lays the current graph out again.
    void setPins(const QMap<QString, QPointF>& pins);

    /// Every node and edge (empty when there is no graph).
    QRectF graphBounds() const;

    /// Writes the graph as SVG / PNG (`scale` pixels per scene unit), on the palette's Base, without the
    /// selection. False when the file cannot be written.
    bool exportSvg(const QString& path, const QString& title = QString());
    bool exportPng(const QString& path, qreal scale = 2.0);

    /// While a user drags nodes their centres snap to the grid (not when the layout places them).
    bool isUserDragging() const { return !m_pressPositions.isEmpty(); }
    QPointF snapToGrid(const QPointF& p) const;
    /// Called by a node whose position changed: its edges follow it.
    void nodeMoved(NodeItem* node);

signals:
    /// A user finished moving nodes: their new centres by id (already pinned here).
    void nodesMoved(const QMap<QString, QPointF>& centres);
    /// A user dragged from `from`'s output port and let go over `to` (empty: over no node).
    void connectRequested(const QString& from, const QString& to);
    /// A node was double-clicked.
    void nodeActivated(const QString& id);
    /// setGraph or setPins laid the graph out anew.
    void layoutChanged();

protected:
    void mousePressEvent(QGraphicsSceneMouseEvent* event) override;
    void mouseMoveEvent(QGraphicsSceneMouseEvent* event) override;
    void mouseReleaseEvent(QGraphicsSceneMouseEvent* event) override;

private:
    void relayout();
    void syncEdges();
    /// The part of the scene an export shows, with a margin.
    QRectF exportRect() const;
    void renderForExport(QPainter* painter, const QRectF& target, const QRectF& source);

    pipeline::PipelineGraph m_graph;
    QHash<QString, NodeItem*> m_nodes;
    QHash<QString, EdgeItem*> m_edges; ///< by "from>to"
    QMap<QString, QPointF> m_pins;
    QHash<QString, NodeState> m_states;
    QHash<QString, QPointF> m_pressPositions;   ///< selected nodes at the press that may start a drag
    QString m_connectFrom;                      ///< a drag from this node's output port is under way
    QGraphicsLineItem* m_connectLine = nullptr; ///< the line it draws to the pointer
    bool m_laying = false;                      ///< relayout() is placing items: edges wait for it
};

} // namespace cdc::ui
