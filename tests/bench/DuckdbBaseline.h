#pragma once
/// The DuckDB baseline: the tool a data engineer would pick instead of AUTO CDC, recomputing both targets
/// from the whole event log with window functions after every update (tests/bench/duckdb_recompute.mjs,
/// run by Debian's nodejs with the npm package @duckdb/node-api that scripts/bench installs).

#include "Scenario.h"
#include "Workload.h"

#include "core/common/Diagnostic.h"

#include <string>
#include <vector>

namespace cdc::bench {

struct DuckdbBatch {
    std::int64_t events = 0;
    double loadSeconds = 0; ///< INSERT of the update's events into the event log (not in the ratios)
    double scd1Seconds = 0; ///< recompute of the SCD1 target after the update
    double scd2Seconds = 0; ///< recompute of the SCD2 target after the update
    std::int64_t scd1Rows = 0, scd2Rows = 0; ///< the targets' rows after the update
};

struct DuckdbFigures {
    std::string version;
    int threads = 0;
    std::vector<DuckdbBatch> updates;        ///< the workload's U updates
    std::vector<DuckdbBatch> incremental;    ///< the incremental updates on the whole workload's history
    std::int64_t scd1Rows = 0, scd2Rows = 0; ///< after the U updates, as the engine's are counted
    double wallSeconds = 0;                  ///< the whole node process, file reading included

    double scd1TotalSeconds() const;
    double scd2TotalSeconds() const;
    /// Mean recompute after one incremental update on the whole workload's history.
    double scd1SmallUpdateSeconds() const;
    double scd2SmallUpdateSeconds() const;
};

struct DuckdbSetup {
    std::string nodeModulesDir; ///< holds node_modules/@duckdb/node-api
    std::string script;         ///< duckdb_recompute.mjs
};

/// Writes the workload (the U updates and then the incremental updates on top of it, exactly the events
/// the scenarios append) to a CSV file in `workDir` and runs the recompute on it.
Result<DuckdbFigures> measureDuckdb(const DuckdbSetup& setup, const std::string& workDir,
                                    const WorkloadSpec& workload, const IncrementalSpec& incremental);

} // namespace cdc::bench
