// The JSON is written by hand, as the benchmark links no Qt and no JSON library; the table says
// "met" or "MISSED" against each target so a run can be judged at a glance.
#include "BenchResults.h"

#include <cmath>
#include <cstdio>
#include <ostream>
#include <sstream>

namespace cdc::bench {

double ScdFigures::vsLimit(std::int64_t events, double limitRowsPerSecond) const {
    return limitRowsPerSecond > 0 ? engine.eventsPerSecond(events) / limitRowsPerSecond : 0;
}

double ScdFigures::vsLimitCpu(std::int64_t events, double limitRowsPerCpuSecond) const {
    return limitRowsPerCpuSecond > 0 ? engine.eventsPerCpuSecond(events) / limitRowsPerCpuSecond : 0;
}

std::optional<double> ScdFigures::vsHandwritten() const {
    if (!handwritten || engine.seconds <= 0)
        return std::nullopt;
    return handwritten->seconds / engine.seconds;
}

std::optional<double> ScdFigures::vsHandwrittenCpu() const {
    if (!handwritten || engine.cpuSeconds <= 0)
        return std::nullopt;
    return handwritten->cpuSeconds / engine.cpuSeconds;
}

namespace {
/// Engine replay seconds ÷ DuckDB's recompute total (`inMemory`: the GUI storage mode's scenarios).
std::optional<double> replayRatio(const BenchResults& r, bool inMemory) {
    if (!r.duckdb || !r.scd1 || !r.scd2)
        return std::nullopt;
    const double peer = r.duckdb->scd1TotalSeconds() + r.duckdb->scd2TotalSeconds();
    const auto* a =
        inMemory ? (r.scd1->engineInMemory ? &*r.scd1->engineInMemory : nullptr) : &r.scd1->engine;
    const auto* b =
        inMemory ? (r.scd2->engineInMemory ? &*r.scd2->engineInMemory : nullptr) : &r.scd2->engine;
    if (peer <= 0 || !a || !b)
        return std::nullopt;
    return (a->seconds + b->seconds) / peer;
}

std::optional<double> smallUpdateRatio(const BenchResults& r, Scd scd, const ScenarioResult* engine) {
    if (!r.duckdb || !engine || r.duckdb->incremental.empty())
        return std::nullopt;
    const double peer =
        scd == Scd::Type1 ? r.duckdb->scd1SmallUpdateSeconds() : r.duckdb->scd2SmallUpdateSeconds();
    if (peer <= 0)
        return std::nullopt;
    return engine->largeHistory.ms / 1000.0 / peer;
}

/// The scenario in the storage mode the GUI steps in: in memory when that ran, else the file's.
const ScenarioResult* guiScenario(const std::optional<ScdFigures>& f) {
    if (!f)
        return nullptr;
    return f->engineInMemory ? &*f->engineInMemory : &f->engine;
}
} // namespace

std::optional<double> BenchResults::replayVsDuckdb() const {
    return replayRatio(*this, false);
}

std::optional<double> BenchResults::replayInMemoryVsDuckdb() const {
    return replayRatio(*this, true);
}

std::optional<double> BenchResults::guiStepVsDuckdb() const {
    if (!duckdb || !guiStepMs || duckdb->incremental.empty() || duckdb->scd2SmallUpdateSeconds() <= 0)
        return std::nullopt;
    return *guiStepMs / 1000.0 / duckdb->scd2SmallUpdateSeconds();
}

std::optional<double> BenchResults::smallUpdateVsDuckdb(Scd scd) const {
    return smallUpdateRatio(*this, scd, guiScenario(scd == Scd::Type1 ? scd1 : scd2));
}

std::optional<double> BenchResults::smallUpdateFileVsDuckdb(Scd scd) const {
    const auto& f = scd == Scd::Type1 ? scd1 : scd2;
    return smallUpdateRatio(*this, scd, f ? &f->engine : nullptr);
}

namespace {

std::string fixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

/// 1234567 -> "1,234,567"
std::string grouped(double v) {
    std::string digits = fixed(std::round(v), 0);
    std::string out;
    const std::size_t first = digits.size() % 3 == 0 ? 3 : digits.size() % 3;
    out = digits.substr(0, first);
    for (std::size_t i = first; i < digits.size(); i += 3)
        out += ',' + digits.substr(i, 3);
    return out;
}

std::string verdict(bool met) {
    return met ? "met" : "MISSED";
}

std::string pad(const std::string& s, std::size_t width) {
    return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}

std::string rowCountNote(const ScdFigures& f) {
    if (f.handwritten->visibleRows == f.engine.visibleRows)
        return "";
    // AUTO CDC opens no version when no tracked column changed; the hand-written LEAD() query does.
    if (f.scd == Scd::Type2 && f.handwritten->visibleRows > f.engine.visibleRows)
        return "  (more: it keeps consecutive identical versions that AUTO CDC merges)";
    return "  (row counts differ from the engine's!)";
}

void printScd(std::ostream& out, const BenchResults& r, const ScdFigures& f) {
    const bool type1 = f.scd == Scd::Type1;
    const std::string name = type1 ? "SCD1" : "SCD2";
    const double limitTarget = type1 ? Targets::scd1VsLimit : Targets::scd2VsLimit;
    const double vsLimit = f.vsLimit(r.workload.events, r.limitRowsPerSecond);
    out << name << "\n";
    out << "  engine                "
        << pad(grouped(f.engine.eventsPerSecond(r.workload.events)) + " events/s", 24)
        << fixed(f.engine.seconds, 2) << " s over " << f.engine.updateSeconds.size() << " updates, "
        << grouped(static_cast<double>(f.engine.visibleRows)) << " target rows\n";
    if (f.handwritten)
        out << "  hand-written SQL      "
            << pad(grouped(f.handwritten->eventsPerSecond(r.workload.events)) + " events/s", 24)
            << fixed(f.handwritten->seconds, 2) << " s, "
            << grouped(static_cast<double>(f.handwritten->visibleRows)) << " target rows" << rowCountNote(f)
            << "\n";
    if (f.floor && r.limitRowsPerSecond > 0) {
        const double floorVsLimit = f.floor->eventsPerSecond(r.workload.events) / r.limitRowsPerSecond;
        const double floorVsLimitCpu =
            r.limitRowsPerCpuSecond > 0
                ? f.floor->eventsPerCpuSecond(r.workload.events) / r.limitRowsPerCpuSecond
                : 0;
        out << "  storage floor         "
            << pad(grouped(f.floor->eventsPerSecond(r.workload.events)) + " events/s", 24)
            << "floor / speed limit " << fixed(floorVsLimit, 3) << " (CPU " << fixed(floorVsLimitCpu, 3)
            << "); engine / floor "
            << fixed(f.engine.seconds > 0 ? f.floor->seconds / f.engine.seconds : 0, 2) << " (CPU "
            << fixed(f.engine.cpuSeconds > 0 ? f.floor->cpuSeconds / f.engine.cpuSeconds : 0, 2) << ")\n"
            << "                        ("
            << (type1
                    ? "the upsert of every event plus one change-feed row each, no CDC logic"
                    : "every event into a (key, sequence) history plus one change-feed row each, no versions")
            << ")\n";
    }
    out << "  engine / speed limit  " << pad(fixed(vsLimit, 3), 24) << "target >= " << fixed(limitTarget, 1)
        << "  " << verdict(vsLimit >= limitTarget)
        << "   (in CPU time: " << fixed(f.vsLimitCpu(r.workload.events, r.limitRowsPerCpuSecond), 3) << ")\n";
    if (auto hw = f.vsHandwritten()) {
        out << "  speed-up vs hand-wr.  " << pad(fixed(*hw, 2) + " x", 24);
        if (!type1)
            out << "target >= " << fixed(Targets::scd2VsHandwritten, 0) << "   "
                << verdict(*hw >= Targets::scd2VsHandwritten) << "   ";
        out << "(in CPU time: " << fixed(f.vsHandwrittenCpu().value_or(0), 2) << ")\n";
    }
    const double inc = f.engine.incrementality();
    out << "  incrementality        " << pad(fixed(inc, 2), 24)
        << "target <= " << fixed(Targets::incrementality, 1) << "  "
        << verdict(inc <= Targets::incrementality) << "   ("
        << grouped(static_cast<double>(r.incremental.events))
        << "-event update: " << fixed(f.engine.smallHistory.ms, 1) << " ms on "
        << grouped(static_cast<double>(r.incremental.events)) << " events of history, "
        << fixed(f.engine.largeHistory.ms, 1) << " ms on " << grouped(static_cast<double>(r.workload.events))
        << ")\n";
    out << "    in CPU time         " << pad(fixed(f.engine.cpuIncrementality(), 2), 24) << "("
        << fixed(f.engine.smallHistory.cpuMs, 1) << " ms vs " << fixed(f.engine.largeHistory.cpuMs, 1)
        << " ms; pages missed in cache " << f.engine.smallHistory.cacheMisses << " vs "
        << f.engine.largeHistory.cacheMisses << ", pages written " << f.engine.smallHistory.pagesWritten
        << " vs " << f.engine.largeHistory.pagesWritten << ")\n";
    const double perRowRatio =
        f.engine.smallHistory.cpuMsPerThousandRows() > 0
            ? f.engine.largeHistory.cpuMsPerThousandRows() / f.engine.smallHistory.cpuMsPerThousandRows()
            : 0;
    out << "    per row written     " << pad(fixed(perRowRatio, 2), 24) << "("
        << fixed(f.engine.smallHistory.cpuMsPerThousandRows(), 2) << " vs "
        << fixed(f.engine.largeHistory.cpuMsPerThousandRows(), 2) << " CPU ms per 1,000 rows changed; "
        << grouped(static_cast<double>(f.engine.smallHistory.rowsChanged)) << " vs "
        << grouped(static_cast<double>(f.engine.largeHistory.rowsChanged)) << " rows changed)\n";
    if (f.handwritten)
        out << "  hand-written incr.    " << pad(fixed(f.handwritten->incrementality(), 2), 24) << "("
            << fixed(f.handwritten->smallHistory.ms, 1) << " ms vs "
            << fixed(f.handwritten->largeHistory.ms, 1) << " ms)\n";
    if (f.floor)
        out << "  storage floor incr.   " << pad(fixed(f.floor->incrementality(), 2), 24) << "("
            << fixed(f.floor->smallHistory.ms, 1) << " ms vs " << fixed(f.floor->largeHistory.ms, 1)
            << " ms; in CPU time " << fixed(f.floor->cpuIncrementality(), 2) << ", pages written "
            << f.floor->smallHistory.pagesWritten << " vs " << f.floor->largeHistory.pagesWritten << ")\n";
    if (f.enginePeakRssMb)
        out << "  engine phase peak RSS " << fixed(*f.enginePeakRssMb, 1) << " MB\n";
}

// ---- JSON -------------------------------------------------------------------------------------------

std::string number(double v) {
    if (!std::isfinite(v))
        return "null";
    std::ostringstream s;
    s.precision(6);
    s << v;
    return s.str();
}

std::string optionalNumber(const std::optional<double>& v) {
    return v ? number(*v) : "null";
}

std::string quoted(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\')
            out += '\\';
        if (static_cast<unsigned char>(c) < 0x20)
            continue;
        out += c;
    }
    return out + '"';
}

std::string updateMsList(const ScenarioResult& r) {
    std::string out = "[";
    for (std::size_t i = 0; i < r.updateSeconds.size(); ++i)
        out += (i ? ", " : "") + number(r.updateSeconds[i] * 1000.0);
    return out + "]";
}

std::string incrementalJson(const IncrementalFigures& f) {
    return "{\"ms\": " + number(f.ms) + ", \"cpu_ms\": " + number(f.cpuMs) +
           ", \"cache_misses\": " + std::to_string(f.cacheMisses) +
           ", \"pages_written\": " + std::to_string(f.pagesWritten) +
           ", \"rows_changed\": " + std::to_string(f.rowsChanged) +
           ", \"checkpoint_ms\": " + number(f.checkpointMs) +
           ", \"checkpoint_cpu_ms\": " + number(f.checkpointCpuMs) + "}";
}

void writeScd(std::ostream& out, const BenchResults& r, const std::optional<ScdFigures>& f) {
    if (!f) {
        out << "null";
        return;
    }
    const auto& e = f->engine;
    out << "{\"events_per_s\": " << number(e.eventsPerSecond(r.workload.events))
        << ", \"vs_limit\": " << number(f->vsLimit(r.workload.events, r.limitRowsPerSecond))
        << ", \"vs_handwritten\": " << optionalNumber(f->vsHandwritten())
        << ", \"vs_handwritten_cpu\": " << optionalNumber(f->vsHandwrittenCpu())
        << ", \"incrementality\": " << number(e.incrementality())
        << ",\n    \"engine_seconds\": " << number(e.seconds)
        << ", \"engine_cpu_seconds\": " << number(e.cpuSeconds)
        << ", \"vs_limit_cpu\": " << number(f->vsLimitCpu(r.workload.events, r.limitRowsPerCpuSecond))
        << ", \"engine_update_ms\": " << updateMsList(e)
        << ", \"engine_checkpoint_ms\": " << number(e.checkpointSeconds * 1000.0)
        << ", \"target_rows\": " << e.visibleRows
        << ",\n    \"incremental_update_events\": " << r.incremental.events
        << ",\n    \"incremental_small_history\": " << incrementalJson(e.smallHistory)
        << ",\n    \"incremental_large_history\": " << incrementalJson(e.largeHistory)
        << ", \"cpu_incrementality\": " << number(e.cpuIncrementality())
        << ", \"engine_phase_peak_rss_mb\": " << optionalNumber(f->enginePeakRssMb)
        << ",\n    \"small_update_vs_duckdb\": " << optionalNumber(r.smallUpdateVsDuckdb(f->scd))
        << ", \"small_update_file_vs_duckdb\": " << optionalNumber(r.smallUpdateFileVsDuckdb(f->scd));
    if (const auto& h = f->handwritten) {
        out << ",\n    \"handwritten\": {\"events_per_s\": " << number(h->eventsPerSecond(r.workload.events))
            << ", \"seconds\": " << number(h->seconds) << ", \"cpu_seconds\": " << number(h->cpuSeconds)
            << ", \"update_ms\": " << updateMsList(*h) << ", \"target_rows\": " << h->visibleRows
            << ", \"incrementality\": " << number(h->incrementality())
            << ", \"incremental_small_history\": " << incrementalJson(h->smallHistory)
            << ", \"incremental_large_history\": " << incrementalJson(h->largeHistory) << "}";
    }
    if (const auto& fl = f->floor)
        out << ",\n    \"storage_floor\": {\"events_per_s\": "
            << number(fl->eventsPerSecond(r.workload.events)) << ", \"seconds\": " << number(fl->seconds)
            << ", \"cpu_seconds\": " << number(fl->cpuSeconds) << ", \"vs_limit\": "
            << number(r.limitRowsPerSecond > 0 ? fl->eventsPerSecond(r.workload.events) / r.limitRowsPerSecond
                                               : 0)
            << ", \"vs_limit_cpu\": "
            << number(r.limitRowsPerCpuSecond > 0
                          ? fl->eventsPerCpuSecond(r.workload.events) / r.limitRowsPerCpuSecond
                          : 0)
            << ", \"incrementality\": " << number(fl->incrementality())
            << ", \"cpu_incrementality\": " << number(fl->cpuIncrementality())
            << ", \"incremental_small_history\": " << incrementalJson(fl->smallHistory)
            << ", \"incremental_large_history\": " << incrementalJson(fl->largeHistory) << "}";
    if (const auto& m = f->engineInMemory)
        out << ",\n    \"engine_in_memory\": {\"seconds\": " << number(m->seconds)
            << ", \"cpu_seconds\": " << number(m->cpuSeconds) << ", \"update_ms\": " << updateMsList(*m)
            << ", \"target_rows\": " << m->visibleRows
            << ", \"incremental_small_history\": " << incrementalJson(m->smallHistory)
            << ", \"incremental_large_history\": " << incrementalJson(m->largeHistory) << "}";
    out << "}";
}

} // namespace

