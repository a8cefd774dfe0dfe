// cdcstudio-bench: measures the AUTO CDC engine against SQLite's speed limit and hand-written SQL on a
// deterministic workload, prints a table and writes bench-results.json. Run through scripts/bench.

#include "BenchResults.h"
#include "DuckdbBaseline.h"
#include "EngineApplier.h"
#include "HandwrittenApplier.h"
#include "PeakMemory.h"
#include "Scenario.h"
#include "SpeedLimit.h"
#include "StatementProfiler.h"
#include "Stopwatch.h"
#include "StorageFloor.h"
#include "TargetFigures.h"

#include "core/sql/SqlApi.h"
#include "core/storage/MemoryFolder.h"

#include <sqlite3.h>

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

using namespace cdc;
using namespace cdc::bench;

namespace {

struct Options {
    WorkloadSpec workload;
    IncrementalSpec incremental;
    std::string out = "bench-results.json";
    std::optional<Scd> only;
    std::string workDir;
    bool keep = false;
    bool profileStatements = false;
    bool engine = true;
    bool baselines = true;
    bool scenarios = true; ///< the engine and baseline scenarios (off: --load-explorer-only)
    int explorerOrders = 1000;
    std::int64_t loadRows = 1'000'000;
    std::vector<std::string> pragmas;
    std::optional<double> guiRefreshMs; ///< measured by cdcstudio-bench-gui, passed on by scripts/bench
    std::optional<double> guiStepMs;    ///< measured by cdcstudio-bench-gui-step, passed on by scripts/bench
    std::optional<double> guiStepEngineMs;
    DuckdbSetup duckdb;            ///< set by scripts/bench once it has installed @duckdb/node-api
    std::string duckdbUnavailable; ///< why scripts/bench could not set it up
};

void usage(std::ostream& out) {
    out << "usage: cdcstudio-bench [--quick] [--events N] [--keys K] [--updates U] [--out FILE]\n"
           "                       [--only scd1|scd2] [--incremental-events N] [--incremental-updates R]\n"
           "                       [--seed S]\n"
           "                       [--engine-only | --baselines-only] [--workdir DIR] [--keep]\n"
           "                       [--pragma SETTING]... [--profile-statements] [--gui-refresh-ms MS]\n"
           "  --quick            N = 100,000 events (default 1,000,000)\n"
           "  --incremental-updates R  timed updates per history size (default 5), each charged an R-th\n"
           "                     of the checkpoint that follows them\n"
           "  --engine-only      skip the speed limit and hand-written SQL (for profiling)\n"
           "  --workdir DIR      where the database files go (default: a fresh temporary directory)\n"
           "  --keep             keep the database files afterwards\n"
           "  --profile-statements  print the engine's time per SQL statement (U updates, incremental "
           "updates)\n"
           "  --pragma SETTING   e.g. journal_mode=WAL: run PRAGMA SETTING on every measured connection\n"
           "  --gui-refresh-ms   record the GUI refresh figure measured by cdcstudio-bench-gui\n"
           "  --gui-step-ms \"S E\"  record the app's step (S ms, engine E ms) measured by "
           "cdcstudio-bench-gui-step\n"
           "  --duckdb-modules DIR --duckdb-script FILE  run the DuckDB baseline: DIR holds\n"
           "                     node_modules/@duckdb/node-api, FILE is tests/bench/duckdb_recompute.mjs\n"
           "  --duckdb-unavailable WHY  record why the DuckDB baseline could not run\n"
           "  --explorer-orders N  shuffled replays for the arrival-order figure (default 1000)\n"
           "  --load-rows N      rows of the source-script load figure (default 1,000,000; --quick 100,000)\n"
           "  --load-explorer-only  only the explorer and load figures\n";
}

std::optional<std::int64_t> positive(std::string_view text) {
    try {
        std::size_t used = 0;
        const long long v = std::stoll(std::string(text), &used);
        if (used == text.size() && v > 0)
            return v;
    } catch (...) {
    }
    return std::nullopt;
}

/// Parses argv; an error message when the arguments are wrong.
std::optional<std::string> parseArguments(int argc, char** argv, Options& o) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        auto value = [&]() -> std::optional<std::string_view> {
            if (i + 1 >= argc)
                return std::nullopt;
            return std::string_view(argv[++i]);
        };
        auto number = [&](std::int64_t& target) -> std::optional<std::string> {
            auto v = value();
            auto n = v ? positive(*v) : std::nullopt;
            if (!n)
                return std::string(arg) + " needs a positive integer";
            target = *n;
            return std::nullopt;
        };
        std::int64_t n = 0;
        std::optional<std::string> error;
        if (arg == "--quick") {
            o.workload.events = 100'000;
            o.loadRows = 100'000;
        } else if (arg == "--load-rows")
            error = number(o.loadRows);
        else if (arg == "--explorer-orders") {
            error = number(n);
            o.explorerOrders = static_cast<int>(n);
        } else if (arg == "--load-explorer-only")
            o.scenarios = false;
        else if (arg == "--events")
            error = number(o.workload.events);
        else if (arg == "--keys")
            error = number(o.workload.keys);
        else if (arg == "--updates") {
            error = number(n);
            o.workload.updates = static_cast<int>(n);
        } else if (arg == "--incremental-events")
            error = number(o.incremental.events);
        else if (arg == "--incremental-updates") {
            error = number(n);
            o.incremental.repetitions = static_cast<int>(n);
        } else if (arg == "--seed") {
            error = number(n);
            o.workload.seed = static_cast<std::uint64_t>(n);
        } else if (arg == "--out" || arg == "--workdir") {
            auto v = value();
            if (!v)
                return std::string(arg) + " needs a path";
            (arg == "--out" ? o.out : o.workDir) = std::string(*v);
        } else if (arg == "--duckdb-modules" || arg == "--duckdb-script" || arg == "--duckdb-unavailable") {
            auto v = value();
            if (!v)
                return std::string(arg) + " needs a value";
            (arg == "--duckdb-modules"  ? o.duckdb.nodeModulesDir
             : arg == "--duckdb-script" ? o.duckdb.script
                                        : o.duckdbUnavailable) = std::string(*v);
        } else if (arg == "--pragma") {
            auto v = value();
            if (!v)
                return "--pragma needs a setting such as journal_mode=WAL";
            o.pragmas.emplace_back(*v);
        } else if (arg == "--only") {
            auto v = value();
            if (v == "scd1")
                o.only = Scd::Type1;
            else if (v == "scd2")
                o.only = Scd::Type2;
            else
                return "--only takes scd1 or scd2";
        } else if (arg == "--gui-refresh-ms") {
            auto v = value();
            try {
                o.guiRefreshMs = v ? std::stod(std::string(*v)) : -1.0;
            } catch (...) {
                o.guiRefreshMs = -1.0;
            }
            if (*o.guiRefreshMs < 0)
                return "--gui-refresh-ms needs a number of milliseconds";
        } else if (arg == "--gui-step-ms") {
            // "STEP_MS ENGINE_MS", as cdcstudio-bench-gui-step prints them
            auto v = value();
            std::istringstream in(v ? std::string(*v) : std::string());
            double step = -1, engine = -1;
            in >> step >> engine;
            if (!in || step < 0 || engine < 0)
                return "--gui-step-ms needs \"STEP_MS ENGINE_MS\"";
            o.guiStepMs = step;
            o.guiStepEngineMs = engine;
        } else if (arg == "--engine-only")
            o.baselines = false;
        else if (arg == "--baselines-only")
            o.engine = false;
        else if (arg == "--profile-statements")
            o.profileStatements = true;
        else if (arg == "--keep")
            o.keep = true;
        else if (arg == "--help" || arg == "-h") {
            usage(std::cout);
            std::exit(0);
        } else
            return "unknown argument " + std::string(arg);
        if (error)
            return error;
    }
    if (!o.engine && !o.baselines)
        return "--engine-only and --baselines-only exclude each other";
    return std::nullopt;
}

