#pragma once
/// The catalog: every Spark-visible relation in a database (source tables, AUTO CDC targets, views)
/// with its Spark column types, stored in the database itself (`__cdc_catalog`, `__cdc_columns`,
/// `__cdc_table_properties`) so that the CLI, the engine and the GUI agree on names and types.
///
/// Names are case-insensitive and may be multi-part (`main.cdc_tutorial.users_cdf`). A reference
/// resolves to the entry with exactly that name, or else to the one entry whose name ends with
/// `.<reference>` (so `users_cdf` and `cdc_tutorial.users_cdf` both find the table above).

#include "core/common/DataType.h"
#include "core/common/Diagnostic.h"
#include "core/storage/Database.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cdc::storage {

enum class TableKind { Source, Target, View, MaterializedView };

std::string tableKindName(TableKind kind);
std::optional<TableKind> tableKindFromName(std::string_view name);

struct ColumnInfo {
    std::string name; ///< as declared (original case)
    DataType type;
    bool operator==(const ColumnInfo&) const = default;
};

struct TableInfo {
    std::string name;       ///< qualified name as first declared
    std::string sqliteName; ///< the SQLite table or view that holds (or shows) the rows
    TableKind kind = TableKind::Source;
    std::vector<ColumnInfo> columns;
    std::map<std::string, std::string> properties; ///< TBLPROPERTIES; keys lower-cased

    /// Index of a column by case-insensitive name, or -1.
    int columnIndex(std::string_view column) const;
    bool operator==(const TableInfo&) const = default;
};

class Catalog {
public:
    /// Creates the catalog tables when missing. Idempotent.
    static Status ensureSchema(Database& db);

    /// Resolves a (possibly partial) name. Not found is an empty optional; an ambiguous suffix is an error.
    static Result<std::optional<TableInfo>> find(const Database& db, std::string_view name);
    static Result<std::vector<TableInfo>> list(const Database& db);

    /// Inserts or replaces the entry (columns and properties included).
    static Status put(Database& db, const TableInfo& table);
    static Status remove(Database& db, std::string_view exactName);

    /// The SQLite name used for a newly declared source table.
    static std::string sqliteNameFor(std::string_view qualifiedName);
};

} // namespace cdc::storage
