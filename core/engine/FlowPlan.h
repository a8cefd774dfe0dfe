#pragma once
/// A pipeline resolved against the catalog: for every AUTO CDC target its public schema and storage
/// names, for every flow the SQL that turns a source row into (keys, values, sequence, operation).
/// Building the plan IS the validation: every rule of semantics.md Part 1 #10 and the option
/// combinations of issue 3 are checked here and reported with the offending clause's position.

#include "core/common/Diagnostic.h"
#include "core/engine/DatasetKind.h"
#include "core/pipeline/Pipeline.h"
#include "core/storage/Catalog.h"
#include "core/storage/Database.h"
#include "core/storage/TargetTables.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace cdc::engine {

/// How a flow reads one table incrementally: a source table by rowid, or a target of the pipeline through
/// its change feed (rows numbered `(_commit_version << 32) + __pos`, so later updates number higher).
struct StreamInput {
    std::string catalogName; ///< also the checkpoint's input name
    std::string sqliteName;
    std::string positionSql = "rowid"; ///< the row's position in `sqliteName`, increasing with arrival
};

/// Leads every target signature: the storage layout. Files written by an older layout need a full refresh
/// (TARGET_SCHEMA_CHANGED says so).
inline constexpr std::string_view kStoreLayoutTag = "store6;";

/// Tombstones are kept this long unless a table says otherwise (two days, as in Databricks).
inline constexpr std::int64_t kDefaultGcThresholdSeconds = 172800;

struct TargetPlan {
    DatasetKind kind = DatasetKind::AutoCdc;
    std::string name;             ///< as declared
    storage::TargetTables tables; ///< the SQLite objects behind it
    pipeline::ScdType scdType = pipeline::ScdType::Type1;
    std::vector<storage::ColumnInfo> columns; ///< public data columns (keys included), without the SCD2 pair
    std::vector<int> keyIndex;                ///< positions of the keys in `columns`
    std::vector<bool> tracked;                ///< SCD2: column takes part in history
    DataType sequenceType;
    std::map<std::string, std::string> properties;
    std::int64_t gcThresholdSeconds = kDefaultGcThresholdSeconds;
    bool skipChangeCommits = false;
    /// Materialized views: a SELECT over the stored tables giving the columns as c0, c1, ... in order.
    std::string materializedSql;
    SourceLocation location;

    bool autoCdc() const { return kind == DatasetKind::AutoCdc; }
    /// Everything that must stay equal between updates for the stored state to remain valid.
    std::string signature() const;
    /// Whether column i (of `columns`) is a key column.
    bool isKey(std::size_t i) const {
        return std::find(keyIndex.begin(), keyIndex.end(), static_cast<int>(i)) != keyIndex.end();
    }
    /// Public columns as the catalog shows them (SCD2 adds __START_AT/__END_AT typed like the sequence).
    std::vector<storage::ColumnInfo> publicColumns() const;
};

/// Placeholders in a snapshot flow's SQL, replaced by SQL literals when it runs.
inline constexpr std::string_view kSnapshotVersionSlot = "{{SNAPSHOT_VERSION}}";  ///< the version processed
inline constexpr std::string_view kLastVersionSlot = "{{LAST_SNAPSHOT_VERSION}}"; ///< a FROM item, 0 or 1 row

/// AUTO CDC ... FROM SNAPSHOT (semantics.md §7): where each snapshot's rows and versions come from.
struct SnapshotSource {
    /// The snapshot's rows with the target's columns; `current_snapshot_version()` reads
    /// kSnapshotVersionSlot.
    std::string querySql;
    /// WITH VERSION: the pending versions (first column); `last_snapshot_version()` is kLastVersionSlot.
    /// Empty for periodic snapshots, versioned by the update's time.
    std::string versionSql;
    /// A snapshot function's flow (pipeline::AutoCdcFlow::snapshotFunction): its name, and how an offered
    /// snapshot's query becomes a FROM item (resolved against the planned database and pipeline, which
    /// must outlive the plan).
    std::string function;
    std::function<Result<std::string>(const pipeline::Query&)> resolveOffer;
    bool periodic() const { return versionSql.empty() && function.empty(); }
};

