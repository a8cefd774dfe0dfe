// A project file is untrusted input (docs/safety.md): work on it stops at its time limit or when cancelled
// and then changes nothing, a query calls only the functions users need and holds a bounded result, and a
// file with triggers, views or engine state CDC Studio did not write is refused by name — never run, never
// computed from.
#include "EngineTestUtil.h"
#include "SqlTestUtil.h"

#include "core/engine/ProjectCheck.h"
#include "core/engine/SequenceCodec.h"
#include "core/storage/ForeignObjects.h"
#include "core/storage/QueryGuard.h"

#include <sqlite3.h>

#include <atomic>
#include <chrono>
#include <thread>

using namespace cdc;
using namespace enginetest;
using namespace std::chrono_literals;

namespace {

constexpr const char* kSource = R"sql(
CREATE TABLE users (id INT, name STRING, seq INT, op STRING);
INSERT INTO users VALUES (1, 'a', 1, 'U'), (2, 'b', 2, 'U'), (3, 'c', 3, 'U'), (4, 'd', 4, 'U');
)sql";

constexpr const char* kPipeline = R"sql(
CREATE OR REFRESH STREAMING TABLE current;
CREATE FLOW apply AS AUTO CDC INTO current FROM stream(users) KEYS (id) APPLY AS DELETE WHEN op = 'D'
SEQUENCE BY seq COLUMNS * EXCEPT (op, seq) STORED AS SCD TYPE 1;
CREATE OR REFRESH STREAMING TABLE history;
CREATE FLOW keep AS AUTO CDC INTO history FROM stream(users) KEYS (id) SEQUENCE BY seq STORED AS SCD TYPE 2;
)sql";

/// A materialized view that is quick over 4 users (4^6 rows) and never ends over 128 (4 * 10^12).
constexpr const char* kCrossJoin = R"sql(
CREATE MATERIALIZED VIEW pairs AS SELECT count(*) AS n FROM users a, users b, users c, users d, users e, users f;
)sql";

/// Doubles the users five times: 128 rows.
constexpr const char* kMoreUsers = "INSERT INTO users SELECT id + 4, name, seq + 4, op FROM users;"
                                   "INSERT INTO users SELECT id + 8, name, seq + 8, op FROM users;"
                                   "INSERT INTO users SELECT id + 16, name, seq + 16, op FROM users;"
                                   "INSERT INTO users SELECT id + 32, name, seq + 32, op FROM users;"
                                   "INSERT INTO users SELECT id + 64, name, seq + 64, op FROM users;";

/// Interrupts the connection after `after` when the code under test did not stop by then, so that a broken
/// guard fails its test instead of hanging it.
class Watchdog {
public:
    explicit Watchdog(storage::Database& db, std::chrono::milliseconds after = 10s)
        : m_thread([this, handle = db.handle(), after] {
              const auto until = std::chrono::steady_clock::now() + after;
              while (!m_done.load() && std::chrono::steady_clock::now() < until)
                  std::this_thread::sleep_for(10ms);
              if (!m_done.load())
                  sqlite3_interrupt(handle);
          }) {}
    ~Watchdog() {
        m_done.store(true);
        m_thread.join();
    }

private:
    std::atomic<bool> m_done{false};
    std::thread m_thread;
};

/// Sets `flag` after `after`, from another thread (the GUI's Cancel button).
class DelayedCancel {
public:
    DelayedCancel(std::atomic<bool>& flag, std::chrono::milliseconds after)
        : m_thread([&flag, after] {
              std::this_thread::sleep_for(after);
              flag.store(true);
          }) {}
    ~DelayedCancel() { m_thread.join(); }

private:
    std::thread m_thread;
};

/// Every row of every table and view, schema included: equal dumps, equal databases.
QString dump(const storage::Database& db) {
    QString out;
    std::vector<std::pair<std::string, std::string>> objects;
    auto schema = db.prepare("SELECT name, coalesce(sql, '') FROM sqlite_schema ORDER BY name");
    if (!schema || !schema->forEachRow([&](const storage::Statement& row) {
            objects.emplace_back(row.text(0), row.text(1));
        }))
        return QStringLiteral("cannot read the schema");
    for (const auto& [name, sql] : objects) {
        out += QString::fromStdString(name + ": " + sql + "\n");
        if (sql.rfind("CREATE TABLE", 0) != 0 && sql.rfind("CREATE VIEW", 0) != 0)
            continue;
        auto rows = db.prepare("SELECT * FROM " + storage::quoteIdentifier(name));
        if (!rows)
            continue;
        (void)rows->forEachRow([&](const storage::Statement& row) {
            for (const Value& v : row.row())
                out += QString::fromStdString(displayValue(v, std::nullopt)) + "|";
            out += "\n";
        });
    }
    return out;
}

