#pragma once
/// Translates Spark SQL expressions and queries (AST) to SQLite SQL with Spark semantics:
/// fractional `/`, integer `div`, NULL-propagating concat, 1/0 booleans, Spark casts (spark_cast),
/// explicit Spark NULL ordering, struct/array as JSON, `<=>` as IS. Every relation a query reads is
/// written as `(SELECT * FROM {{REL:i}}) AS "alias"` and listed in relations() for the caller to bind:
/// the placeholder may be replaced by a table name, a subquery, or either with its own alias.

#include "core/common/Diagnostic.h"
#include "core/pipeline/Pipeline.h"
#include "core/sql/Ast.h"

#include <cstdint>
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

    /// An expression's SQL. Past the nesting SQLite's parser takes (kSqliteNestingLimit levels, each node
    /// costing what its SQL nests there) it fails with a positioned NESTING error instead.
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

    /// The levels of SQLite's parser stack the translated SQL may take: Debian's SQLite 3.40 has a fixed
    /// stack of 100 (YYSTACKDEPTH), and the statements the engine wraps around a query take some.
    static constexpr int kSqliteNestingLimit = 90;

private:
    std::string translate(const Expr& e);
    /// Adds what a node's SQL nests in SQLite's parser for the caller's scope; false past the limit.
    class SqliteNesting;
    std::string term(const QueryTerm& t);
    std::string select(const Select& s);
    std::string function(const Expr& e);
    std::string literal(const Expr& e);
    std::string relation(pipeline::RelationRef ref);
    std::string orderItems(const std::vector<OrderItem>& items);
    std::string starExcept(const Expr& star, const std::string& from);
    std::string withClauseInScope() const;
    /// A table-valued function's arguments as the binder reads them (literals by value).
    static TableFunctionCall tableFunctionCall(const TableRef& t);
    void fail(const std::string& message, const Span& where);
    void fail(const std::string& code, const std::string& message, const Span& where);

    // column references, struct fields and the relations in scope (StructTranslator.cpp)
    using AliasScope = std::vector<std::vector<std::string>>; ///< per relation: its name parts, alias last
    static AliasScope fromAliases(const TableRef* from);
    std::optional<std::size_t> qualifierLength(const std::vector<std::string>& parts) const;
    std::string column(const Expr& e);
    std::string star(const Expr& e);
    bool readsStructField(const Expr& e) const;
    bool isStructStar(const Expr& e) const;
    static std::string structField(const std::string& base, const std::string& field);

    // date and timestamp arithmetic with intervals (IntervalTranslator.cpp)
    bool intervalParts(const Expr& interval, std::int64_t& months, std::int64_t& days, std::int64_t& micros);
    std::string intervalArithmetic(const Expr& binary);
    std::string timestampAdd(const Expr& call);

    // Spark's implicit casts between the operands of comparisons, IN, BETWEEN, CASE, coalesce
    // (ImplicitCasts.cpp): the operands translated, each converted to the type they meet in where needed.
    std::vector<std::string> commonOperands(const std::vector<const Expr*>& operands);

    // window functions and QUALIFY (WindowTranslator.cpp)
    std::string windowFunction(const Expr& e);
    std::string windowSpec(const WindowSpec& w);
    std::string qualifiedSelect(const Select& s);
    void refuseWindows(const Expr* e, const char* clause);

    std::vector<pipeline::RelationRef> m_relations;
    std::vector<AliasScope> m_aliasScopes; ///< the relations each open SELECT reads, innermost last
    std::vector<const std::vector<NamedWindow>*> m_windowScopes; ///< the WINDOW clauses of the SELECTs open
    std::vector<std::set<std::string>> m_cteScopes;
    std::vector<std::vector<std::string>> m_cteDefinitions; ///< `name AS (sql)` per scope, for star probes
    std::optional<Diagnostic> m_error;
    int m_subqueryCounter = 0;
    int m_sqliteDepth = 0;       ///< SQLite parser levels the SQL being written is nested in
    bool m_chainOperand = false; ///< the next expr() is a binary operator's left operand (a chain link)
};

/// Spark's window-only functions (ranking and analytic: row_number, rank, lag, ...): they need OVER.
bool isWindowOnlyFunction(std::string_view lowerName);

/// `'text'` as a SQLite literal that can never be mistaken for a `{{REL:i}}` placeholder.
std::string sqliteString(std::string_view text);

/// Refuses (UNSUPPORTED, at `where`) written SQL that has a `{{` inside a quoted name: the placeholders and
/// markers ({{REL:i}}, {{STAR:...}}) are replaced wherever they appear, so a name holding one (an alias, or
/// the output name Spark gives `SELECT '{{...}}'`) would have SQL spliced into it. Strings are split
/// (sqliteString); a name cannot be.
Status checkQuotedNames(std::string_view sql, const SourceLocation& where);

} // namespace cdc::sql
