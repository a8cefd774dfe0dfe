#pragma once
/// The SQL front end's public entry points (contract between core/sql and its users: the CLI,
/// the engine, the GUI). Implemented in core/sql; see the headers there for the AST, lexer,
/// parser, printer and translator themselves.

#include "core/common/Diagnostic.h"
#include "core/common/ResultSet.h"
#include "core/pipeline/Pipeline.h"
#include "core/storage/Database.h"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;

namespace cdc::sql {

/// Pipeline text parsed with error recovery at statement boundaries: every diagnostic (errors and
/// warnings, each with file:line:col) plus the pipeline built from the statements that parsed.
struct PipelineParse {
    pipeline::Pipeline pipeline;
    std::vector<Diagnostic> diagnostics;
    bool hasErrors() const;
    /// The first error, for callers that stop at one.
    std::optional<Diagnostic> firstError() const;
};

/// Parses pipeline SQL (CREATE STREAMING TABLE / FLOW / VIEW / MATERIALIZED VIEW / APPLY CHANGES INTO).
PipelineParse parsePipeline(std::string_view text, const std::string& file);

/// Executes source-side Spark SQL (CREATE SCHEMA/TABLE [AS SELECT], INSERT, UPDATE, DELETE, TRUNCATE,
/// DROP TABLE) against the database, keeping the catalog in step. All statements in one transaction:
/// on any error nothing is changed and the error carries file:line:col.
Status executeSourceScript(storage::Database& db, std::string_view text, const std::string& file);

/// The source tables a source script writes rows of (INSERT, UPDATE, DELETE, TRUNCATE), in script order
/// without repeats, as the script names them. A statement that changes the catalog (CREATE, DROP) is an
/// error at its position: the GUI replays such a script as one queued step, and a step that created or
/// dropped tables could not be taken back by restoring rows. Parses only; nothing runs.
Result<std::vector<std::string>> sourceScriptWrites(std::string_view text, const std::string& file);

/// How long and how large a query may be: it runs on an untrusted project (a view in the file, or the query
/// itself, may never end) and its rows are held in memory.
struct QueryLimits {
    static constexpr std::chrono::seconds kDefaultTimeout{30};
    /// An estimate of the result's memory (values, their text and bytes): beyond it the query is
    /// RESULT_TOO_LARGE rather than memory without bound (a recursive view returns rows forever).
    static constexpr std::size_t kDefaultMaxResultBytes = std::size_t{256} * 1024 * 1024;
    std::chrono::milliseconds timeout = kDefaultTimeout; ///< zero: none
    /// Set from another thread (the GUI's Cancel) to stop the query: CANCELLED.
    const std::atomic<bool>* cancel = nullptr;
    std::size_t maxResultBytes = kDefaultMaxResultBytes;
};

/// Runs a read-only Spark SQL query over sources, targets (public rows only), views and
/// `table_changes('target', from[, to])`, with result column types where they are known. It calls only
/// the functions QueryAuthorizer allows (FUNCTION_NOT_ALLOWED) and stops at `limits` (TIMEOUT, CANCELLED,
/// RESULT_TOO_LARGE, VALUE_TOO_LARGE); it never writes (open the file with Database::Mode::ReadOnly for
/// the file's bytes to stay the same: a read-write open switches it to WAL).
Result<ResultSet> runQuery(storage::Database& db, std::string_view sparkSql,
                           const std::string& file = "<query>", const QueryLimits& limits = {});

/// Replaces each {{REL:i}} placeholder of a translated query by the FROM-item the callback gives.
std::string bindRelations(const pipeline::Query& query,
                          const std::function<std::string(const pipeline::RelationRef&)>& fromItem);

/// Canonical Databricks SQL for a whole script (the editor's "Format SQL"); errors leave it unchanged.
Result<std::string> formatSql(std::string_view text, const std::string& file);

/// Words for the editor: pipeline and Spark SQL keywords (upper case), and function names.
const std::vector<std::string>& keywords();
const std::vector<std::string>& functionNames();

/// Registers the SQLite functions the translator emits (Spark semantics where SQLite differs) on one
/// connection.
void registerSparkFunctions(sqlite3* db);
/// The window functions among them (IGNORE NULLS): spark_nth_nonnull_first / _last(value[, n]).
void registerSparkWindowFunctions(sqlite3* db);

/// Makes every connection storage::Database::open opens from now on register those functions (a
/// storage::ConnectionSetup). The programs' main()s call it before they open a database; the translator
/// (which writes the SQL that calls them), executeSourceScript and runQuery do as well, the last two also
/// catching up the connection they are given (storage::Database::runNewConnectionSetups). Cheap after the
/// first call.
void installSparkFunctions();

} // namespace cdc::sql
