// cdcstudio-cli: argument handling only. The work is done by core (SQL front end, engine, formatting).
// Contract: ../shared/spec/cli.md. Exit status: 0 success, 1 user error, 2 wrong usage.

#include "CdcVersion.h"
#include "core/common/ResultSet.h"
#include "core/engine/ArrivalExplorer.h"
#include "core/engine/Engine.h"
#include "core/engine/MergeComparison.h"
#include "core/engine/Provenance.h"
#include "core/python/PythonRunner.h"
#include "core/sql/SqlApi.h"
#include "core/storage/Catalog.h"
#include "core/storage/Database.h"
#include "core/storage/ForeignObjects.h"
#include "core/storage/ProjectSettings.h"
#include "core/storage/QueryGuard.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr int kExitOk = 0;
constexpr int kExitUserError = 1;
constexpr int kExitUsage = 2;

/// Default time limits (--timeout): a query answers a person waiting for it; a source script or an update
/// over a big history may take minutes (an update of a million events takes seconds).
constexpr std::chrono::seconds kQueryTimeout{30};
constexpr std::chrono::seconds kWriteTimeout{300};

const char* kUsage = R"(usage: cdcstudio-cli [--db PATH] COMMAND [ARGS]

Commands:
  sql FILE...               execute Spark SQL source statements (FILE '-' reads stdin)
      [--timeout SECONDS]   stop (and change nothing) after SECONDS (default 300)
  update PIPELINE...        run one triggered pipeline update over the pipeline files
      [--full-refresh] [--now T] [--format text|json]
      [--python-timeout SECONDS]
                            a .py pipeline runs in Python (its own process) and is
                            stopped after SECONDS (default 10)
      [--timeout SECONDS]   stop the update (and change nothing) after SECONDS
                            (default 300)
  query SQL                 run a read-only Spark SQL query (the file is not changed)
      [--format table|csv|json]
      [--timeout SECONDS]   stop the query after SECONDS (default 30)
  tombstones TARGET         list the live tombstones of an AUTO CDC target
      [--format table|json]
  repair                    drop the triggers and views CDC Studio did not make (a
                            project from elsewhere is refused while it holds any)
  shuffle-test [PIPELINE...]
                            replay the source tables' rows in random arrival orders and
                            splits into updates (scratch copies; the file is not changed)
                            and compare every target with the in-order run; exit 1 and a
                            minimal counterexample when one differs. Without PIPELINE:
                            the pipeline the last update recorded
      [--orders N] [--seed S] [--max-updates M] [--format text|json]
                            N arrivals (default 100) drawn with seed S (default 1), each
                            split into 1..M updates (default 4) at the project's clock
  explain TARGET [PIPELINE...] --key COLUMN=VALUE...
                            why a key's row (SCD1) or versions (SCD2) are what they are:
                            every event of the key in sequence order with its fate and
                            the update that delivered it, and which event set each
                            current value (the updates replayed in a scratch copy; the
                            file is not changed). Without PIPELINE: the recorded one
      [--format text|json]
  compare-merge TARGET [PIPELINE...]
                            run the MERGE INTO a data engineer writes without AUTO CDC
                            on the events the updates delivered, batch by batch (in a
                            scratch copy; the file is not changed), and compare its table
                            with the AUTO CDC target's; exit 0 whether or not they differ
      [--format text|json] [--sql]
                            --sql prints only the MERGE, as Databricks SQL

Options:
  --db PATH                 database (default ./cdcstudio.db; created if missing, but
                            query and repair need it to exist)
  --timeout SECONDS         0: no time limit (a fraction is allowed: 0.5)
  --volumes DIR             where /Volumes/<catalog>/<schema>/<volume>/... paths of read_files and
                            list_files lead: DIR/Volumes/... (default: the folder of the database)
  -h, --help                show this help
  --version                 show the version
)";

struct Arguments {
    std::string db = "cdcstudio.db";
    std::string volumes; ///< empty: the database's folder
    std::string command;
    std::vector<std::string> operands;
    std::optional<std::string> format;
    std::optional<std::string> now;
    std::optional<std::string> pythonTimeout;
    std::optional<std::string> timeout;
    std::optional<std::string> orders, seed, maxUpdates; ///< shuffle-test
    bool fullRefresh = false;
    bool sqlOnly = false;          ///< compare-merge --sql
    std::vector<std::string> keys; ///< explain: COLUMN=VALUE
};

int usageError(const std::string& message) {
    std::cerr << "cdcstudio-cli: " << message << "\n" << kUsage;
    return kExitUsage;
}

