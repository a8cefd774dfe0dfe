// Items are kept by id so that a re-parse which changes one view does not rebuild (and deselect) the
// rest. A user's drag only records where nodes went; turning that into a document edit (and undo) is the
// pipeline document's job, which listens to nodesMoved.
#include "ui/designer/DesignerScene.h"

#include "ui/designer/EdgeItem.h"
#include "ui/designer/GraphLayout.h"
#include "ui/designer/NodeItem.h"

#include <QGraphicsLineItem>
#include <QGraphicsSceneMouseEvent>
#include <QImage>
#include <QPainter>
#include <QPalette>

#include <QSvgGenerator>
#include <utility>

#include <cmath>

namespace cdc::ui {

namespace {

constexpr qreal kExportMargin = 24;
/// Room around the graph to pan into and drop nodes on.
constexpr qreal kSceneMargin = 2000;

QString edgeKey(const QString& from, const QString& to) {
    return from + QLatin1Char('>') + to;
}

/// Deletes the items (and their entries) whose key is not in `keep`.
template <typename Item> void deleteAllBut(QHash<QString, Item*>& items, const QSet<QString>& keep) {
    for (auto it = items.begin(); it != items.end();) {
        if (keep.contains(it.key())) {
            ++it;
            continue;
        }
        delete it.value();
        it = items.erase(it);
    }
}

QRectF nodeRect(const NodeItem* node) {
    return node->rect().translated(node->pos());
}

} // namespace

DesignerScene::DesignerScene(QObject* parent) : QGraphicsScene(parent) {
    setItemIndexMethod(QGraphicsScene::NoIndex); // few items, often moved
}

DesignerScene::~DesignerScene() {
    blockSignals(true);
}

EdgeItem* DesignerScene::edge(const QString& from, const QString& to) const {
    return m_edges.value(edgeKey(from, to));
}

void DesignerScene::setGraph(const pipeline::PipelineGraph& graph) {
    m_graph = graph;
    QSet<QString> ids;
    for (const auto& n : graph.nodes) {
        const QString id = QString::fromStdString(n.id);
        ids.insert(id);
        if (NodeItem* item = m_nodes.value(id)) {
            item->setNode(n);
        } else {
            item = new NodeItem(n, m_states.value(id));
            addItem(item);
            m_nodes.insert(id, item);
        }
    }
    deleteAllBut(m_nodes, ids);
    syncEdges();
    relayout();
}

void DesignerScene::setNodeStates(const QHash<QString, NodeState>& states) {
    m_states = states;
    bool resized = false;
    for (auto it = m_nodes.cbegin(); it != m_nodes.cend(); ++it) {
        const QSizeF before = it.value()->rect().size();
        it.value()->setState(states.value(it.key()));
        resized = resized || it.value()->rect().size() != before;
    }
    // A new line of figures makes a node taller: the layout has to make room for it.
    if (resized)
        relayout();
}

void DesignerScene::syncEdges() {
    QSet<QString> keys;
    for (const auto& e : m_graph.edges) {
        const QString from = QString::fromStdString(e.from), to = QString::fromStdString(e.to);
        const QString key = edgeKey(from, to);
        keys.insert(key);
        if (!m_edges.contains(key)) {
            auto* item = new EdgeItem(from, to);
            addItem(item);
            m_edges.insert(key, item);
        }
    }
    deleteAllBut(m_edges, keys);
}

void DesignerScene::setPins(const QMap<QString, QPointF>& pins) {
    m_pins = pins;
    relayout();
}

void DesignerScene::relayout() {
    QMap<QString, QSizeF> sizes;
    for (auto it = m_nodes.cbegin(); it != m_nodes.cend(); ++it)
        sizes.insert(it.key(), it.value()->rect().size());
    const GraphLayoutResult layout = layoutGraph(m_graph, sizes, m_pins);
    m_laying = true;
    for (auto it = layout.centres.cbegin(); it != layout.centres.cend(); ++it)
        if (NodeItem* item = m_nodes.value(it.key()))
            item->setPos(it.value());
    m_laying = false;
    for (const auto& e : layout.edges)
        if (EdgeItem* item = m_edges.value(edgeKey(e.from, e.to)))
            item->setPath(e.path);
    setSceneRect(graphBounds().adjusted(-kSceneMargin, -kSceneMargin, kSceneMargin, kSceneMargin));
    emit layoutChanged();
}

QRectF DesignerScene::graphBounds() const {
    QRectF bounds;
    for (const NodeItem* n : m_nodes)
        bounds |= n->mapRectToScene(n->boundingRect());
    for (const EdgeItem* e : m_edges)
        bounds |= e->mapRectToScene(e->boundingRect());
    return bounds;
}

QPointF DesignerScene::snapToGrid(const QPointF& p) const {
    return QPointF(std::round(p.x() / kGrid) * kGrid, std::round(p.y() / kGrid) * kGrid);
}

void DesignerScene::nodeMoved(NodeItem* node) {
    if (m_laying)
        return;
    // A moved node's edges leave the layout's splines and run straight between the node rectangles.
    const QString id = node->id();
    for (EdgeItem* e : std::as_const(m_edges)) {
        if (e->from() != id && e->to() != id)
            continue;
        const NodeItem* from = m_nodes.value(e->from());
        const NodeItem* to = m_nodes.value(e->to());
        if (from && to)
            e->setPath(straightEdge(nodeRect(from), nodeRect(to)));
    }
}

void DesignerScene::mousePressEvent(QGraphicsSceneMouseEvent* event) {
    // A press on a node's output port starts a connection instead of a move. The port sits on the outline
    // (a flow's tip), so it is found by distance rather than by what the shape contains.
    if (event->button() == Qt::LeftButton)
        for (NodeItem* node : std::as_const(m_nodes)) {
            const QPointF port = node->mapToScene(node->outputPort());
            if (QLineF(port, event->scenePos()).length() > NodeItem::kPortGrip)
                continue;
            m_connectFrom = node->id();
            m_connectLine = addLine(QLineF(port, event->scenePos()),
                                    QPen(palette().color(QPalette::Highlight), 1.5, Qt::DashLine));
            m_connectLine->setZValue(10);
            event->accept();
            return;
        }
    QGraphicsScene::mousePressEvent(event);
    m_pressPositions.clear();
    if (event->button() != Qt::LeftButton)
        return;
    for (QGraphicsItem* item : selectedItems())
        if (item->type() == NodeItem::kType)
            m_pressPositions.insert(static_cast<NodeItem*>(item)->id(), item->pos());
}

void DesignerScene::mouseMoveEvent(QGraphicsSceneMouseEvent* event) {
    if (m_connectLine) {
        m_connectLine->setLine(QLineF(m_connectLine->line().p1(), event->scenePos()));
        return;
    }
    QGraphicsScene::mouseMoveEvent(event);
}

void DesignerScene::mouseReleaseEvent(QGraphicsSceneMouseEvent* event) {
    if (m_connectLine) {
        QString target;
        for (QGraphicsItem* item : items(event->scenePos()))
            if (item->type() == NodeItem::kType) {
                target = static_cast<NodeItem*>(item)->id();
                break;
            }
        delete m_connectLine;
        m_connectLine = nullptr;
        // The request changes the document, which replaces the graph: nothing of this drag may be used after.
        emit connectRequested(std::exchange(m_connectFrom, QString()), target);
        return;
    }
    QGraphicsScene::mouseReleaseEvent(event);
    QMap<QString, QPointF> moved;
    for (auto it = m_pressPositions.cbegin(); it != m_pressPositions.cend(); ++it)
        if (NodeItem* item = m_nodes.value(it.key()); item && item->pos() != it.value())
            moved.insert(it.key(), item->pos());
    m_pressPositions.clear();
    if (moved.isEmpty())
        return;
    m_pins.insert(moved);
    setSceneRect(sceneRect() |
                 graphBounds().adjusted(-kSceneMargin, -kSceneMargin, kSceneMargin, kSceneMargin));
    emit nodesMoved(moved);
}

QRectF DesignerScene::exportRect() const {
    return graphBounds().adjusted(-kExportMargin, -kExportMargin, kExportMargin, kExportMargin);
}

void DesignerScene::renderForExport(QPainter* painter, const QRectF& target, const QRectF& source) {
    // The picture is of the graph, not of the user's current selection.
    const QList<QGraphicsItem*> selected = selectedItems();
    clearSelection();
    painter->fillRect(target, palette().color(QPalette::Base));
    render(painter, target, source);
    for (QGraphicsItem* item : selected)
        item->setSelected(true);
}

bool DesignerScene::exportSvg(const QString& path, const QString& title) {
    const QRectF source = exportRect();
    QSvgGenerator svg;
    svg.setFileName(path);
    svg.setSize(source.size().toSize());
    svg.setViewBox(QRectF(QPointF(0, 0), source.size()));
    svg.setTitle(title);
    QPainter painter;
    if (!painter.begin(&svg))
        return false;
    renderForExport(&painter, QRectF(QPointF(0, 0), source.size()), source);
    return painter.end();
}

bool DesignerScene::exportPng(const QString& path, qreal scale) {
    const QRectF source = exportRect();
    QImage image((source.size() * scale).toSize(), QImage::Format_ARGB32_Premultiplied);
    QPainter painter(&image);
    renderForExport(&painter, QRectF(QPointF(0, 0), QSizeF(image.size())), source);
    painter.end();
    return image.save(path, "PNG");
}

} // namespace cdc::ui
