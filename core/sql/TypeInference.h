#pragma once
/// Static Spark types of query results: literal typing (INT / BIGINT / DECIMAL(p,s) / STRING / VOID),
/// VALUES columns merged across rows with cdc::commonType, column references resolved against the
/// tables a query reads. Unknown stays unknown (nullopt): callers then judge by the values.

#include "core/common/DataType.h"
#include "core/pipeline/OutputTypes.h"
#include "core/sql/Ast.h"
#include "core/storage/Catalog.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cdc::sql {

struct TypedColumn {
    std::string name;
    std::optional<DataType> type;
    std::string relation; ///< the table or alias it is read from (for t.x and t.*); empty for results
};

class TypeInference {
public:
    /// Columns of a named table (catalog source, target or view), if it exists.
    using TableLookup =
        std::function<std::optional<std::vector<storage::ColumnInfo>>(const std::string& name)>;

    explicit TypeInference(TableLookup lookup) : m_lookup(std::move(lookup)) {}

    /// Result columns with names and types; nullopt when the column list itself is unknown.
    std::optional<std::vector<TypedColumn>> queryColumns(const Query& q);
    std::optional<DataType> expr(const Expr& e, const std::vector<TypedColumn>& scope);

    /// Spark's type of a literal: integers INT (BIGINT beyond 32 bits), decimals DECIMAL(p,s), NULL VOID.
    static DataType literalType(const Expr& literal);

private:
    std::optional<std::vector<TypedColumn>> term(const QueryTerm& t);
    std::optional<std::vector<TypedColumn>> fromScope(const TableRef& t);

    TableLookup m_lookup;
    std::vector<std::map<std::string, std::vector<TypedColumn>>> m_ctes;
};

/// The inference the engine asks for (pipeline::OutputTypeInference, installed by installSparkFunctions):
/// the query's Spark text parsed again and typed with the columns of the relations the engine resolved.
std::vector<std::optional<DataType>> inferOutputTypes(const pipeline::Query& query,
                                                      const pipeline::RelationColumns& relations);

} // namespace cdc::sql
