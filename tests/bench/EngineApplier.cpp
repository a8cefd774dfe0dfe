// The pipeline is written as SQL text and parsed, not assembled as a pipeline::Pipeline, so the engine
// runs exactly what the front end makes of what a user would type.
#include "EngineApplier.h"

#include "HandwrittenApplier.h"
#include "SourceTable.h"

#include "core/engine/Engine.h"
#include "core/sql/SqlApi.h"
#include "core/storage/Catalog.h"

namespace cdc::bench {

std::string benchmarkPipelineSql(Scd scd) {
    return std::string("CREATE OR REFRESH STREAMING TABLE ") + EngineApplier::kTarget +
           ";\n\n"
           "CREATE FLOW " +
           EngineApplier::kTarget + " AS AUTO CDC INTO " + EngineApplier::kTarget + "\nFROM STREAM(" +
           SourceTable::kName +
           ")\nKEYS (id)\nAPPLY AS DELETE WHEN operation = 'DELETE'\nSEQUENCE BY seq\n"
           "COLUMNS * EXCEPT (operation, seq)\nSTORED AS SCD TYPE " +
           (scd == Scd::Type1 ? "1" : "2") + ";\n";
}

Status EngineApplier::setUp(storage::Database& db) {
    auto parsed = sql::parsePipeline(benchmarkPipelineSql(m_scd), "bench-pipeline.sql");
    if (auto error = parsed.firstError())
        return *error;
    m_pipeline = std::move(parsed.pipeline);
    return engine::validate(db, m_pipeline);
}

Status EngineApplier::apply(storage::Database& db) {
    engine::UpdateOptions options;
    m_now += 60;
    options.now = m_now;
    auto report = engine::runUpdate(db, m_pipeline, options);
    if (!report)
        return report.error();
    return Status::success();
}

Result<std::int64_t> EngineApplier::visibleRows(storage::Database& db) {
    auto table = storage::Catalog::find(db, kTarget);
    if (!table)
        return table.error();
    if (!table.value())
        return Diagnostic::error("BENCH", std::string("the engine created no table '") + kTarget + "'");
    return queryInt(db, "SELECT count(*) FROM " + storage::quoteIdentifier(table.value()->sqliteName));
}

} // namespace cdc::bench