namespace {
void printTargets(std::ostream& out, const BenchResults& r) {
    out << "Targets (issue 18), ratios of one run\n";
    if (r.duckdb) {
        const auto& d = *r.duckdb;
        out << "  DuckDB " << d.version << " (" << d.threads
            << " threads, in memory): recompute after each of " << d.updates.size() << " updates SCD1 "
            << fixed(d.scd1TotalSeconds(), 2) << " s + SCD2 " << fixed(d.scd2TotalSeconds(), 2)
            << " s; after a " << grouped(static_cast<double>(r.incremental.events))
            << "-event update on the whole history SCD1 " << fixed(d.scd1SmallUpdateSeconds() * 1000, 1)
            << " ms, SCD2 " << fixed(d.scd2SmallUpdateSeconds() * 1000, 1)
            << " ms; target rows after the updates " << grouped(static_cast<double>(d.scd1Rows)) << " / "
            << grouped(static_cast<double>(d.scd2Rows)) << "\n";
    } else {
        out << "  DuckDB baseline not measured: " << r.duckdbNote << "\n";
    }
    if (r.scd1 && r.scd2) {
        const double engine = r.scd1->engine.seconds + r.scd2->engine.seconds;
        out << "  1. whole replay, engine / DuckDB   ";
        if (auto v = r.replayVsDuckdb())
            out << pad(fixed(*v, 2), 12) << "target <= " << fixed(Targets::replayVsDuckdb, 0) << "   "
                << verdict(*v <= Targets::replayVsDuckdb) << "   (engine SCD1+SCD2 " << fixed(engine, 2)
                << " s in a WAL file on disk, as the CLI runs)\n";
        else
            out << "n/a   (engine SCD1+SCD2 " << fixed(engine, 2) << " s)\n";
        if (r.scd1->engineInMemory && r.scd2->engineInMemory) {
            const double memory = r.scd1->engineInMemory->seconds + r.scd2->engineInMemory->seconds;
            out << "     the same in the GUI's storage   "
                << pad(r.replayInMemoryVsDuckdb() ? fixed(*r.replayInMemoryVsDuckdb(), 2) : "n/a", 12)
                << "(engine SCD1+SCD2 " << fixed(memory, 2) << " s in " << r.guiStorage << ")\n";
        }
    }
    for (Scd scd : {Scd::Type1, Scd::Type2}) {
        const auto& f = scd == Scd::Type1 ? r.scd1 : r.scd2;
        if (!f)
            continue;
        out << "  2. " << (scd == Scd::Type1 ? "SCD1" : "SCD2") << " small update / DuckDB  ";
        if (auto v = r.smallUpdateVsDuckdb(scd))
            out << pad(fixed(*v, 2), 12) << "target <= " << fixed(Targets::smallUpdateVsDuckdb, 2) << "  "
                << verdict(*v <= Targets::smallUpdateVsDuckdb);
        else
            out << pad("n/a", 12);
        out << "   (" << grouped(static_cast<double>(r.incremental.events)) << "-event update on "
            << grouped(static_cast<double>(r.workload.events)) << " events: engine "
            << fixed(guiScenario(f)->largeHistory.ms, 1) << " ms where the GUI steps: "
            << (f->engineInMemory ? r.guiStorage : "a WAL file on disk (" + r.guiStorage + ")") << ")\n";
        if (f->engineInMemory) {
            out << "     in the CLI's durable file       "
                << pad(r.smallUpdateFileVsDuckdb(scd) ? fixed(*r.smallUpdateFileVsDuckdb(scd), 2) : "n/a", 12)
                << "(engine " << fixed(f->engine.largeHistory.ms, 1) << " ms in a WAL file on disk)\n";
        }
    }
    if (auto v = r.guiStepVsDuckdb())
        out << "  2. SCD2 step in the app / DuckDB   " << pad(fixed(*v, 2), 12)
            << "(the GUI step below: " << fixed(*r.guiStepMs, 1)
            << " ms for delivery, update and undo step against DuckDB's recompute)\n";
    if (r.explorer) {
        const auto& e = *r.explorer;
        out << "  3. arrival-order exploration       " << pad(fixed(e.seconds, 2) + " s", 12)
            << "target <= " << fixed(Targets::explorerSeconds, 0) << "   "
            << verdict(e.seconds <= Targets::explorerSeconds) << "   (" << e.orders << " shuffled replays of "
            << grouped(static_cast<double>(e.events)) << " events over " << e.keys << " keys, " << e.threads
            << " threads, CPU " << fixed(e.cpuSeconds, 2) << " s" << (e.note.empty() ? "" : "; ") << e.note
            << ")\n";
    }
    if (r.load) {
        const auto& l = *r.load;
        out << "  4. source script load              " << pad(grouped(l.sqlRowsPerSecond()) + " rows/s", 16)
            << "target >= " << grouped(Targets::loadRowsPerSecond) << "  "
            << verdict(l.sqlRowsPerSecond() >= Targets::loadRowsPerSecond) << "   ("
            << grouped(static_cast<double>(l.rows)) << "-row INSERT ... VALUES script, "
            << fixed(l.sqlSeconds, 2) << " s; "
            << grouped(l.sqlCpuSeconds > 0 ? static_cast<double>(l.rows) / l.sqlCpuSeconds : 0)
            << " rows per CPU-s)\n";
        out << "     CSV load                        ";
        if (auto csv = l.csvRowsPerSecond())
            out << pad(grouped(*csv) + " rows/s", 16) << "target >= " << grouped(Targets::loadRowsPerSecond)
                << "  " << verdict(*csv >= Targets::loadRowsPerSecond) << "   (" << l.csvNote << ", "
                << fixed(*l.csvSeconds, 2) << " s; "
                << grouped(l.csvCpuSeconds > 0 ? static_cast<double>(l.rows) / l.csvCpuSeconds : 0)
                << " rows per CPU-s)\n";
        else
            out << l.csvNote << "\n";
    }
    out << "\n";
}
void writeDuckdbBatches(std::ostream& out, const std::vector<DuckdbBatch>& batches) {
    out << "[";
    for (std::size_t i = 0; i < batches.size(); ++i)
        out << (i ? ", " : "") << "{\"events\": " << batches[i].events
            << ", \"load_s\": " << number(batches[i].loadSeconds)
            << ", \"scd1_s\": " << number(batches[i].scd1Seconds)
            << ", \"scd2_s\": " << number(batches[i].scd2Seconds) << "}";
    out << "]";
}

void writeTargets(std::ostream& out, const BenchResults& r) {
    if (r.duckdb) {
        const auto& d = *r.duckdb;
        out << "  \"duckdb\": {\"version\": " << quoted(d.version) << ", \"threads\": " << d.threads
            << ", \"scd1_total_s\": " << number(d.scd1TotalSeconds())
            << ", \"scd2_total_s\": " << number(d.scd2TotalSeconds())
            << ", \"scd1_small_update_s\": " << number(d.scd1SmallUpdateSeconds())
            << ", \"scd2_small_update_s\": " << number(d.scd2SmallUpdateSeconds())
            << ", \"scd1_rows\": " << d.scd1Rows << ", \"scd2_rows\": " << d.scd2Rows
            << ", \"wall_s\": " << number(d.wallSeconds) << ",\n    \"updates\": ";
        writeDuckdbBatches(out, d.updates);
        out << ",\n    \"incremental\": ";
        writeDuckdbBatches(out, d.incremental);
        out << "},\n";
    } else {
        out << "  \"duckdb\": null, \"duckdb_note\": " << quoted(r.duckdbNote) << ",\n";
    }
    const bool inMemory = (r.scd1 && r.scd1->engineInMemory) || (r.scd2 && r.scd2->engineInMemory);
    out << "  \"replay_vs_duckdb\": " << optionalNumber(r.replayVsDuckdb()) << ",\n";
    out << "  \"replay_in_memory_vs_duckdb\": " << optionalNumber(r.replayInMemoryVsDuckdb()) << ",\n";
    out << "  \"small_update_vs_duckdb\": {\"scd1\": " << optionalNumber(r.smallUpdateVsDuckdb(Scd::Type1))
        << ", \"scd2\": " << optionalNumber(r.smallUpdateVsDuckdb(Scd::Type2)) << ", \"storage_mode\": "
        << quoted(inMemory ? "the GUI's working copy: " + r.guiStorage
                           : "a WAL file on disk, GUI and CLI alike (" + r.guiStorage + ")")
        << "},\n";
    out << "  \"small_update_file_vs_duckdb\": {\"scd1\": "
        << optionalNumber(r.smallUpdateFileVsDuckdb(Scd::Type1))
        << ", \"scd2\": " << optionalNumber(r.smallUpdateFileVsDuckdb(Scd::Type2))
        << ", \"storage_mode\": \"the CLI's project file: WAL file on disk\"},\n";
    out << "  \"gui_storage\": " << quoted(r.guiStorage) << ",\n";
    out << "  \"gui_step_vs_duckdb\": " << optionalNumber(r.guiStepVsDuckdb()) << ",\n";
    if (r.explorer)
        out << "  \"explorer_s\": " << number(r.explorer->seconds)
            << ", \"explorer\": {\"orders\": " << r.explorer->orders
            << ", \"cpu_s\": " << number(r.explorer->cpuSeconds) << ", \"events\": " << r.explorer->events
            << ", \"keys\": " << r.explorer->keys << ", \"threads\": " << r.explorer->threads
            << ", \"note\": " << quoted(r.explorer->note) << "},\n";
    else
        out << "  \"explorer_s\": null,\n";
    if (r.load)
        out << "  \"load\": {\"rows\": " << r.load->rows
            << ", \"sql_rows_per_s\": " << number(r.load->sqlRowsPerSecond())
            << ", \"sql_seconds\": " << number(r.load->sqlSeconds)
            << ", \"sql_cpu_seconds\": " << number(r.load->sqlCpuSeconds)
            << ", \"csv_rows_per_s\": " << optionalNumber(r.load->csvRowsPerSecond())
            << ", \"csv_seconds\": " << optionalNumber(r.load->csvSeconds)
            << ", \"csv_cpu_seconds\": " << number(r.load->csvCpuSeconds)
            << ", \"csv_note\": " << quoted(r.load->csvNote) << "},\n";
    else
        out << "  \"load\": null,\n";
    out << "  \"targets_issue_18\": {\"replay_vs_duckdb\": " << Targets::replayVsDuckdb
        << ", \"small_update_vs_duckdb\": " << Targets::smallUpdateVsDuckdb
        << ", \"explorer_s\": " << Targets::explorerSeconds
        << ", \"load_rows_per_s\": " << Targets::loadRowsPerSecond << "},\n";
}

} // namespace

