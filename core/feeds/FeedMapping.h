#pragma once
/// Which column of the source table each part of a feed record goes to: the operation, the sequence, a
/// field of the row, or nothing (NULL). A default for an existing table (by name) and for a table the
/// import creates (the fields, then `operation` and the sequence column, types inferred from a sample).

#include "core/common/DataType.h"
#include "core/common/Diagnostic.h"
#include "core/feeds/FeedFormat.h"
#include "core/feeds/FeedRecord.h"
#include "core/storage/Catalog.h"

#include <string>
#include <vector>

namespace cdc::feeds {

enum class ColumnSource { Field, Operation, Sequence, Null };

struct FeedColumn {
    std::string name; ///< the table column
    DataType type;    ///< its type: the table's, or for a new table the inferred or chosen one
    ColumnSource source = ColumnSource::Null;
    std::string field; ///< the record's field, for ColumnSource::Field
    bool operator==(const FeedColumn&) const = default;
};

struct FeedMapping {
    std::vector<FeedColumn> columns;

    /// Onto an existing table: each column takes the record field of its name (case-insensitive); else,
    /// when the format has operations, a column named operation / op / change_type takes the operation
    /// and one whose name begins with "seq" (sequenceNum, seq, sequence_id) the sequence; else NULL.
    static FeedMapping forTable(const storage::TableInfo& table, const std::vector<std::string>& fields,
                                FeedFormat format);
    /// For a table the import creates: one column per field (types from `sample`), then, when the format
    /// has operations, `operationColumn` (STRING) and `sequenceColumn` (type of the sample's sequences).
    static FeedMapping forNewTable(const std::vector<FeedRecord>& sample, FeedFormat format,
                                   const std::string& operationColumn = "operation",
                                   const std::string& sequenceColumn = "sequence");

    /// The row of `record` in column order, each value cast to its column's type with Spark's ANSI cast (as
    /// INSERT into a source table casts): a value that does not convert is a FEED_RECORD error naming the
    /// record's line and byte and the column.
    Result<Row> row(const FeedRecord& record, const std::string& file) const;

    /// Two columns of one name, or a Field column without a field: a MAPPING error.
    Status check() const;
};

/// The fields of the records in order of first appearance.
std::vector<std::string> fieldNames(const std::vector<FeedRecord>& records);

/// The narrowest of BIGINT, DOUBLE, BOOLEAN and STRING that holds every value (text that reads as a
/// number counts as one: CSV has only text). STRING when all are NULL.
DataType inferType(const std::vector<const Value*>& values);

} // namespace cdc::feeds
