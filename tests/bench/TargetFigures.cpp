// The figures run the product's own entry points (exploreArrivalOrders, executeSourceScript, importFile) on
// the benchmark's deterministic workload, so they move only when the product does.
#include "TargetFigures.h"

#include "BenchDatabase.h"
#include "SourceTable.h"
#include "Stopwatch.h"
#include "Workload.h"

#include "core/engine/ArrivalExplorer.h"
#include "core/feeds/FeedImporter.h"
#include "core/sql/SqlApi.h"
#include "core/storage/Catalog.h"

#include <filesystem>
#include <fstream>
#include <thread>

namespace cdc::bench {

namespace {

const char* kExplorerPipeline = R"(CREATE OR REFRESH STREAMING TABLE latest;
CREATE FLOW latest_flow AS AUTO CDC INTO latest
FROM STREAM(events)
KEYS (id)
APPLY AS DELETE WHEN operation = 'DELETE'
SEQUENCE BY seq
COLUMNS * EXCEPT (operation, seq)
STORED AS SCD TYPE 1;

CREATE OR REFRESH STREAMING TABLE history;
CREATE FLOW history_flow AS AUTO CDC INTO history
FROM STREAM(events)
KEYS (id)
APPLY AS DELETE WHEN operation = 'DELETE'
SEQUENCE BY seq
COLUMNS * EXCEPT (operation, seq)
STORED AS SCD TYPE 2;
)";

std::string sqlString(const std::string& s) {
    std::string out = "'";
    for (char c : s)
        out += c == '\'' ? std::string("''") : std::string(1, c);
    return out + "'";
}

} // namespace

Result<ExplorerFigures> measureExplorer(int orders, std::int64_t events, std::int64_t keys) {
    auto db = storage::Database::openMemory();
    if (!db)
        return db.error();
    auto source = SourceTable::create(*db);
    if (!source)
        return source.error();
    WorkloadSpec spec;
    spec.events = events;
    spec.keys = keys;
    WorkloadGenerator generator(spec);
    CDC_TRY(source->append(generator.next(events)));
    auto parsed = sql::parsePipeline(kExplorerPipeline, "explorer-bench.sql");
    if (auto error = parsed.firstError())
        return *error;
    engine::ExplorerOptions options;
    options.orders = orders;
    options.seed = 1;
    ExplorerFigures figures;
    figures.orders = orders;
    figures.events = events;
    figures.keys = keys;
    figures.threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    Stopwatch watch;
    auto report = engine::exploreArrivalOrders(*db, parsed.pipeline, options);
    figures.seconds = watch.seconds();
    figures.cpuSeconds = watch.cpuSeconds();
    if (!report)
        return report.error();
    figures.note = "SCD1 + SCD2 target, " + std::to_string(report->ordersRun) + " orders run, " +
                   std::to_string(report->identical) + " identical";
    if (report->counterexample)
        figures.note += ", a counterexample found (its shrinking is included)";
    return figures;
}

namespace {

/// The rows of `table` (the catalog name), or an error when it does not hold `expected`.
Status expectRows(storage::Database& db, const std::string& table, std::int64_t expected, const char* what) {
    auto count = db.prepare("SELECT count(*) FROM " +
                            storage::quoteIdentifier(storage::Catalog::sqliteNameFor(table)));
    if (!count)
        return count.error();
    auto has = count->step();
    if (!has)
        return has.error();
    if (!has.value() || count->int64(0) != expected)
        return Diagnostic::error("BENCH", std::string("the ") + what + " did not load every row");
    return {};
}

const char* kFeedTable =
    "CREATE TABLE feed (id BIGINT, name STRING, city STRING, operation STRING, seq BIGINT);\n";

} // namespace

Result<LoadFigures> measureScriptLoad(const std::string& workDir, std::int64_t rows) {
    WorkloadSpec spec;
    spec.events = rows;
    WorkloadGenerator generator(spec);
    // The same rows as a source script and as a CSV file, both written before any clock starts.
    std::string script = std::string(kFeedTable) + "INSERT INTO feed VALUES\n";
    std::string csv = "id,name,city,operation,seq\n";
    script.reserve(static_cast<std::size_t>(rows) * 48);
    csv.reserve(static_cast<std::size_t>(rows) * 36);
    for (std::int64_t done = 0; done < rows; done += 100'000) {
        const auto events = generator.next(std::min<std::int64_t>(100'000, rows - done));
        for (std::size_t i = 0; i < events.size(); ++i) {
            const Event& e = events[i];
            const std::string name = WorkloadGenerator::name(e.nameIndex);
            const std::string city = WorkloadGenerator::city(e.cityIndex);
            const std::string operation(operationName(e.operation));
            script += (done + static_cast<std::int64_t>(i) ? ",\n(" : "(") + std::to_string(e.id) + ", " +
                      sqlString(name) + ", " + sqlString(city) + ", " + sqlString(operation) + ", " +
                      std::to_string(e.seq) + ")";
            csv += std::to_string(e.id) + "," + name + "," + city + "," + operation + "," +
                   std::to_string(e.seq) + "\n";
        }
    }
    script += ";\n";
    LoadFigures figures;
    figures.rows = rows;
    {
        auto db = openFreshDatabase(workDir + "/script-load.db", {});
        if (!db)
            return db.error();
        Stopwatch watch;
        CDC_TRY(sql::executeSourceScript(*db, script, "load.sql"));
        CDC_TRY(checkpointWal(*db));
        figures.sqlSeconds = watch.seconds();
        figures.sqlCpuSeconds = watch.cpuSeconds();
        CDC_TRY(expectRows(*db, "feed", rows, "source script"));
    }
    script = {};

    // `cdcstudio-cli import --format csv feed.csv --into feed`: into the table the script above creates.
    const std::string csvPath = workDir + "/load.csv";
    {
        std::ofstream out(csvPath, std::ios::binary | std::ios::trunc);
        out << csv;
        if (!out)
            return Diagnostic::error("BENCH", "cannot write " + csvPath);
    }
    csv = {};
    auto db = openFreshDatabase(workDir + "/csv-load.db", {});
    if (!db)
        return db.error();
    CDC_TRY(sql::executeSourceScript(*db, kFeedTable, "feed.sql"));
    feeds::FileImport request;
    request.path = csvPath;
    request.format = feeds::FeedFormat::Csv;
    request.table = "feed";
    Stopwatch watch;
    auto report = feeds::importFile(*db, request);
    if (!report)
        return report.error();
    CDC_TRY(checkpointWal(*db));
    figures.csvSeconds = watch.seconds();
    figures.csvCpuSeconds = watch.cpuSeconds();
    CDC_TRY(expectRows(*db, "feed", rows, "CSV import"));
    figures.csvNote =
        "the same rows as a CSV file, imported by feeds::importFile as cdcstudio-cli import runs it";
    std::filesystem::remove(csvPath);
    return figures;
}

} // namespace cdc::bench
