// The graph lives in a unique_ptr with its own free function, so an early return (a failed layout) leaks
// nothing. cgraph's setters take `char*` but copy the strings: the const_casts are safe.
#include "ui/designer/GraphLayout.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <memory>
#include <string>

namespace cdc::ui {

namespace {

constexpr double kPointsPerInch = 72.0;
const QSizeF kDefaultSize(120, 40);

struct GraphDeleter {
    void operator()(Agraph_t* g) const { agclose(g); }
};
using Graph = std::unique_ptr<Agraph_t, GraphDeleter>;

/// One Graphviz context for the whole process, made on first use and never freed. A context per layout
/// leaked on every layout: Graphviz 2.42 (Debian 12) never frees the plugin configuration gvContext reads
/// (3.6 KB each, LeakSanitizer's report in tst_ui_graph_layout), and after a gvFreeContext its pango
/// text-layout plugin reads freed memory when the next context measures a label (AddressSanitizer, on a
/// standalone program; our nodes have no text labels). Graphviz is not thread-safe: layouts run on the GUI
/// thread only.
GVC_t* graphvizContext() {
    static GVC_t* const context = gvContext();
    return context;
}

/// gvFreeLayout for as long as the layout's data is read.
class LayoutScope {
public:
    LayoutScope(GVC_t* context, Agraph_t* graph) : m_context(context), m_graph(graph) {
        m_ok = gvLayout(m_context, m_graph, "dot") == 0;
    }
    ~LayoutScope() {
        if (m_ok)
            gvFreeLayout(m_context, m_graph);
    }
    LayoutScope(const LayoutScope&) = delete;
    LayoutScope& operator=(const LayoutScope&) = delete;
    bool ok() const { return m_ok; }

private:
    GVC_t* m_context;
    Agraph_t* m_graph;
    bool m_ok = false;
};

void set(void* object, const char* name, const std::string& value) {
    agsafeset(object, const_cast<char*>(name), const_cast<char*>(value.c_str()), const_cast<char*>(""));
}

std::string inches(double points) {
    return std::to_string(points / kPointsPerInch);
}

QRectF rectAt(const QPointF& centre, const QSizeF& size) {
    return QRectF(centre.x() - size.width() / 2, centre.y() - size.height() / 2, size.width(), size.height());
}

/// Graphviz's splines (y upward) as one path in scene coordinates; empty when it routed none.
QPainterPath splinePath(Agedge_t* edge, double top) {
    QPainterPath path;
    const splines* spl = ED_spl(edge);
    if (!spl)
        return path;
    const auto flip = [top](pointf p) { return QPointF(p.x, top - p.y); };
    for (int b = 0; b < spl->size; ++b) {
        const bezier& bz = spl->list[b];
        if (bz.size < 1)
            continue;
        path.moveTo(flip(bz.sflag ? bz.sp : bz.list[0]));
        if (bz.sflag)
            path.lineTo(flip(bz.list[0]));
        for (int i = 1; i + 2 < bz.size; i += 3)
            path.cubicTo(flip(bz.list[i]), flip(bz.list[i + 1]), flip(bz.list[i + 2]));
        // The spline stops short of the node by the arrow head's length; the head's tip is at ep.
        if (bz.eflag)
            path.lineTo(flip(bz.ep));
    }
    return path;
}

} // namespace

QPainterPath straightEdge(const QRectF& from, const QRectF& to) {
    const QPointF start(from.right(), from.center().y());
    const QPointF end(to.left(), to.center().y());
    const double bend = std::max(20.0, (end.x() - start.x()) / 2);
    QPainterPath path(start);
    path.cubicTo(start + QPointF(bend, 0), end - QPointF(bend, 0), end);
    return path;
}

GraphLayoutResult layoutGraph(const pipeline::PipelineGraph& graph, const QMap<QString, QSizeF>& sizes,
                              const QMap<QString, QPointF>& pinned) {
    GraphLayoutResult result;
    const auto sizeOf = [&](const QString& id) { return sizes.value(id, kDefaultSize); };
    if (graph.nodes.empty())
        return result;

    Graph g(agopen(const_cast<char*>("pipeline"), Agdirected, nullptr));
    set(g.get(), "rankdir", "LR");
    set(g.get(), "nodesep", "0.35"); // between nodes of one rank (vertical here)
    set(g.get(), "ranksep", "0.45"); // between ranks: room for the arrows
    set(g.get(), "splines", "spline");
    QMap<QString, Agnode_t*> nodes;
    for (const auto& n : graph.nodes) {
        const QString id = QString::fromStdString(n.id);
        Agnode_t* node = agnode(g.get(), const_cast<char*>(n.id.c_str()), 1);
        const QSizeF size = sizeOf(id);
        set(node, "shape", "box");
        set(node, "fixedsize", "true");
        set(node, "label", "");
        set(node, "width", inches(size.width()));
        set(node, "height", inches(size.height()));
        nodes.insert(id, node);
    }
    std::vector<Agedge_t*> edges;
    for (const auto& e : graph.edges) {
        Agnode_t* from = nodes.value(QString::fromStdString(e.from));
        Agnode_t* to = nodes.value(QString::fromStdString(e.to));
        Agedge_t* edge = from && to ? agedge(g.get(), from, to, nullptr, 1) : nullptr;
        // Out of a node's middle right, into its middle left: where a flow's point and a cylinder's side are.
        if (edge) {
            set(edge, "tailport", "e");
            set(edge, "headport", "w");
        }
        edges.push_back(edge);
    }

    LayoutScope layout(graphvizContext(), g.get());
    if (!layout.ok())
        return result;
    const double top = GD_bb(g.get()).UR.y;
    for (auto it = nodes.cbegin(); it != nodes.cend(); ++it) {
        const pointf p = ND_coord(it.value());
        result.centres.insert(it.key(), pinned.value(it.key(), QPointF(p.x, top - p.y)));
    }
    for (std::size_t i = 0; i < graph.edges.size(); ++i) {
        LaidOutEdge out{
            QString::fromStdString(graph.edges[i].from), QString::fromStdString(graph.edges[i].to), {}};
        if (!edges[i])
            continue;
        // An edge to or from a pinned node no longer meets dot's spline: it goes straight.
        if (!pinned.contains(out.from) && !pinned.contains(out.to))
            out.path = splinePath(edges[i], top);
        if (out.path.isEmpty())
            out.path = straightEdge(rectAt(result.centres[out.from], sizeOf(out.from)),
                                    rectAt(result.centres[out.to], sizeOf(out.to)));
        result.edges.push_back(std::move(out));
    }
    for (auto it = result.centres.cbegin(); it != result.centres.cend(); ++it)
        result.bounds |= rectAt(it.value(), sizeOf(it.key()));
    for (const auto& e : result.edges)
        result.bounds |= e.path.boundingRect();
    return result;
}

} // namespace cdc::ui
