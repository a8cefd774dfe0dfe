#include "core/storage/Database.h"

#include "core/storage/CoalescingWalVfs.h"
#include "core/storage/MemoryFolder.h"
#include "core/storage/QueryGuard.h"
#include "core/storage/RowsTable.h"

#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace cdc::storage {

/// Idle prepared statements of one connection, by SQL text, each stamped with the schema version it was
/// prepared against. At most one per text (a second copy in use at the same time is finalized when
/// released) and at most kCapacity in all: texts with literals in them (a batch's rowid range) would
/// otherwise pile up.
///
/// SQLite re-prepares a statement whose schema changed only when it is stepped; a caller reading the
/// columns of a fresh statement first (SELECT * of a table another connection, or a restored undo
/// snapshot, has since rebuilt) would see the old ones. So a kept statement is handed out only while the
/// schema version is still its stamp and SQLite has not expired it.
class StatementCache {
public:
    static constexpr std::size_t kCapacity = 128;
    explicit StatementCache(sqlite3* db) : m_db(db) {}
    StatementCache(const StatementCache&) = delete;
    StatementCache& operator=(const StatementCache&) = delete;
    ~StatementCache() {
        clear();
        sqlite3_finalize(m_versionQuery);
        sqlite3_finalize(m_schemaRead);
    }

    /// The schema version now, or -1 when it cannot be read (nothing is then reused). When it moved since
    /// the last call the connection also reloads its copy of the schema: sqlite3_prepare compiles against
    /// that copy and checks it only when a name does not resolve, so a statement prepared after another
    /// connection rebuilt a table would show the old columns until stepped.
    std::int64_t schemaVersion() {
        const std::int64_t version = stepOnce(m_versionQuery, "PRAGMA schema_version");
        if (version != m_seenVersion) {
            stepOnce(m_schemaRead, "SELECT count(*) FROM sqlite_schema"); // verifies (and reloads) the schema
            m_seenVersion = version;
        }
        return version;
    }

    /// A reset statement prepared from exactly `sql` against schema `version`, or nullptr.
    sqlite3_stmt* take(std::string_view sql, std::int64_t version) {
        auto it = m_idle.find(sql);
        if (it == m_idle.end())
            return nullptr;
        const Kept kept = it->second;
        m_idle.erase(it);
        if (version >= 0 && kept.version == version && !sqlite3_expired(kept.stmt))
            return kept.stmt;
        sqlite3_finalize(kept.stmt);
        return nullptr;
    }

    void give(sqlite3_stmt* stmt, std::int64_t version) {
        sqlite3_reset(stmt);
        sqlite3_clear_bindings(stmt);
        const char* text = sqlite3_sql(stmt);
        if (version < 0 || !text || m_idle.size() >= kCapacity ||
            !m_idle.emplace(text, Kept{stmt, version}).second)
            sqlite3_finalize(stmt);
    }

    void clear() {
        for (auto& [text, kept] : m_idle)
            sqlite3_finalize(kept.stmt);
        m_idle.clear();
    }

private:
    /// Runs a one-value query kept for this purpose; its value, or -1.
    std::int64_t stepOnce(sqlite3_stmt*& query, const char* sql) {
        if (!query &&
            sqlite3_prepare_v3(m_db, sql, -1, SQLITE_PREPARE_PERSISTENT, &query, nullptr) != SQLITE_OK)
            return -1;
        const std::int64_t value = sqlite3_step(query) == SQLITE_ROW ? sqlite3_column_int64(query, 0) : -1;
        sqlite3_reset(query);
        return value;
    }

    struct Kept {
        sqlite3_stmt* stmt;
        std::int64_t version;
    };
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    sqlite3* m_db;
    sqlite3_stmt* m_versionQuery = nullptr;
    sqlite3_stmt* m_schemaRead = nullptr;
    std::int64_t m_seenVersion = -2;
    std::unordered_map<std::string, Kept, Hash, std::equal_to<>> m_idle;
};

