#pragma once
/// "Does my pipeline's result depend on arrival order?" The events of a project (the rows of every source
/// table a flow reads as a stream) are replayed in many arrival orders and splits into updates, each in a
/// scratch database of its own (the project is only read), and every final table is compared with the
/// in-order run: all events in the order they were written, in one update. A divergence is shrunk to a
/// minimal counterexample (delta debugging: the fewest events, then the fewest updates, that still give two
/// different tables), which the user can replay.
///
/// The explorer runs the engine itself, so what it finds is what an update does: the known sources of
/// order dependence (semantics.md decision 1: sequence ties, tombstone GC between updates, IGNORE NULL
/// UPDATES across updates, TRUNCATE, ONCE flows) show up as counterexamples, nothing else does.

#include "core/common/Diagnostic.h"
#include "core/common/Value.h"
#include "core/pipeline/Pipeline.h"
#include "core/storage/Database.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace cdc::engine {

/// One event: a row of a source table, as the project holds it.
struct SourceEvent {
    std::string table;      ///< the catalog name of the source table
    std::int64_t rowid = 0; ///< its position in the table: the in-order run's arrival order
    std::vector<Value> values;
};

/// One replay: events (indexes into the explored events) in arrival order, each with the update that
/// delivers it (0-based, non-decreasing); `updates` updates run in all, at start + (i + 1) * tick.
struct Arrival {
    std::vector<std::size_t> events;
    std::vector<int> update;
    int updates = 1;
};

struct ExplorerOptions {
    int orders = 100;       ///< how many random arrivals to try
    std::uint64_t seed = 1; ///< the same seed gives the same arrivals
    int maxUpdates = 4;     ///< each arrival is split into 1..maxUpdates updates
    std::int64_t start = 0; ///< the simulated clock before the first update (epoch seconds)
    std::int64_t tick = 60; ///< seconds between updates (tombstone GC counts them)
    int threads = 0;        ///< 0: one per core
    /// Events still to arrive after the tables' rows (the app's event queue), in their order; each names a
    /// source table and gives its values in the table's column order.
    std::vector<SourceEvent> pending;
    const std::atomic<bool>* cancel = nullptr;
    /// (orders done, orders in all), from the calling thread or a worker; may be called concurrently.
    std::function<void(int, int)> progress;
};

/// A target whose content differs: its rows (as text, sorted) in the in-order run and in the arrival.
struct TableDifference {
    std::string target;
    std::vector<std::string> inOrder, arrived;
};

struct Counterexample {
    std::vector<SourceEvent> events; ///< the minimal events, in their in-order (written) order
    Arrival arrival;                 ///< over `events` (indexes into it)
    int order = 0;                   ///< which of the tried arrivals (1-based) diverged first
    std::vector<TableDifference> differences;
};

struct ExplorerReport {
    int ordersRun = 0;
    int identical = 0;
    std::size_t events = 0; ///< how many events were replayed
    std::optional<Counterexample> counterexample;
};

/// Replays the project's events in `options.orders` arrival orders. Errors: the pipeline fails on the
/// in-order run itself (its own error), CANCELLED. An arrival whose update fails while the in-order run
/// succeeds is a divergence too (its difference names the error).
/// The catalog names of the source tables whose rows are the explored events: those the pipeline reads as a
/// stream (directly or through views read as streams).
Result<std::vector<std::string>> streamSourceTables(const storage::Database& project,
                                                    const pipeline::Pipeline& pipeline);

/// The report as people read it (the CLI's output; the app's dialog): the verdict, and for a divergence the
/// counterexample's events in order, as they arrived per update, and each differing table's rows.
std::string reportText(const ExplorerReport& report, const ExplorerOptions& options);

/// One event as the report lists it: `table (v1, v2, ...)`.
std::string eventText(const SourceEvent& event);

Result<ExplorerReport> exploreArrivalOrders(const storage::Database& project,
                                            const pipeline::Pipeline& pipeline,
                                            const ExplorerOptions& options);

} // namespace cdc::engine
