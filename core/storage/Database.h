#pragma once
/// RAII over the sqlite3 C API: Database owns a connection, Statement a prepared statement,
/// Transaction a savepoint that rolls back unless committed.

#include "core/common/Diagnostic.h"
#include "core/common/Value.h"
#include "core/common/VolumeRoot.h"

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

struct sqlite3;
struct sqlite3_stmt;

namespace cdc::storage {

class QueryGuard;
class Statement;
class StatementCache;

/// Something every connection needs before it is used that storage itself must not know about: a layer
/// above registers it (core/sql: the `spark_*` functions its translated SQL calls).
using ConnectionSetup = void (*)(sqlite3* db);

class Database {
public:
    enum class Mode { ReadWriteCreate, ReadWrite, ReadOnly, Memory };

    /// Opens (or creates) a database file with the engine's connection settings:
    /// extension loading off, foreign keys on, a busy timeout; then runs every ConnectionSetup added.
    static Result<Database> open(const std::string& path, Mode mode = Mode::ReadWriteCreate);
    static Result<Database> openMemory() { return open(":memory:", Mode::Memory); }

    /// Makes open() run `setup` on every connection it opens from now on (for the whole process; adding
    /// the same function again changes nothing; thread-safe). A program adds its set-ups before it opens
    /// its first database (sql::installSparkFunctions); runNewConnectionSetups() catches up the others.
    static void addConnectionSetup(ConnectionSetup setup);
    /// Runs on this connection the set-ups added since it was opened, if any (one atomic read otherwise).
    /// The entry points that run the upper layers' SQL call it (sql::runQuery, engine::runUpdate ...), so
    /// a connection opened before a set-up was added (the GUI opens its project before it parses the
    /// pipeline) still gets it before that SQL runs.
    void runNewConnectionSetups();

    Database(Database&&) noexcept;
    Database& operator=(Database&&) noexcept;
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;
    ~Database();

    sqlite3* handle() const { return m_db; }
    const std::string& path() const { return m_path; }

    /// Where `/Volumes/...` paths lead for the SQL run on this connection (read_files, list_files): the
    /// root set with setVolumes, else the folder that holds the database file (none in memory).
    VolumeRoot volumes() const;
    /// The volumes root (`--volumes DIR`, the app's project folder or setting); an empty VolumeRoot means
    /// none (an unsaved project), nullopt the default.
    void setVolumes(std::optional<VolumeRoot> root) { m_volumes = std::move(root); }

    /// Runs one or more statements that return no rows.
    Status exec(std::string_view sql);
    /// Prepares the first statement of `sql`. Statements are kept for reuse when released: preparing the
    /// same text again (the engine prepares the same few dozen per update) takes a reset one instead of
    /// parsing it again, which was most of a small update's time.
    Result<Statement> prepare(std::string_view sql) const;

    std::int64_t lastInsertRowid() const;
    int changes() const;
    bool tableExists(std::string_view name) const;
    /// Whether every one of these tables exists (one cached query: schema set-up code asks on every update).
    bool tablesExist(std::initializer_list<std::string_view> names) const;
    bool inTransaction() const;

    /// Copies the WAL's committed frames into the database file as far as no reader needs them (a PASSIVE
    /// checkpoint: it waits for no one); nothing outside WAL mode, nor while another connection checkpoints.
    Status checkpoint();

    /// A Diagnostic for the connection's last error, prefixed with what was being done.
    Diagnostic lastError(std::string_view context = {}) const;

private:
    friend class QueryGuard;
    Database(sqlite3* db, std::string path);
    void close();
    /// The first statement of `sql` (none when it holds only whitespace or comments), kept or newly
    /// prepared; `rest` receives the text after it.
    Result<std::optional<Statement>> prepareFirst(std::string_view sql, std::string_view& rest) const;
    sqlite3* m_db = nullptr;
    std::string m_path;
    std::optional<VolumeRoot> m_volumes;
    std::size_t m_setupsRun = 0; ///< how many of the process's connection set-ups this connection has run
    /// Shared with the statements it handed out, so that one released after its Database closed still
    /// has somewhere to go (the cache finalizes what it holds when the last owner lets go).
    std::shared_ptr<StatementCache> m_cache;
    QueryGuard* m_guard = nullptr; ///< the innermost QueryGuard watching this connection's SQL, if any
};

class Statement {
public:
    Statement(Statement&&) noexcept;
    Statement& operator=(Statement&&) noexcept;
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;
    ~Statement();