namespace {
Diagnostic sqliteError(sqlite3* db, std::string_view context) {
    std::string msg = db ? sqlite3_errmsg(db) : "out of memory";
    if (!context.empty())
        msg = std::string(context) + ": " + msg;
    if (db && (sqlite3_extended_errcode(db) & 0xff) == SQLITE_FULL) {
        // Say where, and what to do: a working copy in a RAM-backed folder (MemoryFolder.h) can fill it.
        const char* file = sqlite3_db_filename(db, "main");
        const std::string path = file && *file ? file : "";
        if (!path.empty() && isMemoryBacked(path))
            msg += ": the memory folder holding '" + path +
                   "' has no room left (nothing of the failed change was kept). Save the project and open it "
                   "again: its working copy then goes to disk when memory is short";
        else if (!path.empty())
            msg +=
                ": the disk holding '" + path + "' has no room left (nothing of the failed change was kept)";
        return Diagnostic::error("SQLITE_FULL", msg);
    }
    return Diagnostic::error("SQLITE", msg);
}

/// Whether the database file at `path` is (or, not created yet, would be) on a RAM-backed filesystem.
bool onRamBackedFilesystem(const std::string& path) {
    if (path.empty() || path == ":memory:")
        return false;
    if (isMemoryBacked(path)) // an existing file (statfs fails on a missing one)
        return true;
    const std::filesystem::path folder = std::filesystem::path(path).parent_path();
    return isMemoryBacked(folder.empty() ? std::string(".") : folder.string());
}

/// The process's connection set-ups, append-only, so that a connection remembers how many it has run.
/// Connections open on several threads (the GUI's updates run on a worker with their own), hence the
/// lock; `count` lets a connection see that it is up to date without taking it.
struct ConnectionSetups {
    std::mutex mutex;
    std::vector<ConnectionSetup> functions;
    std::atomic<std::size_t> count{0};
};

ConnectionSetups& connectionSetups() {
    static ConnectionSetups setups;
    return setups;
}

/// Runs set-ups [from, end) on `db`; returns the new end.
std::size_t runConnectionSetups(sqlite3* db, std::size_t from) {
    ConnectionSetups& setups = connectionSetups();
    std::vector<ConnectionSetup> pending;
    {
        std::lock_guard lock(setups.mutex);
        pending.assign(setups.functions.begin() + static_cast<std::ptrdiff_t>(from), setups.functions.end());
    }
    for (ConnectionSetup setup : pending)
        setup(db);
    return from + pending.size();
}
} // namespace

void Database::addConnectionSetup(ConnectionSetup setup) {
    ConnectionSetups& setups = connectionSetups();
    std::lock_guard lock(setups.mutex);
    if (std::find(setups.functions.begin(), setups.functions.end(), setup) != setups.functions.end())
        return;
    setups.functions.push_back(setup);
    setups.count.store(setups.functions.size(), std::memory_order_release);
}

void Database::runNewConnectionSetups() {
    if (m_db && m_setupsRun != connectionSetups().count.load(std::memory_order_acquire))
        m_setupsRun = runConnectionSetups(m_db, m_setupsRun);
}

