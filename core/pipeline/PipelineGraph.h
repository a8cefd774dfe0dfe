#pragma once
/// The pipeline as a data-flow graph: the sources, views, flows and streaming tables of a `Pipeline`
/// as nodes, the data dependencies between them as edges. A value derived from the parse and rebuilt after
/// every one; node ids are made from names (case-insensitive, as Spark resolves them), so a node keeps its
/// id — and a designer its position — across re-parses as long as its name stays.

#include "core/common/Diagnostic.h"
#include "core/pipeline/Pipeline.h"

#include <string>
#include <string_view>
#include <vector>

namespace cdc::pipeline {

enum class NodeKind {
    SourceTable,         ///< a relation read but not defined by the pipeline
    TemporaryView,       ///< CREATE TEMPORARY VIEW
    View,                ///< CREATE VIEW
    MaterializedView,    ///< CREATE MATERIALIZED VIEW
    StreamingTable,      ///< CREATE STREAMING TABLE (or the target of a flow that names an undefined table)
    AutoCdcFlow,         ///< AUTO CDC ... FROM a change feed
    AutoCdcSnapshotFlow, ///< AUTO CDC ... FROM SNAPSHOT
    AppendFlow,          ///< INSERT INTO ... BY NAME / STREAMING TABLE ... AS query
};

/// The kind's name as the tests and tool tips spell it ("StreamingTable").
std::string_view nodeKindName(NodeKind kind);

struct GraphNode {
    std::string id; ///< "source:main.cdc.users_cdf", "view:v", "table:users", "flow:users_flow" (lower case)
    NodeKind kind = NodeKind::SourceTable;
    std::string name; ///< as written in the pipeline (first occurrence for a source)
    /// Short lines a node shows under its name: a table's SCD type and keys, a flow's keys and sequence.
    std::vector<std::string> details;
    SourceLocation location; ///< the definition, or a source's first reference
    bool operator==(const GraphNode&) const = default;
};

/// `from` feeds `to` (node ids).
struct GraphEdge {
    std::string from;
    std::string to;
    bool operator==(const GraphEdge&) const = default;
};

struct PipelineGraph {
    /// Streaming tables, views, AUTO CDC flows, append flows in pipeline order, then the sources in the
    /// order they are first read. Ids are unique (a repeated definition adds no second node).
    std::vector<GraphNode> nodes;
    /// Each dependency once, in the order the readers are listed.
    std::vector<GraphEdge> edges;

    const GraphNode* find(const std::string& id) const;
    bool operator==(const PipelineGraph&) const = default;
};

/// Relation → view, relation → flow (a flow's source, its snapshot / version query relations, an append
/// flow's query relations), flow → target table; a relation read through table_changes is its table.
PipelineGraph buildGraph(const Pipeline& pipeline);

} // namespace cdc::pipeline
