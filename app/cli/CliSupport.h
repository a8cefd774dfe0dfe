// What the commands of cdcstudio-cli share: how they report errors (the contract's exit statuses), how they
// read numbers, times and files given on the command line, how they open the project database, and how they
// read or recall the pipeline they run.

#pragma once

#include "CommandLine.h"

#include "core/common/Diagnostic.h"
#include "core/pipeline/Pipeline.h"
#include "core/python/PythonRunner.h"
#include "core/storage/Database.h"

#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace cdc::cli {

/// Wrong usage: `cdcstudio-cli: MESSAGE` and where to find the usage; returns exit status 2.
int usageError(const std::string& message);

/// A user error (bad SQL, data, project): its positioned message; returns exit status 1.
int userError(const cdc::Diagnostic& d);

/// `--format`'s value when it is one of `allowed` (the first when not given), else nullopt after reporting
/// "COMMAND supports --format a|b".
std::optional<std::string> chosenFormat(const std::optional<std::string>& given,
                                        std::initializer_list<const char*> allowed,
                                        const std::string& command);

/// Adds `--format` (its values named in the help) to a command.
void addFormatOption(CLI::App* command, std::optional<std::string>& into, const std::string& values);

/// Adds `--timeout SECONDS` to a command that stops after `fallback` unless told otherwise.
void addTimeoutOption(CLI::App* command, std::optional<std::string>& into, std::chrono::seconds fallback);

/// Adds `--python-timeout SECONDS`: how long a .py pipeline file may run (in its own process).
void addPythonTimeoutOption(CLI::App* command, std::optional<std::string>& into);

/// Seconds as given to --python-timeout and --timeout (a positive number, fractions allowed; zero too when
/// `zeroAllowed`).
std::optional<std::chrono::milliseconds> parseSeconds(const std::string& text, bool zeroAllowed = false);

/// How long a command may run: --timeout (0: no limit), else the command's default; nullopt after reporting a
/// wrong value (`exit` then holds the status).
std::optional<std::chrono::milliseconds> timeLimit(const std::optional<std::string>& timeout,
                                                   std::chrono::seconds fallback, int& exit);

/// ISO-8601 (`2026-08-30T10:00:00Z`, `2026-08-30 10:00:00`, `2026-08-30`) or epoch seconds.
std::optional<std::int64_t> parseTime(const std::string& text);

/// A whole number from `low` on, as --orders, --seed and --max-updates take.
std::optional<std::int64_t> parseCount(const std::optional<std::string>& text, std::int64_t fallback,
                                       std::int64_t low);

/// The text of the file `path` ('-': standard input), or the IO error: a folder, a missing or unreadable
/// file.
cdc::Result<std::string> readInput(const std::string& path);

/// How a command opens the database: `update` leaves the project's check to the engine, which rebuilds
/// damaged targets on a full refresh; `repair` opens what the check would refuse.
enum class Check { Verify, ByEngine, None };

cdc::Result<cdc::storage::Database>
openDatabase(const GlobalOptions& global,
             cdc::storage::Database::Mode mode = cdc::storage::Database::Mode::ReadWriteCreate,
             Check check = Check::Verify);

/// The database of a command that only reads it (shuffle-test, compare-merge, explain): it must exist.
cdc::Result<cdc::storage::Database> openExistingReadOnly(const GlobalOptions& global);

/// How the Python files of a command run: --python-timeout, the volume folder, the project's tables. Returns
/// an exit code when an option is wrong.
std::optional<int> pythonOptions(const GlobalOptions& global, const std::optional<std::string>& pythonTimeout,
                                 cdc::python::RunOptions& python);

/// The pipeline of one or more files, and what `update` records of them for the app's editor.
struct PipelineFiles {
    cdc::pipeline::Pipeline pipeline;
    std::string recorded;
    std::vector<std::string> texts; ///< each file's text, in order
};

/// Reads (SQL) or runs (Python, in a worker) the pipeline files; warnings and what a Python file prints go to
/// stderr. `functions`, when given, registers the snapshot functions of the Python files.
cdc::Result<PipelineFiles> readPipelineFiles(const std::vector<std::string>& files,
                                             const cdc::python::RunOptions& python,
                                             cdc::python::SnapshotFunctions* functions);

/// One Python file is recorded as itself, so that the app opens it as the Python it is.
bool recordsPython(const std::vector<std::string>& files);

/// The pipeline a command replays over a database: its files, or the pipeline the last update recorded; or
/// the exit code of the error already reported.
struct ReplayedPipeline {
    std::optional<cdc::pipeline::Pipeline> pipeline;
    std::string text; ///< what it was read from: the one file's text, or the recorded pipeline SQL
    std::string file; ///< the name `text` carries in messages (`.py`: Python)
    int exit = kExitOk;
    explicit operator bool() const { return pipeline.has_value(); }
};

/// The pipeline of the files named on the command line (run as readPipelineFiles does), or the exit code of
/// the error already reported.
ReplayedPipeline pipelineOfFiles(const GlobalOptions& global, const std::vector<std::string>& files,
                                 const std::optional<std::string>& pythonTimeout);

ReplayedPipeline pipelineToReplay(const GlobalOptions& global, const cdc::storage::Database& db,
                                  const std::vector<std::string>& files, const std::string& command,
                                  const std::optional<std::string>& pythonTimeout);

} // namespace cdc::cli