QString queryText(storage::Database& db, const std::string& query) {
    auto rs = sql::runQuery(db, query);
    if (!rs)
        return QString::fromStdString(rs.error().format());
    QString out;
    for (const Row& r : rs->rows) {
        for (const Value& v : r)
            out += QString::fromStdString(displayValue(v, std::nullopt)) + " ";
        out += ";";
    }
    return out;
}

storage::Database project(const std::string& pipelineText = kPipeline) {
    storage::Database db = openDb();
    if (!source(db, kSource))
        qFatal("cannot load the sources");
    if (!engine::runUpdate(db, parse(pipelineText)))
        qFatal("the first update failed");
    return db;
}

Diagnostic failure(const Status& st) {
    return st ? Diagnostic::error("NONE", "it succeeded") : st.error();
}

} // namespace

class TestUntrustedProject : public QObject {
    Q_OBJECT
private slots:
    void guardStopsEndlessWork_data() {
        QTest::addColumn<QString>("sql");
        QTest::addColumn<int>("timeoutMs");
        QTest::addColumn<int>("cancelAfterMs");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("message");
        const QString endless =
            "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r";
        QTest::newRow("time limit") << endless << 300 << 0 << "TIMEOUT"
                                    << "work stopped after 0.3 s (the time limit)";
        QTest::newRow("cancelled") << endless << 0 << 300 << "CANCELLED"
                                   << "work cancelled";
        QTest::newRow("value without bound") << "WITH RECURSIVE r(s) AS (SELECT 'x' UNION ALL SELECT s || s "
                                                "FROM r) SELECT max(length(s)) FROM r"
                                             << 0 << 0 << "VALUE_TOO_LARGE"
                                             << "a value grew past 64 MB";
    }

    void guardStopsEndlessWork() {
        QFETCH(QString, sql);
        QFETCH(int, timeoutMs);
        QFETCH(int, cancelAfterMs);
        QFETCH(QString, code);
        QFETCH(QString, message);
        storage::Database db = openDb();
        std::atomic<bool> cancel{false};
        const auto started = std::chrono::steady_clock::now();
        Diagnostic error;
        {
            const storage::QueryGuard guard(db, "work", {std::chrono::milliseconds(timeoutMs), &cancel});
            std::optional<DelayedCancel> canceller;
            if (cancelAfterMs > 0)
                canceller.emplace(cancel, std::chrono::milliseconds(cancelAfterMs));
            const Watchdog watchdog(db);
            error = guard.explain(failure(db.exec(sql.toStdString())));
        }
        QCOMPARE(QString::fromStdString(error.code), code);
        QVERIFY2(QString::fromStdString(error.message).contains(message), error.message.c_str());
        if (code != "VALUE_TOO_LARGE") // that one stops by size, after copying some hundred megabytes
            QVERIFY(std::chrono::steady_clock::now() - started < 5s);
        // The guard is gone with its limits: the connection works as before.
        QVERIFY(db.exec("SELECT 1").ok());
    }

    void interruptedWorkRollsBack_data() {
        QTest::addColumn<QString>("sql");
        // SQLite rolls the whole transaction back itself when a write is interrupted; a read leaves it to
        // our savepoint, which must roll back although the guard stops every statement after the stop.
        QTest::newRow("interrupted write") << "INSERT INTO t WITH RECURSIVE r(n) AS (SELECT 10 UNION ALL "
                                              "SELECT n + 1 FROM r) SELECT n FROM r";
        QTest::newRow("interrupted read")
            << "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r";
    }

    void interruptedWorkRollsBack() {
        QFETCH(QString, sql);
        storage::Database db = openDb();
        QVERIFY(db.exec("CREATE TABLE t(x INTEGER); INSERT INTO t VALUES (1), (2), (3)").ok());
        {
            const storage::QueryGuard guard(db, "work", {200ms, nullptr});
            const Watchdog watchdog(db);
            auto tx = storage::Transaction::begin(db);
            QVERIFY(tx.ok());
            QVERIFY(db.exec("INSERT INTO t VALUES (99)").ok());
            QCOMPARE(QString::fromStdString(guard.explain(failure(db.exec(sql.toStdString()))).code),
                     QStringLiteral("TIMEOUT"));
        }
        QVERIFY(!db.inTransaction());
        auto st = db.prepare("SELECT group_concat(x) FROM t");
        QVERIFY(st.ok() && st->step().value());
        QCOMPARE(QString::fromStdString(st->text(0)), QStringLiteral("1,2,3"));
    }

