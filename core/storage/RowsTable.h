#pragma once
/// Rows held in memory, served to SQL as a temporary table (a virtual table of the module `cdc_rows`),
/// whose columns may be HIDDEN like Spark's `_metadata`: `SELECT *` leaves them out, a query that names
/// them reads them. read_files and list_files (FileTableFunctions) put what they read here before the
/// query that reads them runs.

#include "core/common/DataType.h"
#include "core/common/Diagnostic.h"
#include "core/common/Value.h"
#include "core/storage/Database.h"

#include <string>
#include <vector>

struct sqlite3;

namespace cdc::storage {

struct RowsTableData {
    std::vector<std::string> columns;
    std::vector<bool> hidden;    ///< per column
    std::vector<DataType> types; ///< per column, the Spark type its values have
    std::vector<Row> rows;
};

/// Makes the `cdc_rows` module available on a connection (Database::open does it for every connection).
void registerRowsTableModule(sqlite3* db);

/// Creates, or replaces, the temporary table `name` holding `data` on this connection. It lasts until it is
/// replaced, dropped or the connection closes.
Status createRowsTable(const Database& db, const std::string& name, RowsTableData data);

} // namespace cdc::storage
