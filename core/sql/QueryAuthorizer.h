#pragma once
/// The functions a user's query may call. A query runs against an untrusted project file and is typed by
/// someone who may paste it from anywhere: SQLite's own function list holds more than queries need, and
/// some of it must not be reachable (fts3_tokenizer hands out and takes native function pointers,
/// load_extension, the r-tree and FTS internals). An authorizer (sqlite3_set_authorizer, action
/// SQLITE_FUNCTION) admits only an allow-list, in the query and in every view it reads.

#include "core/common/Diagnostic.h"
#include "core/storage/Database.h"

#include <optional>
#include <string>
#include <string_view>

namespace cdc::sql {

class QueryAuthorizer {
public:
    /// Whether a query may call the SQLite function `name` (any case): the `spark_*` functions and `regexp`
    /// the translator emits, and SQLite's ordinary scalar, date, math, aggregate, window and JSON functions.
    static bool allowed(std::string_view name);

    /// Admits only allowed() functions in the statements `db` prepares while it lives.
    explicit QueryAuthorizer(storage::Database& db);
    ~QueryAuthorizer();
    QueryAuthorizer(const QueryAuthorizer&) = delete;
    QueryAuthorizer& operator=(const QueryAuthorizer&) = delete;

    /// FUNCTION_NOT_ALLOWED naming the first function refused (SQLite itself says only "not authorized"),
    /// at `d`'s location; `d` itself when nothing was refused.
    Diagnostic explain(Diagnostic d) const;

private:
    static int authorize(void* self, int action, const char* a, const char* b, const char* database,
                         const char* trigger);
    storage::Database& m_db;
    std::optional<std::string> m_refused;
    std::string m_refusedIn; ///< the view that calls it, when not the query itself
};

} // namespace cdc::sql