    void updateStopsAndChangesNothing_data() {
        QTest::addColumn<int>("timeoutMs");
        QTest::addColumn<int>("cancelAfterMs");
        QTest::addColumn<QString>("message");
        QTest::newRow("time limit") << 400 << 0 << "update stopped after 0.4 s (the time limit)";
        // The update's cancel flag (the GUI's SimulationRunner sets it) stops it inside a statement too.
        QTest::newRow("cancelled") << 0 << 400 << "update cancelled";
    }

    void updateStopsAndChangesNothing() {
        QFETCH(int, timeoutMs);
        QFETCH(int, cancelAfterMs);
        QFETCH(QString, message);
        const std::string text = std::string(kPipeline) + kCrossJoin;
        storage::Database db = project(text);
        QVERIFY(source(db, kMoreUsers)); // the cross join never ends now, and the flows have rows to apply
        const QString before = dump(db);
        std::atomic<bool> cancel{false};
        engine::UpdateOptions options;
        options.timeout = std::chrono::milliseconds(timeoutMs);
        options.cancel = &cancel;
        Status st = Status::success();
        {
            std::optional<DelayedCancel> canceller;
            if (cancelAfterMs > 0)
                canceller.emplace(cancel, std::chrono::milliseconds(cancelAfterMs));
            const Watchdog watchdog(db);
            auto report = engine::runUpdate(db, parse(text), options);
            st = report ? Status::success() : Status(report.error());
        }
        QVERIFY(!st);
        QVERIFY2(QString::fromStdString(st.error().message).contains(message), st.error().message.c_str());
        QCOMPARE(dump(db), before);
    }

    void queryLimits_data() {
        QTest::addColumn<QString>("query");
        QTest::addColumn<int>("timeoutMs");
        QTest::addColumn<int>("maxResultBytes");
        QTest::addColumn<QString>("code");
        const QString join = "FROM users a, users b, users c, users d, users e, users f";
        QTest::newRow("time limit") << "SELECT count(*) " + join << 300 << 0 << "TIMEOUT";
        // 128^3 rows: some 150 MB in memory without the bound.
        QTest::newRow("result size") << "SELECT a.id FROM users a, users b, users c" << 0 << 64 * 1024
                                     << "RESULT_TOO_LARGE";
    }

    void queryLimits() {
        QFETCH(QString, query);
        QFETCH(int, timeoutMs);
        QFETCH(int, maxResultBytes);
        QFETCH(QString, code);
        storage::Database db = openDb();
        QVERIFY(source(db, kSource));
        QVERIFY(source(db, kMoreUsers));
        sql::QueryLimits limits;
        limits.timeout = std::chrono::milliseconds(timeoutMs);
        if (maxResultBytes > 0)
            limits.maxResultBytes = static_cast<std::size_t>(maxResultBytes);
        const Watchdog watchdog(db);
        auto rs = sql::runQuery(db, query.toStdString(), "<query>", limits);
        QVERIFY(!rs);
        QCOMPARE(QString::fromStdString(rs.error().code), code);
    }

    void queryFunctions_data() {
        QTest::addColumn<QString>("query");
        QTest::addColumn<QString>("code"); // empty: allowed
        QTest::newRow("fts3_tokenizer") << "SELECT fts3_tokenizer('simple')"
                                        << "FUNCTION_NOT_ALLOWED";
        QTest::newRow("load_extension") << "SELECT load_extension('x')"
                                        << "FUNCTION_NOT_ALLOWED";
        QTest::newRow("compile options") << "SELECT sqlite_compileoption_get(0)"
                                         << "FUNCTION_NOT_ALLOWED";
        QTest::newRow("rtreenode") << "SELECT rtreenode(2, 'a')"
                                   << "FUNCTION_NOT_ALLOWED";
        QTest::newRow("scalar") << "SELECT upper(name), length(name), abs(-id) FROM users"
                                << "";
        QTest::newRow("aggregate") << "SELECT count(*), sum(id), max(name) FROM users"
                                   << "";
        QTest::newRow("window") << "SELECT row_number() OVER (ORDER BY id) FROM users"
                                << "";
        QTest::newRow("json") << "SELECT named_struct('a', id).a FROM users"
                              << "";
        QTest::newRow("spark") << "SELECT date_format(to_timestamp('2026-01-02'), 'yyyy') FROM users"
                               << "";
        QTest::newRow("regexp") << "SELECT name FROM users WHERE name RLIKE '^a'"
                                << "";
    }

