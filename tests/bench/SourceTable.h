#pragma once
/// The benchmark's append-only source table of change events, registered in the catalog with Spark types
/// exactly like a table a user declares (id BIGINT, name STRING, city STRING, operation STRING, seq BIGINT).

#include "Workload.h"

#include "core/common/Diagnostic.h"
#include "core/storage/Database.h"

#include <string>
#include <vector>

namespace cdc::bench {

class SourceTable {
public:
    static constexpr const char* kName = "events";

    /// Creates the table and its catalog entry in `db`.
    static Result<SourceTable> create(storage::Database& db);

    /// Appends the events in arrival order, in one transaction.
    Status append(const std::vector<Event>& events);
    std::int64_t rows() const { return m_rows; }

private:
    SourceTable(storage::Database& db, storage::Statement insert) : m_db(&db), m_insert(std::move(insert)) {}
    storage::Database* m_db;
    storage::Statement m_insert;
    std::int64_t m_rows = 0;
};

} // namespace cdc::bench
