#include "core/storage/Catalog.h"

#include "core/common/Text.h"

#include <array>

namespace cdc::storage {

std::string tableKindName(TableKind kind) {
    switch (kind) {
    case TableKind::Source:
        return "source";
    case TableKind::Target:
        return "target";
    case TableKind::View:
        return "view";
    case TableKind::MaterializedView:
        return "materialized_view";
    }
    return "source";
}

std::optional<TableKind> tableKindFromName(std::string_view name) {
    for (TableKind k : {TableKind::Source, TableKind::Target, TableKind::View, TableKind::MaterializedView})
        if (tableKindName(k) == name)
            return k;
    return std::nullopt;
}

int TableInfo::columnIndex(std::string_view column) const {
    for (std::size_t i = 0; i < columns.size(); ++i)
        if (equalsIgnoreCase(columns[i].name, column))
            return static_cast<int>(i);
    return -1;
}

Status Catalog::ensureSchema(Database& db) {
    if (db.tablesExist({"__cdc_catalog", "__cdc_columns", "__cdc_table_properties"}))
        return Status::success(); // the usual case: a query instead of parsing three CREATEs
    return db.exec(R"sql(
CREATE TABLE IF NOT EXISTS __cdc_catalog(
  name        TEXT PRIMARY KEY COLLATE NOCASE,
  sqlite_name TEXT NOT NULL,
  kind        TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS __cdc_columns(
  table_name TEXT NOT NULL COLLATE NOCASE REFERENCES __cdc_catalog(name) ON DELETE CASCADE ON UPDATE CASCADE,
  position   INTEGER NOT NULL,
  name       TEXT NOT NULL,
  type       TEXT NOT NULL,
  PRIMARY KEY(table_name, position)
);
CREATE TABLE IF NOT EXISTS __cdc_table_properties(
  table_name TEXT NOT NULL COLLATE NOCASE REFERENCES __cdc_catalog(name) ON DELETE CASCADE ON UPDATE CASCADE,
  key        TEXT NOT NULL,
  value      TEXT NOT NULL,
  PRIMARY KEY(table_name, key)
);
)sql");
}

namespace {

Result<TableInfo> loadOne(const Database& db, const std::string& name, const std::string& sqliteName,
                          const std::string& kind) {
    TableInfo t;
    t.name = name;
    t.sqliteName = sqliteName;
    t.kind = tableKindFromName(kind).value_or(TableKind::Source);
    auto cols = db.prepare("SELECT name, type FROM __cdc_columns WHERE table_name = ?1 ORDER BY position");
    if (!cols)
        return cols.error();
    cols->bind(1, std::string_view(name));
    CDC_TRY(cols->forEachRow([&](const Statement& row) {
        auto type = DataType::parse(row.text(1));
        t.columns.push_back({row.text(0), type.value_or(DataType::of(DataType::Kind::String))});
    }));
    auto props = db.prepare("SELECT key, value FROM __cdc_table_properties WHERE table_name = ?1");
    if (!props)
        return props.error();
    props->bind(1, std::string_view(name));
    CDC_TRY(props->forEachRow([&](const Statement& row) { t.properties[row.text(0)] = row.text(1); }));
    return t;
}

} // namespace

Result<std::vector<TableInfo>> Catalog::list(const Database& db) {
    std::vector<TableInfo> out;
    if (!db.tableExists("__cdc_catalog"))
        return out;
    auto st = db.prepare("SELECT name, sqlite_name, kind FROM __cdc_catalog ORDER BY name");
    if (!st)
        return st.error();
    // Listed first, loaded after: loading one runs queries of its own.
    std::vector<std::array<std::string, 3>> entries;
    CDC_TRY(st->forEachRow([&](const Statement& row) {
        entries.push_back({row.text(0), row.text(1), row.text(2)});
    }));
    for (const auto& [name, sqliteName, kind] : entries) {
        auto t = loadOne(db, name, sqliteName, kind);
        if (!t)
            return t.error();
        out.push_back(std::move(t.value()));
    }
    return out;
}

Result<std::optional<TableInfo>> Catalog::find(const Database& db, std::string_view name) {
    if (!db.tableExists("__cdc_catalog"))
        return std::optional<TableInfo>{};
    std::string wanted = toLower(name);
    // A leading `live.` is the legacy pipeline prefix for "this pipeline's dataset".
    if (wanted.rfind("live.", 0) == 0)
        wanted = wanted.substr(5);
    auto st = db.prepare("SELECT name, sqlite_name, kind FROM __cdc_catalog "
                         "WHERE lower(name) = ?1 OR substr(lower(name), -length(?2)) = ?2 ORDER BY name");
    if (!st)
        return st.error();
    st->bind(1, std::string_view(wanted));
    st->bind(2, std::string_view("." + wanted));
    std::vector<std::array<std::string, 3>> matches;
    bool exact = false;
    CDC_TRY(st->forEachRow([&](const Statement& row) {
        std::array<std::string, 3> m{row.text(0), row.text(1), row.text(2)};
        if (exact)
            return;
        if (toLower(m[0]) == wanted) { // an exact match beats any suffix match
            matches = {m};
            exact = true;
            return;
        }
        matches.push_back(m);
    }));
    if (matches.empty())
        return std::optional<TableInfo>{};
    if (matches.size() > 1) {
        std::string names;
        for (const auto& m : matches)
            names += (names.empty() ? "" : ", ") + m[0];
        return Diagnostic::error("AMBIGUOUS_TABLE",
                                 "table name '" + std::string(name) + "' is ambiguous: it could be " + names);
    }
    auto t = loadOne(db, matches[0][0], matches[0][1], matches[0][2]);
    if (!t)
        return t.error();
    return std::optional<TableInfo>(std::move(t.value()));
}

Status Catalog::put(Database& db, const TableInfo& table) {
    CDC_TRY(ensureSchema(db));
    CDC_TRY(remove(db, table.name));
    auto ins = db.prepare("INSERT INTO __cdc_catalog(name, sqlite_name, kind) VALUES (?1, ?2, ?3)");
    if (!ins)
        return ins.error();
    ins->bind(1, std::string_view(table.name)).bind(2, std::string_view(table.sqliteName));
    ins->bind(3, std::string_view(tableKindName(table.kind)));
    CDC_TRY(ins->run());
    auto col =
        db.prepare("INSERT INTO __cdc_columns(table_name, position, name, type) VALUES (?1, ?2, ?3, ?4)");
    if (!col)
        return col.error();
    for (std::size_t i = 0; i < table.columns.size(); ++i) {
        col->reset();
        col->bind(1, std::string_view(table.name)).bind(2, static_cast<std::int64_t>(i));
        col->bind(3, std::string_view(table.columns[i].name))
            .bind(4, std::string_view(table.columns[i].type.toString()));
        CDC_TRY(col->run());
    }
    auto prop = db.prepare("INSERT INTO __cdc_table_properties(table_name, key, value) VALUES (?1, ?2, ?3)");
    if (!prop)
        return prop.error();
    for (const auto& [key, value] : table.properties) {
        prop->reset();
        prop->bind(1, std::string_view(table.name)).bind(2, std::string_view(toLower(key)));
        prop->bind(3, std::string_view(value));
        CDC_TRY(prop->run());
    }
    return Status::success();
}

Status Catalog::remove(Database& db, std::string_view exactName) {
    if (!db.tableExists("__cdc_catalog"))
        return Status::success();
    auto del = db.prepare("DELETE FROM __cdc_catalog WHERE name = ?1");
    if (!del)
        return del.error();
    del->bind(1, exactName);
    return del->run();
}

std::string Catalog::sqliteNameFor(std::string_view qualifiedName) {
    return toLower(qualifiedName);
}

} // namespace cdc::storage
