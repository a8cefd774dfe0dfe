#pragma once
/// The table-valued functions that read files, evaluated before the query that calls them runs:
///  - `read_files(path, format => 'csv' | 'json', header => true | false, sep => ',')`: the rows of one
///    file or of every file of a folder (sorted by name), with Spark's hidden `_metadata` struct
///    (`file_path`, `file_name`, `file_size`, `file_modification_time`). CSV values are STRING (CAST them),
///    columns named by the header (`_c0`, `_c1`, ... without one), an empty unquoted field is NULL; JSON
///    is JSON lines or one array of objects, typed from the JSON values, columns sorted by name as Spark
///    infers them.
///  - `list_files(path)`: `path`, `name`, `size`, `modification_time` (TIMESTAMP) of the file or of each
///    entry of the folder.
/// Paths are volume paths, mapped and checked by the connection's VolumeRoot (Database::volumes()).

#include "core/common/TableFunctionCall.h"
#include "core/common/VolumeRoot.h"
#include "core/storage/Catalog.h"
#include "core/storage/Database.h"
#include "core/storage/RowsTable.h"

#include <string>
#include <string_view>

namespace cdc::storage {

/// read_files or list_files (case-insensitive).
bool isFileTableFunction(std::string_view name);

/// What the call reads, or a positioned error (the path literal's position for a path it refuses).
Result<RowsTableData> readFileTableFunction(const VolumeRoot& volumes, const TableFunctionCall& call);

/// A call made a table: the FROM item that reads it and its visible columns with their Spark types.
struct BoundFileTable {
    std::string fromItem;
    std::vector<ColumnInfo> columns;
};

/// Reads the call's files now and makes them a temporary table of this connection (`_metadata` hidden
/// from `SELECT *`). A call with the same arguments replaces it.
Result<BoundFileTable> bindFileTableFunction(const Database& db, const TableFunctionCall& call);

} // namespace cdc::storage
