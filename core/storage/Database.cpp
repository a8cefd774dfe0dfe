#include "core/storage/Database.h"

#include "core/sql/SqlApi.h"

#include <sqlite3.h>

#include <utility>

namespace cdc::storage {

namespace {
Diagnostic sqliteError(sqlite3* db, std::string_view context) {
    std::string msg = db ? sqlite3_errmsg(db) : "out of memory";
    if (!context.empty())
        msg = std::string(context) + ": " + msg;
    return Diagnostic::error("SQLITE", msg);
}
} // namespace

Result<Database> Database::open(const std::string& path, Mode mode) {
    // SQLite counts every allocation under a global mutex for sqlite3_memory_used(), which nothing here
    // reads; off before the library initialises (a later call is refused and changes nothing).
    static const bool memoryStatusOff = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0) == SQLITE_OK;
    (void)memoryStatusOff;
    int flags = SQLITE_OPEN_NOMUTEX;
    switch (mode) {
    case Mode::ReadWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE; break;
    case Mode::ReadWrite: flags |= SQLITE_OPEN_READWRITE; break;
    case Mode::ReadOnly: flags |= SQLITE_OPEN_READONLY; break;
    case Mode::Memory: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_MEMORY; break;
    }
    sqlite3* raw = nullptr;
    int rc = sqlite3_open_v2(path.c_str(), &raw, flags, nullptr);
    Database db(raw, path);
    if (rc != SQLITE_OK)
        return sqliteError(raw, "cannot open '" + path + "'");
    sqlite3_extended_result_codes(raw, 1);
    // Untrusted projects must not be able to load code: keep extension loading off.
    sqlite3_db_config(raw, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
    sqlite3_db_config(raw, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
    sqlite3_db_config(raw, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
    sqlite3_busy_timeout(raw, 5000);
    if (auto st = db.exec("PRAGMA foreign_keys = ON"); !st)
        return st.error();
    if (mode == Mode::ReadWriteCreate || mode == Mode::ReadWrite) {
        // Each dirty page written once (WAL) without an fsync per commit, and a page cache large enough
        // for the per-key indexes of a big target: without these an update's cost grows with the
        // history's size through page I/O alone (see docs/performance.md).
        // 2 KB pages for new files (a no-op on existing ones): an update touches keys spread all over the
        // per-key B-trees, one leaf page per key, so smaller pages mean fewer bytes written and checkpointed
        // per change. Measured on the 1M-event benchmark: SCD2 +27 % events/s, SCD1 +8 % (docs/performance.md).
        if (auto st = db.exec("PRAGMA page_size = 2048"); !st)
            return st.error();
        if (auto st = db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -65536");
            !st)
            return st.error();
    }
    sql::registerSparkFunctions(raw);
    return db;
}

Database::Database(Database&& other) noexcept
    : m_db(std::exchange(other.m_db, nullptr)), m_path(std::move(other.m_path)) {}

Database& Database::operator=(Database&& other) noexcept {
    if (this != &other) {
        if (m_db)
            sqlite3_close_v2(m_db);
        m_db = std::exchange(other.m_db, nullptr);
        m_path = std::move(other.m_path);
    }
    return *this;
}

Database::~Database() {
    if (m_db)
        sqlite3_close_v2(m_db);
}

Status Database::exec(std::string_view sql) {
    std::string text(sql);
    char* err = nullptr;
    if (sqlite3_exec(m_db, text.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
        std::string msg = err ? err : sqlite3_errmsg(m_db);
        sqlite3_free(err);
        return Diagnostic::error("SQLITE", msg);
    }
    return Status::success();
}

Result<Statement> Database::prepare(std::string_view sql) const {
    sqlite3_stmt* stmt = nullptr;
    const char* tail = nullptr;
    int rc = sqlite3_prepare_v3(m_db, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &stmt,
                                &tail);
    if (rc != SQLITE_OK)
        return sqliteError(m_db, {});
    if (!stmt)
        return Diagnostic::error("SQLITE", "empty statement");
    return Statement(stmt, m_db);
}

std::int64_t Database::lastInsertRowid() const { return sqlite3_last_insert_rowid(m_db); }
int Database::changes() const { return sqlite3_changes(m_db); }
bool Database::inTransaction() const { return sqlite3_get_autocommit(m_db) == 0; }

bool Database::tableExists(std::string_view name) const {
    auto st = prepare("SELECT 1 FROM sqlite_schema WHERE name = ?1 COLLATE NOCASE");
    if (!st)
        return false;
    st->bind(1, name);
    auto has = st->step();
    return has.ok() && has.value();
}

Diagnostic Database::lastError(std::string_view context) const { return sqliteError(m_db, context); }

// --- Statement ---------------------------------------------------------------------------------------

Statement::Statement(Statement&& other) noexcept
    : m_stmt(std::exchange(other.m_stmt, nullptr)), m_db(other.m_db) {}

Statement& Statement::operator=(Statement&& other) noexcept {
    if (this != &other) {
        if (m_stmt)
            sqlite3_finalize(m_stmt);
        m_stmt = std::exchange(other.m_stmt, nullptr);
        m_db = other.m_db;
    }
    return *this;
}

Statement::~Statement() {
    if (m_stmt)
        sqlite3_finalize(m_stmt);
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
    sqlite3_bind_text64(m_stmt, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
    return *this;
}

int Statement::parameterIndex(const char* name) const { return sqlite3_bind_parameter_index(m_stmt, name); }
int Statement::parameterCount() const { return sqlite3_bind_parameter_count(m_stmt); }

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

void Statement::reset() { sqlite3_reset(m_stmt); }
void Statement::clearBindings() { sqlite3_clear_bindings(m_stmt); }
int Statement::columnCount() const { return sqlite3_column_count(m_stmt); }
std::string Statement::columnName(int column) const {
    const char* n = sqlite3_column_name(m_stmt, column);
    return n ? n : "";
}
int Statement::columnType(int column) const { return sqlite3_column_type(m_stmt, column); }
bool Statement::isNull(int column) const { return columnType(column) == SQLITE_NULL; }
std::int64_t Statement::int64(int column) const { return sqlite3_column_int64(m_stmt, column); }
double Statement::real(int column) const { return sqlite3_column_double(m_stmt, column); }

std::string Statement::text(int column) const {
    const unsigned char* t = sqlite3_column_text(m_stmt, column);
    int n = sqlite3_column_bytes(m_stmt, column);
    return t ? std::string(reinterpret_cast<const char*>(t), static_cast<std::size_t>(n)) : std::string();
}

Value Statement::value(int column) const {
    switch (columnType(column)) {
    case SQLITE_INTEGER: return int64(column);
    case SQLITE_FLOAT: return real(column);
    case SQLITE_TEXT: return text(column);
    case SQLITE_BLOB: {
        const auto* p = static_cast<const unsigned char*>(sqlite3_column_blob(m_stmt, column));
        int n = sqlite3_column_bytes(m_stmt, column);
        return Blob{std::vector<unsigned char>(p, p + n)};
    }
    default: return std::monostate{};
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

bool Statement::readOnly() const { return sqlite3_stmt_readonly(m_stmt) != 0; }
std::string Statement::sql() const {
    const char* s = sqlite3_sql(m_stmt);
    return s ? s : "";
}

// --- Transaction -------------------------------------------------------------------------------------

Result<Transaction> Transaction::begin(Database& db, std::string name) {
    if (auto st = db.exec("SAVEPOINT " + quoteIdentifier(name)); !st)
        return st.error();
    return Transaction(db, std::move(name));
}

Transaction::Transaction(Transaction&& other) noexcept
    : m_db(other.m_db), m_name(std::move(other.m_name)), m_open(std::exchange(other.m_open, false)) {}

Transaction::~Transaction() { rollback(); }

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