int userError(const cdc::Diagnostic& d) {
    std::cerr << d.format() << (d.code == "TIMEOUT" ? " (--timeout SECONDS sets the limit)" : "") << "\n";
    return kExitUserError;
}

/// Parses the command line; returns an exit code when it cannot go on.
std::optional<int> parseArguments(int argc, char** argv, Arguments& args) {
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto takeValue = [&](std::string& into) -> bool {
            if (auto eq = a.find('='); eq != std::string::npos) {
                into = a.substr(eq + 1);
                return true;
            }
            if (i + 1 >= argc)
                return false;
            into = argv[++i];
            return true;
        };
        auto is = [&](const char* name) { return a == name || a.rfind(std::string(name) + "=", 0) == 0; };
        std::string value;
        if (a == "-h" || a == "--help") {
            std::cout << kUsage;
            return kExitOk;
        }
        if (a == "--version") {
            std::cout << "cdcstudio-cli " << cdc::kVersion << "\n";
            return kExitOk;
        }
        if (is("--db")) {
            if (!takeValue(value))
                return usageError("--db needs a path");
            args.db = value;
        } else if (is("--volumes")) {
            if (!takeValue(value))
                return usageError("--volumes needs a folder");
            args.volumes = value;
        } else if (is("--format")) {
            if (!takeValue(value))
                return usageError("--format needs a value");
            args.format = value;
        } else if (is("--now")) {
            if (!takeValue(value))
                return usageError("--now needs a time");
            args.now = value;
        } else if (is("--python-timeout")) {
            if (!takeValue(value))
                return usageError("--python-timeout needs a number of seconds");
            args.pythonTimeout = value;
        } else if (is("--timeout")) {
            if (!takeValue(value))
                return usageError("--timeout needs a number of seconds");
            args.timeout = value;
        } else if (is("--orders") || is("--seed") || is("--max-updates")) {
            auto& into = is("--orders") ? args.orders : is("--seed") ? args.seed : args.maxUpdates;
            if (!takeValue(value))
                return usageError(a.substr(0, a.find('=')) + " needs a number");
            into = value;
        } else if (is("--key")) {
            if (!takeValue(value))
                return usageError("--key needs COLUMN=VALUE");
            args.keys.push_back(value);
        } else if (a == "--full-refresh") {
            args.fullRefresh = true;
        } else if (a == "--sql") {
            args.sqlOnly = true;
        } else if (a.size() > 1 && a[0] == '-' && a != "-") {
            return usageError("unknown option '" + a + "'");
        } else if (args.command.empty()) {
            args.command = a;
        } else {
            args.operands.push_back(a);
        }
    }
    if (args.command.empty())
        return usageError("missing command");
    return std::nullopt;
}

/// Seconds as given to --python-timeout and --timeout (a positive number, fractions allowed; zero too when
/// `zeroAllowed`).
std::optional<std::chrono::milliseconds> parseSeconds(const std::string& text, bool zeroAllowed = false) {
    char* end = nullptr;
    const double s = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !(s > 0 || (zeroAllowed && s == 0)) || s > 86400)
        return std::nullopt;
    return std::chrono::milliseconds(static_cast<std::int64_t>(s * 1000 + 0.5));
}

/// How long a command may run: --timeout, else the command's default. Work on a project file may never end
/// (a view that joins big tables without a condition), and a CLI in a script must not hang.
std::optional<std::chrono::milliseconds> timeLimit(const Arguments& args, std::chrono::seconds fallback) {
    if (!args.timeout)
        return fallback;
    return parseSeconds(*args.timeout, true);
}

int timeoutUsage(const Arguments& args) {
    return usageError("--timeout takes a number of seconds (0: no limit), not '" + args.timeout.value_or("") +
                      "'");
}

/// ISO-8601 (`2026-08-30T10:00:00Z`, `2026-08-30 10:00:00`, `2026-08-30`) or epoch seconds.
std::optional<std::int64_t> parseTime(const std::string& text) {
    if (!text.empty() && text.find_first_not_of("0123456789-") == std::string::npos &&
        text.find('-', 1) == std::string::npos) {
        try {
            return std::stoll(text);
        } catch (...) {
            return std::nullopt;
        }
    }
    std::tm tm{};
    int y = 0, mo = 0, d = 0, h = 0, mi = 0;
    double s = 0;
    int n = std::sscanf(text.c_str(), "%d-%d-%d%*[T ]%d:%d:%lf", &y, &mo, &d, &h, &mi, &s);
    if (n != 3 && n < 5)
        return std::nullopt;
    if (n == 3 && text.size() != 10)
        return std::nullopt;
    tm.tm_year = y - 1900;
    tm.tm_mon = mo - 1;
    tm.tm_mday = d;
    tm.tm_hour = h;
    tm.tm_min = mi;
    tm.tm_sec = static_cast<int>(s);
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s >= 61)
        return std::nullopt;
    return static_cast<std::int64_t>(timegm(&tm));
}

