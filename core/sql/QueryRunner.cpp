#include "core/sql/QueryRunner.h"

#include "core/common/Text.h"
#include "core/sql/Lexer.h"
#include "core/sql/Parser.h"
#include "core/sql/QueryAuthorizer.h"
#include "core/sql/SqlApi.h"
#include "core/sql/TypeInference.h"
#include "core/storage/FileTableFunctions.h"
#include "core/storage/QueryGuard.h"
#include "core/storage/StarExpansion.h"
#include "core/storage/TargetTables.h"

#include <sqlite3.h>

namespace cdc::sql {

using storage::Catalog;
using storage::quoteIdentifier;
using storage::TableKind;

std::string bindPlaceholders(const std::string& t, const std::function<std::string(std::size_t)>& fromItem) {
    std::string out;
    std::size_t pos = 0;
    for (;;) {
        std::size_t hit = t.find("{{REL:", pos);
        std::size_t end = hit == std::string::npos ? hit : t.find("}}", hit);
        if (end == std::string::npos) {
            out.append(t, pos, std::string::npos);
            return out;
        }
        const std::string index = t.substr(hit + 6, end - hit - 6);
        if (index.empty() || index.size() > 9 || index.find_first_not_of("0123456789") != std::string::npos) {
            out.append(t, pos,
                       hit + 2 - pos); // not one the translator wrote (checkQuotedNames keeps those out)
            pos = hit + 2;
            continue;
        }
        out.append(t, pos, hit - pos);
        out += fromItem(std::stoul(index));
        pos = end + 2;
    }
}

std::string bindRelations(const pipeline::Query& query,
                          const std::function<std::string(const pipeline::RelationRef&)>& fromItem) {
    return bindPlaceholders(query.sqliteTemplate, [&](std::size_t i) {
        return i < query.relations.size() ? fromItem(query.relations[i]) : std::string("NULL");
    });
}

Result<std::string> QueryRunner::fromItemFor(const storage::Database& db, const pipeline::RelationRef& ref) {
    if (ref.call && storage::isFileTableFunction(ref.call->function)) {
        auto bound = storage::bindFileTableFunction(db, *ref.call);
        if (!bound)
            return bound.error();
        return bound->fromItem;
    }
    if (!ref.name.empty() && ref.name.back() == ')')
        return Diagnostic::error("UNSUPPORTED",
                                 "table-valued function " + ref.name + " is only available in a pipeline",
                                 ref.location);
    auto found = Catalog::find(db, ref.name);
    if (!found) {
        Diagnostic d = found.error();
        d.location = ref.location;
        return d;
    }
    if (!found.value())
        return Diagnostic::error("TABLE_NOT_FOUND", "table or view not found: " + ref.name, ref.location);
    const storage::TableInfo& info = **found;
    if (ref.changeFeed) {
        if (info.kind != TableKind::Target)
            return Diagnostic::error("NO_CHANGE_FEED",
                                     "table_changes needs an AUTO CDC target: " + info.name + " is a " +
                                         storage::tableKindName(info.kind),
                                     ref.location);
        std::string feed = storage::TargetTables(info.name).changeFeed;
        if (!db.tableExists(feed))
            return Diagnostic::error("NO_CHANGE_FEED",
                                     "target " + info.name + " has no change feed yet (run an update)",
                                     ref.location);
        return quoteIdentifier(feed);
    }
    return quoteIdentifier(info.sqliteName);
}

Result<std::string> QueryRunner::bindToCatalog(const storage::Database& db, const TranslatedQuery& q) {
    std::vector<std::string> items;
    for (const auto& ref : q.relations) {
        auto item = fromItemFor(db, ref);
        if (!item)
            return item.error();
        items.push_back(item.value());
    }
    return storage::expandStarMarkers(db, bindPlaceholders(q.sql, [&](std::size_t i) {
                                          return i < items.size() ? items[i] : std::string("NULL");
                                      }));
}

std::optional<std::vector<storage::ColumnInfo>> QueryRunner::catalogColumns(const storage::Database& db,
                                                                            const std::string& name) {
    auto found = Catalog::find(db, name);
    if (!found || !found.value())
        return std::nullopt;
    return found.value()->columns;
}

std::vector<std::optional<DataType>> QueryRunner::originTypes(const storage::Database& db,
                                                              const storage::Statement& st) {
    std::vector<std::optional<DataType>> types(static_cast<std::size_t>(st.columnCount()));
    auto tables = Catalog::list(db);
    if (!tables)
        return types;
    for (int i = 0; i < st.columnCount(); ++i) {
        const char* table = sqlite3_column_table_name(st.handle(), i);
        const char* column = sqlite3_column_origin_name(st.handle(), i);
        if (!table || !column)
            continue;
        for (const auto& info : tables.value()) {
            const storage::TargetTables internal(info.name);
            if (equalsIgnoreCase(info.sqliteName, table) || equalsIgnoreCase(internal.backing, table) ||
                equalsIgnoreCase(internal.changeFeed, table) ||
                equalsIgnoreCase(internal.changeFeedRows, table)) {
                int index = info.columnIndex(column);
                if (index >= 0)
                    types[static_cast<std::size_t>(i)] = info.columns[static_cast<std::size_t>(index)].type;
                break;
            }
        }
    }
    return types;
}

namespace {
const char* statementKind(const StatementBody& body) {
    struct V {
        const char* operator()(const CreateSchemaStmt&) const { return "CREATE SCHEMA"; }
        const char* operator()(const CreateTableStmt&) const { return "CREATE TABLE"; }
        const char* operator()(const InsertStmt&) const { return "INSERT"; }
        const char* operator()(const UpdateStmt&) const { return "UPDATE"; }
        const char* operator()(const DeleteStmt&) const { return "DELETE"; }
        const char* operator()(const TruncateStmt&) const { return "TRUNCATE"; }
        const char* operator()(const DropTableStmt&) const { return "DROP TABLE"; }
        const char* operator()(const StreamingTableStmt&) const { return "CREATE STREAMING TABLE"; }
        const char* operator()(const CreateFlowStmt&) const { return "CREATE FLOW"; }
        const char* operator()(const ApplyChangesStmt&) const { return "APPLY CHANGES"; }
        const char* operator()(const ViewStmt&) const { return "CREATE VIEW"; }
        const char* operator()(const QueryStmt&) const { return "query"; }
    };
    return std::visit(V{}, body);
}
} // namespace

Status QueryRunner::collectRows(storage::Statement& stmt, ResultSet& rs, std::size_t maxBytes) {
    // What a row costs in memory beyond its text and blob bytes: the row's vector and one variant per value.
    constexpr std::size_t kRowBytes = sizeof(Row) + 16;
    constexpr std::size_t kValueBytes = sizeof(Value);
    std::size_t bytes = 0;
    bool tooLarge = false;
    CDC_TRY(stmt.forEachRow([&](const storage::Statement& row) {
        Row values = row.row();
        bytes += kRowBytes + kValueBytes * values.size();
        for (const Value& v : values) {
            if (const auto* text = std::get_if<std::string>(&v))
                bytes += text->size();
            else if (const auto* blob = std::get_if<Blob>(&v))
                bytes += blob->bytes.size();
        }
        if (bytes > maxBytes) {
            tooLarge = true;
            return false;
        }
        rs.rows.push_back(std::move(values));
        return true;
    }));
    if (tooLarge)
        return Diagnostic::error("RESULT_TOO_LARGE",
                                 "the result grew past " + std::to_string(maxBytes / (1024 * 1024)) +
                                     " MB after " + std::to_string(rs.rows.size()) +
                                     " rows (the size limit of a query's result); add a LIMIT or a filter");
    return Status::success();
}

Result<ResultSet> QueryRunner::run(std::string_view sparkSql, const std::string& file,
                                   const QueryLimits& limits) {
    ParsedScript script = Parser(sparkSql, file).parseScript();
    if (!script.diagnostics.empty())
        return script.diagnostics.front();
    if (script.statements.size() != 1) {
        return Diagnostic::error(
            "NOT_A_QUERY",
            script.statements.empty() ? "expected a query"
                                      : "expected exactly one query, found " +
                                            std::to_string(script.statements.size()) + " statements",
            script.statements.empty() ? SourceLocation{} : script.statements[1].span.location);
    }
    const Statement& st = script.statements[0];
    const auto* qs = std::get_if<QueryStmt>(&st.body);
    if (!qs)
        return Diagnostic::error("NOT_A_QUERY",
                                 std::string("only read-only queries can run here; ") +
                                     statementKind(st.body) + " changes data (run it as a source script)",
                                 st.span.location);
    auto translated = Translator::translateQuery(qs->query);
    if (!translated)
        return translated.error();
    auto bound = bindToCatalog(m_db, translated.value());
    if (!bound)
        return bound.error();
    // From here on the query's own SQL runs (and the views it reads): guarded in time, in size and in the
    // functions it may call.
    const storage::QueryGuard guard(m_db, "query", {limits.timeout, limits.cancel});
    const QueryAuthorizer authorizer(m_db);
    auto stmt = m_db.prepare(bound.value());
    if (!stmt) {
        Diagnostic d = authorizer.explain(stmt.error());
        if (d.code == "FUNCTION_NOT_ALLOWED") {
            d.location = st.span.location;
            return d;
        }
        d.location = st.span.location;
        pointAtName(d, sparkSql, st.span.location.offset, st.span.location.offset + st.span.location.length);
        return d;
    }
    if (!stmt->readOnly())
        return Diagnostic::error("NOT_A_QUERY", "the query would change data", st.span.location);

    ResultSet rs;
    int n = stmt->columnCount();
    for (int i = 0; i < n; ++i)
        rs.columns.push_back(stmt->columnName(i));
    rs.types = originTypes(m_db, *stmt);
    TypeInference inference([this](const std::string& name) { return catalogColumns(m_db, name); });
    if (auto staticCols = inference.queryColumns(qs->query);
        staticCols && staticCols->size() == rs.types.size()) {
        for (std::size_t i = 0; i < rs.types.size(); ++i)
            if (!rs.types[i] && (*staticCols)[i].type && (*staticCols)[i].type->kind != DataType::Kind::Void)
                rs.types[i] = (*staticCols)[i].type;
    }
    if (auto read = collectRows(*stmt, rs, limits.maxResultBytes); !read) {
        Diagnostic d = guard.explain(authorizer.explain(read.error()));
        d.location = st.span.location;
        return d;
    }
    return rs;
}

Result<ResultSet> runQuery(storage::Database& db, std::string_view sparkSql, const std::string& file,
                           const QueryLimits& limits) {
    installSparkFunctions();
    db.runNewConnectionSetups(); // a connection opened before the install gets them now
    return QueryRunner(db).run(sparkSql, file, limits);
}

} // namespace cdc::sql
