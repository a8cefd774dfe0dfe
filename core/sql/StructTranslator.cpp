// Column references as Spark resolves them: `a.b.c` is first read as a relation qualifier followed by a
// column (`t.col`, `main.s.users.id`), else as a column followed by struct fields (`s.a.b`), so
// `col.field` works on any STRUCT column without a schema. STRUCT values are JSON objects (struct(),
// named_struct(), and what source tables store), so a field is a lookup in the object, by name
// case-insensitively as Spark resolves fields. `s.*` lists a struct's fields (see starExcept).
// Reference: Databricks SQL "Column, field, parameter, and variable resolution" and "* (star) clause".
#include "core/common/Text.h"
#include "core/sql/Translator.h"
#include "core/storage/Database.h"

namespace cdc::sql {

using storage::quoteIdentifier;

Translator::AliasScope Translator::fromAliases(const TableRef* from) {
    AliasScope scope;
    if (!from)
        return scope;
    switch (from->kind) {
    case TableRefKind::Table:
        scope.push_back(from->alias.empty() ? from->name.parts : std::vector<std::string>{from->alias});
        break;
    case TableRefKind::Function:
        scope.push_back({from->alias.empty() ? from->name.parts.back() : from->alias});
        break;
    case TableRefKind::Subquery:
        if (!from->alias.empty())
            scope.push_back({from->alias});
        break;
    case TableRefKind::Join:
        for (const TableRef* side : {from->left.get(), from->right.get()}) {
            AliasScope part = fromAliases(side);
            scope.insert(scope.end(), part.begin(), part.end());
        }
        break;
    }
    return scope;
}

/// How many leading parts of a column reference name a relation in scope (0: none), innermost SELECT first,
/// the longest match winning: in `t.s.a` with relation `t` it is 1, in `main.s.t.c` with `main.s.t` it is 3.
std::optional<std::size_t> Translator::qualifierLength(const std::vector<std::string>& parts) const {
    for (auto scope = m_aliasScopes.rbegin(); scope != m_aliasScopes.rend(); ++scope) {
        std::size_t best = 0;
        for (const auto& relation : *scope) {
            for (std::size_t k = std::min(relation.size(), parts.size() - 1); k > best; --k) {
                bool match = true;
                for (std::size_t i = 0; i < k && match; ++i)
                    match = equalsIgnoreCase(parts[i], relation[relation.size() - k + i]);
                if (match) {
                    best = k;
                    break;
                }
            }
        }
        if (best)
            return best;
    }
    return std::nullopt;
}

std::string Translator::column(const Expr& e) {
    const auto& parts = e.name.parts;
    std::size_t next = 1;
    std::string sql;
    if (parts.size() > 1) {
        if (auto k = qualifierLength(parts)) {
            // The relation is in scope under its last name part (see tableRef).
            sql = quoteIdentifier(parts[*k - 1]) + "." + quoteIdentifier(parts[*k]);
            next = *k + 1;
        }
    }
    if (sql.empty())
        sql = quoteIdentifier(parts[0]);
    for (std::size_t i = next; i < parts.size(); ++i)
        sql = structField(sql, parts[i]);
    return sql;
}

bool Translator::readsStructField(const Expr& e) const {
    if (e.kind != ExprKind::Column || e.name.parts.size() < 2)
        return false;
    auto k = qualifierLength(e.name.parts);
    return !k || *k + 1 < e.name.parts.size();
}

bool Translator::isStructStar(const Expr& e) const {
    if (e.kind != ExprKind::Star || e.name.empty())
        return false;
    std::vector<std::string> parts = e.name.parts;
    parts.push_back("*");
    auto k = qualifierLength(parts);
    return !k || *k != e.name.parts.size();
}

std::string Translator::star(const Expr& e) {
    return quoteIdentifier(e.name.parts.back()) + ".*";
}

std::string Translator::structField(const std::string& base, const std::string& field) {
    return "(SELECT value FROM json_each(" + base + ") WHERE key = " + sqliteString(field) +
           " COLLATE NOCASE)";
}

} // namespace cdc::sql
