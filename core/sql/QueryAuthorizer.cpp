#include "core/sql/QueryAuthorizer.h"

#include "core/common/Text.h"

#include <sqlite3.h>

#include <algorithm>
#include <iterator>

namespace cdc::sql {

namespace {

/// SQLite's functions a query may use. Left out on purpose: fts3_tokenizer (takes and returns native
/// pointers), load_extension, the FTS and r-tree internals (fts5, match, snippet, rtreenode ...),
/// sqlite_compileoption_*, sqlite_log, changes / total_changes / last_insert_rowid (about this connection,
/// not the data), randomblob and zeroblob (memory, not data), subtype.
constexpr std::string_view kSqliteFunctions[] = {
    "->",
    "->>",
    "abs",
    "acos",
    "acosh",
    "asin",
    "asinh",
    "atan",
    "atan2",
    "atanh",
    "avg",
    "ceil",
    "ceiling",
    "char",
    "coalesce",
    "concat",
    "concat_ws",
    "cos",
    "cosh",
    "count",
    "cume_dist",
    "current_date",
    "current_time",
    "current_timestamp",
    "date",
    "datetime",
    "degrees",
    "dense_rank",
    "exp",
    "first_value",
    "floor",
    "format",
    "glob",
    "group_concat",
    "hex",
    "if",
    "ifnull",
    "iif",
    "instr",
    "json",
    "json_array",
    "json_array_length",
    "json_each",
    "json_error_position",
    "json_extract",
    "json_group_array",
    "json_group_object",
    "json_insert",
    "json_object",
    "json_patch",
    "json_quote",
    "json_remove",
    "json_replace",
    "json_set",
    "json_tree",
    "json_type",
    "json_valid",
    "jsonb",
    "jsonb_array",
    "jsonb_extract",
    "jsonb_group_array",
    "jsonb_group_object",
    "jsonb_insert",
    "jsonb_object",
    "jsonb_patch",
    "jsonb_remove",
    "jsonb_replace",
    "jsonb_set",
    "julianday",
    "lag",
    "last_value",
    "lead",
    "length",
    "like",
    "likelihood",
    "likely",
    "ln",
    "log",
    "log10",
    "log2",
    "lower",
    "ltrim",
    "max",
    "min",
    "mod",
    "nth_value",
    "ntile",
    "nullif",
    "octet_length",
    "percent_rank",
    "pi",
    "pow",
    "power",
    "printf",
    "quote",
    "radians",
    "random",
    "rank",
    "replace",
    "round",
    "row_number",
    "rtrim",
    "sign",
    "sin",
    "sinh",
    "soundex",
    "sqrt",
    "strftime",
    "string_agg",
    "substr",
    "substring",
    "sum",
    "tan",
    "tanh",
    "time",
    "timediff",
    "total",
    "trim",
    "trunc",
    "typeof",
    "unhex",
    "unicode",
    "unistr",
    "unixepoch",
    "unlikely",
    "upper",
    "regexp",
    "sqlite_version",
};

} // namespace

bool QueryAuthorizer::allowed(std::string_view name) {
    const std::string lower = toLower(name);
    // The translator's helpers (SparkFunctions.cpp): Spark's semantics, written for these queries.
    if (lower.rfind("spark_", 0) == 0)
        return true;
    return std::find(std::begin(kSqliteFunctions), std::end(kSqliteFunctions), lower) !=
           std::end(kSqliteFunctions);
}

QueryAuthorizer::QueryAuthorizer(storage::Database& db) : m_db(db) {
    sqlite3_set_authorizer(db.handle(), &QueryAuthorizer::authorize, this);
}

QueryAuthorizer::~QueryAuthorizer() {
    sqlite3_set_authorizer(m_db.handle(), nullptr, nullptr);
}

int QueryAuthorizer::authorize(void* self, int action, const char*, const char* b, const char*,
                               const char* trigger) {
    if (action != SQLITE_FUNCTION || !b || allowed(b))
        return SQLITE_OK;
    auto* guard = static_cast<QueryAuthorizer*>(self);
    if (!guard->m_refused) {
        guard->m_refused = b;
        guard->m_refusedIn = trigger ? trigger : "";
    }
    return SQLITE_DENY;
}

Diagnostic QueryAuthorizer::explain(Diagnostic d) const {
    if (!m_refused)
        return d;
    return Diagnostic::error(
        "FUNCTION_NOT_ALLOWED",
        "function " + *m_refused + "()" +
            (m_refusedIn.empty() ? "" : " (called by view " + m_refusedIn + ")") +
            " is not available in queries: they may call Spark's functions and SQLite's ordinary scalar, "
            "aggregate, window and JSON functions",
        d.location);
}

} // namespace cdc::sql
