// Word lists for the editor (highlighting and completion).
#include "core/sql/SqlApi.h"

namespace cdc::sql {

const std::vector<std::string>& keywords() {
    static const std::vector<std::string> words = {
        "ALL", "AND", "ANTI", "APPLY", "AS", "ASC", "AUTO", "BETWEEN", "BITEMPORAL", "BY", "CASE", "CAST", "CDC",
        "CHANGES", "CLUSTER", "COLUMNS", "COMMENT", "CREATE", "CROSS", "DATABASE", "DELETE", "DESC", "DISTINCT", "DIV",
        "DROP", "ELSE", "END", "ESCAPE", "EXCEPT", "EXISTS", "FALSE", "FIRST", "FLOW", "FROM", "FULL", "GROUP",
        "HAVING", "HISTORY", "IF", "IGNORE", "ILIKE", "IN", "INNER", "INSERT", "INTERSECT", "INTO", "IS", "JOIN",
        "KEYS", "LAST", "LEFT", "LIKE", "LIMIT", "LIVE", "LOCATION", "MATERIALIZED", "NAME", "NOT", "NULL", "NULLS",
        "OFFSET", "ON", "ONCE", "OR", "ORDER", "OUTER", "OVERWRITE", "PARTITIONED", "PRIVATE", "REFRESH", "REGEXP",
        "REPLACE", "RIGHT", "RLIKE", "SCD", "SCHEMA", "SELECT", "SEMI", "SEQUENCE", "SET", "SNAPSHOT", "STORED",
        "STREAM", "STREAMING", "STRUCT", "SYSTEM", "TABLE", "TBLPROPERTIES", "TEMPORARY", "THEN", "TO", "TRACK",
        "TRUE", "TRUNCATE", "TYPE", "UNION", "UPDATE", "UPDATES", "USING", "VALUES", "VERSION", "VIEW", "WHEN",
        "WHERE", "WITH",
        // data types
        "ARRAY", "BIGINT", "BINARY", "BOOLEAN", "DATE", "DECIMAL", "DOUBLE", "FLOAT", "INT", "INTEGER", "MAP",
        "SMALLINT", "STRING", "TIMESTAMP", "TIMESTAMP_NTZ", "TINYINT", "VARIANT",
    };
    return words;
}

const std::vector<std::string>& functionNames() {
    static const std::vector<std::string> names = {
        "abs", "array", "array_contains", "avg", "ceil", "coalesce", "collect_list", "collect_set", "concat",
        "concat_ws", "count", "current_date", "current_snapshot_version", "current_timestamp", "date_add",
        "date_format", "date_sub", "datediff", "day", "element_at", "first", "floor", "from_unixtime", "greatest",
        "hour", "if", "ifnull", "isnotnull", "isnull", "last_snapshot_version", "lcase", "least", "left", "length",
        "list_files", "lower", "ltrim", "max", "min", "minute", "month", "named_struct", "now", "nullif", "nvl",
        "read_files", "regexp_extract", "regexp_replace", "replace", "right", "rlike", "round", "rtrim", "second",
        "size", "split", "stream", "struct", "substr", "substring", "sum", "table_changes", "to_date", "to_timestamp",
        "trim", "ucase", "unix_timestamp", "upper", "year",
    };
    return names;
}

} // namespace cdc::sql