    void queryFunctions() {
        QFETCH(QString, query);
        QFETCH(QString, code);
        storage::Database db = openDb();
        QVERIFY(source(db, kSource));
        auto rs = sql::runQuery(db, query.toStdString());
        QCOMPARE(QString::fromStdString(rs ? std::string() : rs.error().code), code);
        if (!rs)
            QVERIFY2(rs.error().message.find("function") != std::string::npos, rs.error().message.c_str());
    }

    void foreignObjectsAreRefusedByName_data() {
        QTest::addColumn<QString>("tamper");
        QTest::addColumn<QString>("named");
        QTest::newRow("trigger wiping the sources")
            << "CREATE TRIGGER wipe AFTER INSERT ON __cdc_updates BEGIN DELETE FROM users; END"
            << "trigger wipe on __cdc_updates";
        QTest::newRow("trigger on a source")
            << "CREATE TRIGGER stamp BEFORE INSERT ON users BEGIN SELECT 1; END"
            << "trigger stamp on users";
        QTest::newRow("view of its own") << "CREATE VIEW spy AS SELECT * FROM users"
                                         << "view spy";
    }

    void foreignObjectsAreRefusedByName() {
        QFETCH(QString, tamper);
        QFETCH(QString, named);
        storage::Database db = project();
        QVERIFY(db.exec(tamper.toStdString()).ok());
        QVERIFY(source(db, "INSERT INTO users VALUES (5, 'e', 5, 'U')"));
        const QString before = dump(db);

        const Diagnostic opened = failure(engine::verifyProject(db));
        QCOMPARE(QString::fromStdString(opened.code), QStringLiteral("FOREIGN_OBJECTS"));
        QVERIFY2(QString::fromStdString(opened.message).contains(named), opened.message.c_str());
        auto update = engine::runUpdate(db, parse(kPipeline));
        QVERIFY(!update);
        QCOMPARE(QString::fromStdString(update.error().code), QStringLiteral("FOREIGN_OBJECTS"));
        QCOMPARE(dump(db), before); // nothing ran: the sources are as they were

        auto dropped = storage::dropForeignObjects(db);
        QVERIFY(dropped.ok());
        QCOMPARE(QString::fromStdString(storage::describe(dropped.value())), named);
        QVERIFY(engine::verifyProject(db).ok());
        QVERIFY(engine::runUpdate(db, parse(kPipeline)).ok());
        QCOMPARE(queryText(db, "SELECT count(*) FROM users"), QStringLiteral("5 ;"));
    }

