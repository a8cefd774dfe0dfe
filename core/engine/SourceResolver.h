#pragma once
/// Resolves what a flow or a materialized view reads into SQL: the pipeline's views inlined, source tables
/// read by rowid range (a stream) or in full, the pipeline's own datasets read as stored (in full) or, as a
/// stream, through their change feed. Each result also has a "probe" form in which the pipeline's datasets
/// are empty typed stand-ins, so a plan compiles before an update has created them.

#include "core/common/Diagnostic.h"
#include "core/engine/FlowPlan.h"
#include "core/pipeline/Pipeline.h"
#include "core/storage/Catalog.h"
#include "core/storage/Database.h"

#include <optional>
#include <string>
#include <vector>

namespace cdc::engine {

/// A source relation resolved to SQL: a FROM item template over stream inputs, with typed columns.
struct ResolvedSource {
    std::string fromTemplate;
    std::string probeTemplate; ///< the same item with the pipeline's datasets as empty stand-ins
    std::vector<StreamInput> inputs;
    std::vector<storage::ColumnInfo> columns;
    std::vector<bool> typed; ///< per column: the type is a table column's, not a guess
    bool hasRowId = false;
    /// The first relation read with STREAM (through views), when any.
    std::optional<SourceLocation> streamRead;
};

/// Which of the snapshot table-valued functions a query may read (semantics.md §7.2).
enum class SnapshotScope { None, SnapshotQuery, VersionQuery };

class SourceResolver {
public:
    /// `plan` holds the datasets planned so far: those a later dataset may read.
    SourceResolver(const storage::Database& db, const pipeline::Pipeline& p, const PipelinePlan& plan)
        : m_db(db), m_pipeline(p), m_plan(plan) {}

    /// One relation with every input it reads incrementally (the caller decides whether to close them).
    Result<ResolvedSource> resolve(const pipeline::RelationRef& ref, int depth = 0);

    /// A query's relations resolved (a view's, or a snapshot flow's own queries, which may read the
    /// snapshot function `scope` allows: its placeholder stays in the SQL). `streamAll`: every relation is
    /// read as a stream, as when the query is a view read with STREAM.
    Result<ResolvedSource> resolveQuery(const pipeline::Query& query, const std::string& what,
                                        const SourceLocation& where, int depth,
                                        SnapshotScope scope = SnapshotScope::None, bool streamAll = false);

private:
    Result<ResolvedSource> resolveDataset(const pipeline::RelationRef& ref, const TargetPlan& t);

    const storage::Database& m_db;
    const pipeline::Pipeline& m_pipeline;
    const PipelinePlan& m_plan;
};

/// A FROM item template with every input read in full.
std::string closedFrom(const std::string& fromTemplate, std::size_t inputs);
/// Index of a column by case-insensitive name, or -1.
int indexOfColumn(const std::vector<storage::ColumnInfo>& cols, std::string_view name);

} // namespace cdc::engine
