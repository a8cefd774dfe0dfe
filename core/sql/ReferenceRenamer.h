#pragma once
/// Renames the plain references to one dataset inside statements: flows' INTO and FROM, the tables a query
/// reads (`name`, `LIVE.name`, `STREAM(name)`, `table_changes('name', ...)`), in subqueries and CTEs too.
/// A CTE of the same name hides the dataset from the rest of its query, which is left alone.

#include "core/sql/Ast.h"

#include <string>
#include <string_view>
#include <vector>

namespace cdc::sql {

class ReferenceRenamer {
public:
    /// `from` as the pipeline model names it (no LIVE. prefix); `to` the new name's parts.
    ReferenceRenamer(std::string from, std::vector<std::string> to);

    /// Renames inside `statement`; true when anything changed.
    bool statement(Statement& statement);
    /// Renames `name` itself when it names the dataset, keeping a LIVE. prefix; true when it did.
    bool name(Name& name);

private:
    void spec(AutoCdcSpec& spec);
    void query(Query& query);
    void term(QueryTerm& term);
    void select(Select& select);
    void tableRef(TableRef& ref);
    void expr(Expr& expr);
    void window(WindowSpec& window);
    template <class T> void each(std::vector<T>& items, void (ReferenceRenamer::*visit)(T&)) {
        for (auto& item : items)
            (this->*visit)(item);
    }

    std::string m_from;
    std::vector<std::string> m_to;
    std::string m_qualifier; ///< the renamed table's old last name part where it qualifies columns
    int m_renamed = 0;
};

/// A dotted name's parts, as the pipeline model joins them (`main.cdc_tutorial.users_cdf`).
std::vector<std::string> splitQualifiedName(std::string_view name);

} // namespace cdc::sql
