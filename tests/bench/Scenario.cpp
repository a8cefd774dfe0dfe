#include "Scenario.h"

#include "BenchDatabase.h"
#include "SourceTable.h"
#include "StatementProfiler.h"
#include "Stopwatch.h"

#include <algorithm>

namespace cdc::bench {

namespace {
struct Timing {
    double seconds = 0;
    double cpuSeconds = 0;
};

Result<Timing> timedApply(storage::Database& db, UpdateApplier& applier, StatementProfiler* profiler) {
    if (profiler)
        profiler->attach(db.handle());
    Stopwatch watch;
    auto status = applier.apply(db);
    const Timing timing{watch.seconds(), watch.cpuSeconds()};
    if (profiler)
        profiler->detach(db.handle());
    if (!status)
        return status.error();
    return timing;
}
} // namespace

Result<double> Scenario::medianIncrementalMs(storage::Database& db, UpdateApplier& applier, SourceTable& source,
                                             WorkloadGenerator& generator, StatementProfiler* profiler) const {
    std::vector<double> ms;
    for (int i = 0; i < m_incremental.repetitions; ++i) {
        CDC_TRY(source.append(generator.next(m_incremental.events)));
        auto s = timedApply(db, applier, profiler);
        if (!s)
            return s.error();
        ms.push_back(s->seconds * 1000.0);
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
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
        auto rows = applier->visibleRows(*db);
        if (!rows)
            return rows.error();
        result.visibleRows = rows.value();
        auto large = medianIncrementalMs(*db, *applier, *source, generator, profilers.largeHistory);
        if (!large)
            return large.error();
        result.largeHistoryMs = large.value();
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
        auto small = medianIncrementalMs(*db, *applier, *source, generator, profilers.smallHistory);
        if (!small)
            return small.error();
        result.smallHistoryMs = small.value();
    }
    return result;
}

} // namespace cdc::bench
