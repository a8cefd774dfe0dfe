#pragma once
/// Where the nodes of a pipeline graph go: Graphviz's `dot` (layered, edges left to right in data-flow
/// order, few crossings) through its C library, in scene coordinates (y downward, 1 unit = 1 point).

#include "core/pipeline/PipelineGraph.h"

#include <QMap>
#include <QPainterPath>
#include <QPointF>
#include <QRectF>
#include <QSizeF>
#include <QString>

#include <vector>

namespace cdc::ui {

/// One edge of the laid-out graph: Graphviz's spline, ending where the arrow head's tip goes.
struct LaidOutEdge {
    QString from;
    QString to;
    QPainterPath path;
};

struct GraphLayoutResult {
    QMap<QString, QPointF> centres; ///< node id → centre
    std::vector<LaidOutEdge> edges; ///< in the graph's edge order
    QRectF bounds;                  ///< every node rectangle and edge path
};

/// Lays a graph out left to right with `dot`. `sizes` gives each node's size (a missing one is 120 × 40);
/// a node in `pinned` keeps that centre (a user put it there) and its edges run straight to the layout's
/// other nodes. Deterministic: the same graph, sizes and pins give the same result.
GraphLayoutResult layoutGraph(const pipeline::PipelineGraph& graph, const QMap<QString, QSizeF>& sizes,
                              const QMap<QString, QPointF>& pinned = {});

/// The path of an edge between two node rectangles that no spline routes: a smooth S from the right
/// side of `from` to the left side of `to`.
QPainterPath straightEdge(const QRectF& from, const QRectF& to);

} // namespace cdc::ui