/// The text of the file `path` ('-': standard input), or the IO error: a folder, a missing or unreadable
/// file.
cdc::Result<std::string> readInput(const std::string& path) {
    if (path == "-")
        return std::string(std::istreambuf_iterator<char>(std::cin), {});
    std::error_code ec;
    // An ifstream opens a folder on Linux and reads nothing from it: an update "of" a folder ran nothing.
    if (std::filesystem::is_directory(path, ec))
        return cdc::Diagnostic::error("IO", "'" + path + "' is a folder; name the pipeline files in it");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return cdc::Diagnostic::error("IO", "cannot read '" + path + "'");
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// How a command opens the database: `update` leaves the project's check to the engine, which rebuilds
/// damaged targets on a full refresh; `repair` opens what the check would refuse.
enum class Check { Verify, ByEngine, None };

cdc::Result<cdc::storage::Database>
openDatabase(const Arguments& args,
             cdc::storage::Database::Mode mode = cdc::storage::Database::Mode::ReadWriteCreate,
             Check check = Check::Verify) {
    auto db = cdc::storage::Database::open(args.db, mode);
    if (!db)
        return db.error();
    if (!args.volumes.empty()) {
        std::error_code ec;
        const std::filesystem::path folder = std::filesystem::absolute(args.volumes, ec);
        if (ec || !std::filesystem::is_directory(folder))
            return cdc::Diagnostic::error("PATH_NOT_FOUND",
                                          "--volumes: '" + args.volumes + "' is not a folder");
        db->setVolumes(cdc::VolumeRoot(folder));
    }
    // A project is untrusted input: nothing in it runs or is read before it is checked (docs/safety.md).
    if (check == Check::Verify)
        if (auto st = cdc::engine::verifyProject(*db); !st)
            return st.error();
    if (check == Check::ByEngine)
        if (auto st = cdc::storage::checkForeignObjects(*db); !st)
            return st.error();
    if (mode != cdc::storage::Database::Mode::ReadOnly)
        if (auto st = cdc::storage::Catalog::ensureSchema(*db); !st)
            return st.error();
    return db;
}

int commandSql(const Arguments& args) {
    if (args.operands.empty())
        return usageError("sql needs at least one FILE");
    const auto limit = timeLimit(args, kWriteTimeout);
    if (!limit)
        return timeoutUsage(args);
    auto db = openDatabase(args);
    if (!db)
        return userError(db.error());
    // The guard outlives the transaction: a stopped script is rolled back whole.
    const cdc::storage::QueryGuard guard(*db, "source script", {*limit, nullptr});
    // One transaction for all files: on any error nothing is changed.
    auto tx = cdc::storage::Transaction::begin(*db, "cli_sql");
    if (!tx)
        return userError(tx.error());
    for (const auto& file : args.operands) {
        auto text = readInput(file);
        if (!text)
            return userError(text.error());
        if (auto st = cdc::sql::executeSourceScript(*db, *text, file == "-" ? "<stdin>" : file); !st)
            return userError(guard.explain(st.error()));
    }
    if (auto st = tx->commit(); !st)
        return userError(guard.explain(st.error()));
    return kExitOk;
}

int printResult(const cdc::ResultSet& rs, const std::optional<std::string>& format, bool allowCsv) {
    auto f = cdc::parseOutputFormat(format.value_or("table"));
    if (!f || *f == cdc::OutputFormat::Text || (!allowCsv && *f == cdc::OutputFormat::Csv))
        return usageError("unsupported --format '" + format.value_or("") + "'");
    std::cout << cdc::format(rs, *f);
    return kExitOk;
}

int commandQuery(const Arguments& args) {
    if (args.operands.size() != 1)
        return usageError("query needs exactly one SQL argument");
    cdc::sql::QueryLimits limits;
    if (auto limit = timeLimit(args, kQueryTimeout))
        limits.timeout = *limit;
    else
        return timeoutUsage(args);
    // Read-only: a query changes no byte of the file (a read-write open would switch it to WAL and add the
    // catalog's tables).
    auto db = openDatabase(args, cdc::storage::Database::Mode::ReadOnly);
    if (!db)
        return userError(db.error());
    auto rs = cdc::sql::runQuery(*db, args.operands[0], "<query>", limits);
    if (!rs)
        return userError(rs.error());
    return printResult(*rs, args.format, true);
}

int commandTombstones(const Arguments& args) {
    if (args.operands.size() != 1)
        return usageError("tombstones needs exactly one TARGET");
    auto db = openDatabase(args);
    if (!db)
        return userError(db.error());
    auto rs = cdc::engine::tombstones(*db, args.operands[0]);
    if (!rs)
        return userError(rs.error());
    return printResult(*rs, args.format, false);
}

int commandRepair(const Arguments& args) {
    if (!args.operands.empty())
        return usageError("repair takes no arguments");
    auto db = openDatabase(args, cdc::storage::Database::Mode::ReadWrite, Check::None);
    if (!db)
        return userError(db.error());
    auto tx = cdc::storage::Transaction::begin(*db, "cli_repair");
    if (!tx)
        return userError(tx.error());
    auto dropped = cdc::storage::dropForeignObjects(*db);
    if (!dropped)
        return userError(dropped.error());
    if (auto st = tx->commit(); !st)
        return userError(st.error());
    for (const auto& o : *dropped)
        std::cout << "dropped " << cdc::storage::describe({o}) << "\n";
    if (dropped->empty())
        std::cout << "nothing to drop\n";
    // What dropping cannot fix: damaged engine state (a full refresh) or tables.
    if (auto st = cdc::engine::verifyProject(*db); !st)
        return userError(st.error());
    return kExitOk;
}

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

bool isPythonFile(const std::string& file) {
    return file.size() > 3 && file.compare(file.size() - 3, 3, ".py") == 0;
}

/// What `update` records of one pipeline file for the app's editor: SQL verbatim; Python as the pipeline SQL
/// its run recorded (the editor takes SQL); each file under a comment naming it when there are several. One
/// Python file is recorded as itself (recordsPython), so that the app opens it as the Python it is.
bool recordsPython(const std::vector<std::string>& files) {
    return files.size() == 1 && isPythonFile(files.front());
}

std::string recordedPipelineText(const std::string& file, const std::string& text,
                                 const std::string* pythonSql, std::size_t files) {
    if (pythonSql && files == 1)
        return text;
    std::string out;
    if (files > 1)
        out += "-- " + file + "\n";
    if (pythonSql)
        out += "-- pipeline SQL recorded by running the Python file " + file + "\n" + *pythonSql;
    else
        out += text;
    if (!out.empty() && out.back() != '\n' && files > 1)
        out += '\n';
    return out;
}

/// The folder of the database file: where /Volumes/... paths of Python pipelines map.
std::string databaseFolder(const std::string& db) {
    const auto slash = db.rfind('/');
    return slash == std::string::npos ? std::string(".")
           : slash == 0               ? std::string("/")
                                      : db.substr(0, slash);
}

/// How the Python files of a command run: --python-timeout, the volume folder, the project's tables. Returns
/// an exit code when an option is wrong.
std::optional<int> pythonOptions(const Arguments& args, cdc::python::RunOptions& python) {
    // dbutils.fs.ls lists the same folder read_files reads: --volumes, else the database's folder.
    python.volumesRoot =
        args.volumes.empty() ? databaseFolder(args.db) : std::filesystem::absolute(args.volumes).string();
    if (args.pythonTimeout) {
        auto timeout = parseSeconds(*args.pythonTimeout);
        if (!timeout)
            return usageError("--python-timeout takes a positive number of seconds, not '" +
                              *args.pythonTimeout + "'");
        python.timeout = *timeout;
    }
    // What the project's tables hold tells a Python file what a table read's * stands for. Only the catalog
    // is read here; the database is verified when the command opens it.
    if (std::filesystem::is_regular_file(args.db))
        if (auto known = cdc::storage::Database::open(args.db, cdc::storage::Database::Mode::ReadOnly))
            python.tables = cdc::python::catalogColumns(*known);
    return std::nullopt;
}

/// The pipeline of one or more files, and what `update` records of them for the app's editor.
struct PipelineFiles {
    cdc::pipeline::Pipeline pipeline;
    std::string recorded;
};

/// Reads (SQL) or runs (Python, in a worker) the pipeline files; warnings and what a Python file prints go to
/// stderr. `functions`, when given, registers the snapshot functions of the Python files.
cdc::Result<PipelineFiles> readPipelineFiles(const std::vector<std::string>& files,
                                             const cdc::python::RunOptions& python,
                                             cdc::python::SnapshotFunctions* functions) {
    PipelineFiles out;
    for (const auto& file : files) {
        auto text = readInput(file);
        if (!text)
            return text.error();
        // A Python pipeline file is a program: the CLI runs what it is told, in a worker process.
        const bool isPython = isPythonFile(file);
        cdc::python::PipelineRun run;
        if (isPython)
            run = cdc::python::runPipelineFile(*text, file, python);
        else
            run.parse = cdc::sql::parsePipeline(*text, file);
        std::cerr << run.printed; // the file's print()s, as when Databricks runs it
        auto& parsed = run.parse;
        if (isPython && functions)
            functions->add(*text, file, parsed.pipeline);
        out.recorded += recordedPipelineText(file, *text, isPython ? &run.sql : nullptr, files.size());
        for (const auto& d : parsed.diagnostics)
            if (d.severity != cdc::Severity::Error)
                std::cerr << d.format() << "\n";
        if (auto err = parsed.firstError())
            return *err;
        auto& p = parsed.pipeline;
        // A file that defines nothing is a mistake (an empty file, the wrong file), not an update to record.
        if (p.streamingTables.empty() && p.views.empty() && p.cdcFlows.empty() && p.appendFlows.empty())
            return cdc::Diagnostic::error(
                "EMPTY_PIPELINE", "the pipeline file defines no table, view or flow; nothing to update",
                cdc::SourceLocation{file, 1, 1, 0, 0});
        auto append = [](auto& into, auto& from) { into.insert(into.end(), from.begin(), from.end()); };
        append(out.pipeline.streamingTables, p.streamingTables);
        append(out.pipeline.views, p.views);
        append(out.pipeline.cdcFlows, p.cdcFlows);
        append(out.pipeline.appendFlows, p.appendFlows);
    }
    return out;
}

int commandUpdate(const Arguments& args) {
    if (args.operands.empty())
        return usageError("update needs at least one PIPELINE file");
    std::string fmt = args.format.value_or("text");
    if (fmt != "text" && fmt != "json")
        return usageError("update supports --format text|json");
    cdc::engine::UpdateOptions options;
    options.fullRefresh = args.fullRefresh;
    if (args.now) {
        options.now = parseTime(*args.now);
        if (!options.now)
            return usageError("--now takes ISO-8601 (2026-08-30T10:00:00Z) or epoch seconds, not '" +
                              *args.now + "'");
    }
    cdc::python::RunOptions python;
    if (auto exit = pythonOptions(args, python))
        return *exit;
    if (auto limit = timeLimit(args, kWriteTimeout))
        options.timeout = *limit;
    else
        return timeoutUsage(args);
    // Snapshot functions are called during the update, by workers running their file again.
    cdc::python::SnapshotFunctions snapshotFunctions(python);
    auto files = readPipelineFiles(args.operands, python, &snapshotFunctions);
    if (!files)
        return userError(files.error());
    const cdc::pipeline::Pipeline& pipeline = files->pipeline;
    const std::string& recorded = files->recorded;
    auto db = openDatabase(args, cdc::storage::Database::Mode::ReadWriteCreate, Check::ByEngine);
    if (!db)
        return userError(db.error());
    // The pipeline text is recorded with the update, in its transaction: the app opens the database
    // with the pipeline that made its targets.
    auto tx = cdc::storage::Transaction::begin(*db, "cdc_cli_update");
    if (!tx)
        return userError(tx.error());
    if (auto st = cdc::storage::projectsettings::setValue(*db, cdc::storage::projectsettings::kPipelineKey,
                                                          recorded);
        !st)
        return userError(st.error());
    if (auto st =
            cdc::storage::projectsettings::setValue(*db, cdc::storage::projectsettings::kPipelineLanguageKey,
                                                    recordsPython(args.operands) ? "python" : "sql");
        !st)
        return userError(st.error());
    if (!snapshotFunctions.empty())
        options.snapshotFunction = snapshotFunctions.callback();
    auto report = cdc::engine::runUpdate(*db, pipeline, options);
    if (!report)
        return userError(report.error());
    if (auto st = tx->commit(); !st)
        return userError(st.error());
    for (const auto& w : report->warnings)
        std::cerr << w.format() << "\n";
    auto table = metricsTable(*report);
    if (fmt == "json") {
        std::cout << cdc::toJson(table);
    } else {
        std::printf("update %lld completed in %.1f ms\n", static_cast<long long>(report->updateId),
                    report->durationMs);
        for (const auto& m : report->flows) {
            std::printf("  flow %s -> %s: %lld read, %lld upserted, %lld deleted, %lld stale dropped",
                        m.flow.c_str(), m.target.c_str(), static_cast<long long>(m.rowsRead),
                        static_cast<long long>(m.upserted), static_cast<long long>(m.deleted),
                        static_cast<long long>(m.staleDropped));
            if (m.versionsOpened || m.versionsClosed || m.versionsSplit)
                std::printf(", versions +%lld/-%lld (%lld split)", static_cast<long long>(m.versionsOpened),
                            static_cast<long long>(m.versionsClosed),
                            static_cast<long long>(m.versionsSplit));
            if (m.tombstonesCreated || m.tombstonesCollected)
                std::printf(", tombstones +%lld/-%lld", static_cast<long long>(m.tombstonesCreated),
                            static_cast<long long>(m.tombstonesCollected));
            if (m.ties)
                std::printf(", %lld ties", static_cast<long long>(m.ties));
            std::printf(" (%.1f ms)\n", m.durationMs);
        }
    }
    return kExitOk;
}

} // namespace