void printTable(std::ostream& out, const BenchResults& r) {
    const auto& w = r.workload;
    out << "\nCDC Studio benchmark  (" << r.startedAt << ", SQLite " << r.sqliteVersion << ", " << r.cpuModel
        << ")\n";
    out << "workload: " << grouped(static_cast<double>(w.events)) << " events over "
        << grouped(static_cast<double>(w.keys)) << " keys in " << w.updates << " updates, "
        << fixed(r.realizedDeleteFraction * 100, 1) << "% deletes, "
        << fixed(r.realizedOutOfOrderFraction * 100, 1) << "% out of order\n";
    for (const auto& pragma : r.pragmas)
        out << "connection setting: PRAGMA " << pragma << "\n";
    out << "\n";
    printTargets(out, r);
    out << "SQLite speed limit      " << grouped(r.limitRowsPerSecond)
        << " rows/s (prepared INSERT, one transaction)\n";
    if (r.scd1)
        printScd(out, r, *r.scd1);
    if (r.scd2)
        printScd(out, r, *r.scd2);
    out << "peak RSS (whole run)    " << pad(fixed(r.peakRssMb, 1) + " MB", 24)
        << "target <= " << fixed(Targets::peakRssMb, 0) << "  " << verdict(r.peakRssMb <= Targets::peakRssMb)
        << (w.events < 1'000'000 ? "   (target is for the 1,000,000-event run)" : "") << "\n";
    out << "GUI step                ";
    if (r.guiStepMs && r.guiStepEngineMs)
        out << pad(fixed(*r.guiStepMs, 1) + " ms", 24) << "(a "
            << grouped(static_cast<double>(r.incremental.events)) << "-event SCD2 step on "
            << grouped(static_cast<double>(w.events))
            << " events of history as the app runs it: queue delivery, update, undo step; engine "
            << fixed(*r.guiStepEngineMs, 1) << " ms of it)\n";
    else
        out << "not measured: needs cdcstudio-bench-gui-step (GUI builds, run by scripts/bench)\n";
    out << "GUI refresh             ";
    if (r.guiRefreshMs)
        out << pad(fixed(*r.guiRefreshMs, 1) + " ms", 24) << "target < " << fixed(Targets::guiRefreshMs, 0)
            << "   " << verdict(*r.guiRefreshMs < Targets::guiRefreshMs) << "\n";
    else
        out << r.guiRefreshNote << "\n";
    out << "wall time " << fixed(r.wallSeconds, 1) << " s; load average " << fixed(r.loadAverageAtStart, 1)
        << " at start, " << fixed(r.loadAverageAtEnd, 1)
        << " at end (above the core count, wall-time figures are pessimistic)\n";
}

