// The events go to DuckDB as a CSV file with a batch column: one file, read once and untimed (as the
// engine's source appends are untimed), then fed to the event log batch by batch. The node script
// prints one JSON object, read here with nlohmann-json.
#include "DuckdbBaseline.h"

#include "Stopwatch.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <numeric>

namespace cdc::bench {

namespace {

double sum(const std::vector<DuckdbBatch>& batches, double DuckdbBatch::*field) {
    return std::accumulate(batches.begin(), batches.end(), 0.0,
                           [field](double s, const DuckdbBatch& b) { return s + b.*field; });
}

double mean(const std::vector<DuckdbBatch>& batches, double DuckdbBatch::*field) {
    return batches.empty() ? 0 : sum(batches, field) / static_cast<double>(batches.size());
}

std::string shellQuoted(const std::string& s) {
    std::string out = "'";
    for (char c : s)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

void writeBatch(std::ostream& out, int batch, const std::vector<Event>& events) {
    for (const Event& e : events)
        out << batch << ',' << e.id << ',' << WorkloadGenerator::name(e.nameIndex) << ','
            << WorkloadGenerator::city(e.cityIndex) << ',' << operationName(e.operation) << ',' << e.seq
            << '\n';
}

/// Returns how many of the batches are the workload's updates (the rest are incremental updates).
Result<int> writeEvents(const std::string& path, const WorkloadSpec& workload,
                        const IncrementalSpec& incremental) {
    std::ofstream out(path);
    out << "batch,id,name,city,operation,seq\n";
    // The same chunks as Scenario::run: U updates, then the incremental updates on the whole history.
    WorkloadGenerator generator(workload);
    const std::int64_t chunk = (workload.events + workload.updates - 1) / workload.updates;
    int batch = 0;
    for (std::int64_t done = 0; done < workload.events; done += chunk)
        writeBatch(out, batch++, generator.next(std::min(chunk, workload.events - done)));
    const int updates = batch;
    for (int i = 0; i < incremental.repetitions; ++i)
        writeBatch(out, batch++, generator.next(incremental.events));
    out.close();
    if (!out)
        return Diagnostic::error("BENCH", "cannot write " + path);
    return updates;
}

} // namespace

double DuckdbFigures::scd1TotalSeconds() const {
    return sum(updates, &DuckdbBatch::scd1Seconds);
}
double DuckdbFigures::scd2TotalSeconds() const {
    return sum(updates, &DuckdbBatch::scd2Seconds);
}
double DuckdbFigures::scd1SmallUpdateSeconds() const {
    return mean(incremental, &DuckdbBatch::scd1Seconds);
}
double DuckdbFigures::scd2SmallUpdateSeconds() const {
    return mean(incremental, &DuckdbBatch::scd2Seconds);
}

Result<DuckdbFigures> measureDuckdb(const DuckdbSetup& setup, const std::string& workDir,
                                    const WorkloadSpec& workload, const IncrementalSpec& incremental) {
    const std::string csv = workDir + "/duckdb-events.csv";
    auto updates = writeEvents(csv, workload, incremental);
    if (!updates)
        return updates.error();
    const std::string command = "node " + shellQuoted(setup.script) + " " +
                                shellQuoted(setup.nodeModulesDir) + " " + shellQuoted(csv);
    Stopwatch watch;
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe)
        return Diagnostic::error("BENCH", "cannot run " + command);
    std::string output;
    char buffer[4096];
    while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe))
        output.append(buffer, n);
    const int status = pclose(pipe);
    if (status != 0)
        return Diagnostic::error("BENCH", "the DuckDB recompute failed (" + command + ")");
    DuckdbFigures figures;
    figures.wallSeconds = watch.seconds();
    try {
        const auto json = nlohmann::json::parse(output);
        figures.version = json.at("version").get<std::string>();
        figures.threads = json.at("threads").get<int>();
        const auto& batches = json.at("batches");
        for (std::size_t i = 0; i < batches.size(); ++i) {
            const auto& j = batches[i];
            DuckdbBatch b{j.at("events").get<std::int64_t>(),    j.at("load_s").get<double>(),
                          j.at("scd1_s").get<double>(),          j.at("scd2_s").get<double>(),
                          j.at("scd1_rows").get<std::int64_t>(), j.at("scd2_rows").get<std::int64_t>()};
            (i < static_cast<std::size_t>(updates.value()) ? figures.updates : figures.incremental)
                .push_back(b);
        }
        if (!figures.updates.empty()) {
            figures.scd1Rows = figures.updates.back().scd1Rows;
            figures.scd2Rows = figures.updates.back().scd2Rows;
        }
    } catch (const nlohmann::json::exception& e) {
        return Diagnostic::error("BENCH",
                                 std::string("cannot read the DuckDB recompute's output: ") + e.what());
    }
    std::remove(csv.c_str());
    return figures;
}

} // namespace cdc::bench
