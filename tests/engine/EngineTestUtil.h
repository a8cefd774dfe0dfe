#pragma once
// Helpers shared by the engine tests: hand-built pipelines over hand-made source tables.

#include "core/engine/Engine.h"
#include "core/storage/Catalog.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <string>
#include <vector>

namespace enginetest {

using namespace cdc;

inline storage::Database openDb() {
    auto db = storage::Database::openMemory();
    if (!db)
        qFatal("cannot open an in-memory database");
    if (!storage::Catalog::ensureSchema(db.value()))
        qFatal("cannot create the catalog");
    return std::move(db.value());
}

struct SourceColumn {
    std::string name;
    DataType::Kind kind;
};

/// CREATE TABLE + catalog entry, the way the SQL front end registers a source table.
inline void createSource(storage::Database& db, const std::string& name,
                         const std::vector<SourceColumn>& cols) {
    storage::TableInfo t;
    t.name = name;
    t.sqliteName = storage::Catalog::sqliteNameFor(name);
    t.kind = storage::TableKind::Source;
    std::string sql = "CREATE TABLE " + storage::quoteIdentifier(t.sqliteName) + "(";
    for (std::size_t i = 0; i < cols.size(); ++i) {
        DataType type = DataType::of(cols[i].kind);
        t.columns.push_back({cols[i].name, type});
        sql += (i ? ", " : "") + storage::quoteIdentifier(cols[i].name) + " " + type.sqliteAffinity();
    }
    QVERIFY2(db.exec(sql + ")").ok(), sql.c_str());
    QVERIFY(storage::Catalog::put(db, t).ok());
}

inline void insert(storage::Database& db, const std::string& table, const std::vector<Row>& rows) {
    if (rows.empty())
        return;
    std::string marks;
    for (std::size_t i = 0; i < rows[0].size(); ++i)
        marks += (i ? ", ?" : "?");
    auto st = db.prepare("INSERT INTO " + storage::quoteIdentifier(storage::Catalog::sqliteNameFor(table)) +
                         " VALUES (" + marks + ")");
    QVERIFY2(st.ok(), st.ok() ? "" : st.error().message.c_str());
    for (const Row& r : rows) {
        st->reset();
        for (std::size_t i = 0; i < r.size(); ++i)
            st->bind(static_cast<int>(i + 1), r[i]);
        QVERIFY(st->run().ok());
    }
}

inline pipeline::Identifier id(const std::string& name, int line = 1, int column = 1) {
    return {name, {"pipeline.sql", line, column, 0, name.size()}};
}

inline pipeline::Expression column(const std::string& name, int line = 1) {
    pipeline::Expression e;
    e.sparkText = name;
    e.sqlite = storage::quoteIdentifier(name);
    e.columnName = name;
    e.location = {"pipeline.sql", line, 1, 0, name.size()};
    return e;
}

inline pipeline::Expression condition(const std::string& spark, const std::string& sqlite, int line = 1) {
    pipeline::Expression e;
    e.sparkText = spark;
    e.sqlite = sqlite;
    e.location = {"pipeline.sql", line, 1, 0, spark.size()};
    return e;
}

inline pipeline::ColumnSelection selection(pipeline::ColumnSelection::Mode mode,
                                           const std::vector<std::string>& names) {
    pipeline::ColumnSelection s;
    s.mode = mode;
    for (const auto& n : names)
        s.columns.push_back(id(n));
    s.location = {"pipeline.sql", 1, 1, 0, 1};
    return s;
}

/// The seed's flow shape: KEYS (keys) APPLY AS DELETE WHEN operation = 'DELETE' SEQUENCE BY seq
/// COLUMNS * EXCEPT (operation, seq) STORED AS SCD TYPE n.
inline pipeline::AutoCdcFlow seedFlow(const std::string& target, const std::string& source, int scd,
                                      const std::vector<std::string>& keys = {"userId"},
                                      const std::string& seq = "sequenceNum") {
    pipeline::AutoCdcFlow f;
    f.name = id(target + "_flow");
    f.target = id(target);
    f.source = {source, true, false, {"pipeline.sql", 2, 1, 0, source.size()}, std::nullopt};
    for (const auto& k : keys)
        f.keys.push_back(id(k, 3));
    f.applyAsDelete = condition("operation = 'DELETE'", "(\"operation\" = 'DELETE')", 4);
    f.sequenceBy.push_back(column(seq, 5));
    f.columns = selection(pipeline::ColumnSelection::Mode::Except, {"operation", seq});
    f.scdType = scd == 2 ? pipeline::ScdType::Type2 : pipeline::ScdType::Type1;
    f.location = {"pipeline.sql", 1, 1, 0, 10};
    return f;
}

inline pipeline::Pipeline pipelineOf(std::vector<pipeline::AutoCdcFlow> flows,
                                     std::map<std::string, std::string> properties = {}) {
    pipeline::Pipeline p;
    for (auto& f : flows) {
        if (!p.findTable(f.target.name)) {
            pipeline::StreamingTable t;
            t.name = f.target;
            t.properties = properties;
            t.location = {"pipeline.sql", 1, 1, 0, 1};
            p.streamingTables.push_back(t);
        }
        p.cdcFlows.push_back(std::move(f));
    }
    return p;
}

/// Every row of a query as tab-separated display text, sorted: order-insensitive comparison.
inline QStringList rows(storage::Database& db, const std::string& sql) {
    QStringList out;
    auto st = db.prepare(sql);
    if (!st) {
        qWarning("%s: %s", sql.c_str(), st.error().message.c_str());
        return {"<error>"};
    }
    for (;;) {
        auto has = st->step();
        if (!has || !has.value())
            break;
        QStringList cells;
        for (int c = 0; c < st->columnCount(); ++c)
            cells << QString::fromStdString(displayText(st->value(c)));
        out << cells.join('\t');
    }
    out.sort();
    return out;
}

inline QStringList target(storage::Database& db, const std::string& name) {
    return rows(db, "SELECT * FROM " + storage::quoteIdentifier(storage::Catalog::sqliteNameFor(name)));
}

inline engine::UpdateReport update(storage::Database& db, const pipeline::Pipeline& p,
                                   std::int64_t now = 1000) {
    engine::UpdateOptions o;
    o.now = now;
    auto r = engine::runUpdate(db, p, o);
    if (!r)
        qWarning("update failed: %s", r.error().format().c_str());
    return r ? r.value() : engine::UpdateReport{-1, 0, {}, {}, 0};
}

inline Value i(std::int64_t v) {
    return v;
}
inline Value s(const std::string& v) {
    return v;
}
inline Value null() {
    return {};
}

/// Every table of the file but the given sources, each row as text, sorted: the whole state rewind must
/// restore. __cdc_updates contributes its ids, times and flags, not the measured durations.
/// Without `setUp`, the tables an update's set-up writes on its own are left out (the registry, catalog and
/// state rows of the tables it creates, which hold no rows): what a failed update must leave as it was.
inline QStringList databaseDump(storage::Database& db, const QStringList& sources, bool setUp = true) {
    static const QStringList kSetUp{"__cdc_targets", "__cdc_target_state", "__cdc_catalog", "__cdc_columns",
                                    "__cdc_table_properties"};
    QStringList out;
    for (const QString& table :
         rows(db, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE "
                  "'sqlite%' AND name <> '__cdc_updates'")) {
        if (sources.contains(table) || (!setUp && kSetUp.contains(table)))
            continue;
        for (const QString& row : rows(db, "SELECT * FROM " + storage::quoteIdentifier(table.toStdString())))
            out << table + ": " + row;
    }
    if (db.tableExists("__cdc_updates"))
        out << rows(db, "SELECT update_id, now, full_refresh FROM __cdc_updates");
    return out;
}

/// The seed's users_cdf rows (seed 001), optionally with the TRUNCATE row uncommented.
inline std::vector<Row> seedRows(bool withTruncate = false) {
    std::vector<Row> r = {
        {i(124), s("Raul"), s("Oaxaca"), s("INSERT"), i(1)},
        {i(123), s("Isabel"), s("Monterrey"), s("INSERT"), i(1)},
        {i(125), s("Mercedes"), s("Tijuana"), s("INSERT"), i(2)},
        {i(126), s("Lily"), s("Cancun"), s("INSERT"), i(2)},
        {i(123), null(), null(), s("DELETE"), i(6)},
        {i(125), s("Mercedes"), s("Guadalajara"), s("UPDATE"), i(6)},
        {i(125), s("Mercedes"), s("Mexicali"), s("UPDATE"), i(5)},
        {i(123), s("Isabel"), s("Chihuahua"), s("UPDATE"), i(5)},
    };
    if (withTruncate)
        r.push_back({null(), null(), null(), s("TRUNCATE"), i(3)});
    return r;
}

inline void createUsers(storage::Database& db, const std::string& name = "users_cdf") {
    createSource(db, name,
                 {{"userId", DataType::Kind::Int},
                  {"name", DataType::Kind::String},
                  {"city", DataType::Kind::String},
                  {"operation", DataType::Kind::String},
                  {"sequenceNum", DataType::Kind::Int}});
}

} // namespace enginetest