/// A whole number from `low` on, as --orders, --seed and --max-updates take.
std::optional<std::int64_t> parseCount(const std::optional<std::string>& text, std::int64_t fallback,
                                       std::int64_t low) {
    if (!text)
        return fallback;
    char* end = nullptr;
    const long long n = std::strtoll(text->c_str(), &end, 10);
    if (text->empty() || *end != '\0' || n < low || n > 1000000000)
        return std::nullopt;
    return n;
}

std::string explorerJson(const cdc::engine::ExplorerReport& r, std::int64_t seed) {
    nlohmann::json out{
        {"orders", r.ordersRun}, {"identical", r.identical}, {"events", r.events}, {"seed", seed}};
    if (const auto& ce = r.counterexample) {
        nlohmann::json events = nlohmann::json::array(), updates = nlohmann::json::array(),
                       differences = nlohmann::json::array();
        for (const auto& e : ce->events)
            events.push_back(cdc::engine::eventText(e));
        for (int u = 0; u < ce->arrival.updates; ++u) {
            nlohmann::json arrived = nlohmann::json::array();
            for (std::size_t i = 0; i < ce->arrival.events.size(); ++i)
                if (ce->arrival.update[i] == u)
                    arrived.push_back(ce->arrival.events[i]);
            updates.push_back(arrived);
        }
        for (const auto& d : ce->differences)
            differences.push_back({{"target", d.target}, {"inOrder", d.inOrder}, {"arrived", d.arrived}});
        out["counterexample"] = {
            {"order", ce->order}, {"events", events}, {"updates", updates}, {"differences", differences}};
    }
    return out.dump(2) + "\n";
}

