// The query path on any text: parse as one query and one expression, translate to SQLite (Translator), and
// run the query (translation, binding, SQLite with the Spark functions) on an in-memory database holding a
// small source table. runQuery never writes, so one database serves every input and each input's result
// depends on that input alone.
#include "FuzzInput.h"

#include "core/sql/Parser.h"
#include "core/sql/SqlApi.h"
#include "core/sql/Translator.h"

#include <chrono>
#include <cstdlib>
#include <optional>
#include <string>

using namespace cdc;

namespace {

storage::Database& database() {
    static std::optional<storage::Database> db = [] {
        sql::installSparkFunctions();
        auto opened = storage::Database::openMemory();
        if (!opened)
            std::abort();
        const Status made = sql::executeSourceScript(
            *opened,
            "CREATE TABLE src (id INT, name STRING, ts TIMESTAMP, amount DOUBLE, d DATE, ok BOOLEAN,"
            " s STRUCT<a: INT, b: STRING>, arr ARRAY<INT>);\n"
            "INSERT INTO src VALUES (1, 'a', TIMESTAMP '2024-01-01 10:00:00', 1.5, DATE '2024-01-01', true,"
            " named_struct('a', 1, 'b', 'x'), array(1, 2)),"
            " (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL),"
            " (3, 'c', TIMESTAMP '2024-03-01 00:00:00.123456', -2.0, DATE '2023-12-31', false,"
            " named_struct('a', 3, 'b', NULL), array());\n",
            "fuzz-setup.sql");
        if (!made)
            std::abort();
        return std::move(*opened);
    }();
    return *db;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text = fuzz::text(data, size);
    const std::string file = "fuzz.sql";

    if (auto query = sql::Parser(text, file).parseSingleQuery())
        (void)sql::Translator::translateQuery(*query);
    if (auto expr = sql::Parser(text, file).parseSingleExpression())
        (void)sql::Translator::translateExpression(*expr);

    sql::QueryLimits limits;
    limits.timeout = std::chrono::seconds(2);
    limits.maxResultBytes = std::size_t{16} * 1024 * 1024;
    (void)sql::runQuery(database(), text, file, limits);
    return 0;
}
