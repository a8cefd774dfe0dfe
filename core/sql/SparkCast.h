#pragma once
/// Spark's CAST between the storage forms of DataType.h, in both of Spark's modes. Source rows use the ANSI
/// mode (spark.sql.ansi.enabled, the default of Spark 4, Databricks SQL and serverless pipelines): a value
/// that does not convert is refused with the row and column, where Spark 3's default would have stored NULL
/// unnoticed. CAST expressions in queries keep the non-ANSI mode (invalid input gives NULL).

#include "core/common/DataType.h"
#include "core/common/Value.h"

#include <string>

namespace cdc::sql {

struct CastResult {
    Value value;
    /// Empty on success; else Spark's error class and message, e.g. "CAST_INVALID_INPUT: the value 'seven'
    /// of the type STRING cannot be cast to INT because it is malformed".
    std::string error;
    bool ok() const { return error.empty(); }
};

/// Casts `value` (storage form) to `type`. Non-ANSI: a malformed or out-of-range value becomes NULL. ANSI:
/// it is an error (CAST_INVALID_INPUT, CAST_OVERFLOW). NULL casts to NULL in both.
CastResult castValue(const Value& value, const DataType& type, bool ansi);

} // namespace cdc::sql
