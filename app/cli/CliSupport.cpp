#include "CliSupport.h"

#include "core/engine/Engine.h"
#include "core/sql/SqlApi.h"
#include "core/storage/Catalog.h"
#include "core/storage/ForeignObjects.h"
#include "core/storage/ProjectSettings.h"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

namespace cdc::cli {

int usageError(const std::string& message) {
    std::cerr
        << "cdcstudio-cli: " << message
        << "\nRun 'cdcstudio-cli --help' for the commands, 'cdcstudio-cli COMMAND --help' for a command's "
           "options.\n";
    return kExitUsage;
}

int userError(const cdc::Diagnostic& d) {
    std::cerr << d.format() << (d.code == "TIMEOUT" ? " (--timeout SECONDS sets the limit)" : "") << "\n";
    return kExitUserError;
}

std::optional<std::string> chosenFormat(const std::optional<std::string>& given,
                                        std::initializer_list<const char*> allowed,
                                        const std::string& command) {
    const std::string format = given.value_or(*allowed.begin());
    std::string names;
    for (const char* a : allowed) {
        if (format == a)
            return format;
        names += (names.empty() ? "" : "|") + std::string(a);
    }
    usageError(command + " supports --format " + names);
    return std::nullopt;
}

void addFormatOption(CLI::App* command, std::optional<std::string>& into, const std::string& values) {
    command->add_option("--format", into, "output format: " + values)->option_text(values);
}

void addTimeoutOption(CLI::App* command, std::optional<std::string>& into, std::chrono::seconds fallback) {
    command
        ->add_option("--timeout", into,
                     "stop (and change nothing) after SECONDS (default " + std::to_string(fallback.count()) +
                         "; 0: no limit; a fraction is allowed: 0.5)")
        ->option_text("SECONDS");
}

void addPythonTimeoutOption(CLI::App* command, std::optional<std::string>& into) {
    command
        ->add_option(
            "--python-timeout", into,
            "a .py pipeline runs in Python (its own process) and is stopped after SECONDS (default 10)")
        ->option_text("SECONDS");
}

std::optional<std::chrono::milliseconds> parseSeconds(const std::string& text, bool zeroAllowed) {
    char* end = nullptr;
    const double s = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !(s > 0 || (zeroAllowed && s == 0)) || s > 86400)
        return std::nullopt;
    return std::chrono::milliseconds(static_cast<std::int64_t>(s * 1000 + 0.5));
}

std::optional<std::chrono::milliseconds> timeLimit(const std::optional<std::string>& timeout,
                                                   std::chrono::seconds fallback, int& exit) {
    // Work on a project file may never end (a view that joins big tables without a condition), and a CLI in a
    // script must not hang.
    if (!timeout)
        return fallback;
    auto limit = parseSeconds(*timeout, true);
    if (!limit)
        exit = usageError("--timeout takes a number of seconds (0: no limit), not '" + *timeout + "'");
    return limit;
}

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

cdc::Result<cdc::storage::Database> openDatabase(const GlobalOptions& global,
                                                 cdc::storage::Database::Mode mode, Check check) {
    auto db = cdc::storage::Database::open(global.db, mode);
    if (!db)
        return db.error();
    if (!global.volumes.empty()) {
        std::error_code ec;
        const std::filesystem::path folder = std::filesystem::absolute(global.volumes, ec);
        if (ec || !std::filesystem::is_directory(folder))
            return cdc::Diagnostic::error("PATH_NOT_FOUND",
                                          "--volumes: '" + global.volumes + "' is not a folder");
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

cdc::Result<cdc::storage::Database> openExistingReadOnly(const GlobalOptions& global) {
    if (!std::filesystem::is_regular_file(global.db))
        return cdc::Diagnostic::error("IO", "no database '" + global.db + "' (--db PATH)");
    return openDatabase(global, cdc::storage::Database::Mode::ReadOnly);
}

namespace {

bool isPythonFile(const std::string& file) {
    return file.size() > 3 && file.compare(file.size() - 3, 3, ".py") == 0;
}

/// What `update` records of one pipeline file for the app's editor: SQL verbatim; Python as the pipeline SQL
/// its run recorded (the editor takes SQL); each file under a comment naming it when there are several.
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

} // namespace

bool recordsPython(const std::vector<std::string>& files) {
    return files.size() == 1 && isPythonFile(files.front());
}

std::optional<int> pythonOptions(const GlobalOptions& global, const std::optional<std::string>& pythonTimeout,
                                 cdc::python::RunOptions& python) {
    // dbutils.fs.ls lists the same folder read_files reads: --volumes, else the database's folder.
    python.volumesRoot = global.volumes.empty() ? databaseFolder(global.db)
                                                : std::filesystem::absolute(global.volumes).string();
    if (pythonTimeout) {
        auto timeout = parseSeconds(*pythonTimeout);
        if (!timeout)
            return usageError("--python-timeout takes a positive number of seconds, not '" + *pythonTimeout +
                              "'");
        python.timeout = *timeout;
    }
    // What the project's tables hold tells a Python file what a table read's * stands for. Only the catalog
    // is read here; the database is verified when the command opens it.
    if (std::filesystem::is_regular_file(global.db))
        if (auto known = cdc::storage::Database::open(global.db, cdc::storage::Database::Mode::ReadOnly))
            python.tables = cdc::python::catalogColumns(*known);
    return std::nullopt;
}

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
        out.texts.push_back(*text);
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

ReplayedPipeline pipelineOfFiles(const GlobalOptions& global, const std::vector<std::string>& files,
                                 const std::optional<std::string>& pythonTimeout) {
    ReplayedPipeline out;
    cdc::python::RunOptions python;
    if (auto exit = pythonOptions(global, pythonTimeout, python)) {
        out.exit = *exit;
        return out;
    }
    auto read = readPipelineFiles(files, python, nullptr);
    if (!read) {
        out.exit = userError(read.error());
        return out;
    }
    out.pipeline = std::move(read->pipeline);
    out.text = files.size() == 1 ? read->texts.front() : read->recorded;
    out.file = files.size() == 1 ? files.front() : global.db + ":pipeline";
    return out;
}

ReplayedPipeline pipelineToReplay(const GlobalOptions& global, const cdc::storage::Database& db,
                                  const std::vector<std::string>& files, const std::string& command,
                                  const std::optional<std::string>& pythonTimeout) {
    if (!files.empty())
        return pipelineOfFiles(global, files, pythonTimeout);
    ReplayedPipeline out;
    // The pipeline the last update ran, as it recorded it.
    namespace settings = cdc::storage::projectsettings;
    const auto text = settings::value(db, settings::kPipelineKey).value_or("");
    if (settings::value(db, settings::kPipelineLanguageKey).value_or("") == "python") {
        out.exit =
            usageError("the recorded pipeline is Python: name the .py file (" + command + " pipeline.py)");
        return out;
    }
    out.file = global.db + ":pipeline";
    auto parsed = cdc::sql::parsePipeline(text, out.file);
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
    out.text = text;
    return out;
}

} // namespace cdc::cli
