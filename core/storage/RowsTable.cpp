// The rows travel to the virtual table's constructor through a hand-off registry (module arguments are
// text), then live in a per-connection store, the module's client data, which SQLite frees with the
// connection. The store, not the table object, owns them because SQLite may disconnect and reconnect a
// virtual table when it reloads the schema.
#include "core/storage/RowsTable.h"

#include <sqlite3.h>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>

namespace cdc::storage {

namespace {

using Data = std::shared_ptr<const RowsTableData>;

struct HandOff {
    std::mutex mutex;
    std::map<std::string, Data> pending;
};

HandOff& handOff() {
    static HandOff h;
    return h;
}

/// One connection's tables, by name.
struct Store {
    std::map<std::string, Data> tables;
};

struct Table : sqlite3_vtab {
    Data data;
};

struct Cursor : sqlite3_vtab_cursor {
    std::size_t row = 0;
};

int declare(sqlite3* db, const RowsTableData& data) {
    std::string schema = "CREATE TABLE x(";
    for (std::size_t i = 0; i < data.columns.size(); ++i)
        schema += (i ? ", " : "") + quoteIdentifier(data.columns[i]) + (data.hidden[i] ? " HIDDEN" : "");
    return sqlite3_declare_vtab(db, (schema + ")").c_str());
}

int connect(sqlite3* db, void* aux, int argc, const char* const* argv, sqlite3_vtab** out, char** err,
            bool create) {
    auto* store = static_cast<Store*>(aux);
    const std::string name = argv[2];
    if (create) {
        if (argc < 4) {
            *err = sqlite3_mprintf("cdc_rows tables are made by read_files and list_files only");
            return SQLITE_ERROR;
        }
        std::string token = argv[3];
        if (token.size() >= 2 && token.front() == '\'')
            token = token.substr(1, token.size() - 2);
        HandOff& h = handOff();
        std::lock_guard lock(h.mutex);
        auto it = h.pending.find(token);
        if (it == h.pending.end()) {
            *err = sqlite3_mprintf("cdc_rows tables are made by read_files and list_files only");
            return SQLITE_ERROR;
        }
        store->tables[name] = std::move(it->second);
        h.pending.erase(it);
    }
    auto found = store->tables.find(name);
    if (found == store->tables.end()) {
        *err = sqlite3_mprintf("the rows of %s are gone; run the query again", name.c_str());
        return SQLITE_ERROR;
    }
    if (int rc = declare(db, *found->second); rc != SQLITE_OK)
        return rc;
    auto* table = new Table{};
    table->data = found->second;
    *out = table;
    return SQLITE_OK;
}

int xCreate(sqlite3* db, void* aux, int argc, const char* const* argv, sqlite3_vtab** out, char** err) {
    return connect(db, aux, argc, argv, out, err, true);
}

int xConnect(sqlite3* db, void* aux, int argc, const char* const* argv, sqlite3_vtab** out, char** err) {
    return connect(db, aux, argc, argv, out, err, false);
}

int xBestIndex(sqlite3_vtab* vt, sqlite3_index_info* info) {
    // No index: every query scans the rows, which are few (a simulator's files).
    info->estimatedCost = static_cast<double>(static_cast<Table*>(vt)->data->rows.size()) + 1;
    info->estimatedRows = static_cast<sqlite3_int64>(static_cast<Table*>(vt)->data->rows.size());
    return SQLITE_OK;
}

int xDisconnect(sqlite3_vtab* vt) {
    delete static_cast<Table*>(vt);
    return SQLITE_OK;
}

int xOpen(sqlite3_vtab*, sqlite3_vtab_cursor** out) {
    *out = new Cursor{};
    return SQLITE_OK;
}

int xClose(sqlite3_vtab_cursor* c) {
    delete static_cast<Cursor*>(c);
    return SQLITE_OK;
}

int xFilter(sqlite3_vtab_cursor* c, int, const char*, int, sqlite3_value**) {
    static_cast<Cursor*>(c)->row = 0;
    return SQLITE_OK;
}

int xNext(sqlite3_vtab_cursor* c) {
    ++static_cast<Cursor*>(c)->row;
    return SQLITE_OK;
}

int xEof(sqlite3_vtab_cursor* c) {
    auto* cursor = static_cast<Cursor*>(c);
    return cursor->row >= static_cast<Table*>(cursor->pVtab)->data->rows.size();
}

int xColumn(sqlite3_vtab_cursor* c, sqlite3_context* ctx, int column) {
    auto* cursor = static_cast<Cursor*>(c);
    const Row& row = static_cast<Table*>(cursor->pVtab)->data->rows[cursor->row];
    const Value& v = row.at(static_cast<std::size_t>(column));
    switch (v.index()) {
    case 1:
        sqlite3_result_int64(ctx, std::get<std::int64_t>(v));
        break;
    case 2:
        sqlite3_result_double(ctx, std::get<double>(v));
        break;
    case 3: {
        const std::string& s = std::get<std::string>(v);
        sqlite3_result_text64(ctx, s.data(), s.size(), SQLITE_STATIC, SQLITE_UTF8);
        break;
    }
    case 4: {
        const auto& b = std::get<Blob>(v).bytes;
        sqlite3_result_blob64(ctx, b.data(), b.size(), SQLITE_STATIC);
        break;
    }
    default:
        sqlite3_result_null(ctx);
    }
    return SQLITE_OK;
}

int xRowid(sqlite3_vtab_cursor* c, sqlite3_int64* rowid) {
    *rowid = static_cast<sqlite3_int64>(static_cast<Cursor*>(c)->row + 1);
    return SQLITE_OK;
}

void destroyStore(void* store) {
    delete static_cast<Store*>(store);
}

sqlite3_module makeModule() {
    sqlite3_module m{};
    m.iVersion = 1;
    m.xCreate = xCreate;
    m.xConnect = xConnect;
    m.xBestIndex = xBestIndex;
    m.xDisconnect = xDisconnect;
    m.xDestroy = xDisconnect; // the store drops the rows when the table is replaced or the connection ends
    m.xOpen = xOpen;
    m.xClose = xClose;
    m.xFilter = xFilter;
    m.xNext = xNext;
    m.xEof = xEof;
    m.xColumn = xColumn;
    m.xRowid = xRowid;
    return m;
}

const sqlite3_module kModule = makeModule();

} // namespace

void registerRowsTableModule(sqlite3* db) {
    sqlite3_create_module_v2(db, "cdc_rows", &kModule, new Store{}, destroyStore);
}

Status createRowsTable(const Database& db, const std::string& name, RowsTableData data) {
    static std::atomic<std::uint64_t> counter{0};
    const std::string token = name + "#" + std::to_string(++counter);
    {
        HandOff& h = handOff();
        std::lock_guard lock(h.mutex);
        h.pending[token] = std::make_shared<const RowsTableData>(std::move(data));
    }
    const std::string table = "temp." + quoteIdentifier(name);
    auto drop = db.prepare("DROP TABLE IF EXISTS " + table);
    Status done = drop ? drop->run() : Status(drop.error());
    if (done) {
        auto create =
            db.prepare("CREATE VIRTUAL TABLE " + table + " USING cdc_rows(" + quoteString(token) + ")");
        done = create ? create->run() : Status(create.error());
    }
    HandOff& h = handOff();
    std::lock_guard lock(h.mutex);
    h.pending.erase(token); // taken by the table, or left behind by a failure
    return done;
}

} // namespace cdc::storage
