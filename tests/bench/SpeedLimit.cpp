// The commit and the WAL checkpoint are timed too, as they are for every applier, so the limit is
// comparable with their figures rather than flattering them.
#include "SpeedLimit.h"

#include "BenchDatabase.h"
#include "Stopwatch.h"

#include <sqlite3.h>

namespace cdc::bench {

Result<SpeedLimit> measureSpeedLimit(const std::string& dbPath, const WorkloadSpec& spec,
                                     const std::vector<std::string>& pragmas) {
    auto db = openFreshDatabase(dbPath, pragmas);
    if (!db)
        return db.error();
    CDC_TRY(db->exec("CREATE TABLE speed_limit(id INTEGER, name TEXT, city TEXT, __START_AT INTEGER,"
                     " __END_AT INTEGER)"));
    auto insert = db->prepare("INSERT INTO speed_limit VALUES (?1, ?2, ?3, ?4, NULL)");
    if (!insert)
        return insert.error();
    sqlite3_stmt* stmt = insert->handle();

    // Events are generated per update-sized chunk and only the inserting is timed; the raw API with
    // SQLITE_STATIC binds is the cheapest way SQLite offers to write a row.
    WorkloadGenerator generator(spec);
    const std::int64_t chunk = (spec.events + spec.updates - 1) / spec.updates;
    double seconds = 0, cpuSeconds = 0;
    CDC_TRY(db->exec("BEGIN"));
    for (std::int64_t done = 0; done < spec.events; done += chunk) {
        const auto events = generator.next(std::min(chunk, spec.events - done));
        Stopwatch watch;
        for (const Event& e : events) {
            const std::string& name = WorkloadGenerator::name(e.nameIndex);
            const std::string& city = WorkloadGenerator::city(e.cityIndex);
            sqlite3_bind_int64(stmt, 1, e.id);
            sqlite3_bind_text(stmt, 2, name.data(), static_cast<int>(name.size()), SQLITE_STATIC);
            sqlite3_bind_text(stmt, 3, city.data(), static_cast<int>(city.size()), SQLITE_STATIC);
            sqlite3_bind_int64(stmt, 4, e.seq);
            if (sqlite3_step(stmt) != SQLITE_DONE)
                return db->lastError("speed limit insert");
            sqlite3_reset(stmt);
        }
        seconds += watch.seconds();
        cpuSeconds += watch.cpuSeconds();
    }
    Stopwatch commitWatch;
    CDC_TRY(db->exec("COMMIT"));
    CDC_TRY(checkpointWal(*db));
    seconds += commitWatch.seconds();
    cpuSeconds += commitWatch.cpuSeconds();
    const auto rows = static_cast<double>(spec.events);
    return SpeedLimit{rows / seconds, cpuSeconds > 0 ? rows / cpuSeconds : 0};
}

} // namespace cdc::bench
