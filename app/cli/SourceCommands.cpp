// sql, query, tombstones and repair.

#include "CliSupport.h"
#include "Commands.h"

#include "core/common/ResultSet.h"
#include "core/engine/Engine.h"
#include "core/sql/SqlApi.h"
#include "core/storage/ForeignObjects.h"
#include "core/storage/QueryGuard.h"

#include <iostream>
#include <memory>

namespace cdc::cli {

namespace {

/// A query answers a person waiting for it; a source script over a big history may take minutes.
constexpr std::chrono::seconds kQueryTimeout{30};
constexpr std::chrono::seconds kScriptTimeout{300};

struct SqlArgs {
    std::vector<std::string> files;
    std::optional<std::string> timeout;
};

int runSql(const GlobalOptions& global, const SqlArgs& args) {
    if (args.files.empty())
        return usageError("sql needs at least one FILE");
    int exit = kExitOk;
    const auto limit = timeLimit(args.timeout, kScriptTimeout, exit);
    if (!limit)
        return exit;
    auto db = openDatabase(global);
    if (!db)
        return userError(db.error());
    // The guard outlives the transaction: a stopped script is rolled back whole.
    const cdc::storage::QueryGuard guard(*db, "source script", {*limit, nullptr});
    // One transaction for all files: on any error nothing is changed.
    auto tx = cdc::storage::Transaction::begin(*db, "cli_sql");
    if (!tx)
        return userError(tx.error());
    for (const auto& file : args.files) {
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

int printResult(const cdc::ResultSet& rs, const std::string& format) {
    std::cout << cdc::format(rs, *cdc::parseOutputFormat(format));
    return kExitOk;
}

struct QueryArgs {
    std::vector<std::string> sql;
    std::optional<std::string> format;
    std::optional<std::string> timeout;
};

int runQuery(const GlobalOptions& global, const QueryArgs& args) {
    if (args.sql.size() != 1)
        return usageError("query needs exactly one SQL argument");
    const auto format = chosenFormat(args.format, {"table", "csv", "json"}, "query");
    if (!format)
        return kExitUsage;
    cdc::sql::QueryLimits limits;
    int exit = kExitOk;
    if (auto limit = timeLimit(args.timeout, kQueryTimeout, exit))
        limits.timeout = *limit;
    else
        return exit;
    // Read-only: a query changes no byte of the file (a read-write open would switch it to WAL and add the
    // catalog's tables).
    auto db = openDatabase(global, cdc::storage::Database::Mode::ReadOnly);
    if (!db)
        return userError(db.error());
    auto rs = cdc::sql::runQuery(*db, args.sql[0], "<query>", limits);
    if (!rs)
        return userError(rs.error());
    return printResult(*rs, *format);
}

struct TombstonesArgs {
    std::vector<std::string> targets;
    std::optional<std::string> format;
};

int runTombstones(const GlobalOptions& global, const TombstonesArgs& args) {
    if (args.targets.size() != 1)
        return usageError("tombstones needs exactly one TARGET");
    const auto format = chosenFormat(args.format, {"table", "json"}, "tombstones");
    if (!format)
        return kExitUsage;
    auto db = openDatabase(global);
    if (!db)
        return userError(db.error());
    auto rs = cdc::engine::tombstones(*db, args.targets[0]);
    if (!rs)
        return userError(rs.error());
    return printResult(*rs, *format);
}

int runRepair(const GlobalOptions& global) {
    auto db = openDatabase(global, cdc::storage::Database::Mode::ReadWrite, Check::None);
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

} // namespace

void addSourceCommands(CommandLine& cli) {
    auto sql = std::make_shared<SqlArgs>();
    CLI::App* c = cli.add("sql", "execute Spark SQL source statements (CREATE TABLE, INSERT, ...)",
                          "Statements: CREATE SCHEMA, CREATE TABLE [AS SELECT], INSERT INTO ... VALUES | "
                          "SELECT, UPDATE, DELETE, "
                          "TRUNCATE TABLE, DROP TABLE, in Spark SQL. On any error nothing is changed.",
                          [&cli, sql] { return runSql(cli.global(), *sql); });
    c->add_option("FILE", sql->files, "SQL files, run in one transaction ('-' reads stdin)");
    addTimeoutOption(c, sql->timeout, kScriptTimeout);

    auto query = std::make_shared<QueryArgs>();
    c = cli.add("query", "run a read-only Spark SQL query (the file is not changed)", "",
                [&cli, query] { return runQuery(cli.global(), *query); });
    c->add_option("SQL", query->sql, "the query");
    addFormatOption(c, query->format, "table|csv|json");
    addTimeoutOption(c, query->timeout, kQueryTimeout);

    auto tombstones = std::make_shared<TombstonesArgs>();
    c = cli.add("tombstones", "list the live tombstones of an AUTO CDC target", "",
                [&cli, tombstones] { return runTombstones(cli.global(), *tombstones); });
    c->add_option("TARGET", tombstones->targets, "the target table");
    addFormatOption(c, tombstones->format, "table|json");

    c = cli.add(
        "repair", "drop the triggers and views CDC Studio did not make",
        "A project from elsewhere is refused by the other commands while it holds any: they would run "
        "inside CDC Studio's own reads and writes.",
        [&cli] { return runRepair(cli.global()); });
}

} // namespace cdc::cli