/// The database of a command that only reads it (shuffle-test, compare-merge, explain): it must exist.
cdc::Result<cdc::storage::Database> openExistingReadOnly(const Arguments& args) {
    if (!std::filesystem::is_regular_file(args.db))
        return cdc::Diagnostic::error("IO", "no database '" + args.db + "' (--db PATH)");
    return openDatabase(args, cdc::storage::Database::Mode::ReadOnly);
}

/// The pipeline a command replays over a database: its files, or the pipeline the last update recorded; or
/// the exit code of the error already reported.
struct ReplayedPipeline {
    std::optional<cdc::pipeline::Pipeline> pipeline;
    int exit = kExitOk;
    explicit operator bool() const { return pipeline.has_value(); }
};

ReplayedPipeline pipelineToReplay(const Arguments& args, const cdc::storage::Database& db,
                                  const std::vector<std::string>& files, const std::string& command) {
    ReplayedPipeline out;
    if (!files.empty()) {
        cdc::python::RunOptions python;
        if (auto exit = pythonOptions(args, python)) {
            out.exit = *exit;
            return out;
        }
        auto read = readPipelineFiles(files, python, nullptr);
        if (!read) {
            out.exit = userError(read.error());
            return out;
        }
        out.pipeline = std::move(read->pipeline);
        return out;
    }
    // The pipeline the last update ran, as it recorded it.
    namespace settings = cdc::storage::projectsettings;
    const auto text = settings::value(db, settings::kPipelineKey).value_or("");
    if (settings::value(db, settings::kPipelineLanguageKey).value_or("") == "python") {
        out.exit =
            usageError("the recorded pipeline is Python: name the .py file (" + command + " pipeline.py)");
        return out;
    }
    auto parsed = cdc::sql::parsePipeline(text, args.db + ":pipeline");
    if (auto err = parsed.firstError()) {
        out.exit = userError(*err);
        return out;
    }
    if (parsed.pipeline.cdcFlows.empty() && parsed.pipeline.appendFlows.empty()) {
        out.exit = userError(cdc::Diagnostic::error(
            "EMPTY_PIPELINE", "the database records no pipeline; name the pipeline files to replay"));
        return out;
    }
    out.pipeline = std::move(parsed.pipeline);
    return out;
}