struct FlowPlan {
    const pipeline::AutoCdcFlow* flow = nullptr;
    std::string name;
    std::size_t target = 0; ///< index into PipelinePlan::targets

    // Source: a FROM item template; `{{LO:i}}` / `{{HI:i}}` stand for the rowid range of input i.
    std::string fromTemplate;
    std::string rowIdSql; ///< arrival order of a source row
    std::vector<StreamInput> inputs;
    bool once = false;

    std::vector<std::string> columnSql; ///< per target column
    std::string sequenceKeySql, sequenceValueSql;
    std::string sequenceNullSql; ///< true when the row's sequence is NULL
    std::string operationSql;    ///< 0 upsert, 1 delete, 2 truncate
    bool hasTruncate = false;
    std::vector<bool> ignoreNull; ///< per target column
    std::optional<std::string> columnsToUpdateSql;
    /// Set for FROM SNAPSHOT flows, which read no stream: the sequence SQL above then encodes and shows
    /// kSnapshotVersionSlot.
    std::optional<SnapshotSource> snapshot;
};

/// An append flow (semantics.md §10.2): the rows its query gives since its checkpoint, appended BY NAME.
struct AppendFlowPlan {
    const pipeline::AppendFlow* flow = nullptr;
    std::string name;
    std::size_t target = 0;
    std::string fromTemplate; ///< the query as a FROM item; `{{LO:i}}` / `{{HI:i}}` as in FlowPlan
    std::vector<StreamInput> inputs;
    bool once = false;
    std::vector<std::string> columnSql; ///< per target column: the query's column, or NULL
};

struct PipelinePlan {
    /// In dependency order: a dataset comes after every dataset its flows or query read.
    std::vector<TargetPlan> targets;
    std::vector<FlowPlan> flows;             ///< AUTO CDC flows in execution order
    std::vector<AppendFlowPlan> appendFlows; ///< in execution order
    std::vector<Diagnostic> warnings;
};

/// A fingerprint of how the rows of target `target` are computed beyond its signature: each flow's source
/// query (views inlined), column, sequence and operation expressions and options. When it changes, rows
/// processed before keep what the old definition made of them (engine::outdatedTargets).
std::uint64_t definitionHash(const PipelinePlan& plan, std::size_t target);

/// The (exclusive, inclusive] position range each stream input of a flow reads in one update.
using InputRanges = std::vector<std::pair<std::int64_t, std::int64_t>>;

/// `fromTemplate` (FlowPlan::fromTemplate, AppendFlowPlan::fromTemplate) reading input i over `ranges[i]`.
std::string bindInputRanges(std::string fromTemplate, const InputRanges& ranges);

/// A flow's batch over `from` (its FROM template with the ranges bound) as a FROM item with the columns
/// (rid, op, s, sv, c0.., ctu) UpdateContext::batch describes.
std::string batchSql(const FlowPlan& f, const std::string& from);

/// Resolves and validates. Errors carry the offending clause's position.
Result<PipelinePlan> planPipeline(const storage::Database& db, const pipeline::Pipeline& pipeline);

/// The GC threshold from table properties (pipelines.cdc.tombstoneGCThresholdInSeconds, or the older
/// pipelines.applyChanges.* name): a value that is not a whole number of seconds is an error at `where`.
Result<std::int64_t> gcThreshold(const std::map<std::string, std::string>& properties,
                                 const SourceLocation& where);
/// The same for a stored target's properties; the default where they do not hold a valid threshold.
std::int64_t gcThresholdFrom(const std::map<std::string, std::string>& properties);

} // namespace cdc::engine
