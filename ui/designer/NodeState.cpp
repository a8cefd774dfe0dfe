// Figures are worded for a glance at the canvas: counts first, the unit after, one separator style.
#include "ui/designer/NodeState.h"

#include <QCoreApplication>

namespace cdc::ui {

QString nodeFigures(const NodeState& state) {
    QStringList parts;
    // No translator supplies English plurals, so the singular is chosen here.
    const auto count = [](qint64 n, const char* one, const char* many) {
        return QCoreApplication::translate("NodeState", n == 1 ? one : many).arg(n);
    };
    if (state.rows)
        parts << count(*state.rows, QT_TRANSLATE_NOOP("NodeState", "%1 row"),
                       QT_TRANSLATE_NOOP("NodeState", "%1 rows"));
    if (state.tombstones)
        parts << count(*state.tombstones, QT_TRANSLATE_NOOP("NodeState", "%1 tombstone"),
                       QT_TRANSLATE_NOOP("NodeState", "%1 tombstones"));
    if (state.counts)
        parts << QCoreApplication::translate("NodeState", "read %1 · upserted %2 · deleted %3 · stale %4")
                     .arg(state.counts->read)
                     .arg(state.counts->upserted)
                     .arg(state.counts->deleted)
                     .arg(state.counts->stale);
    return parts.join(QStringLiteral(" · "));
}

const pipeline::GraphNode* nodeAtLocation(const pipeline::PipelineGraph& graph,
                                          const SourceLocation& location) {
    if (!location.valid())
        return nullptr;
    const pipeline::GraphNode* best = nullptr;
    for (const pipeline::GraphNode& node : graph.nodes)
        if (node.kind != pipeline::NodeKind::SourceTable && node.location.valid() &&
            node.location.offset <= location.offset &&
            (!best || node.location.offset >= best->location.offset))
            best = &node;
    return best;
}

} // namespace cdc::ui
