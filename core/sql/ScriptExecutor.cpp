#include "core/sql/ScriptExecutor.h"

#include "core/common/Text.h"
#include "core/sql/Lexer.h"
#include "core/sql/Parser.h"
#include "core/sql/QueryRunner.h"
#include "core/sql/SparkCast.h"
#include "core/sql/SqlApi.h"
#include "core/sql/TypeInference.h"

#include <charconv>
#include <cmath>
#include <set>

namespace cdc::sql {

using storage::Catalog;
using storage::ColumnInfo;
using storage::quoteIdentifier;
using storage::quoteString;
using storage::TableInfo;
using storage::TableKind;

namespace {

const char* pipelineStatementName(const StatementBody& body) {
    if (std::holds_alternative<StreamingTableStmt>(body))
        return "CREATE STREAMING TABLE";
    if (std::holds_alternative<CreateFlowStmt>(body))
        return "CREATE FLOW";
    if (std::holds_alternative<ApplyChangesStmt>(body))
        return "APPLY CHANGES INTO";
    if (std::holds_alternative<ViewStmt>(body))
        return std::get<ViewStmt>(body).materialized ? "CREATE MATERIALIZED VIEW" : "CREATE VIEW";
    return nullptr;
}

std::string columnList(const std::vector<std::string>& cols) {
    std::string s;
    for (std::size_t i = 0; i < cols.size(); ++i)
        s += (i ? ", " : "") + quoteIdentifier(cols[i]);
    return s;
}

} // namespace

/// A script's tokens one statement at a time, straight from the lexer: a long script is never held as
/// a token vector. A `;` or the end closes the current statement.
class ScriptTokens {
public:
    explicit ScriptTokens(std::string_view text) : m_lexer(text), m_textSize(text.size()) {}

