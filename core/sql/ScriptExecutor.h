#pragma once
/// Runs source-side Spark SQL (CREATE SCHEMA / TABLE [AS SELECT], INSERT, UPDATE, DELETE, TRUNCATE,
/// DROP TABLE) in one transaction, keeping the catalog in step. UPDATE / DELETE / TRUNCATE that touch
/// existing rows are logged in `__cdc_source_changes` so that the engine, which reads sources as
/// append-only streams checkpointed by rowid, can tell when consumed rows changed.

#include "core/common/Diagnostic.h"
#include "core/sql/Ast.h"
#include "core/sql/Lexer.h"
#include "core/sql/Translator.h"
#include "core/storage/Catalog.h"
#include "core/storage/Database.h"

#include <optional>
#include <string>
#include <string_view>

namespace cdc::sql {

class ScriptTokens;

class ScriptExecutor {
public:
    ScriptExecutor(storage::Database& db, std::string file) : m_db(db), m_file(std::move(file)) {}

    Status run(std::string_view text);

private:
    /// Parses text[start, end) (one statement) and runs it; a runtime error gives way to a syntax error
    /// further on, as when the whole script was parsed before anything ran.
    Status parseAndExecute(ScriptTokens& tokens, const LexStart& start, std::size_t end);
    /// `INSERT INTO t [(columns)] VALUES (literal, ...), ...` with every value a plain literal (integer,
    /// string, NULL, TRUE, FALSE): rows cast in C++ and written with one prepared INSERT, without an AST
    /// (a million-row VALUES list as an AST is gigabytes). True when the statement was run; false when it
    /// is not of that shape or a row fails — the caller then runs it the general way, which reports any
    /// error exactly. With `execute` false, only checks the shape.
    Result<bool> literalInsert(ScriptTokens& tokens, bool execute);
    /// The first syntax error in the rest of the script, if any.
    std::optional<Diagnostic> syntaxErrorAfter(ScriptTokens& tokens);
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
    std::string_view m_text;
};

} // namespace cdc::sql
