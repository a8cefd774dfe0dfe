#pragma once
/// Canonical Databricks SQL for the AST: upper-case keywords, lower-case function names, single-quoted
/// strings, backticks only where a name needs them, one clause per line for pipeline statements.
/// Stable by construction: parse(print(ast)) == ast.

#include "core/sql/Ast.h"

#include <string>
#include <vector>

namespace cdc::sql {

class Printer {
public:
    static std::string statement(const Statement& st);
    static std::string query(const Query& q);
    static std::string expr(const Expr& e);
    static std::string identifier(std::string_view name);
    static std::string name(const Name& n);
    static std::string stringLiteral(std::string_view value);

private:
    static std::string queryWith(const Query& q, const std::string& nl);
    static std::string term(const QueryTerm& t, const std::string& nl);
    static std::string select(const Select& s, const std::string& nl);
    static std::string tableRef(const TableRef& t);
    static std::string exprAt(const Expr& e, int minPrecedence);
    static std::string orderItems(const std::vector<OrderItem>& items);
    static std::string windowSpec(const WindowSpec& w);
    static std::string columnSel(const ColumnSel& sel);
    static std::string autoCdc(const AutoCdcSpec& spec);
    static std::string columnDefs(const std::vector<ColumnDef>& cols,
                                  const std::vector<Expectation>& expectations = {});
    static std::string tableClauses(const std::optional<std::string>& comment,
                                    const std::vector<Property>& props);
};

/// The units of an INTERVAL node, one per value.
std::vector<std::string> intervalUnits(const Expr& interval);

/// Operator precedence the parser implements (higher binds tighter).
int precedenceOf(const Expr& e);

} // namespace cdc::sql
