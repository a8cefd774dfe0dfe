// Each timed update takes wall time, CPU time, SQLite's page counters and total_changes together; the
// WAL checkpoint after a batch is charged to the updates that left its pages, so no method looks faster
// by leaving writes for later.
#include "Scenario.h"

#include "BenchDatabase.h"
#include "SourceTable.h"
#include "StatementProfiler.h"
#include "Stopwatch.h"

#include <sqlite3.h>

#include <algorithm>

namespace cdc::bench {

namespace {
struct Timing {
    double seconds = 0;
    double cpuSeconds = 0;
    std::int64_t cacheMisses = 0;
    std::int64_t pagesWritten = 0;
    std::int64_t rowsChanged = 0;
};

std::int64_t takeCounter(storage::Database& db, int counter) {
    int current = 0, highWater = 0;
    sqlite3_db_status(db.handle(), counter, &current, &highWater, 1);
    return current;
}

template <class T> T median(std::vector<T> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

double mean(const std::vector<double>& v) {
    double sum = 0;
    for (double x : v)
        sum += x;
    return v.empty() ? 0 : sum / static_cast<double>(v.size());
}

Result<Timing> timedApply(storage::Database& db, UpdateApplier& applier, StatementProfiler* profiler) {
    if (profiler)
        profiler->attach(db.handle());
    takeCounter(db, SQLITE_DBSTATUS_CACHE_MISS);
    takeCounter(db, SQLITE_DBSTATUS_CACHE_WRITE);
    const sqlite3_int64 changesBefore = sqlite3_total_changes64(db.handle());
    Stopwatch watch;
    auto status = applier.apply(db);
    const Timing timing{watch.seconds(), watch.cpuSeconds(), takeCounter(db, SQLITE_DBSTATUS_CACHE_MISS),
                        takeCounter(db, SQLITE_DBSTATUS_CACHE_WRITE),
                        sqlite3_total_changes64(db.handle()) - changesBefore};
    if (profiler)
        profiler->detach(db.handle());
    if (!status)
        return status.error();
    return timing;
}

Result<Timing> timedCheckpoint(storage::Database& db) {
    Stopwatch watch;
    CDC_TRY(checkpointWal(db));
    return Timing{watch.seconds(), watch.cpuSeconds(), 0, 0, 0};
}
} // namespace

Result<IncrementalFigures> Scenario::measureIncremental(storage::Database& db, UpdateApplier& applier,
                                                        SourceTable& source, WorkloadGenerator& generator,
                                                        StatementProfiler* profiler) const {
    // Start from an empty WAL so that no earlier update's checkpoint work is charged to these updates.
    CDC_TRY(checkpointWal(db));
    std::vector<double> ms, cpuMs;
    std::vector<std::int64_t> misses, written, changed;
    for (int i = 0; i < m_incremental.repetitions; ++i) {
        CDC_TRY(source.append(generator.next(m_incremental.events)));
        auto t = timedApply(db, applier, profiler);
        if (!t)
            return t.error();
        ms.push_back(t->seconds * 1000.0);
        cpuMs.push_back(t->cpuSeconds * 1000.0);
        misses.push_back(t->cacheMisses);
        written.push_back(t->pagesWritten);
        changed.push_back(t->rowsChanged);
    }
    auto checkpoint = timedCheckpoint(db);
    if (!checkpoint)
        return checkpoint.error();
    // Means, not medians: an automatic checkpoint inside one of the updates must count. The final
    // checkpoint copies the pages all of them left behind, so each is charged an equal share.
    const double share = 1000.0 / static_cast<double>(m_incremental.repetitions);
    return IncrementalFigures{mean(ms) + checkpoint->seconds * share,
                              mean(cpuMs) + checkpoint->cpuSeconds * share,
                              median(misses),
                              median(written),
                              median(changed),
                              checkpoint->seconds * share,
                              checkpoint->cpuSeconds * share};
}

Result<ScenarioResult> Scenario::run(const std::string& label, const ApplierFactory& makeApplier,
                                     const ScenarioProfilers& profilers) const {
    ScenarioResult result;
    {
        auto db = openFreshDatabase(m_workDir + "/" + label + ".db", m_pragmas);
        if (!db)
            return db.error();
        auto source = SourceTable::create(*db);
        if (!source)
            return source.error();
        auto applier = makeApplier();
        CDC_TRY(applier->setUp(*db));
        WorkloadGenerator generator(m_workload);
        const std::int64_t chunk = (m_workload.events + m_workload.updates - 1) / m_workload.updates;
        for (std::int64_t done = 0; done < m_workload.events; done += chunk) {
            CDC_TRY(source->append(generator.next(std::min(chunk, m_workload.events - done))));
            auto s = timedApply(*db, *applier, profilers.updates);
            if (!s)
                return s.error();
            result.updateSeconds.push_back(s->seconds);
            result.seconds += s->seconds;
            result.cpuSeconds += s->cpuSeconds;
        }
        // The WAL frames the updates left behind still have to reach the database file: that copy is part
        // of their cost, whenever the connection's autocheckpoint would have run it.
        auto checkpoint = timedCheckpoint(*db);
        if (!checkpoint)
            return checkpoint.error();
        result.checkpointSeconds = checkpoint->seconds;
        result.seconds += checkpoint->seconds;
        result.cpuSeconds += checkpoint->cpuSeconds;
        auto rows = applier->visibleRows(*db);
        if (!rows)
            return rows.error();
        result.visibleRows = rows.value();
        auto large = measureIncremental(*db, *applier, *source, generator, profilers.largeHistory);
        if (!large)
            return large.error();
        result.largeHistory = large.value();
    }
    {
        auto db = openFreshDatabase(m_workDir + "/" + label + "-small-history.db", m_pragmas);
        if (!db)
            return db.error();
        auto source = SourceTable::create(*db);
        if (!source)
            return source.error();
        auto applier = makeApplier();
        CDC_TRY(applier->setUp(*db));
        WorkloadGenerator generator(m_workload);
        CDC_TRY(source->append(generator.next(m_incremental.events)));
        CDC_TRY(applier->apply(*db));
        auto small = measureIncremental(*db, *applier, *source, generator, profilers.smallHistory);
        if (!small)
            return small.error();
        result.smallHistory = small.value();
    }
    return result;
}

} // namespace cdc::bench
