#include "SourceTable.h"

#include "core/storage/Catalog.h"

namespace cdc::bench {

Result<SourceTable> SourceTable::create(storage::Database& db) {
    using Kind = DataType::Kind;
    storage::TableInfo info;
    info.name = kName;
    info.sqliteName = storage::Catalog::sqliteNameFor(kName);
    info.kind = storage::TableKind::Source;
    info.columns = {{"id", DataType::of(Kind::BigInt)},
                    {"name", DataType::of(Kind::String)},
                    {"city", DataType::of(Kind::String)},
                    {"operation", DataType::of(Kind::String)},
                    {"seq", DataType::of(Kind::BigInt)}};
    std::string ddl = "CREATE TABLE " + storage::quoteIdentifier(info.sqliteName) + "(";
    for (std::size_t i = 0; i < info.columns.size(); ++i)
        ddl += (i ? ", " : "") + storage::quoteIdentifier(info.columns[i].name) + ' ' +
               info.columns[i].type.sqliteAffinity();
    ddl += ")";
    CDC_TRY(storage::Catalog::ensureSchema(db));
    CDC_TRY(db.exec(ddl));
    CDC_TRY(storage::Catalog::put(db, info));
    auto insert = db.prepare("INSERT INTO " + storage::quoteIdentifier(info.sqliteName) +
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
