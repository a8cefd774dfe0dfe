#pragma once
/// Everything one benchmark run measured, with the targets, printed as a table and written as
/// bench-results.json (contract: /work/shared/spec/bench.md; keep its fields, add freely).

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
};

struct ScdFigures {
    Scd scd = Scd::Type1;
    ScenarioResult engine;
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
