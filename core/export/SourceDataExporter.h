#pragma once
/// The project's source tables as files next to an exported pipeline: one CSV per table (header row, RFC
/// 4180), and one SQL script that creates each table and INSERTs its rows, for a quick test table on
/// Databricks or Spark.

#include "core/common/Diagnostic.h"
#include "core/export/ExportOptions.h"
#include "core/storage/Database.h"

#include <vector>

namespace cdc::exporting {

/// data/<table>.csv for every source table (csv) and data/source_tables.sql (inserts).
Result<std::vector<ExportFile>> exportSourceData(storage::Database& db, bool csv, bool inserts);

} // namespace cdc::exporting