int commandShuffleTest(const Arguments& args) {
    const auto orders = parseCount(args.orders, 100, 1);
    const auto seed = parseCount(args.seed, 1, 0);
    const auto maxUpdates = parseCount(args.maxUpdates, 4, 1);
    if (!orders || !seed || !maxUpdates)
        return usageError("--orders and --max-updates take a whole number from 1, --seed one from 0");
    const std::string fmt = args.format.value_or("text");
    if (fmt != "text" && fmt != "json")
        return usageError("shuffle-test supports --format text|json");
    auto db = openExistingReadOnly(args);
    if (!db)
        return userError(db.error());
    auto pipeline = pipelineToReplay(args, *db, args.operands, "shuffle-test");
    if (!pipeline)
        return pipeline.exit;
    namespace settings = cdc::storage::projectsettings;
    cdc::engine::ExplorerOptions options;
    options.orders = static_cast<int>(*orders);
    options.seed = static_cast<std::uint64_t>(*seed);
    options.maxUpdates = static_cast<int>(*maxUpdates);
    // The project's clock: tombstone GC between updates depends on the time they are apart.
    const auto clock = [&](const char* key, std::int64_t fallback) {
        const auto text = settings::value(*db, key).value_or("");
        char* end = nullptr;
        const long long v = std::strtoll(text.c_str(), &end, 10);
        return text.empty() || *end != '\0' ? fallback : static_cast<std::int64_t>(v);
    };
    options.start = clock(settings::kClockStartKey, 0);
    options.tick = std::max<std::int64_t>(1, clock(settings::kClockTickKey, 60));
    auto report = cdc::engine::exploreArrivalOrders(*db, *pipeline.pipeline, options);
    if (!report)
        return userError(report.error());
    if (fmt == "json")
        std::cout << explorerJson(*report, *seed);
    else
        std::cout << cdc::engine::reportText(*report, options);
    return report->counterexample ? kExitUserError : kExitOk;
}

