#include "core/engine/DatasetPlanner.h"

#include "core/common/Text.h"
#include "core/engine/SourceResolver.h"
#include "core/engine/SqlText.h"

namespace cdc::engine {

using sqltext::col;
using sqltext::join;
using storage::ColumnInfo;
using storage::quoteIdentifier;

namespace {

/// A computed column's type is not known to the engine (the SQL front end types expressions, and the
/// pipeline carries only their names): VOID stores the values as computed, with no affinity to coerce them.
std::vector<ColumnInfo> storedColumns(const ResolvedSource& src) {
    std::vector<ColumnInfo> out = src.columns;
    for (std::size_t i = 0; i < out.size(); ++i)
        if (!src.typed[i])
            out[i].type = DataType::of(DataType::Kind::Void);
    return out;
}

/// The query's columns, without the engine's own row position.
struct FlowColumns {
    std::vector<ColumnInfo> columns;
    std::vector<bool> typed;
};

TargetPlan datasetTarget(const DeclaredDataset& d, DatasetKind kind) {
    TargetPlan t;
    t.kind = kind;
    t.name = d.name;
    t.tables = storage::TargetTables(d.name);
    t.location = d.location;
    t.sequenceType = DataType::of(DataType::Kind::BigInt);
    return t;
}

Status mergeColumn(TargetPlan& t, std::vector<bool>& typed, const ColumnInfo& c, bool known,
                   const pipeline::AppendFlow& f, bool declared) {
    const int i = indexOfColumn(t.columns, c.name);
    if (i < 0) {
        if (declared)
            return Diagnostic::error("SCHEMA_MISMATCH",
                                     "append flow '" + f.name.name + "' produces column '" + c.name +
                                         "', which the declared schema of " + t.name + " lacks",
                                     f.query.location.valid() ? f.query.location : f.location);
        t.columns.push_back(c);
        typed.push_back(known);
        return Status::success();
    }
    ColumnInfo& have = t.columns[static_cast<std::size_t>(i)];
    if (!known)
        return Status::success();
    if (!typed[static_cast<std::size_t>(i)]) {
        // The first flow computed the column (its type a guess): a table's column decides.
        have.type = c.type;
        typed[static_cast<std::size_t>(i)] = true;
        return Status::success();
    }
    if (have.type.toString() != c.type.toString())
        // Spark merges the flows' schemas (DataflowGraph.inferredSchema, SchemaMergingUtils); Delta
        // refuses two types for one field.
        return Diagnostic::error("DELTA_FAILED_TO_MERGE_FIELDS",
                                 "append flow '" + f.name.name + "' gives column '" + c.name + "' the type " +
                                     c.type.toString() + ", but " + t.name + " has it as " +
                                     have.type.toString() + "; CAST it in the flow's query",
                                 f.query.location.valid() ? f.query.location : f.location);
    return Status::success();
}

} // namespace

Status planAppendTarget(const storage::Database& db, const pipeline::Pipeline& pipeline, PipelinePlan& plan,
                        const DeclaredDataset& d) {
    TargetPlan t = datasetTarget(d, DatasetKind::Append);
    t.properties = d.table->properties;
    std::vector<bool> typed;
    const bool declared = !d.table->schema.empty();
    for (const pipeline::ColumnSpec& c : d.table->schema) {
        t.columns.push_back({c.name, c.type});
        typed.push_back(true);
    }
    SourceResolver resolver(db, pipeline, plan);
    std::vector<AppendFlowPlan> flows;
    std::vector<FlowColumns> produced;
    for (const pipeline::AppendFlow* f : d.appendFlows) {
        auto src =
            resolver.resolveQuery(f->query, "the query of flow '" + f->name.name + "'", f->query.location, 0);
        if (!src)
            return src.error();
        // Spark's pipelines: a flow into a streaming table reads a stream, a ONCE flow a batch
        // (GraphValidations.validateFlowStreamingness; semantics.md §10.4, §11.5).
        if (!f->once && src->inputs.empty())
            return Diagnostic::error("INVALID_FLOW_QUERY_TYPE.BATCH_RELATION_FOR_STREAMING_TABLE",
                                     "append flow '" + f->name.name +
                                         "' reads no stream; read its source with "
                                         "STREAM(...), or write INSERT ONCE for a one-time batch",
                                     f->query.location.valid() ? f->query.location : f->location);
        if (f->once && src->streamRead)
            return Diagnostic::error("INVALID_FLOW_QUERY_TYPE.STREAMING_RELATION_FOR_ONCE_FLOW",
                                     "ONCE flow '" + f->name.name +
                                         "' reads its source once, as a batch: drop STREAM here",
                                     *src->streamRead);
        const std::vector<ColumnInfo> columns = storedColumns(*src);
        for (std::size_t i = 0; i < columns.size(); ++i)
            CDC_TRY(mergeColumn(t, typed, columns[i], src->typed[i], *f, declared));
        AppendFlowPlan a;
        a.flow = f;
        a.name = f->name.name;
        a.once = f->once;
        a.fromTemplate = src->fromTemplate;
        a.inputs = src->inputs;
        flows.push_back(std::move(a));
        produced.push_back({src->columns, src->typed});
    }
    t.tracked.assign(t.columns.size(), true);
    const std::size_t index = plan.targets.size();
    for (std::size_t k = 0; k < flows.size(); ++k) {
        AppendFlowPlan& a = flows[k];
        a.target = index;
        // BY NAME: each target column from the flow's column of that name; NULL where it has none.
        for (const ColumnInfo& c : t.columns)
            a.columnSql.push_back(indexOfColumn(produced[k].columns, c.name) >= 0 ? quoteIdentifier(c.name)
                                                                                  : std::string("NULL"));
        plan.appendFlows.push_back(std::move(a));
    }
    plan.targets.push_back(std::move(t));
    return Status::success();
}

Status planMaterializedView(const storage::Database& db, const pipeline::Pipeline& pipeline,
                            PipelinePlan& plan, const DeclaredDataset& d) {
    SourceResolver resolver(db, pipeline, plan);
    const pipeline::View& v = *d.view;
    auto src = resolver.resolveQuery(v.query, "materialized view '" + v.name.name + "'", v.location, 0);
    if (!src)
        return src.error();
    if (src->streamRead)
        // A materialized view is a batch query (semantics.md §11.3; Spark's pipelines:
        // INVALID_FLOW_QUERY_TYPE.STREAMING_RELATION_FOR_MATERIALIZED_VIEW, validateFlowStreamingness).
        return Diagnostic::error("INVALID_FLOW_QUERY_TYPE.STREAMING_RELATION_FOR_MATERIALIZED_VIEW",
                                 "materialized view '" + v.name.name +
                                     "' reads a stream; a materialized view is recomputed from whole tables: "
                                     "drop STREAM, or make it a streaming table",
                                 *src->streamRead);
    TargetPlan t = datasetTarget(d, DatasetKind::MaterializedView);
    t.columns = storedColumns(*src);
    t.tracked.assign(t.columns.size(), true);
    t.materializedSql =
        "SELECT " +
        join(t.columns.size(),
             [&](std::size_t i) { return quoteIdentifier(t.columns[i].name) + " AS " + col(i); }) +
        " FROM " + closedFrom(src->fromTemplate, src->inputs.size()) + " AS __mv";
    plan.targets.push_back(std::move(t));
    return Status::success();
}

} // namespace cdc::engine
