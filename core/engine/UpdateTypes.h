#pragma once
/// The values an update takes and gives: its options, its report with per-flow metrics, and the targets
/// a full refresh would change. Shared by the public facade (Engine.h) and the parts that run an update,
/// which do not include the facade.

#include "core/common/Diagnostic.h"
#include "core/common/Value.h"
#include "core/pipeline/Pipeline.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace cdc::engine {

/// One snapshot a snapshot function offers: AUTO CDC FROM SNAPSHOT whose source is a function of a Python
/// pipeline file (`pipeline::AutoCdcFlow::snapshotFunction`) rather than a query.
struct SnapshotOffer {
    pipeline::Query query; ///< the snapshot's rows, resolved like a FROM SNAPSHOT query
    Value version;
};

/// Asks the snapshot function of `flow` for the snapshot after `lastVersion` (nullopt: none processed
/// yet); nullopt when it offers none.
using SnapshotFunctionCall = std::function<Result<std::optional<SnapshotOffer>>(
    const std::string& flow, const std::optional<Value>& lastVersion)>;

struct UpdateOptions {
    /// Simulated wall-clock time of the update (epoch seconds, UTC). nullopt = the real clock.
    std::optional<std::int64_t> now;
    bool fullRefresh = false;
    /// Set from another thread to stop the update: checked between flows and, through a
    /// storage::QueryGuard, while any of its statements runs; the update rolls back and returns CANCELLED.
    const std::atomic<bool>* cancel = nullptr;
    /// How long the update may run (zero: no limit): a pipeline can compute without end (a view that joins
    /// big tables without a condition); past it the update rolls back and returns TIMEOUT.
    std::chrono::milliseconds timeout{0};
    /// Progress callback (flow name, rows done, rows total); called from the calling thread.
    std::function<void(const std::string&, std::int64_t, std::int64_t)> progress;
    /// Called once per pending version of a flow whose snapshots come from a function; unset, such a flow
    /// fails the update (only a run of its Python file can call the function).
    SnapshotFunctionCall snapshotFunction;
};

struct FlowMetrics {
    std::string flow;
    std::string target;
    std::int64_t rowsRead = 0;
    std::int64_t upserted = 0;       ///< Databricks num_upserted_rows
    std::int64_t deleted = 0;        ///< Databricks num_deleted_rows
    std::int64_t staleDropped = 0;   ///< events older than the stored state
    std::int64_t versionsOpened = 0; ///< SCD2
    std::int64_t versionsClosed = 0; ///< SCD2
    std::int64_t versionsSplit = 0;  ///< SCD2
    std::int64_t tombstonesCreated = 0;
    std::int64_t tombstonesCollected = 0;
    std::int64_t ties = 0;
    double durationMs = 0;
};

struct UpdateReport {
    std::int64_t updateId = 0; ///< 1, 2, ... per database; also the targets' CDF commit version
    std::int64_t now = 0;      ///< the simulated time used
    std::vector<FlowMetrics> flows;
    std::vector<Diagnostic> warnings;
    double durationMs = 0;
};

/// A target whose stored rows the pipeline would no longer compute as they are.
struct OutdatedTarget {
    std::string target;
    /// DEFINITION_CHANGED: its flows read or compute rows differently now (a source, a view, an expression
    /// or an option changed), or its rows were made by different definitions over the updates since it
    /// was last built; the rows already processed keep what the old definition made of them.
    /// SCHEMA_CHANGED: keys, columns, sequence type, SCD type or the storage layout changed; the next
    /// update refuses to run (TARGET_SCHEMA_CHANGED). Either way a full refresh rebuilds it.
    std::string code;
    std::string message;
    SourceLocation location; ///< the flow into the target
};

} // namespace cdc::engine