    /// The first token of the next statement (empty statements skipped); End at the end of the script.
    Token beginStatement() {
        for (;;) {
            Token t = m_lexer.nextToken();
            if (t.isSymbol(";"))
                continue;
            m_ended = t.kind == TokenKind::End;
            m_end = m_ended ? t.offset : 0;
            return t;
        }
    }
    /// The next token of the current statement; its closing `;` or End ends it.
    Token take() {
        if (m_ended)
            return endToken();
        Token t = m_lexer.nextToken();
        if (t.isSymbol(";") || t.kind == TokenKind::End || t.kind == TokenKind::Error) {
            // An Error token ends the statement too: the parser reports it at its place.
            m_ended = true;
            m_end = t.kind == TokenKind::Error ? m_textSize : t.offset + t.length;
        }
        return t;
    }
    /// Consumes the rest of the current statement; the offset just after it (after its `;`).
    std::size_t finishStatement() {
        while (!m_ended)
            take();
        return m_end;
    }
    bool ended() const { return m_ended; }

private:
    Token endToken() const {
        Token t;
        t.kind = TokenKind::End;
        t.offset = m_end;
        return t;
    }
    Lexer m_lexer;
    std::size_t m_textSize;
    bool m_ended = false;
    std::size_t m_end = 0;
};

namespace {

bool isName(const Token& t) {
    return t.kind == TokenKind::QuotedIdentifier ||
           (t.kind == TokenKind::Identifier && !isReservedWord(t.text));
}

/// A plain literal token (with the sign before a number) as the value SQLite would hold for it after
/// the general path's translation; nullopt for anything else (the general path handles it).
std::optional<Value> literalValue(Token& t, ScriptTokens& tokens) {
    bool negative = false;
    if (t.isSymbol("-")) {
        negative = true;
        t = tokens.take();
        if (t.kind != TokenKind::Integer)
            return std::nullopt;
    }
    switch (t.kind) {
    case TokenKind::Integer: {
        // Plain digits only: suffixes (5L, 5S), and numbers beyond BIGINT take the general path.
        std::int64_t v = 0;
        const char* first = t.text.data();
        const char* last = first + t.text.size();
        auto [end, ec] = std::from_chars(first, last, v);
        if (ec != std::errc() || end != last)
            return std::nullopt;
        return Value(negative ? -v : v);
    }
    case TokenKind::String:
        return Value(std::move(t.text));
    case TokenKind::Identifier:
        if (t.isKeyword("NULL"))
            return Value();
        if (t.isKeyword("TRUE"))
            return Value(std::int64_t{1}); // as the translator writes a boolean literal
        if (t.isKeyword("FALSE"))
            return Value(std::int64_t{0});
        return std::nullopt;
    default:
        return std::nullopt;
    }
}

} // namespace

Diagnostic ScriptExecutor::at(Diagnostic d, const Span& where) const {
    if (!d.location.valid()) {
        d.location = where.location;
        pointAtName(d, m_text, where.location.offset, where.location.offset + where.location.length);
    }
    return d;
}

Status ScriptExecutor::exec(const std::string& sql, const Span& where) {
    if (auto st = m_db.exec(sql); !st)
        return at(st.error(), where);
    return Status::success();
}

Status ScriptExecutor::run(std::string_view text) {
    m_text = text;
    // Statement by statement: each is parsed and run before the next is read, and INSERTs of literal
    // rows skip the AST altogether (a million-row VALUES list parsed whole took gigabytes and most of
    // the load time). A syntax error anywhere still wins over a runtime error before it, and nothing of
    // a failed script stays: it all runs in one transaction.
    auto tx = storage::Transaction::begin(m_db, "cdc_source_script");
    if (!tx)
        return tx.error();
    CDC_TRY(Catalog::ensureSchema(m_db));
    ScriptTokens tokens(text);
    for (;;) {
        Token first = tokens.beginStatement();
        if (first.kind == TokenKind::End)
            break;
        const LexStart start{first.offset, first.line, first.column};
        if (first.isKeyword("INSERT")) {
            auto done = literalInsert(tokens, true);
            if (!done)
                return done.error();
            if (done.value())
                continue;
        }
        CDC_TRY(parseAndExecute(tokens, start, tokens.finishStatement()));
    }
    return tx->commit();
}

Status ScriptExecutor::parseAndExecute(ScriptTokens& tokens, const LexStart& start, std::size_t end) {
    ParsedScript script = Parser(m_text, m_file, start, end).parseScript();
    if (!script.diagnostics.empty())
        return script.diagnostics.front();
    for (const auto& st : script.statements) {
        if (Status status = execute(st); !status) {
            if (auto syntax = syntaxErrorAfter(tokens))
                return *syntax;
            return status;
        }
    }
    return Status::success();
}

std::optional<Diagnostic> ScriptExecutor::syntaxErrorAfter(ScriptTokens& tokens) {
    for (;;) {
        Token first = tokens.beginStatement();
        if (first.kind == TokenKind::End)
            return std::nullopt;
        const LexStart start{first.offset, first.line, first.column};
        if (first.isKeyword("INSERT")) {
            auto literal = literalInsert(tokens, false);
            if (literal && literal.value())
                continue;
        }
        ParsedScript script = Parser(m_text, m_file, start, tokens.finishStatement()).parseScript();
        if (!script.diagnostics.empty())
            return script.diagnostics.front();
    }
}

Result<bool> ScriptExecutor::literalInsert(ScriptTokens& tokens, bool execute) {
    Token t = tokens.take();
    if (!t.isKeyword("INTO"))
        return false;
    t = tokens.take();
    if (t.isKeyword("TABLE"))
        t = tokens.take();
    Name name;
    if (!isName(t))
        return false;
    name.parts.push_back(std::move(t.text));
    t = tokens.take();
    while (t.isSymbol(".")) {
        t = tokens.take();
        if (t.kind != TokenKind::Identifier && t.kind != TokenKind::QuotedIdentifier)
            return false;
        name.parts.push_back(std::move(t.text));
        t = tokens.take();
    }
    std::vector<std::string> named;
    if (t.isSymbol("(")) {
        do {
            t = tokens.take();
            if (!isName(t))
                return false;
            named.push_back(std::move(t.text));
            t = tokens.take();
        } while (t.isSymbol(","));
        if (!t.isSymbol(")"))
            return false;
        t = tokens.take();
    }
    if (!t.isKeyword("VALUES"))
        return false;

    // The target and the cast of each value to its column's type, as spark_store_cast does it.
    std::vector<const ColumnInfo*> columns;
    std::optional<storage::Statement> insert;
    std::optional<storage::Transaction> rows;
    TableInfo table;
    if (execute) {
        auto found = Catalog::find(m_db, name.joined());
        if (!found || !found.value() || found.value()->kind != TableKind::Source)
            return false; // the general path reports it
        table = *found.value();
        if (named.empty())
            for (const auto& c : table.columns)
                columns.push_back(&c);
        for (const auto& n : named) {
            const int index = table.columnIndex(n);
            if (index < 0)
                return false;
            columns.push_back(&table.columns[static_cast<std::size_t>(index)]);
        }
        std::string sql = "INSERT INTO " + quoteIdentifier(table.sqliteName) + " (";
        std::string params;
        for (std::size_t i = 0; i < columns.size(); ++i) {
            sql += (i ? ", " : "") + quoteIdentifier(columns[i]->name);
            params += i ? ", ?" : "?";
        }
        auto st = m_db.prepare(sql + ") VALUES (" + params + ")");
        if (!st)
            return false;
        insert.emplace(std::move(st).value());
        // Undone as a whole when a later row turns out not to be a plain literal.
        auto savepoint = storage::Transaction::begin(m_db, "cdc_literal_rows");
        if (!savepoint)
            return savepoint.error();
        rows.emplace(std::move(savepoint).value());
    }
    auto giveUp = [&] {
        if (rows)
            rows->rollback();
        return false;
    };
    std::size_t width = 0; // every row as wide as the first (the parser's rule)
    // The row's cast values, bound without a copy until the row is written.
    std::vector<Value> row(columns.size());
    for (;;) {
        t = tokens.take();
        if (!t.isSymbol("("))
            return giveUp();
        std::size_t column = 0;
        do {
            t = tokens.take();
            auto value = literalValue(t, tokens);
            if (!value || (execute && column >= columns.size()))
                return giveUp();
            if (execute) {
                if (columns[column]->type.kind == DataType::Kind::String &&
                    std::holds_alternative<std::string>(*value)) {
                    row[column] = std::move(*value); // castValue's identity, without its copy
                } else {
                    CastResult cast = castValue(*value, columns[column]->type, true);
                    const auto* d = std::get_if<double>(&cast.value);
                    if (!cast.ok() || (d && std::isnan(*d)))
                        return giveUp(); // the general path names the row and the column
                    row[column] = std::move(cast.value);
                }
                insert->bindStatic(static_cast<int>(column) + 1, row[column]);
            }
            ++column;
            t = tokens.take();
        } while (t.isSymbol(","));
        if (!t.isSymbol(")") || (execute && column != columns.size()) || (width && column != width))
            return giveUp();
        width = column;
        if (execute) {
            if (auto status = insert->run(); !status)
                return giveUp();
            insert->reset();
        }
        t = tokens.take();
        if (t.isSymbol(","))
            continue;
        if (!tokens.ended() || t.kind == TokenKind::Error)
            return giveUp();
        if (rows)
            CDC_TRY(rows->commit());
        return true;
    }
}

Status ScriptExecutor::execute(const Statement& st) {
    if (const char* name = pipelineStatementName(st.body))
        return Diagnostic::error("PIPELINE_STATEMENT",
                                 std::string(name) +
                                     " belongs in the pipeline definition, not in a source script",
                                 st.span.location);
    if (std::holds_alternative<CreateSchemaStmt>(st.body))
        return Status::success(); // schemas are only name prefixes here
    if (auto* s = std::get_if<CreateTableStmt>(&st.body))
        return createTable(*s, st.span);
    if (auto* s = std::get_if<InsertStmt>(&st.body))
        return insert(*s, st.span);
    if (auto* s = std::get_if<UpdateStmt>(&st.body))
        return update(*s, st.span);
    if (auto* s = std::get_if<DeleteStmt>(&st.body))
        return remove(*s, st.span);
    if (auto* s = std::get_if<TruncateStmt>(&st.body))
        return truncate(*s, st.span);
    if (auto* s = std::get_if<DropTableStmt>(&st.body))
        return drop(*s, st.span);
    if (auto* s = std::get_if<QueryStmt>(&st.body)) {
        // A query in a script is checked and run for its errors; its rows go nowhere.
        auto translated = Translator::translateQuery(s->query);
        if (!translated)
            return translated.error();
        auto bound = bind(translated->sql, translated->relations);
        if (!bound)
            return bound.error();
        auto stmt = m_db.prepare(bound.value());
        if (!stmt)
            return at(stmt.error(), st.span);
        if (auto r = stmt->run(); !r)
            return at(r.error(), st.span);
        return Status::success();
    }
    return Diagnostic::error("UNSUPPORTED", "statement not supported in a source script", st.span.location);
}

Result<std::string> ScriptExecutor::bind(const std::string& sql,
                                         const std::vector<pipeline::RelationRef>& relations) {
    TranslatedQuery q;
    q.sql = sql;
    q.relations = relations;
    return QueryRunner::bindToCatalog(m_db, q);
}

Result<TableInfo> ScriptExecutor::resolveSource(const Name& name) {
    auto found = Catalog::find(m_db, name.joined());
    if (!found) {
        Diagnostic d = found.error();
        d.location = name.span.location;
        return d;
    }
    if (!found.value())
        return Diagnostic::error("TABLE_NOT_FOUND", "table or view not found: " + name.joined(),
                                 name.span.location);
    if (found.value()->kind != TableKind::Source)
        return Diagnostic::error("NOT_A_SOURCE",
                                 found.value()->name + " is a pipeline " +
                                     storage::tableKindName(found.value()->kind) +
                                     "; only source tables can be changed here",
                                 name.span.location);
    return *found.value();
}

Status ScriptExecutor::recordChange(const TableInfo& table, const std::string& fromWhere, const char* kind) {
    auto min = m_db.prepare("SELECT min(rowid) FROM " + fromWhere);
    if (!min)
        return min.error();
    auto has = min->step();
    if (!has)
        return has.error();
    if (!has.value() || min->isNull(0))
        return Status::success();
    std::int64_t minRowid = min->int64(0);
    CDC_TRY(
        m_db.exec("CREATE TABLE IF NOT EXISTS __cdc_source_changes(seq INTEGER PRIMARY KEY, table_name TEXT, "
                  "min_rowid INTEGER, kind TEXT)"));
    auto ins =
        m_db.prepare("INSERT INTO __cdc_source_changes(table_name, min_rowid, kind) VALUES (?1, ?2, ?3)");
    if (!ins)
        return ins.error();
    ins->bind(1, std::string_view(table.name)).bind(2, minRowid).bind(3, kind);
    return ins->run();
}

Status ScriptExecutor::createTable(const CreateTableStmt& s, const Span& where) {
    std::string name = s.name.joined();
    auto existing = Catalog::find(m_db, name);
    if (!existing)
        return at(existing.error(), where);
    if (existing.value() && equalsIgnoreCase(existing.value()->name, name)) {
        if (s.ifNotExists)
            return Status::success();
        if (!s.orReplace)
            return Diagnostic::error("TABLE_EXISTS", "table already exists: " + name, s.name.span.location);
        if (existing.value()->kind != TableKind::Source)
            return Diagnostic::error("NOT_A_SOURCE",
                                     name + " is a pipeline dataset and cannot be replaced here",
                                     s.name.span.location);
        CDC_TRY(recordChange(*existing.value(), quoteIdentifier(existing.value()->sqliteName), "REPLACE"));
        CDC_TRY(exec("DROP TABLE IF EXISTS " + quoteIdentifier(existing.value()->sqliteName), where));
        CDC_TRY(Catalog::remove(m_db, existing.value()->name));
    }

    TableInfo table;
    table.name = name;
    table.sqliteName = Catalog::sqliteNameFor(name);
    table.kind = TableKind::Source;
    for (const auto& p : s.properties)
        table.properties[p.key] = p.value;

    std::string boundQuery;
    std::size_t queryColumns = 0;
    if (s.asQuery) {
        auto translated = Translator::translateQuery(*s.asQuery);
        if (!translated)
            return translated.error();
        auto bound = bind(translated->sql, translated->relations);
        if (!bound)
            return bound.error();
        boundQuery = bound.value();
        auto stmt = m_db.prepare(boundQuery);
        if (!stmt)
            return at(stmt.error(), where);
        queryColumns = static_cast<std::size_t>(stmt->columnCount());
        // Types: declared, else inferred from the query, else from the catalog column it copies,
        // else from the first non-NULL value.
        TypeInference inference(
            [this](const std::string& n) { return QueryRunner::catalogColumns(m_db, n); });
        auto inferred = inference.queryColumns(*s.asQuery);
        auto origins = QueryRunner::originTypes(m_db, *stmt);
        std::vector<std::optional<DataType>> types(queryColumns);
        for (std::size_t i = 0; i < queryColumns; ++i) {
            if (inferred && inferred->size() == queryColumns && (*inferred)[i].type)
                types[i] = (*inferred)[i].type;
            else if (origins[i])
                types[i] = origins[i];
        }
        auto scanned = stmt->forEachRow([&](const storage::Statement& row) {
            for (std::size_t i = 0; i < queryColumns; ++i) {
                if (types[i])
                    continue;
                switch (row.columnType(static_cast<int>(i))) {
                case 1:
                    types[i] = DataType::of(DataType::Kind::BigInt);
                    break; // SQLITE_INTEGER
                case 2:
                    types[i] = DataType::of(DataType::Kind::Double);
                    break; // SQLITE_FLOAT
                case 3:
                    types[i] = DataType::of(DataType::Kind::String);
                    break; // SQLITE_TEXT
                case 4:
                    types[i] = DataType::of(DataType::Kind::Binary);
                    break; // SQLITE_BLOB
                default:
                    break;
                }
            }
        });
        if (!scanned)
            return at(scanned.error(), where);
        if (!s.columns.empty() && s.columns.size() != queryColumns)
            return Diagnostic::error("COLUMN_COUNT",
                                     "the table declares " + std::to_string(s.columns.size()) +
                                         " columns but the query returns " + std::to_string(queryColumns),
                                     where.location);
        for (std::size_t i = 0; i < queryColumns; ++i) {
            DataType t = types[i].value_or(DataType::of(DataType::Kind::String));
            if (t.kind == DataType::Kind::Void)
                t = DataType::of(DataType::Kind::String);
            std::string colName =
                s.columns.empty() ? stmt->columnName(static_cast<int>(i)) : s.columns[i].name.name;
            if (!s.columns.empty())
                t = *DataType::parse(s.columns[i].type);
            table.columns.push_back({colName, t});
        }
    } else {
        for (const auto& c : s.columns)
            table.columns.push_back({c.name.name, *DataType::parse(c.type)});
    }

    std::set<std::string> seen;
    for (const auto& c : table.columns)
        if (!seen.insert(toLower(c.name)).second)
            return Diagnostic::error("DUPLICATE_COLUMN", "duplicate column name: " + c.name, where.location);

    std::string ddl = "CREATE TABLE " + quoteIdentifier(table.sqliteName) + " (";
    for (std::size_t i = 0; i < table.columns.size(); ++i) {
        std::string affinity = table.columns[i].type.sqliteAffinity();
        ddl += (i ? ", " : "") + quoteIdentifier(table.columns[i].name) +
               (affinity.empty() ? "" : " " + affinity);
    }
    CDC_TRY(exec(ddl + ")", where));
    CDC_TRY(Catalog::put(m_db, table));
    if (s.asQuery) {
        std::vector<std::string> cols;
        for (const auto& c : table.columns)
            cols.push_back(c.name);
        CDC_TRY(insertRows(table, cols, boundQuery, queryColumns, where));
    }
    return Status::success();
}

Status ScriptExecutor::insertRows(const TableInfo& table, const std::vector<std::string>& columns,
                                  const std::string& boundQuery, std::size_t queryColumns,
                                  const Span& where) {
    if (queryColumns != columns.size())
        return Diagnostic::error("COLUMN_COUNT",
                                 "cannot write to " + table.name + ": the query returns " +
                                     std::to_string(queryColumns) + " columns but " +
                                     std::to_string(columns.size()) + " are expected",
                                 where.location);
    // Positional names for the query's columns, whatever it calls them.
    std::vector<std::string> positional;
    for (std::size_t i = 0; i < queryColumns; ++i)
        positional.push_back("__c" + std::to_string(i + 1));
    std::string sql = "WITH \"__src\"(" + columnList(positional) + ") AS (" + boundQuery + ") INSERT INTO " +
                      quoteIdentifier(table.sqliteName) + " (" + columnList(columns) + ") SELECT ";
    // ANSI store assignment: a value that does not convert fails the statement with its row and column
    // instead of becoming NULL (SparkCast.h).
    for (std::size_t i = 0; i < columns.size(); ++i) {
        const ColumnInfo& column = table.columns[static_cast<std::size_t>(table.columnIndex(columns[i]))];
        sql += (i ? ", " : "") + std::string("spark_store_cast(") + quoteIdentifier(positional[i]) + ", " +
               quoteString(column.type.toString()) + ", " + quoteString(column.name) + ", \"__row\")";
    }
    return exec(sql + " FROM (SELECT *, row_number() OVER () AS \"__row\" FROM \"__src\")", where);
}

Status ScriptExecutor::insert(const InsertStmt& s, const Span& where) {
    auto table = resolveSource(s.table);
    if (!table)
        return table.error();
    auto translated = Translator::translateQuery(s.query);
    if (!translated)
        return translated.error();
    auto bound = bind(translated->sql, translated->relations);
    if (!bound)
        return bound.error();
    auto stmt = m_db.prepare(bound.value());
    if (!stmt)
        return at(stmt.error(), where);
    std::size_t queryColumns = static_cast<std::size_t>(stmt->columnCount());
    std::vector<std::string> columns;
    if (s.byName) {
        for (std::size_t i = 0; i < queryColumns; ++i) {
            std::string n = stmt->columnName(static_cast<int>(i));
            int index = table->columnIndex(n);
            if (index < 0)
                return Diagnostic::error("COLUMN_NOT_FOUND",
                                         "column " + n + " does not exist in " + table->name, where.location);
            columns.push_back(table->columns[static_cast<std::size_t>(index)].name);
        }
    } else if (!s.columns.empty()) {
        for (const auto& c : s.columns) {
            int index = table->columnIndex(c.name);
            if (index < 0)
                return Diagnostic::error("COLUMN_NOT_FOUND",
                                         "column " + c.name + " does not exist in " + table->name,
                                         c.span.location);
            columns.push_back(table->columns[static_cast<std::size_t>(index)].name);
        }
    } else {
        for (const auto& c : table->columns)
            columns.push_back(c.name);
    }
    if (s.overwrite) {
        // The query may read the table it overwrites: materialise it first.
        CDC_TRY(exec("CREATE TEMP TABLE \"__cdc_overwrite\" AS " + bound.value(), where));
        CDC_TRY(recordChange(*table, quoteIdentifier(table->sqliteName), "TRUNCATE"));
        CDC_TRY(exec("DELETE FROM " + quoteIdentifier(table->sqliteName), where));
        Status st =
            insertRows(*table, columns, "SELECT * FROM temp.\"__cdc_overwrite\"", queryColumns, where);
        CDC_TRY(exec("DROP TABLE temp.\"__cdc_overwrite\"", where));
        return st;
    }
    return insertRows(*table, columns, bound.value(), queryColumns, where);
}

Status ScriptExecutor::update(const UpdateStmt& s, const Span& where) {
    auto table = resolveSource(s.table);
    if (!table)
        return table.error();
    Translator tr;
    std::string target =
        quoteIdentifier(table->sqliteName) + (s.alias.empty() ? "" : " AS " + quoteIdentifier(s.alias));
    std::string sets;
    for (const auto& a : s.assignments) {
        int index = table->columnIndex(a.column.name);
        if (index < 0)
            return Diagnostic::error("COLUMN_NOT_FOUND",
                                     "column " + a.column.name + " does not exist in " + table->name,
                                     a.column.span.location);
        const ColumnInfo& col = table->columns[static_cast<std::size_t>(index)];
        // As INSERT (ANSI store assignment); the row a failure names is the table row's position (rowid).
        sets += (sets.empty() ? "" : ", ") + quoteIdentifier(col.name) + " = spark_store_cast(" +
                tr.expr(a.value) + ", " + quoteString(col.type.toString()) + ", " + quoteString(col.name) +
                ", rowid)";
    }
    std::string cond = s.where ? " WHERE " + tr.expr(*s.where) : "";
    if (tr.error())
        return *tr.error();
    CDC_TRY(checkQuotedNames(sets + cond, where.location));
    auto boundSets = bind(sets, tr.relations());
    auto boundCond = bind(cond, tr.relations());
    if (!boundSets)
        return boundSets.error();
    if (!boundCond)
        return boundCond.error();
    CDC_TRY(recordChange(*table, target + boundCond.value(), "UPDATE"));
    return exec("UPDATE " + target + " SET " + boundSets.value() + boundCond.value(), where);
}

Status ScriptExecutor::remove(const DeleteStmt& s, const Span& where) {
    auto table = resolveSource(s.table);
    if (!table)
        return table.error();
    Translator tr;
    std::string target =
        quoteIdentifier(table->sqliteName) + (s.alias.empty() ? "" : " AS " + quoteIdentifier(s.alias));
    std::string cond = s.where ? " WHERE " + tr.expr(*s.where) : "";
    if (tr.error())
        return *tr.error();
    CDC_TRY(checkQuotedNames(cond, where.location));
    auto boundCond = bind(cond, tr.relations());
    if (!boundCond)
        return boundCond.error();
    CDC_TRY(recordChange(*table, target + boundCond.value(), "DELETE"));
    return exec("DELETE FROM " + target + boundCond.value(), where);
}

Status ScriptExecutor::truncate(const TruncateStmt& s, const Span& where) {
    auto table = resolveSource(s.table);
    if (!table)
        return table.error();
    CDC_TRY(recordChange(*table, quoteIdentifier(table->sqliteName), "TRUNCATE"));
    return exec("DELETE FROM " + quoteIdentifier(table->sqliteName), where);
}

Status ScriptExecutor::drop(const DropTableStmt& s, const Span& where) {
    auto found = Catalog::find(m_db, s.table.joined());
    if (!found)
        return at(found.error(), where);
    if (!found.value()) {
        if (s.ifExists)
            return Status::success();
        return Diagnostic::error("TABLE_NOT_FOUND", "table or view not found: " + s.table.joined(),
                                 s.table.span.location);
    }
    if (found.value()->kind != TableKind::Source)
        return Diagnostic::error("NOT_A_SOURCE",
                                 found.value()->name + " is a pipeline dataset and cannot be dropped here",
                                 s.table.span.location);
    CDC_TRY(exec("DROP TABLE IF EXISTS " + quoteIdentifier(found.value()->sqliteName), where));
    return Catalog::remove(m_db, found.value()->name);
}

Result<std::vector<std::string>> sourceScriptWrites(std::string_view text, const std::string& file) {
    ParsedScript script = Parser(text, file).parseScript();
    if (!script.diagnostics.empty())
        return script.diagnostics.front();
    std::vector<std::string> written;
    std::set<std::string> seen;
    for (const auto& st : script.statements) {
        const Name* table = nullptr;
        if (auto* s = std::get_if<InsertStmt>(&st.body))
            table = &s->table;
        else if (auto* s = std::get_if<UpdateStmt>(&st.body))
            table = &s->table;
        else if (auto* s = std::get_if<DeleteStmt>(&st.body))
            table = &s->table;
        else if (auto* s = std::get_if<TruncateStmt>(&st.body))
            table = &s->table;
        else if (std::holds_alternative<CreateSchemaStmt>(st.body))
            continue; // schemas are only name prefixes here: nothing to take back
        if (!table)
            return Diagnostic::error("STEP_CHANGES_TABLES",
                                     "a queued step only writes rows (INSERT, UPDATE, DELETE, TRUNCATE); "
                                     "run statements that create or drop tables with Execute",
                                     st.span.location);
        if (seen.insert(toLower(table->joined())).second)
            written.push_back(table->joined());
    }
    return written;
}

Status executeSourceScript(storage::Database& db, std::string_view text, const std::string& file) {
    installSparkFunctions();
    db.runNewConnectionSetups(); // a connection opened before the install gets them now
    return ScriptExecutor(db, file).run(text);
}

} // namespace cdc::sql
