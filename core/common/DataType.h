#pragma once
/// Spark SQL data types as declared by users (`INT`, `STRING`, `DECIMAL(10,2)`, `ARRAY<STRING>`,
/// `STRUCT<a: INT, b: STRING>` ...) and how each is stored in SQLite.
///
/// Storage convention (shared by the SQL front end, the engine, the CLI and the GUI):
///   integral types, BOOLEAN (0/1)      -> INTEGER
///   FLOAT, DOUBLE                      -> REAL
///   DECIMAL                            -> REAL (scale kept in the type for display)
///   STRING, BINARY                     -> TEXT / BLOB
///   DATE                               -> TEXT 'YYYY-MM-DD'
///   TIMESTAMP, TIMESTAMP_NTZ           -> TEXT 'YYYY-MM-DD HH:MM:SS[.ffffff]' in UTC
///   ARRAY, MAP, STRUCT                 -> TEXT holding JSON (array / object / object)
///   VOID (the type of a bare NULL)     -> NULL

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cdc {

struct DataType {
    enum class Kind {
        Void,
        Boolean,
        TinyInt,
        SmallInt,
        Int,
        BigInt,
        Float,
        Double,
        Decimal,
        String,
        Binary,
        Date,
        Timestamp,
        TimestampNtz,
        Array,
        Map,
        Struct,
        Variant,
    };

    Kind kind = Kind::Void;
    int precision = 10; ///< DECIMAL only
    int scale = 0;      ///< DECIMAL only
    /// ARRAY: one element type. MAP: key, value. STRUCT: one per field, named by fieldNames.
    std::vector<DataType> children;
    std::vector<std::string> fieldNames;

    static DataType of(Kind k) { return DataType{k, 10, 0, {}, {}}; }
    static DataType arrayOf(DataType element);
    static DataType structOf(std::vector<std::string> names, std::vector<DataType> types);

    bool isIntegral() const;
    bool isNumeric() const;
    bool isTemporal() const {
        return kind == Kind::Date || kind == Kind::Timestamp || kind == Kind::TimestampNtz;
    }
    /// Spark can sort it (sequence columns must be orderable): not MAP/VARIANT, nor containers of them.
    bool isOrderable() const;

    /// Canonical Spark spelling: `INT`, `BIGINT`, `DECIMAL(10,2)`, `ARRAY<STRING>`, `STRUCT<a: INT, b:
    /// STRING>`.
    std::string toString() const;
    /// Parses the canonical spelling and the common aliases (INTEGER, LONG, SHORT, BYTE, REAL, TEXT,
    /// VARCHAR(n)...).
    static std::optional<DataType> parse(std::string_view text);
    /// SQLite column affinity for a CREATE TABLE: INTEGER, REAL, TEXT, BLOB or empty (no affinity).
    std::string sqliteAffinity() const;

    bool operator==(const DataType&) const = default;
};

/// The type both inputs can be widened to (Spark's type coercion for VALUES rows and UNION), if any.
std::optional<DataType> commonType(const DataType& a, const DataType& b);

} // namespace cdc
