#pragma once
/// Everything one benchmark run measured, with the targets, printed as a table and written as
/// bench-results.json (contract: /work/shared/spec/bench.md; keep its fields, add freely).

#include "DuckdbBaseline.h"
#include "Scenario.h"
#include "Workload.h"

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace cdc::bench {

struct Targets {
    static constexpr double scd1VsLimit = 0.5;
    static constexpr double scd2VsLimit = 0.2;
    static constexpr double incrementality = 1.5;
    static constexpr double scd2VsHandwritten = 10;
    static constexpr double peakRssMb = 300;
    static constexpr double guiRefreshMs = 100;
    // Issue 18: against DuckDB's recompute, the tool a user would pick instead, measured in the same run.
    static constexpr double replayVsDuckdb = 2;         ///< engine SCD1+SCD2 time ÷ DuckDB's recompute total
    static constexpr double smallUpdateVsDuckdb = 0.25; ///< 10k-event update on 1M history ÷ DuckDB's
    static constexpr double explorerSeconds = 10;       ///< 1,000 shuffled replays, 1,000 events, 100 keys
    static constexpr double loadRowsPerSecond = 500'000; ///< 1M-row INSERT … VALUES script / CSV import
};

/// The arrival-order explorer figure: `orders` shuffled replays of an `events`-event, `keys`-key project.
struct ExplorerFigures {
    int orders = 0;
    std::int64_t events = 0, keys = 0;
    int threads = 0;
    double seconds = 0;
    double cpuSeconds = 0; ///< all threads
    std::string note;
};

/// Loading a source: rows per second of a `rows`-row INSERT … VALUES script run by the ScriptExecutor, and of
/// the same rows imported from a CSV file.
struct LoadFigures {
    std::int64_t rows = 0;
    double sqlSeconds = 0;
    double sqlCpuSeconds = 0;
    std::optional<double> csvSeconds;
    double csvCpuSeconds = 0;
    std::string csvNote;
    double sqlRowsPerSecond() const { return sqlSeconds > 0 ? static_cast<double>(rows) / sqlSeconds : 0; }
    std::optional<double> csvRowsPerSecond() const {
        if (!csvSeconds || *csvSeconds <= 0)
            return std::nullopt;
        return static_cast<double>(rows) / *csvSeconds;
    }
};

struct ScdFigures {
    Scd scd = Scd::Type1;
    ScenarioResult engine; ///< in a WAL file on disk: the durable file mode `cdcstudio-cli update` runs in
    /// The same scenario in the folder the GUI's working copy lives in when it can: RAM-backed
    /// (storage::memoryBackedFolder), same SQLite settings.
    std::optional<ScenarioResult> engineInMemory;
    std::optional<ScenarioResult> handwritten;
    std::optional<ScenarioResult> floor;   ///< StorageFloor: the least SQLite work for this SCD type
    std::optional<double> enginePeakRssMb; ///< high-water mark while the engine scenario ran

    double vsLimit(std::int64_t events, double limitRowsPerSecond) const;
    /// The same ratio in CPU time: robust when other processes share the machine.
    double vsLimitCpu(std::int64_t events, double limitRowsPerCpuSecond) const;
    std::optional<double> vsHandwritten() const;
    std::optional<double> vsHandwrittenCpu() const;
};

struct BenchResults {
    WorkloadSpec workload;
    double realizedDeleteFraction = 0;
    double realizedOutOfOrderFraction = 0;
    IncrementalSpec incremental;
    double limitRowsPerSecond = 0;
    double limitRowsPerCpuSecond = 0;
    std::optional<ScdFigures> scd1;
    std::optional<ScdFigures> scd2;
    double peakRssMb = 0;
    std::optional<double> guiRefreshMs;
    std::string guiRefreshNote;
    /// cdcstudio-bench-gui-step: a step of the incremental size on the whole history as the app runs it
    /// (delivering queued events, the update, the undo step), and the engine's share of it.
    std::optional<double> guiStepMs;
    std::optional<double> guiStepEngineMs;
    std::optional<DuckdbFigures> duckdb;
    std::string duckdbNote; ///< why DuckDB was not measured
    std::optional<ExplorerFigures> explorer;
    std::optional<LoadFigures> load;
    /// Where the GUI's working copy would live (the RAM-backed folder), or why the in-memory scenarios did
    /// not run.
    std::string guiStorage;
    /// Engine SCD1+SCD2 replay time ÷ DuckDB's recompute of both after every update (target ≤ 2).
    std::optional<double> replayVsDuckdb() const;
    /// The same replay in the GUI's storage mode (engineInMemory), reported beside.
    std::optional<double> replayInMemoryVsDuckdb() const;
    /// The engine's 10k-event update on the whole history ÷ DuckDB's recompute after it (≤ 0.25), in the
    /// storage mode the GUI steps in (engineInMemory when it ran, else the disk file, where the GUI then
    /// keeps its working copy too).
    std::optional<double> smallUpdateVsDuckdb(Scd scd) const;
    /// The same in the durable file mode of the CLI (ScdFigures::engine), reported beside.
    std::optional<double> smallUpdateFileVsDuckdb(Scd scd) const;
    /// The app's SCD2 step (guiStepMs) ÷ DuckDB's SCD2 recompute after such an update.
    std::optional<double> guiStepVsDuckdb() const;
    std::string sqliteVersion;
    std::string cpuModel;
    std::string startedAt;            ///< ISO UTC
    std::vector<std::string> pragmas; ///< --pragma settings applied to every measured connection
    double wallSeconds = 0;
    double loadAverageAtStart = 0; ///< 1-minute load average: other work on the machine skews wall times
    double loadAverageAtEnd = 0;
};

void printTable(std::ostream& out, const BenchResults& results);
void writeJson(std::ostream& out, const BenchResults& results);

} // namespace cdc::bench