    void damagedStateIsRefusedUntilAFullRefresh_data() {
        QTest::addColumn<QString>("tamper");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("named");
        QTest::newRow("SCD type") << "UPDATE __cdc_targets SET scd_type = 7 WHERE name = 'current'"
                                  << "TARGET_DAMAGED"
                                  << "current: its SCD type";
        QTest::newRow("SCD 2 read as SCD 1") << "UPDATE __cdc_targets SET scd_type = 1 WHERE name = 'history'"
                                             << "TARGET_DAMAGED"
                                             << "history: the catalog lists";
        QTest::newRow("column count") << "UPDATE __cdc_targets SET ncols = 9 WHERE name = 'current'"
                                      << "TARGET_DAMAGED"
                                      << "current: the catalog lists";
        QTest::newRow("column count without bound")
            << "UPDATE __cdc_targets SET ncols = 1000000000000 WHERE name = 'current'"
            << "TARGET_DAMAGED"
            << "current: its column count";
        QTest::newRow("key list") << "UPDATE __cdc_targets SET keys = 'x' WHERE name = 'current'"
                                  << "TARGET_DAMAGED"
                                  << "current: its key list";
        QTest::newRow("key position") << "UPDATE __cdc_targets SET keys = '7,' WHERE name = 'current'"
                                      << "TARGET_DAMAGED"
                                      << "current: its key position 7";
        QTest::newRow("catalog column")
            << "DELETE FROM __cdc_columns WHERE table_name = 'current' AND position = 1"
            << "TARGET_DAMAGED"
            << "current: the catalog lists 1 columns";
        QTest::newRow("backing column") << "ALTER TABLE __acs_current ADD COLUMN c9"
                                        << "TARGET_DAMAGED"
                                        << "current: its table __acs_current has 3 data columns";
        QTest::newRow("public view") << "DROP VIEW current"
                                     << "TARGET_DAMAGED"
                                     << "current: its view current is missing";
        QTest::newRow("public view that lies")
            << "DROP VIEW current; CREATE VIEW current(id, name) AS SELECT c0, 'x' FROM __acs_current"
            << "TARGET_DAMAGED"
            << "current: its view current is not the one CDC Studio writes";
        QTest::newRow("public view that never ends")
            << "DROP VIEW current; CREATE VIEW current(id, name) AS WITH RECURSIVE r(n) AS (SELECT 1 UNION "
               "ALL "
               "SELECT n + 1 FROM r) SELECT n, 'x' FROM r"
            << "TARGET_DAMAGED"
            << "current: its view current is not the one CDC Studio writes";
        QTest::newRow("change feed view")
            << "DROP VIEW __cdf_history; CREATE VIEW __cdf_history AS SELECT * FROM __cdfr_history"
            << "TARGET_DAMAGED"
            << "history: its view __cdf_history is not the one CDC Studio writes";
        QTest::newRow("bookkeeping table") << "ALTER TABLE __cdc_checkpoints ADD COLUMN note"
                                           << "PROJECT_DAMAGED"
                                           << "table __cdc_checkpoints";
    }

    void damagedStateIsRefusedUntilAFullRefresh() {
        QFETCH(QString, tamper);
        QFETCH(QString, code);
        QFETCH(QString, named);
        storage::Database db = project();
        QVERIFY(db.exec(tamper.toStdString()).ok());
        const Diagnostic opened = failure(engine::verifyProject(db));
        QCOMPARE(QString::fromStdString(opened.code), code);
        QVERIFY2(QString::fromStdString(opened.message).contains(named), opened.message.c_str());
        auto update = engine::runUpdate(db, parse(kPipeline));
        QVERIFY(!update);
        QCOMPARE(QString::fromStdString(update.error().code), code);
        if (code != "TARGET_DAMAGED")
            return; // the bookkeeping itself: no refresh can trust it
        QVERIFY(QString::fromStdString(update.error().message).contains("full refresh"));

        engine::UpdateOptions full;
        full.fullRefresh = true;
        auto refreshed = engine::runUpdate(db, parse(kPipeline), full);
        QVERIFY2(refreshed.ok(), refreshed ? "" : refreshed.error().format().c_str());
        QVERIFY(engine::verifyProject(db).ok());
        QCOMPARE(queryText(db, "SELECT id, name FROM current ORDER BY id"),
                 QStringLiteral("1 a ;2 b ;3 c ;4 d ;"));
        QCOMPARE(queryText(db, "SELECT count(*) FROM history"), QStringLiteral("4 ;"));
    }

    void sequenceKeysDecode_data() {
        QTest::addColumn<QString>("key"); // SQL giving the blob
        QTest::addColumn<bool>("valid");
        QTest::newRow("struct key") << "cdc_seq_key(1, 2.5, 'a', NULL, x'00ff01')" << true;
        QTest::newRow("cut short") << "substr(cdc_seq_key(1, 'abc'), 1, 12)" << false;
        QTest::newRow("unknown tag") << "x'07'" << false;
        QTest::newRow("text without end") << "x'03616263'" << false;
        QTest::newRow("bad escape") << "x'0361006200'" << false;
    }

    void sequenceKeysDecode() {
        QFETCH(QString, key);
        QFETCH(bool, valid);
        storage::Database db = openDb();
        engine::registerSequenceFunctions(db.handle());
        auto st = db.prepare("SELECT " + key.toStdString());
        QVERIFY(st.ok());
        QVERIFY(st->step().value());
        const Value v = st->value(0);
        const auto& bytes = std::get<Blob>(v).bytes;
        QCOMPARE(engine::validSequenceKey(
                     std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size())),
                 valid);
    }
};

QTEST_GUILESS_MAIN(TestUntrustedProject)
#include "tst_untrusted_project.moc"
