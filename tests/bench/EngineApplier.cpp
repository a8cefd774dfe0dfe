#include "EngineApplier.h"

#include "HandwrittenApplier.h"
#include "SourceTable.h"

#include "core/engine/Engine.h"
#include "core/storage/Catalog.h"

namespace cdc::bench {

namespace {

pipeline::Identifier ident(const std::string& name) { return {name, {}}; }

pipeline::Expression column(const std::string& name) {
    return {name, storage::quoteIdentifier(name), name, {}};
}

/// The model sql::parsePipeline produces for benchmarkPipelineSql(scd).
pipeline::Pipeline buildPipeline(Scd scd) {
    pipeline::Pipeline p;
    pipeline::StreamingTable table;
    table.name = ident(EngineApplier::kTarget);
    p.streamingTables.push_back(table);

    pipeline::AutoCdcFlow flow;
    flow.name = ident(EngineApplier::kTarget);
    flow.target = ident(EngineApplier::kTarget);
    flow.source.name = SourceTable::kName;
    flow.source.stream = true;
    flow.keys = {ident("id")};
    flow.applyAsDelete = pipeline::Expression{"operation = 'DELETE'", "\"operation\" = 'DELETE'", std::nullopt, {}};
    flow.sequenceBy = {column("seq")};
    flow.columns.mode = pipeline::ColumnSelection::Mode::Except;
    flow.columns.columns = {ident("operation"), ident("seq")};
    flow.scdType = scd == Scd::Type1 ? pipeline::ScdType::Type1 : pipeline::ScdType::Type2;
    p.cdcFlows.push_back(flow);
    return p;
}

} // namespace

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
    m_pipeline = buildPipeline(m_scd);
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
