#include "core/pipeline/PipelineGraph.h"

#include "core/common/Text.h"

#include <algorithm>
#include <set>
#include <utility>

namespace cdc::pipeline {

std::string_view nodeKindName(NodeKind kind) {
    switch (kind) {
    case NodeKind::SourceTable:
        return "SourceTable";
    case NodeKind::TemporaryView:
        return "TemporaryView";
    case NodeKind::View:
        return "View";
    case NodeKind::MaterializedView:
        return "MaterializedView";
    case NodeKind::StreamingTable:
        return "StreamingTable";
    case NodeKind::AutoCdcFlow:
        return "AutoCdcFlow";
    case NodeKind::AutoCdcSnapshotFlow:
        return "AutoCdcSnapshotFlow";
    case NodeKind::AppendFlow:
        return "AppendFlow";
    }
    return "?";
}

const GraphNode* PipelineGraph::find(const std::string& id) const {
    auto it = std::find_if(nodes.begin(), nodes.end(), [&](const GraphNode& n) { return n.id == id; });
    return it == nodes.end() ? nullptr : &*it;
}

namespace {

/// The name a relation resolves by: Spark compares names case-insensitively (the builder has already
/// dropped any LIVE. prefix from definitions and references alike).
std::string resolvedName(const std::string& name) {
    return toLower(name);
}

std::string joinNames(const std::vector<Identifier>& ids) {
    std::string out;
    for (const auto& id : ids)
        out += (out.empty() ? "" : ", ") + id.name;
    return out;
}

class GraphBuilder {
public:
    explicit GraphBuilder(const Pipeline& p) : m_pipeline(p) {}

    PipelineGraph build() {
        for (const auto& t : m_pipeline.streamingTables)
            addNode(tableId(t.name.name), NodeKind::StreamingTable, t.name.name, tableDetails(t.name.name),
                    t.location);
        for (const auto& v : m_pipeline.views)
            addNode("view:" + resolvedName(v.name.name), viewKind(v), v.name.name, {}, v.location);
        for (const auto& f : m_pipeline.cdcFlows)
            addNode(flowId(f.name.name),
                    f.fromSnapshot ? NodeKind::AutoCdcSnapshotFlow : NodeKind::AutoCdcFlow, f.name.name,
                    cdcFlowDetails(f), f.location);
        for (const auto& f : m_pipeline.appendFlows)
            addNode(flowId(f.name.name), NodeKind::AppendFlow, f.name.name,
                    f.once ? std::vector<std::string>{"ONCE"} : std::vector<std::string>{}, f.location);

        for (const auto& v : m_pipeline.views)
            readQuery(v.query, "view:" + resolvedName(v.name.name));
        for (const auto& f : m_pipeline.cdcFlows) {
            const std::string id = flowId(f.name.name);
            if (f.fromSnapshot && !f.snapshotFunction.empty()) {
                // A Python function offers the snapshots: it is the source (its first snapshot's query is
                // only how the run learnt the target's columns).
                const std::string source = "function:" + f.snapshotFunction;
                if (m_sourceIds.insert(source).second)
                    m_sources.push_back(GraphNode{source,
                                                  NodeKind::SourceTable,
                                                  f.snapshotFunction + "()",
                                                  {"Python snapshot function"},
                                                  f.location});
                addEdge(source, id);
            } else if (f.fromSnapshot) {
                if (f.snapshotQuery)
                    readQuery(*f.snapshotQuery, id);
                if (f.versionQuery)
                    readQuery(*f.versionQuery, id);
            } else if (!f.source.name.empty()) {
                read(f.source, id);
            }
            feed(id, f.target);
        }
        for (const auto& f : m_pipeline.appendFlows) {
            const std::string id = flowId(f.name.name);
            readQuery(f.query, id);
            feed(id, f.target);
        }
        // Sources come last so the definitions keep their order whatever they read.
        for (auto& n : m_sources)
            addNode(std::move(n));
        return std::move(m_graph);
    }

private:
    static std::string tableId(const std::string& name) { return "table:" + resolvedName(name); }
    static std::string flowId(const std::string& name) { return "flow:" + resolvedName(name); }

    static NodeKind viewKind(const View& v) {
        if (v.materialized)
            return NodeKind::MaterializedView;
        return v.temporary ? NodeKind::TemporaryView : NodeKind::View;
    }

