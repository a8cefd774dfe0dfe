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

/// What an AUTO CDC flow did with one event of a key, told by the applier at the moment it decides
/// (provenance: engine/Provenance.h turns these into "why is this row like this?").
enum class TraceOutcome {
    Inserted,           ///< SCD1: the key had no row: this event's values became it
    Updated,            ///< SCD1: replaced the key's row (a higher sequence than the stored one)
    Reinserted,         ///< SCD1: newer than the key's tombstone: the row lives again
    Deleted,            ///< SCD1: deleted the row (it stays a tombstone); or moved a tombstone up
    EarlyDelete,        ///< SCD1: a delete of a key with no row: a tombstone only
    Stale,              ///< older than the sequence already applied
    BlockedByTombstone, ///< older than the key's delete tombstone
    DeleteIgnored,      ///< a delete older than the key's tombstone
    LostInBatch,        ///< a higher sequence of the key in the same update won
    TieLost,       ///< the same sequence value as the winner; arrival order (or upsert over delete) decided
    BelowTruncate, ///< sequenced before a TRUNCATE already applied
    Logged,        ///< SCD2: entered the key's history (which version it makes is read from the result)
    RemovedByTruncate, ///< SCD1: the key's row (or tombstone) was removed by the TRUNCATE `event`
};

/// One traced event (or, for RemovedByTruncate, a key a truncate emptied).
struct TraceRecord {
    std::string target;
    std::string source;      ///< the flow's source table when it reads one by rowid, else empty
    std::int64_t update = 0; ///< the update that delivered and decided it
    std::int64_t rid = 0;    ///< the event's arrival position (the source rowid for a plain source)
    bool isDelete = false;
    TraceOutcome outcome = TraceOutcome::Stale;
    Value sequence;             ///< as shown
    Row values;                 ///< every target column, as the flow computes them
    std::vector<bool> supplied; ///< partial updates: the columns the event supplies; empty: all
    /// SCD1 partial updates: per column, the rid whose value the written row took (0: kept from the stored
    /// row); empty otherwise.
    std::vector<std::int64_t> columnFrom;
    std::int64_t otherRid = 0; ///< the winner (LostInBatch, TieLost) or the truncate (RemovedByTruncate)
    Value against;             ///< the stored sequence it lost to (Stale, BlockedByTombstone, BelowTruncate)
};

/// Receives the trace of an update (UpdateOptions::trace). `wants` is asked per target and key first, so
/// tracing one key costs little on a big batch.
class UpdateTrace {
public:
    virtual ~UpdateTrace() = default;
    virtual bool wants(const std::string& target, const Row& key) const = 0;
    virtual void record(TraceRecord r) = 0;
};

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
    /// Told what the AUTO CDC flows decide for the events it wants (provenance); unset: no tracing.
    UpdateTrace* trace = nullptr;
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
