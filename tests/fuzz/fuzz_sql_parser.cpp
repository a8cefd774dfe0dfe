// The SQL front end on any text: the pipeline parse (statements, pipeline model, diagnostics), the
// splittable pipeline script with its printer, the formatter, a source script's writes and its execution
// on an in-memory database, and the single-query and single-expression parses.
#include "FuzzInput.h"

#include "core/sql/Parser.h"
#include "core/sql/PipelineScript.h"
#include "core/sql/SqlApi.h"
#include "core/storage/QueryGuard.h"

#include <chrono>
#include <string>

using namespace cdc;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text = fuzz::text(data, size);
    const std::string file = "fuzz.sql";

    (void)sql::parsePipeline(text, file);
    (void)sql::formatSql(text, file);
    (void)sql::sourceScriptWrites(text, file);
    (void)sql::Parser(text, file).parseSingleQuery();
    (void)sql::Parser(text, file).parseSingleExpression();

    // Re-printing a statement and removing one go through the printer and the byte splicing.
    if (auto script = sql::PipelineScript::parse(std::string(text), file)) {
        const auto& statements = script->statements();
        for (std::size_t i = 0; i < statements.size(); ++i)
            (void)script->replaced(i, statements[i].statement);
        if (!statements.empty()) {
            (void)script->removed(0);
            (void)script->appended(statements.back().statement);
        }
    }

    // Source and event scripts run: each input on a fresh in-memory database (no file), bounded in time as
    // the programs bound a script.
    sql::installSparkFunctions();
    if (auto db = storage::Database::openMemory()) {
        const storage::QueryGuard guard(*db, "source script", {std::chrono::seconds(2), nullptr});
        (void)sql::executeSourceScript(*db, text, file);
    }
    return 0;
}
