#pragma once
/// Translates Spark SQL expressions and queries (AST) to SQLite SQL with Spark semantics:
/// fractional `/`, integer `div`, NULL-propagating concat, 1/0 booleans, Spark casts (spark_cast),
/// explicit Spark NULL ordering, struct/array as JSON, `<=>` as IS. Every relation a query reads is
/// written as `(SELECT * FROM {{REL:i}}) AS "alias"` and listed in relations() for the caller to bind:
/// the placeholder may be replaced by a table name, a subquery, or either with its own alias.

#include "core/common/Diagnostic.h"
#include "core/pipeline/Pipeline.h"
#include "core/sql/Ast.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cdc::sql {

struct TranslatedQuery {
    std::string sql; ///< with {{REL:i}} placeholders
    std::vector<pipeline::RelationRef> relations;
    std::vector<std::string> outputColumns; ///< static result names ("*" for a star)
};

class Translator {
public:
    Translator() = default;

    std::string expr(const Expr& e);
    std::string query(const Query& q);
    std::string tableRef(const TableRef& t);

    const std::vector<pipeline::RelationRef>& relations() const { return m_relations; }
    /// The first construct that has no SQLite translation, if any.
    const std::optional<Diagnostic>& error() const { return m_error; }

    /// Convenience: a whole query with its relations and output names, or the translation error.
    static Result<TranslatedQuery> translateQuery(const Query& q);
    /// Convenience: one expression over the columns of a single source (no relations allowed).
    static Result<std::string> translateExpression(const Expr& e);

    /// Name Spark gives an unaliased select item (the column name, or the expression text).
    static std::string outputName(const Expr& e);

private:
    std::string term(const QueryTerm& t);
    std::string select(const Select& s);
    std::string function(const Expr& e);
    std::string literal(const Expr& e);
    std::string relation(pipeline::RelationRef ref);
    /// A table-valued function's arguments as the binder reads them (literals by value).
    static TableFunctionCall tableFunctionCall(const TableRef& t);
    void fail(const std::string& message, const Span& where);

    std::vector<pipeline::RelationRef> m_relations;
    std::vector<std::set<std::string>> m_cteScopes;
    std::optional<Diagnostic> m_error;
    int m_subqueryCounter = 0;
};

/// `'text'` as a SQLite literal that can never be mistaken for a `{{REL:i}}` placeholder.
std::string sqliteString(std::string_view text);

} // namespace cdc::sql