void writeJson(std::ostream& out, const BenchResults& r) {
    const auto& w = r.workload;
    out << "{\n  \"workload\": {\"events\": " << w.events << ", \"keys\": " << w.keys
        << ", \"updates\": " << w.updates << ", \"delete_fraction\": " << number(w.deleteFraction)
        << ", \"out_of_order_fraction\": " << number(w.outOfOrderFraction) << ", \"seed\": " << w.seed
        << ",\n    \"realized_delete_fraction\": " << number(r.realizedDeleteFraction)
        << ", \"realized_out_of_order_fraction\": " << number(r.realizedOutOfOrderFraction) << "},\n";
    out << "  \"limit_rows_per_s\": " << number(r.limitRowsPerSecond)
        << ", \"limit_rows_per_cpu_s\": " << number(r.limitRowsPerCpuSecond) << ",\n";
    out << "  \"scd1\": ";
    writeScd(out, r, r.scd1);
    out << ",\n  \"scd2\": ";
    writeScd(out, r, r.scd2);
    out << ",\n  \"peak_rss_mb\": " << number(r.peakRssMb) << ",\n";
    out << "  \"gui_refresh_ms\": " << optionalNumber(r.guiRefreshMs) << ",\n";
    out << "  \"gui_refresh_note\": " << quoted(r.guiRefreshNote) << ",\n";
    out << "  \"gui_step_ms\": " << optionalNumber(r.guiStepMs)
        << ", \"gui_step_engine_ms\": " << optionalNumber(r.guiStepEngineMs) << ",\n";
    writeTargets(out, r);
    out << "  \"targets\": {\"scd1_vs_limit\": " << Targets::scd1VsLimit
        << ", \"scd2_vs_limit\": " << Targets::scd2VsLimit
        << ", \"incrementality\": " << Targets::incrementality
        << ", \"scd2_vs_handwritten\": " << Targets::scd2VsHandwritten
        << ", \"peak_rss_mb\": " << Targets::peakRssMb << ", \"gui_refresh_ms\": " << Targets::guiRefreshMs
        << "},\n";
    out << "  \"pragmas\": [";
    for (std::size_t i = 0; i < r.pragmas.size(); ++i)
        out << (i ? ", " : "") << quoted(r.pragmas[i]);
    out << "],\n";
    out << "  \"sqlite_version\": " << quoted(r.sqliteVersion) << ", \"cpu\": " << quoted(r.cpuModel)
        << ", \"started_at\": " << quoted(r.startedAt) << ", \"wall_seconds\": " << number(r.wallSeconds)
        << ",\n  \"load_average\": [" << number(r.loadAverageAtStart) << ", " << number(r.loadAverageAtEnd)
        << "]\n}\n";
}

} // namespace cdc::bench
