// The table is declared through the product's own source-script executor, but rows are appended with
// one prepared INSERT per event in one transaction, so loading the workload costs little and is not timed.
#include "SourceTable.h"

#include "core/sql/SqlApi.h"
#include "core/storage/Catalog.h"

namespace cdc::bench {

Result<SourceTable> SourceTable::create(storage::Database& db) {
    // Declared exactly as a user would, so the catalog and the SQLite table are the product's own.
    CDC_TRY(
        sql::executeSourceScript(db,
                                 std::string("CREATE TABLE ") + kName +
                                     " (id BIGINT, name STRING, city STRING, operation STRING, seq BIGINT)",
                                 "bench-source.sql"));
    auto info = storage::Catalog::find(db, kName);
    if (!info)
        return info.error();
    if (!info.value())
        return Diagnostic::error("BENCH",
                                 std::string("the source table '") + kName + "' is not in the catalog");
    auto insert = db.prepare("INSERT INTO " + storage::quoteIdentifier(info.value()->sqliteName) +
                             "(id, name, city, operation, seq) VALUES (?1, ?2, ?3, ?4, ?5)");
    if (!insert)
        return insert.error();
    return SourceTable(db, std::move(insert).value());
}

Status SourceTable::append(const std::vector<Event>& events) {
    auto tx = storage::Transaction::begin(*m_db, "bench_append");
    if (!tx)
        return tx.error();
    for (const Event& e : events) {
        m_insert.reset();
        m_insert.bind(1, e.id)
            .bind(2, std::string_view(WorkloadGenerator::name(e.nameIndex)))
            .bind(3, std::string_view(WorkloadGenerator::city(e.cityIndex)))
            .bind(4, operationName(e.operation))
            .bind(5, e.seq);
        CDC_TRY(m_insert.run());
    }
    m_rows += static_cast<std::int64_t>(events.size());
    return tx->commit();
}

} // namespace cdc::bench
