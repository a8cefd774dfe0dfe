#pragma once
/// Runs one applier over the workload in a fresh database file: the U timed updates (throughput), then
/// extra fixed-size updates on top of that history and on top of a small one (incrementality).

#include "UpdateApplier.h"
#include "Workload.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace cdc::bench {

class SourceTable;
class StatementProfiler;

using ApplierFactory = std::function<std::unique_ptr<UpdateApplier>()>;

struct IncrementalSpec {
    std::int64_t events = 10'000; ///< size of each timed incremental update, and of the small history
    int repetitions = 5; ///< timed updates per history size; their mean (checkpoint included) is reported
};

/// One history size's incremental updates: means of wall time and CPU time (each update charged its
/// share of the checkpoint that follows them), medians of SQLite page traffic
/// (pages missed in the connection's cache and pages written: independent of other load on the machine).
struct IncrementalFigures {
    double ms = 0;
    double cpuMs = 0;
    std::int64_t cacheMisses = 0;
    std::int64_t pagesWritten = 0;
    /// Rows inserted, updated or deleted by the update (sqlite3_total_changes64): the size of its output.
    std::int64_t rowsChanged = 0;
    /// The share of the checkpoint after the updates charged to each (included in `ms` / `cpuMs`).
    double checkpointMs = 0, checkpointCpuMs = 0;
    /// CPU time per 1,000 changed rows: flat when cost follows the update's output, not the history.
    double cpuMsPerThousandRows() const {
        return rowsChanged > 0 ? cpuMs * 1000.0 / static_cast<double>(rowsChanged) : 0;
    }
};

struct ScenarioResult {
    double seconds = 0;                ///< sum of the U updates' apply() times and the final checkpoint
    double cpuSeconds = 0;             ///< the same in process CPU time
    double checkpointSeconds = 0;      ///< the final WAL checkpoint alone (included in `seconds`)
    std::vector<double> updateSeconds; ///< each update's time
    std::int64_t visibleRows = 0;      ///< after the U updates
    IncrementalFigures smallHistory;   ///< incremental updates on `IncrementalSpec::events` of history
    IncrementalFigures largeHistory;   ///< incremental updates on `WorkloadSpec::events` of history
    double eventsPerSecond(std::int64_t events) const { return seconds > 0 ? events / seconds : 0; }
    double eventsPerCpuSecond(std::int64_t events) const { return cpuSeconds > 0 ? events / cpuSeconds : 0; }
    double incrementality() const { return smallHistory.ms > 0 ? largeHistory.ms / smallHistory.ms : 0; }
    double cpuIncrementality() const {
        return smallHistory.cpuMs > 0 ? largeHistory.cpuMs / smallHistory.cpuMs : 0;
    }
};

/// Profilers, when given, trace every statement of the timed updates of each part of a scenario.
struct ScenarioProfilers {
    StatementProfiler* updates = nullptr;      ///< the U updates
    StatementProfiler* smallHistory = nullptr; ///< incremental updates on the small history
    StatementProfiler* largeHistory = nullptr; ///< incremental updates on the whole workload's history
};

class Scenario {
public:
    Scenario(std::string workDir, WorkloadSpec workload, IncrementalSpec incremental,
             std::vector<std::string> pragmas)
        : m_workDir(std::move(workDir)), m_workload(workload), m_incremental(incremental),
          m_pragmas(std::move(pragmas)) {}

    /// `label` names the database files (kept in the work directory for inspection).
    Result<ScenarioResult> run(const std::string& label, const ApplierFactory& makeApplier,
                               const ScenarioProfilers& profilers = {}) const;

private:
    Result<IncrementalFigures> measureIncremental(storage::Database& db, UpdateApplier& applier,
                                                  SourceTable& source, WorkloadGenerator& generator,
                                                  StatementProfiler* profiler) const;

    std::string m_workDir;
    WorkloadSpec m_workload;
    IncrementalSpec m_incremental;
    std::vector<std::string> m_pragmas;
};

} // namespace cdc::bench
