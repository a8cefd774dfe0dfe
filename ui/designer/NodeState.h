#pragma once
/// What the designer shows on a node besides its definition: the figures of the last update and the
/// issues about it. A plain value computed by NodeStateFeed and handed to the scene by node id; the items
/// paint it and keep nothing else.

#include "core/pipeline/PipelineGraph.h"

#include <QString>
#include <QStringList>
#include <QtGlobal>

#include <optional>

namespace cdc::ui {

/// One flow's counts in the last update (the engine's FlowMetrics, as its update log records them).
struct FlowCounts {
    qint64 read = 0;
    qint64 upserted = 0;
    qint64 deleted = 0;
    qint64 stale = 0;
    bool operator==(const FlowCounts&) const = default;
};

struct NodeState {
    std::optional<qint64> rows;       ///< a stored target's rows (what `SELECT * FROM t` returns)
    std::optional<FlowCounts> counts; ///< a flow's counts in the last update it ran in
    std::optional<qint64> tombstones; ///< a stored target's live tombstones
    int errors = 0;
    int warnings = 0;
    QStringList messages; ///< the issues about the node, "error: …" / "warning: …"

    bool operator==(const NodeState&) const = default;
};

/// The line of figures a node shows under its details ("7 rows · 2 tombstones", "read 1 · upserted 2 ·
/// deleted 0 · stale 0"); empty when there are none.
QString nodeFigures(const NodeState& state);

/// The node the issue at `location` is about: the last node whose statement starts at or before it.
/// Source tables, which the text only reads, are never it. Null when there is none.
const pipeline::GraphNode* nodeAtLocation(const pipeline::PipelineGraph& graph,
                                          const SourceLocation& location);

} // namespace cdc::ui
