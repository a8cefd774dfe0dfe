// Deliberately the SQL a careful user writes, not a tuned rival: SCD2 recomputes the whole history on
// every update (right for late events, but its cost grows with the log), SCD1 never collects its tombstones.
#include "HandwrittenApplier.h"

#include "SourceTable.h"

namespace cdc::bench {

Result<std::int64_t> queryInt(storage::Database& db, const std::string& sql) {
    auto st = db.prepare(sql);
    if (!st)
        return st.error();
    auto row = st->step();
    if (!row)
        return row.error();
    return row.value() && !st->isNull(0) ? st->int64(0) : std::int64_t{0};
}

Status HandwrittenScd1::setUp(storage::Database& db) {
    return db.exec("CREATE TABLE hw_scd1(id INTEGER PRIMARY KEY, name TEXT, city TEXT, seq INTEGER NOT NULL,"
                   " deleted INTEGER NOT NULL)");
}

Status HandwrittenScd1::apply(storage::Database& db) {
    auto tx = storage::Transaction::begin(db, "hw_scd1");
    if (!tx)
        return tx.error();
    auto last = queryInt(db, std::string("SELECT max(rowid) FROM ") + SourceTable::kName);
    if (!last)
        return last.error();
    auto upsert = db.prepare(std::string(R"(
INSERT INTO hw_scd1(id, name, city, seq, deleted)
  SELECT id, name, city, seq, operation = 'DELETE' FROM )") +
                             SourceTable::kName + R"(
  WHERE rowid > ?1 AND rowid <= ?2
ON CONFLICT(id) DO UPDATE SET name = excluded.name, city = excluded.city, seq = excluded.seq,
                              deleted = excluded.deleted
  WHERE excluded.seq > hw_scd1.seq)");
    if (!upsert)
        return upsert.error();
    upsert->bind(1, m_checkpoint).bind(2, last.value());
    CDC_TRY(upsert->run());
    CDC_TRY(tx->commit());
    m_checkpoint = last.value();
    return Status::success();
}

Result<std::int64_t> HandwrittenScd1::visibleRows(storage::Database& db) {
    return queryInt(db, "SELECT count(*) FROM hw_scd1 WHERE NOT deleted");
}

Status HandwrittenScd2::setUp(storage::Database& db) {
    return db.exec(
        "CREATE TABLE hw_scd2(id INTEGER, name TEXT, city TEXT, __START_AT INTEGER, __END_AT INTEGER)");
}

Status HandwrittenScd2::apply(storage::Database& db) {
    auto tx = storage::Transaction::begin(db, "hw_scd2");
    if (!tx)
        return tx.error();
    CDC_TRY(db.exec("DELETE FROM hw_scd2"));
    // A delete event ends the version before it and opens none.
    CDC_TRY(db.exec(std::string(R"(
INSERT INTO hw_scd2(id, name, city, __START_AT, __END_AT)
  SELECT id, name, city, seq, next_seq FROM (
    SELECT id, name, city, operation, seq, LEAD(seq) OVER (PARTITION BY id ORDER BY seq) AS next_seq
    FROM )") + SourceTable::kName +
                    R"()
  WHERE operation <> 'DELETE')"));
    return tx->commit();
}

Result<std::int64_t> HandwrittenScd2::visibleRows(storage::Database& db) {
    return queryInt(db, "SELECT count(*) FROM hw_scd2");
}

} // namespace cdc::bench