Result<Database> Database::open(const std::string& path, Mode mode) {
    // SQLite counts every allocation under a global mutex for sqlite3_memory_used(), which nothing here
    // reads; off before the library initialises (a later call is refused and changes nothing).
    static const bool memoryStatusOff = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0) == SQLITE_OK;
    (void)memoryStatusOff;
    int flags = SQLITE_OPEN_NOMUTEX;
    switch (mode) {
    case Mode::ReadWriteCreate:
        flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
        break;
    case Mode::ReadWrite:
        flags |= SQLITE_OPEN_READWRITE;
        break;
    case Mode::ReadOnly:
        flags |= SQLITE_OPEN_READONLY;
        break;
    case Mode::Memory:
        flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_MEMORY;
        break;
    }
    // A database in a RAM-backed folder (the GUI's working copy) goes through the VFS that gathers WAL
    // writes until the commit's sync (CoalescingWalVfs.h); a sync costs nothing there.
    const bool ramBacked = mode != Mode::Memory && onRamBackedFilesystem(path);
    sqlite3* raw = nullptr;
    int rc = sqlite3_open_v2(path.c_str(), &raw, flags, ramBacked ? coalescingWalVfsName() : nullptr);
    Database db(raw, path);
    if (rc != SQLITE_OK)
        return sqliteError(raw, "cannot open '" + path + "'");
    sqlite3_extended_result_codes(raw, 1);
    // Untrusted projects must not be able to load code: keep extension loading off.
    sqlite3_db_config(raw, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
    sqlite3_db_config(raw, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
    sqlite3_db_config(raw, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
    sqlite3_busy_timeout(raw, 5000);
    registerRowsTableModule(raw); // read_files / list_files serve their rows through it
    // Identifiers are quoted with double quotes (quoteIdentifier, the SQL translator): SQLite's legacy
    // fallback would turn a misspelt one into a string literal and hide the error. Spark has none.
    sqlite3_db_config(raw, SQLITE_DBCONFIG_DQS_DML, 0, nullptr);
    sqlite3_db_config(raw, SQLITE_DBCONFIG_DQS_DDL, 0, nullptr);
    if (auto st = db.exec("PRAGMA foreign_keys = ON"); !st)
        return st.error();
    if (mode == Mode::ReadWriteCreate || mode == Mode::ReadWrite) {
        // Each dirty page written once (WAL) without an fsync per commit, and a page cache large enough
        // for the per-key indexes of a big target: without these an update's cost grows with the
        // history's size through page I/O alone (see docs/performance.md).
        // 2 KB pages for new files (a no-op on existing ones): an update touches keys spread all over the
        // per-key B-trees, one leaf page per key, so smaller pages mean fewer bytes written and checkpointed
        // per change. Measured on the 1M-event benchmark: SCD2 +27 % events/s, SCD1 +8 %
        // (docs/performance.md).
        if (auto st = db.exec("PRAGMA page_size = 2048"); !st)
            return st.error();
        // NORMAL skips the fsync per commit on disk; a RAM-backed file syncs at every commit (FULL), which
        // there costs a system call and is what writes its gathered WAL frames out before they are
        // published.
        if (auto st = db.exec(ramBacked ? "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; "
                                          "PRAGMA cache_size = -65536"
                                        : "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; "
                                          "PRAGMA cache_size = -65536");
            !st)
            return st.error();
    }
    db.runNewConnectionSetups();
    return db;
}

Database::Database(sqlite3* db, std::string path)
    : m_db(db), m_path(std::move(path)), m_cache(db ? std::make_shared<StatementCache>(db) : nullptr) {}

Database::Database(Database&& other) noexcept
    : m_db(std::exchange(other.m_db, nullptr)), m_path(std::move(other.m_path)),
      m_volumes(std::move(other.m_volumes)), m_setupsRun(std::exchange(other.m_setupsRun, 0)),
      m_cache(std::move(other.m_cache)), m_guard(std::exchange(other.m_guard, nullptr)) {}

Database& Database::operator=(Database&& other) noexcept {
    if (this != &other) {
        close();
        m_db = std::exchange(other.m_db, nullptr);
        m_path = std::move(other.m_path);
        m_volumes = std::move(other.m_volumes);
        m_setupsRun = std::exchange(other.m_setupsRun, 0);
        m_cache = std::move(other.m_cache);
        m_guard = std::exchange(other.m_guard, nullptr);
    }
    return *this;
}

Database::~Database() {
    close();
}

VolumeRoot Database::volumes() const {
    if (m_volumes)
        return *m_volumes;
    if (m_path.empty() || m_path == ":memory:")
        return VolumeRoot();
    std::error_code ec;
    return VolumeRoot(std::filesystem::absolute(std::filesystem::path(m_path), ec).parent_path());
}

void Database::close() {
    // The idle statements go first; statements still in use keep the connection open (close_v2) until
    // they are released.
    if (m_cache)
        m_cache->clear();
    m_cache.reset();
    if (m_db)
        sqlite3_close_v2(m_db);
    m_db = nullptr;
}

Result<std::optional<Statement>> Database::prepareFirst(std::string_view sql, std::string_view& rest) const {
    const std::int64_t version = m_cache ? m_cache->schemaVersion() : -1;
    if (sqlite3_stmt* cached = m_cache ? m_cache->take(sql, version) : nullptr) {
        rest = {}; // kept under its whole text: nothing follows it
        return std::optional<Statement>(Statement(cached, m_db, m_cache, version));
    }
    sqlite3_stmt* stmt = nullptr;
    const char* tail = nullptr;
    if (sqlite3_prepare_v3(m_db, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &stmt,
                           &tail) != SQLITE_OK)
        return sqliteError(m_db, {});
    rest = tail ? sql.substr(static_cast<std::size_t>(tail - sql.data())) : std::string_view();
    if (!stmt) // only whitespace or a comment
        return std::optional<Statement>();
    // A statement that changes the schema (DDL) is stamped with the version before it: SQLite expires it
    // and the stamp no longer matches, so it is never handed out again.
    return std::optional<Statement>(Statement(stmt, m_db, m_cache, version));
}

Status Database::exec(std::string_view sql) {
    // Statement by statement, like sqlite3_exec, each prepared only when the previous one has run (it may
    // create what the next uses). A text that is one statement run before (a savepoint, a pragma) comes
    // from the cache.
    for (std::string_view rest = sql; !rest.empty();) {
        auto st = prepareFirst(rest, rest);
        if (!st)
            return st.error();
        if (st.value())
            CDC_TRY(st.value()->run());
    }
    return Status::success();
}

Result<Statement> Database::prepare(std::string_view sql) const {
    std::string_view rest;
    auto st = prepareFirst(sql, rest);
    if (!st)
        return st.error();
    if (!st.value())
        return Diagnostic::error("SQLITE", "empty statement");
    return std::move(*st.value());
}

Status Database::checkpoint() {
    // BUSY: another connection is checkpointing right now, which copies the same frames.
    const int rc = sqlite3_wal_checkpoint_v2(m_db, nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
    if (rc != SQLITE_OK && (rc & 0xff) != SQLITE_BUSY)
        return lastError("checkpoint");
    return Status::success();
}

std::int64_t Database::lastInsertRowid() const {
    return sqlite3_last_insert_rowid(m_db);
}
int Database::changes() const {
    return sqlite3_changes(m_db);
}
bool Database::inTransaction() const {
    return sqlite3_get_autocommit(m_db) == 0;
}

bool Database::tableExists(std::string_view name) const {
    auto st = prepare("SELECT 1 FROM sqlite_schema WHERE name = ?1 COLLATE NOCASE");
    if (!st)
        return false;
    st->bind(1, name);
    auto has = st->step();
    return has.ok() && has.value();
}

bool Database::tablesExist(std::initializer_list<std::string_view> names) const {
    std::string sql = "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name IN (";
    for (std::size_t i = 0; i < names.size(); ++i)
        sql += i ? ", ?" : "?";
    auto st = prepare(sql + ")");
    if (!st)
        return false;
    int at = 0;
    for (std::string_view name : names)
        st->bind(++at, name);
    auto has = st->step();
    return has.ok() && has.value() && st->int64(0) == static_cast<std::int64_t>(names.size());
}

Diagnostic Database::lastError(std::string_view context) const {
    return sqliteError(m_db, context);
}

// --- Statement ---------------------------------------------------------------------------------------

Statement::Statement(Statement&& other) noexcept
    : m_stmt(std::exchange(other.m_stmt, nullptr)), m_db(other.m_db), m_cache(std::move(other.m_cache)),
      m_schemaVersion(other.m_schemaVersion) {}

Statement& Statement::operator=(Statement&& other) noexcept {
    if (this != &other) {
        release();
        m_stmt = std::exchange(other.m_stmt, nullptr);
        m_db = other.m_db;
        m_cache = std::move(other.m_cache);
        m_schemaVersion = other.m_schemaVersion;
    }
    return *this;
}

Statement::~Statement() {
    release();
}

void Statement::release() {
    if (m_stmt) {
        if (m_cache)
            m_cache->give(m_stmt, m_schemaVersion);
        else
            sqlite3_finalize(m_stmt);
    }
    m_stmt = nullptr;
    m_cache.reset();
}

Statement& Statement::bind(int index, const Value& value) {
    struct Binder {
        Statement& s;
        int i;
        void operator()(std::monostate) const { s.bindNull(i); }
        void operator()(std::int64_t v) const { s.bind(i, v); }
        void operator()(double v) const { s.bind(i, v); }
        void operator()(const std::string& v) const { s.bind(i, std::string_view(v)); }
        void operator()(const Blob& b) const {
            sqlite3_bind_blob64(s.m_stmt, i, b.bytes.data(), b.bytes.size(), SQLITE_TRANSIENT);
        }
    };
    std::visit(Binder{*this, index}, value);
    return *this;
}

Statement& Statement::bindStatic(int index, const Value& value) {
    if (const auto* text = std::get_if<std::string>(&value))
        sqlite3_bind_text64(m_stmt, index, text->data(), text->size(), SQLITE_STATIC, SQLITE_UTF8);
    else if (const auto* blob = std::get_if<Blob>(&value))
        sqlite3_bind_blob64(m_stmt, index, blob->bytes.data(), blob->bytes.size(), SQLITE_STATIC);
    else
        bind(index, value);
    return *this;
}

Statement& Statement::bindNull(int index) {
    sqlite3_bind_null(m_stmt, index);
    return *this;
}
Statement& Statement::bind(int index, std::int64_t value) {
    sqlite3_bind_int64(m_stmt, index, value);
    return *this;
}
Statement& Statement::bind(int index, double value) {
    sqlite3_bind_double(m_stmt, index, value);
    return *this;
}
Statement& Statement::bind(int index, std::string_view text) {
    // An empty view may have no data pointer, which SQLite would bind as NULL: text is text, even empty.
    sqlite3_bind_text64(m_stmt, index, text.data() ? text.data() : "", text.size(), SQLITE_TRANSIENT,
                        SQLITE_UTF8);
    return *this;
}

int Statement::parameterIndex(const char* name) const {
    return sqlite3_bind_parameter_index(m_stmt, name);
}
int Statement::parameterCount() const {
    return sqlite3_bind_parameter_count(m_stmt);
}

Result<bool> Statement::step() {
    int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE)
        return false;
    Diagnostic d = sqliteError(m_db, {});
    sqlite3_reset(m_stmt);
    return d;
}

Status Statement::run() {
    for (;;) {
        auto r = step();
        if (!r)
            return r.error();
        if (!r.value())
            return Status::success();
    }
}

void Statement::reset() {
    sqlite3_reset(m_stmt);
}
void Statement::clearBindings() {
    sqlite3_clear_bindings(m_stmt);
}
int Statement::columnCount() const {
    return sqlite3_column_count(m_stmt);
}
std::string Statement::columnName(int column) const {
    const char* n = sqlite3_column_name(m_stmt, column);
    return n ? n : "";
}
int Statement::columnType(int column) const {
    return sqlite3_column_type(m_stmt, column);
}
bool Statement::isNull(int column) const {
    return columnType(column) == SQLITE_NULL;
}
std::int64_t Statement::int64(int column) const {
    return sqlite3_column_int64(m_stmt, column);
}
double Statement::real(int column) const {
    return sqlite3_column_double(m_stmt, column);
}

std::string Statement::text(int column) const {
    const unsigned char* t = sqlite3_column_text(m_stmt, column);
    int n = sqlite3_column_bytes(m_stmt, column);
    return t ? std::string(reinterpret_cast<const char*>(t), static_cast<std::size_t>(n)) : std::string();
}

Value Statement::value(int column) const {
    switch (columnType(column)) {
    case SQLITE_INTEGER:
        return int64(column);
    case SQLITE_FLOAT:
        return real(column);
    case SQLITE_TEXT:
        return text(column);
    case SQLITE_BLOB: {
        const auto* p = static_cast<const unsigned char*>(sqlite3_column_blob(m_stmt, column));
        int n = sqlite3_column_bytes(m_stmt, column);
        return Blob{std::vector<unsigned char>(p, p + n)};
    }
    default:
        return std::monostate{};
    }
}

Row Statement::row() const {
    Row r;
    int n = columnCount();
    r.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
        r.push_back(value(i));
    return r;
}

bool Statement::readOnly() const {
    return sqlite3_stmt_readonly(m_stmt) != 0;
}
std::string Statement::sql() const {
    const char* s = sqlite3_sql(m_stmt);
    return s ? s : "";
}

// --- Transaction -------------------------------------------------------------------------------------

Result<Transaction> Transaction::begin(Database& db, std::string name) {
    const bool outermost = !db.inTransaction();
    if (auto st = db.exec("SAVEPOINT " + quoteIdentifier(name)); !st)
        return st.error();
    return Transaction(db, std::move(name), outermost);
}

Transaction::Transaction(Transaction&& other) noexcept
    : m_db(other.m_db), m_name(std::move(other.m_name)), m_outermost(other.m_outermost),
      m_open(std::exchange(other.m_open, false)) {}

Transaction::~Transaction() {
    rollback();
}

Status Transaction::commit() {
    if (!m_open)
        return Diagnostic::error("INTERNAL", "transaction already finished");
    if (auto st = m_db->exec("RELEASE " + quoteIdentifier(m_name)); !st)
        return st;
    m_open = false;
    return Status::success();
}

void Transaction::rollback() {
    if (!m_open)
        return;
    m_open = false;
    // A guard that stopped the work stops every statement after it: not this one, which must undo it.
    QueryGuard::Pause pause(*m_db);
    // The outermost savepoint rolls the whole transaction back: the file is left byte for byte as it was.
    // (ROLLBACK TO and RELEASE would commit the restored pages, bumping the file's change counter.)
    if (m_outermost) {
        (void)m_db->exec("ROLLBACK");
        return;
    }
    // ROLLBACK TO undoes the work, RELEASE then removes the savepoint itself.
    (void)m_db->exec("ROLLBACK TO " + quoteIdentifier(m_name) + "; RELEASE " + quoteIdentifier(m_name));
}

std::string quoteIdentifier(std::string_view name) {
    std::string out = "\"";
    for (char c : name) {
        if (c == '"')
            out += '"';
        out += c;
    }
    return out + '"';
}

std::string quoteString(std::string_view text) {
    std::string out = "'";
    for (char c : text) {
        if (c == '\'')
            out += '\'';
        out += c;
    }
    return out + '\'';
}

} // namespace cdc::storage