std::string isoNow() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

std::string cpuModel() {
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line;
    while (std::getline(cpuinfo, line))
        if (line.rfind("model name", 0) == 0) {
            auto colon = line.find(':');
            return colon == std::string::npos ? line : line.substr(colon + 2);
        }
    return "unknown CPU";
}

std::string makeWorkDir(const std::filesystem::path& parent = std::filesystem::temp_directory_path()) {
    std::string pattern = (parent / "cdcstudio-bench-XXXXXX").string();
    if (!mkdtemp(pattern.data()))
        return {};
    return pattern;
}

void realizedFractions(BenchResults& results) {
    WorkloadGenerator generator(results.workload);
    for (std::int64_t done = 0; done < results.workload.events; done += 100'000)
        generator.next(std::min<std::int64_t>(100'000, results.workload.events - done));
    const auto n = static_cast<double>(generator.generated());
    results.realizedDeleteFraction = generator.deletes() / n;
    results.realizedOutOfOrderFraction = generator.outOfOrder() / n;
}

double loadAverage() {
    double load[1] = {0};
    return getloadavg(load, 1) == 1 ? load[0] : 0;
}

int fail(const std::string& what, const Diagnostic& error) {
    std::cerr << "cdcstudio-bench: " << what << ": " << error.format() << "\n";
    return 1;
}

} // namespace

int main(int argc, char** argv) {
    cdc::sql::installSparkFunctions(); // as the programs do, before any connection is opened
    Options options;
    if (auto error = parseArguments(argc, argv, options)) {
        std::cerr << "cdcstudio-bench: " << *error << "\n";
        usage(std::cerr);
        return 2;
    }
    const bool ownWorkDir = options.workDir.empty();
    if (ownWorkDir)
        options.workDir = makeWorkDir();
    std::error_code ec;
    std::filesystem::create_directories(options.workDir, ec);
    if (options.workDir.empty() || ec) {
        std::cerr << "cdcstudio-bench: cannot create a work directory\n";
        return 1;
    }

    Stopwatch wall;
    BenchResults results;
    results.workload = options.workload;
    results.incremental = options.incremental;
    results.startedAt = isoNow();
    results.loadAverageAtStart = loadAverage();
    results.sqliteVersion = sqlite3_libversion();
    results.cpuModel = cpuModel();
    results.pragmas = options.pragmas;
    results.guiRefreshMs = options.guiRefreshMs;
    results.guiStepMs = options.guiStepMs;
    results.guiStepEngineMs = options.guiStepEngineMs;
    results.guiRefreshNote =
        options.guiRefreshMs
            ? "cdcstudio-bench-gui: 100,000-row SCD2 target, models refreshed + visible timeline painted"
            : "not measured: needs cdcstudio-bench-gui (GUI builds, run by scripts/bench)";
    realizedFractions(results);
    std::cerr << "work directory " << options.workDir << "\n";

    // DuckDB first: the peer the targets are stated against (issue 18).
    if (!options.scenarios)
        results.duckdbNote = "--load-explorer-only";
    else if (!options.baselines)
        results.duckdbNote = "--engine-only";
    else if (options.duckdb.nodeModulesDir.empty() || options.duckdb.script.empty())
        results.duckdbNote = options.duckdbUnavailable.empty()
                                 ? "run through scripts/bench, which installs @duckdb/node-api"
                                 : options.duckdbUnavailable;
    else {
        std::cerr << "DuckDB recompute...\n";
        auto duckdb = measureDuckdb(options.duckdb, options.workDir, options.workload, options.incremental);
        if (duckdb)
            results.duckdb = std::move(duckdb).value();
        else
            results.duckdbNote = duckdb.error().format();
    }

    if (options.baselines) {
        std::cerr << "source script load...\n";
        auto load = measureScriptLoad(options.workDir, options.loadRows);
        if (!load)
            return fail("source script load", load.error());
        results.load = load.value();
        std::cerr << "arrival-order explorer...\n";
        auto explorer = measureExplorer(options.explorerOrders, 1000, 100);
        if (!explorer)
            return fail("arrival-order explorer", explorer.error());
        results.explorer = explorer.value();
    }

    if (options.baselines && options.scenarios) {
        std::cerr << "measuring SQLite's speed limit...\n";
        auto limit =
            measureSpeedLimit(options.workDir + "/speed-limit.db", options.workload, options.pragmas);
        if (!limit)
            return fail("speed limit", limit.error());
        results.limitRowsPerSecond = limit->rowsPerSecond;
        results.limitRowsPerCpuSecond = limit->rowsPerCpuSecond;
    }

    std::vector<std::pair<std::string, StatementProfiler>> profiles;
    const Scenario scenario(options.workDir, options.workload, options.incremental, options.pragmas);
    // Target 2 is stated in the storage mode the GUI steps in: its working copy goes to a RAM-backed folder
    // when one has room (ui::WorkingCopyFolder), so the engine runs there too, with the same settings.
    std::string memoryDir;
    if (options.engine && options.scenarios) {
        const auto room = storage::workingCopyRoom(static_cast<std::uint64_t>(options.workload.events) * 300);
        if (auto folder = storage::memoryBackedFolder(room)) {
            memoryDir = makeWorkDir(*folder);
            results.guiStorage = memoryDir.empty()
                                     ? "a WAL file on disk: cannot create a folder in " + *folder
                                     : "a WAL file in RAM-backed " + *folder;
        } else {
            results.guiStorage = "no RAM-backed folder with room here";
        }
    }
    for (Scd scd : {Scd::Type1, Scd::Type2}) {
        if (!options.scenarios || (options.only && *options.only != scd))
            continue;
        const std::string tag = scd == Scd::Type1 ? "scd1" : "scd2";
        ScdFigures figures;
        figures.scd = scd;
        if (options.engine) {
            std::cerr << tag << ": engine...\n";
            PhasePeakMemory phase;
            StatementProfiler updates, small, large;
            ScenarioProfilers profilers;
            if (options.profileStatements)
                profilers = {&updates, &small, &large};
            auto run = scenario.run(
                tag + "-engine", [scd] { return std::make_unique<EngineApplier>(scd); }, profilers);
            if (!run)
                return fail(tag + " engine", run.error());
            figures.engine = run.value();
            figures.enginePeakRssMb = phase.phasePeakMb();
            if (!memoryDir.empty()) {
                std::cerr << tag << ": engine in the GUI's working-copy folder (" << memoryDir << ")...\n";
                const Scenario inMemory(memoryDir, options.workload, options.incremental, options.pragmas);
                auto memoryRun =
                    inMemory.run(tag + "-engine-gui", [scd] { return std::make_unique<EngineApplier>(scd); });
                // Its files would hold RAM: they go at once, even with --keep.
                std::filesystem::remove(memoryDir + "/" + tag + "-engine-gui.db", ec);
                std::filesystem::remove(memoryDir + "/" + tag + "-engine-gui-small-history.db", ec);
                if (!memoryRun)
                    return fail(tag + " engine in memory", memoryRun.error());
                figures.engineInMemory = memoryRun.value();
            }
            if (options.profileStatements) {
                const std::string inc = std::to_string(options.incremental.events) + "-event updates on ";
                profiles.emplace_back(tag + " engine, the " + std::to_string(options.workload.updates) +
                                          " updates",
                                      std::move(updates));
                profiles.emplace_back(tag + " engine, " + inc + std::to_string(options.incremental.events) +
                                          " events of history",
                                      std::move(small));
                profiles.emplace_back(tag + " engine, " + inc + std::to_string(options.workload.events) +
                                          " events of history",
                                      std::move(large));
            }
        }
        if (options.baselines) {
            std::cerr << tag << ": hand-written SQL...\n";
            auto run = scenario.run(tag + "-handwritten", [scd]() -> std::unique_ptr<UpdateApplier> {
                if (scd == Scd::Type1)
                    return std::make_unique<HandwrittenScd1>();
                return std::make_unique<HandwrittenScd2>();
            });
            if (!run)
                return fail(tag + " hand-written", run.error());
            figures.handwritten = run.value();
            std::cerr << tag << ": storage floor...\n";
            auto floor = scenario.run(tag + "-floor", [scd] { return std::make_unique<StorageFloor>(scd); });
            if (!floor)
                return fail(tag + " storage floor", floor.error());
            figures.floor = floor.value();
        }
        (scd == Scd::Type1 ? results.scd1 : results.scd2) = figures;
    }

    results.peakRssMb = processPeakRssMb();
    results.wallSeconds = wall.seconds();
    results.loadAverageAtEnd = loadAverage();
    printTable(std::cout, results);
    for (const auto& [title, profiler] : profiles)
        profiler.print(std::cout, title);
    std::ofstream json(options.out);
    writeJson(json, results);
    if (!json) {
        std::cerr << "cdcstudio-bench: cannot write " << options.out << "\n";
        return 1;
    }
    std::cout << "results written to " << options.out << "\n";
    if (ownWorkDir && !options.keep)
        std::filesystem::remove_all(options.workDir, ec);
    if (!memoryDir.empty())
        std::filesystem::remove_all(memoryDir, ec);
    return 0;
}
