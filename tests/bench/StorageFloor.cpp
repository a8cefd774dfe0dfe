// Each update is two set-based statements over the new rowid range of the source (the write, then the
// feed): the cheapest SQL for the work, with nothing read back into C++.
#include "StorageFloor.h"

#include "HandwrittenApplier.h"
#include "SourceTable.h"

namespace cdc::bench {

Status StorageFloor::setUp(storage::Database& db) {
    CDC_TRY(db.exec("CREATE TABLE floor_feed(id INTEGER, name TEXT, city TEXT, operation TEXT, seq INTEGER, "
                    "version INTEGER)"));
    if (m_scd == Scd::Type1)
        return db.exec(
            "CREATE TABLE floor_target(id INTEGER PRIMARY KEY, name TEXT, city TEXT, seq INTEGER NOT NULL,"
            " deleted INTEGER NOT NULL)");
    return db.exec(
        "CREATE TABLE floor_history(id INTEGER, seq INTEGER, name TEXT, city TEXT, operation TEXT, "
        "PRIMARY KEY(id, seq)) WITHOUT ROWID");
}

Status StorageFloor::apply(storage::Database& db) {
    auto tx = storage::Transaction::begin(db, "floor");
    if (!tx)
        return tx.error();
    auto last = queryInt(db, std::string("SELECT max(rowid) FROM ") + SourceTable::kName);
    if (!last)
        return last.error();
    const std::string range =
        std::string(" FROM ") + SourceTable::kName + " WHERE rowid > ?1 AND rowid <= ?2";
    std::string write =
        m_scd == Scd::Type1
            ? "INSERT INTO floor_target(id, name, city, seq, deleted) SELECT id, name, city, seq, "
              "operation = 'DELETE'" +
                  range +
                  " ON CONFLICT(id) DO UPDATE SET name = excluded.name, city = excluded.city, "
                  "seq = excluded.seq, deleted = excluded.deleted WHERE excluded.seq > floor_target.seq"
            : "INSERT OR REPLACE INTO floor_history(id, seq, name, city, operation) SELECT id, seq, "
              "name, city, operation" +
                  range;
    ++m_update;
    for (const std::string& sql :
         {write, "INSERT INTO floor_feed SELECT id, name, city, operation, seq, ?3" + range}) {
        auto st = db.prepare(sql);
        if (!st)
            return st.error();
        st->bind(1, m_checkpoint).bind(2, last.value());
        if (st->parameterCount() >= 3)
            st->bind(3, m_update);
        CDC_TRY(st->run());
    }
    CDC_TRY(tx->commit());
    m_checkpoint = last.value();
    return Status::success();
}

Result<std::int64_t> StorageFloor::visibleRows(storage::Database& db) {
    return queryInt(db, m_scd == Scd::Type1 ? "SELECT count(*) FROM floor_target WHERE NOT deleted"
                                            : "SELECT count(*) FROM floor_history");
}

} // namespace cdc::bench