nlohmann::json comparisonJson(const cdc::engine::MergeComparison& c) {
    const auto table = [&](const std::vector<cdc::Row>& rows) {
        return nlohmann::json::parse(cdc::toJson(cdc::ResultSet{c.columns, c.types, rows}));
    };
    nlohmann::json differences = nlohmann::json::array();
    for (const auto& d : c.differences) {
        nlohmann::json cells = nlohmann::json::array();
        for (std::size_t cell : d.cells)
            cells.push_back(c.columns[cell]);
        differences.push_back(
            {{"text", c.describe(d)},
             {"only", d.mergeRow && d.autoCdcRow ? nlohmann::json()
                      : d.mergeRow               ? nlohmann::json("merge")
                                                 : nlohmann::json("autoCdc")},
             {"mergeRow", d.mergeRow ? nlohmann::json(*d.mergeRow) : nlohmann::json()},
             {"autoCdcRow", d.autoCdcRow ? nlohmann::json(*d.autoCdcRow) : nlohmann::json()},
             {"cells", cells}});
    }
    return {{"target", c.target},
            {"scdType", c.scd2 ? 2 : 1},
            {"identical", c.identical()},
            {"summary", c.summary()},
            {"updates", c.updates},
            {"events", c.events},
            {"sql", c.sql},
            {"autoCdc", table(c.autoCdc)},
            {"merge", table(c.merge)},
            {"differences", differences}};
}

int commandCompareMerge(const Arguments& args) {
    if (args.operands.empty())
        return usageError("compare-merge needs a TARGET");
    const std::string fmt = args.format.value_or("text");
    if (fmt != "text" && fmt != "json")
        return usageError("compare-merge supports --format text|json");
    auto db = openExistingReadOnly(args);
    if (!db)
        return userError(db.error());
    const std::vector<std::string> files(args.operands.begin() + 1, args.operands.end());
    auto pipeline = pipelineToReplay(args, *db, files, "compare-merge TARGET");
    if (!pipeline)
        return pipeline.exit;
    auto c = cdc::engine::compareWithMerge(*db, *pipeline.pipeline, args.operands[0]);
    if (!c)
        return userError(c.error());
    if (args.sqlOnly)
        std::cout << c->sql;
    else if (fmt == "json")
        std::cout << comparisonJson(*c).dump(2) << "\n";
    else
        std::cout << cdc::engine::comparisonText(*c);
    return kExitOk;
}

