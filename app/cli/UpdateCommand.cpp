// update: one triggered pipeline update over the pipeline files.

#include "CliSupport.h"
#include "Commands.h"

#include "core/common/ResultSet.h"
#include "core/engine/Engine.h"
#include "core/storage/ProjectSettings.h"

#include <cstdio>
#include <iostream>
#include <memory>

namespace cdc::cli {

namespace {

/// An update over a big history may take minutes (an update of a million events takes seconds).
constexpr std::chrono::seconds kUpdateTimeout{300};

struct UpdateArgs {
    std::vector<std::string> files;
    bool fullRefresh = false;
    std::optional<std::string> now;
    std::optional<std::string> format;
    std::optional<std::string> pythonTimeout;
    std::optional<std::string> timeout;
};

cdc::ResultSet metricsTable(const cdc::engine::UpdateReport& report) {
    cdc::ResultSet rs;
    rs.columns = {"update_id",
                  "flow",
                  "target",
                  "rows_read",
                  "num_upserted_rows",
                  "num_deleted_rows",
                  "stale_dropped",
                  "versions_opened",
                  "versions_closed",
                  "versions_split",
                  "tombstones_created",
                  "tombstones_collected",
                  "ties",
                  "duration_ms"};
    for (const auto& m : report.flows) {
        rs.rows.push_back({report.updateId, m.flow, m.target, m.rowsRead, m.upserted, m.deleted,
                           m.staleDropped, m.versionsOpened, m.versionsClosed, m.versionsSplit,
                           m.tombstonesCreated, m.tombstonesCollected, m.ties, m.durationMs});
    }
    return rs;
}

void printMetrics(const cdc::engine::UpdateReport& report) {
    std::printf("update %lld completed in %.1f ms\n", static_cast<long long>(report.updateId),
                report.durationMs);
    for (const auto& m : report.flows) {
        std::printf("  flow %s -> %s: %lld read, %lld upserted, %lld deleted, %lld stale dropped",
                    m.flow.c_str(), m.target.c_str(), static_cast<long long>(m.rowsRead),
                    static_cast<long long>(m.upserted), static_cast<long long>(m.deleted),
                    static_cast<long long>(m.staleDropped));
        if (m.versionsOpened || m.versionsClosed || m.versionsSplit)
            std::printf(", versions +%lld/-%lld (%lld split)", static_cast<long long>(m.versionsOpened),
                        static_cast<long long>(m.versionsClosed), static_cast<long long>(m.versionsSplit));
        if (m.tombstonesCreated || m.tombstonesCollected)
            std::printf(", tombstones +%lld/-%lld", static_cast<long long>(m.tombstonesCreated),
                        static_cast<long long>(m.tombstonesCollected));
        if (m.ties)
            std::printf(", %lld ties", static_cast<long long>(m.ties));
        std::printf(" (%.1f ms)\n", m.durationMs);
    }
}

int runUpdate(const GlobalOptions& global, const UpdateArgs& args) {
    if (args.files.empty())
        return usageError("update needs at least one PIPELINE file");
    const auto format = chosenFormat(args.format, {"text", "json"}, "update");
    if (!format)
        return kExitUsage;
    cdc::engine::UpdateOptions options;
    options.fullRefresh = args.fullRefresh;
    if (args.now) {
        options.now = parseTime(*args.now);
        if (!options.now)
            return usageError("--now takes ISO-8601 (2026-08-30T10:00:00Z) or epoch seconds, not '" +
                              *args.now + "'");
    }
    cdc::python::RunOptions python;
    if (auto exit = pythonOptions(global, args.pythonTimeout, python))
        return *exit;
    int exit = kExitOk;
    if (auto limit = timeLimit(args.timeout, kUpdateTimeout, exit))
        options.timeout = *limit;
    else
        return exit;
    // Snapshot functions are called during the update, by workers running their file again.
    cdc::python::SnapshotFunctions snapshotFunctions(python);
    auto files = readPipelineFiles(args.files, python, &snapshotFunctions);
    if (!files)
        return userError(files.error());
    auto db = openDatabase(global, cdc::storage::Database::Mode::ReadWriteCreate, Check::ByEngine);
    if (!db)
        return userError(db.error());
    // The pipeline text is recorded with the update, in its transaction: the app opens the database
    // with the pipeline that made its targets.
    auto tx = cdc::storage::Transaction::begin(*db, "cdc_cli_update");
    if (!tx)
        return userError(tx.error());
    namespace settings = cdc::storage::projectsettings;
    if (auto st = settings::setValue(*db, settings::kPipelineKey, files->recorded); !st)
        return userError(st.error());
    if (auto st = settings::setValue(*db, settings::kPipelineLanguageKey,
                                     recordsPython(args.files) ? "python" : "sql");
        !st)
        return userError(st.error());
    if (!snapshotFunctions.empty())
        options.snapshotFunction = snapshotFunctions.callback();
    auto report = cdc::engine::runUpdate(*db, files->pipeline, options);
    if (!report)
        return userError(report.error());
    if (auto st = tx->commit(); !st)
        return userError(st.error());
    for (const auto& w : report->warnings)
        std::cerr << w.format() << "\n";
    if (*format == "json")
        std::cout << cdc::toJson(metricsTable(*report));
    else
        printMetrics(*report);
    return kExitOk;
}

} // namespace

void addUpdateCommand(CommandLine& cli) {
    auto args = std::make_shared<UpdateArgs>();
    CLI::App* c = cli.add(
        "update", "run one triggered pipeline update over the pipeline files",
        "Every flow processes the source rows appended since its own checkpoint, in dependency order, in "
        "one transaction; prints each flow's metrics.",
        [&cli, args] { return runUpdate(cli.global(), *args); });
    c->add_option("PIPELINE", args->files, "pipeline files (.sql pipeline SQL, .py pipeline Python)");
    c->add_flag("--full-refresh", args->fullRefresh,
                "clear the targets and checkpoints and reprocess everything");
    c->add_option(
         "--now", args->now,
         "the update's simulated time, ISO-8601 (2026-08-30T10:00:00Z) or epoch seconds (default: the "
         "clock); drives tombstone GC")
        ->option_text("T");
    addFormatOption(c, args->format, "text|json");
    addPythonTimeoutOption(c, args->pythonTimeout);
    addTimeoutOption(c, args->timeout, kUpdateTimeout);
}

} // namespace cdc::cli
