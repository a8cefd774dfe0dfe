#pragma once
/// Runs source-side Spark SQL (CREATE SCHEMA / TABLE [AS SELECT], INSERT, UPDATE, DELETE, TRUNCATE,
/// DROP TABLE) in one transaction, keeping the catalog in step. UPDATE / DELETE / TRUNCATE that touch
/// existing rows are logged in `__cdc_source_changes` so that the engine, which reads sources as
/// append-only streams checkpointed by rowid, can tell when consumed rows changed.

#include "core/common/Diagnostic.h"
#include "core/sql/Ast.h"
#include "core/sql/Translator.h"
#include "core/storage/Catalog.h"
#include "core/storage/Database.h"

#include <string>
#include <string_view>

namespace cdc::sql {

class ScriptExecutor {
public:
    ScriptExecutor(storage::Database& db, std::string file) : m_db(db), m_file(std::move(file)) {}

    Status run(std::string_view text);

private:
    Status execute(const Statement& st);
    Status createTable(const CreateTableStmt& s, const Span& where);
    Status insert(const InsertStmt& s, const Span& where);
    Status update(const UpdateStmt& s, const Span& where);
    Status remove(const DeleteStmt& s, const Span& where);
    Status truncate(const TruncateStmt& s, const Span& where);
    Status drop(const DropTableStmt& s, const Span& where);

    /// The source table a DML statement names (pipeline datasets are read-only here).
    Result<storage::TableInfo> resolveSource(const Name& name);
    Result<std::string> bind(const std::string& sql, const std::vector<pipeline::RelationRef>& relations);
    /// Inserts the rows of a bound query into the table, each value coerced to its column's Spark type.
    Status insertRows(const storage::TableInfo& table, const std::vector<std::string>& columns,
                      const std::string& boundQuery, std::size_t queryColumns, const Span& where);
    Status recordChange(const storage::TableInfo& table, const std::string& fromWhere, const char* kind);
    Status exec(const std::string& sql, const Span& where);
    Diagnostic at(Diagnostic d, const Span& where) const;

    storage::Database& m_db;
    std::string m_file;
};

} // namespace cdc::sql