nlohmann::json valueJson(const cdc::Value& v) {
    if (cdc::isNull(v))
        return nullptr;
    if (const auto* i = std::get_if<std::int64_t>(&v))
        return *i;
    if (const auto* d = std::get_if<double>(&v))
        return *d;
    return cdc::displayText(v);
}

std::string explanationJson(const cdc::engine::Explanation& e) {
    nlohmann::json events = nlohmann::json::array(), key = nlohmann::json::object(),
                   current = nlohmann::json::array();
    for (std::size_t k = 0; k < e.keyColumns.size(); ++k)
        key[e.keyColumns[k]] = valueJson(e.key[k]);
    for (const auto& ev : e.events) {
        nlohmann::json values = nlohmann::json::object();
        for (std::size_t c = 0; c < ev.values.size() && c < e.columns.size(); ++c)
            values[e.columns[c]] = valueJson(ev.values[c]);
        events.push_back({{"sequence", valueJson(ev.sequence)},
                          {"operation", ev.isDelete ? "DELETE" : "UPSERT"},
                          {"update", ev.update},
                          {"source", ev.source},
                          {"rowid", ev.rowid},
                          {"values", values},
                          {"fate", cdc::engine::fateName(ev.fate)},
                          {"why", ev.why},
                          {"late", ev.late}});
    }
    for (const auto& c : e.current)
        current.push_back({{"column", c.column},
                           {"value", valueJson(c.value)},
                           {"event", c.event < 0 ? nlohmann::json(nullptr) : nlohmann::json(c.event)}});
    nlohmann::json out = {{"target", e.target},   {"scd", e.scd2 ? 2 : 1}, {"key", key},
                          {"summary", e.summary}, {"notes", e.notes},      {"events", events},
                          {"current", current}};
    return out.dump(2) + "\n";
}

int commandExplain(const Arguments& args) {
    const std::string fmt = args.format.value_or("text");
    if (fmt != "text" && fmt != "json")
        return usageError("explain supports --format text|json");
    if (args.operands.empty())
        return usageError("explain needs a TARGET");
    if (args.keys.empty())
        return usageError("explain needs the key: --key COLUMN=VALUE for each key column");
    std::vector<std::pair<std::string, std::string>> keyTexts;
    for (const std::string& k : args.keys) {
        const auto eq = k.find('=');
        if (eq == std::string::npos || eq == 0)
            return usageError("--key takes COLUMN=VALUE, not '" + k + "'");
        keyTexts.emplace_back(k.substr(0, eq), k.substr(eq + 1));
    }
    auto db = openExistingReadOnly(args);
    if (!db)
        return userError(db.error());
    const std::vector<std::string> files(args.operands.begin() + 1, args.operands.end());
    auto pipeline = pipelineToReplay(args, *db, files, "explain TARGET");
    if (!pipeline)
        return pipeline.exit;
    const std::string& target = args.operands[0];
    auto key = cdc::engine::keyFromText(*db, target, keyTexts);
    if (!key)
        return userError(key.error());
    auto explanation = cdc::engine::explainKey(*db, *pipeline.pipeline, target, *key);
    if (!explanation)
        return userError(explanation.error());
    std::cout << (fmt == "json" ? explanationJson(*explanation) : cdc::engine::explanationText(*explanation));
    return kExitOk;
}

int main(int argc, char** argv) {
    // The Python worker: this program started again to run one pipeline file (core/python/PythonRunner.h).
    if (argc == 2 && argv[1] == cdc::python::kWorkerFlag)
        return cdc::python::runPythonWorker();
    cdc::sql::installSparkFunctions(); // on every connection, before the first is opened
    Arguments args;
    if (auto exitCode = parseArguments(argc, argv, args))
        return *exitCode;
    if (args.command == "sql")
        return commandSql(args);
    if (args.command == "query")
        return commandQuery(args);
    if (args.command == "update")
        return commandUpdate(args);
    if (args.command == "tombstones")
        return commandTombstones(args);
    if (args.command == "repair")
        return commandRepair(args);
    if (args.command == "shuffle-test")
        return commandShuffleTest(args);
    if (args.command == "compare-merge")
        return commandCompareMerge(args);
    if (args.command == "explain")
        return commandExplain(args);
    return usageError("unknown command '" + args.command + "'");
}
