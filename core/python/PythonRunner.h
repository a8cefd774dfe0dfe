#pragma once
/// Python pipeline files run for real: the file runs in CPython in a process of its own (this program
/// started again in its hidden worker mode, `--python-worker`) with a time limit, against our
/// `pyspark.pipelines` / `dlt` modules, which record the graph it declares as pipeline SQL. An exception, a
/// syntax error, a crash or an endless loop in the file is an error at its .py line, never a hang or a
/// crash of the caller. Snapshot flows whose source is a Python function call it through the same worker,
/// once per pending version (`SnapshotFunctions`).

#include "core/engine/UpdateTypes.h"
#include "core/sql/SqlApi.h"
#include "core/storage/Database.h"

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cdc::python {

/// The hidden command-line flag that makes a program the Python worker. main() checks it before anything
/// else and then only calls runPythonWorker().
inline constexpr std::string_view kWorkerFlag = "--python-worker";

/// The worker's whole life: one request (JSON) on stdin, one reply (JSON) on stdout; returns the exit code.
int runPythonWorker();

/// The column names of relations, by lower-cased name: what `*` of a table read stands for, so that
/// `withColumn` replaces a column of the same name in place and `unionByName` matches names, as in Spark.
using TableColumns = std::map<std::string, std::vector<std::string>>;

/// The relations the project's catalog holds (sources, targets, views), for RunOptions::tables. A catalog
/// that cannot be read gives none: the file then runs as if the project were new.
TableColumns catalogColumns(const storage::Database& db);

/// How a pipeline file is run.
struct RunOptions {
    /// The longest a run may take before it is stopped and reported as an endless loop.
    std::chrono::milliseconds timeout{10000};
    /// The folder `/Volumes/<catalog>/<schema>/<volume>/...` paths map into (`dbutils.fs.ls`); nothing
    /// outside it is listed. Empty: no volumes.
    std::string volumesRoot;
    /// The relations the project already has; the file's own datasets are added as it declares them.
    TableColumns tables;
    /// The program started as the worker: this program again, which handles kWorkerFlag in main().
    std::string workerProgram = "/proc/self/exe";
};

/// What running a pipeline file gave: the pipeline it declares with every diagnostic at a .py position,
/// and the pipeline SQL it was recorded as (for the editor; a snapshot function's flow reads as its first
/// snapshot there).
struct PipelineRun {
    sql::PipelineParse parse;
    std::string sql;
    std::string printed; ///< what the file wrote to stdout and stderr (print() included)
};

/// Runs the pipeline file `text` (named `file` in messages and tracebacks).
PipelineRun runPipelineFile(std::string_view text, const std::string& file, const RunOptions& options);

/// One snapshot a snapshot function offered, as the function built it.
struct OfferedSnapshot {
    std::string sql;         ///< the DataFrame's query, Spark SQL
    Value version;           ///< int, float or str in Python
    SourceLocation location; ///< where in the file the DataFrame was made
};

/// Runs the file again and calls the snapshot function of `flow` with `lastVersion` (None when nullopt).
Result<std::optional<OfferedSnapshot>> callSnapshotFunction(std::string_view text, const std::string& file,
                                                            const std::string& flow,
                                                            const std::optional<Value>& lastVersion,
                                                            const RunOptions& options);

/// The snapshot functions of the Python files one update runs, for `engine::UpdateOptions::snapshotFunction`:
/// each call starts a worker that runs the flow's file and calls its function once.
class SnapshotFunctions {
public:
    explicit SnapshotFunctions(RunOptions options) : m_options(std::move(options)) {}
    /// Registers the snapshot-function flows of a run file.
    void add(std::string text, std::string file, const pipeline::Pipeline& declared);
    bool empty() const { return m_files.empty(); }
    /// The engine's callback; it refers to this object, which must outlive the update.
    engine::SnapshotFunctionCall callback() const;

private:
    struct File {
        std::string text, file;
        std::vector<std::string> flows;
    };
    RunOptions m_options;
    std::vector<File> m_files;
};

} // namespace cdc::python