    /// The SCD types and keys of the AUTO CDC flows writing into a table ("SCD TYPE 2", "KEYS userId");
    /// a table only append flows write into says so.
    std::vector<std::string> tableDetails(const std::string& table) const {
        std::set<int> types;
        std::string keys;
        bool appended = false;
        for (const auto& f : m_pipeline.cdcFlows)
            if (equalsIgnoreCase(resolvedName(f.target.name), resolvedName(table))) {
                types.insert(static_cast<int>(f.scdType));
                if (keys.empty())
                    keys = joinNames(f.keys);
            }
        for (const auto& f : m_pipeline.appendFlows)
            appended = appended || equalsIgnoreCase(resolvedName(f.target.name), resolvedName(table));
        std::vector<std::string> out;
        for (int type : types)
            out.push_back("SCD TYPE " + std::to_string(type));
        if (!keys.empty())
            out.push_back("KEYS " + keys);
        if (types.empty() && appended)
            out.push_back("APPEND ONLY");
        return out;
    }

    static std::vector<std::string> cdcFlowDetails(const AutoCdcFlow& f) {
        std::vector<std::string> out;
        if (!f.keys.empty())
            out.push_back("KEYS " + joinNames(f.keys));
        std::string sequence;
        for (const auto& e : f.sequenceBy)
            sequence += (sequence.empty() ? "" : ", ") + e.sparkText;
        if (!sequence.empty())
            out.push_back("SEQUENCE BY " + (f.sequenceIsStruct ? "STRUCT(" + sequence + ")" : sequence));
        return out;
    }

    void addNode(std::string id, NodeKind kind, const std::string& name, std::vector<std::string> details,
                 const SourceLocation& location) {
        addNode(GraphNode{std::move(id), kind, name, std::move(details), location});
    }

    void addNode(GraphNode node) {
        if (m_ids.insert(node.id).second)
            m_graph.nodes.push_back(std::move(node));
    }

    /// The node a reference reads: a table or view the pipeline defines, otherwise a source table.
    std::string relationId(const RelationRef& ref) {
        const std::string name = resolvedName(ref.name);
        if (isTable(name))
            return tableId(name);
        if (m_pipeline.findView(name))
            return "view:" + name;
        std::string id = "source:" + name;
        if (m_sourceIds.insert(id).second)
            m_sources.push_back(GraphNode{id, NodeKind::SourceTable, ref.name, {}, ref.location});
        return id;
    }

    /// A defined streaming table, or a name some flow writes into (which gets a table node too).
    bool isTable(const std::string& name) const {
        const auto targets = [&](const auto& flows) {
            return std::any_of(flows.begin(), flows.end(),
                               [&](const auto& f) { return resolvedName(f.target.name) == name; });
        };
        return m_pipeline.findTable(name) || targets(m_pipeline.cdcFlows) || targets(m_pipeline.appendFlows);
    }

    void read(const RelationRef& ref, const std::string& reader) { addEdge(relationId(ref), reader); }

    void readQuery(const Query& q, const std::string& reader) {
        for (const auto& ref : q.relations)
            if (!isSnapshotVersionFunction(ref))
                read(ref, reader);
    }

    /// last_snapshot_version() / current_snapshot_version() read the flow's own progress, not data: no node.
    static bool isSnapshotVersionFunction(const RelationRef& ref) {
        return ref.call && (ref.call->function == "last_snapshot_version" ||
                            ref.call->function == "current_snapshot_version");
    }

    /// flow → target; a target no CREATE STREAMING TABLE defines still gets its table node.
    void feed(const std::string& flow, const Identifier& target) {
        const std::string id = tableId(target.name);
        if (!m_ids.count(id))
            addNode(id, NodeKind::StreamingTable, target.name, tableDetails(target.name), target.location);
        addEdge(flow, id);
    }

    void addEdge(const std::string& from, const std::string& to) {
        GraphEdge edge{from, to};
        if (std::find(m_graph.edges.begin(), m_graph.edges.end(), edge) == m_graph.edges.end())
            m_graph.edges.push_back(std::move(edge));
    }

    const Pipeline& m_pipeline;
    PipelineGraph m_graph;
    std::set<std::string> m_ids;
    std::set<std::string> m_sourceIds;
    std::vector<GraphNode> m_sources;
};

} // namespace

PipelineGraph buildGraph(const Pipeline& pipeline) {
    return GraphBuilder(pipeline).build();
}

} // namespace cdc::pipeline