    /// Binds by 1-based index.
    Statement& bind(int index, const Value& value);
    Statement& bindNull(int index);
    Statement& bind(int index, std::int64_t value);
    Statement& bind(int index, int value) { return bind(index, static_cast<std::int64_t>(value)); }
    Statement& bind(int index, double value);
    Statement& bind(int index, std::string_view text);
    /// Binds without copying text or blob bytes: the value must stay alive and unchanged until the
    /// statement is reset or re-bound (the engine's prepared writes bind rows it holds, a copy per value
    /// was a tenth of an update's instructions).
    Statement& bindStatic(int index, const Value& value);
    Statement& bind(int index, const char* text) { return bind(index, std::string_view(text)); }
    int parameterIndex(const char* name) const;
    int parameterCount() const;

    /// Advances: true when a row is available, false when done, an error otherwise.
    Result<bool> step();
    /// Steps to completion, ignoring rows.
    Status run();
    /// Steps through every row, calling onRow(*this) for each; stops at the first SQLite error, or early
    /// (successfully) when an onRow that returns bool returns false.
    template <class OnRow> Status forEachRow(OnRow&& onRow) {
        for (;;) {
            auto has = step();
            if (!has)
                return has.error();
            if (!has.value())
                return Status::success();
            if constexpr (std::is_same_v<std::invoke_result_t<OnRow&, Statement&>, bool>) {
                if (!onRow(*this))
                    return Status::success();
            } else {
                onRow(*this);
            }
        }
    }
    void reset();
    void clearBindings();

    int columnCount() const;
    std::string columnName(int column) const;
    /// SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT, SQLITE_BLOB or SQLITE_NULL for the current row.
    int columnType(int column) const;
    bool isNull(int column) const;
    std::int64_t int64(int column) const;
    double real(int column) const;
    std::string text(int column) const;
    Value value(int column) const;
    Row row() const;
    bool readOnly() const;
    std::string sql() const;

    sqlite3_stmt* handle() const { return m_stmt; }

private:
    friend class Database;
    Statement(sqlite3_stmt* stmt, sqlite3* db, std::shared_ptr<StatementCache> cache,
              std::int64_t schemaVersion)
        : m_stmt(stmt), m_db(db), m_cache(std::move(cache)), m_schemaVersion(schemaVersion) {}
    void release();
    sqlite3_stmt* m_stmt = nullptr;
    sqlite3* m_db = nullptr;
    std::shared_ptr<StatementCache> m_cache;
    std::int64_t m_schemaVersion = -1; ///< the schema the statement was prepared against (the cache's stamp)
};

/// A savepoint: commit() releases it, destruction without commit rolls it back. Nests freely.
class Transaction {
public:
    static Result<Transaction> begin(Database& db, std::string name = "cdc_tx");
    Transaction(Transaction&&) noexcept;
    Transaction& operator=(Transaction&&) = delete;
    Transaction(const Transaction&) = delete;
    ~Transaction();

    Status commit();
    void rollback();

private:
    Transaction(Database& db, std::string name, bool outermost)
        : m_db(&db), m_name(std::move(name)), m_outermost(outermost) {}
    Database* m_db;
    std::string m_name;
    bool m_outermost; ///< began the database's transaction (no other savepoint or transaction was open)
    bool m_open = true;
};

/// `"name"` with embedded quotes doubled: safe for any identifier.
std::string quoteIdentifier(std::string_view name);
/// `'text'` with embedded quotes doubled.
std::string quoteString(std::string_view text);

} // namespace cdc::storage
