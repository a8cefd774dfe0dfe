#pragma once
/// Read-only Spark SQL queries over a project database: relations resolve through the catalog
/// (sources to their tables, targets and views to their public SQLite view, table_changes to the
/// target's change feed) and result columns get Spark types where the catalog or the query knows them.

#include "core/common/ResultSet.h"
#include "core/sql/SqlApi.h"
#include "core/sql/Translator.h"
#include "core/storage/Catalog.h"
#include "core/storage/Database.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace cdc::sql {

class QueryRunner {
public:
    explicit QueryRunner(storage::Database& db) : m_db(db) {}

    Result<ResultSet> run(std::string_view sparkSql, const std::string& file, const QueryLimits& limits = {});

    /// The translated SQL with every relation bound to its catalog object; unknown names are
    /// positioned "table or view not found" errors.
    static Result<std::string> bindToCatalog(const storage::Database& db, const TranslatedQuery& q);
    /// The FROM-item for one relation.
    static Result<std::string> fromItemFor(const storage::Database& db, const pipeline::RelationRef& ref);
    /// Spark types of a prepared statement's columns that come straight from a catalog table column.
    static std::vector<std::optional<DataType>> originTypes(const storage::Database& db,
                                                            const storage::Statement& st);
    /// Column lookup for TypeInference over the catalog.
    static std::optional<std::vector<storage::ColumnInfo>> catalogColumns(const storage::Database& db,
                                                                          const std::string& name);

private:
    /// Steps `stmt` into `rs.rows` up to the limit of `maxBytes` (an estimate of the rows' memory).
    static Status collectRows(storage::Statement& stmt, ResultSet& rs, std::size_t maxBytes);
    storage::Database& m_db;
};

/// Replaces each {{REL:i}} of a translated template by fromItem(i).
std::string bindPlaceholders(const std::string& sqliteTemplate,
                             const std::function<std::string(std::size_t)>& fromItem);

} // namespace cdc::sql
