// The hand-written MERGE against AUTO CDC (engine::compareWithMerge) on the samples' events, delivered in
// the samples' arrival order, one update per event or all in one. The expected differences are worked out by
// hand from the events below (not from the code under test); each case says why the MERGE gets them wrong.
#include "core/engine/Engine.h"
#include "core/engine/MergeComparison.h"
#include "core/storage/Catalog.h"

#include "EngineTestUtil.h"
#include "SqlTestUtil.h"

#include <QFile>
#include <QtTest/QtTest>

using namespace cdc;
using namespace enginetest;

namespace {

std::string sampleFile(const std::string& sample, const char* file) {
    QFile f(QStringLiteral(CDC_SOURCE_DIR "/samples/%1/%2").arg(QString::fromStdString(sample), file));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read sample %s/%s", sample.c_str(), file);
    return f.readAll().toStdString();
}

/// The samples' events (their events.sql), in arrival order.
const std::map<std::string, std::pair<std::string, std::vector<std::string>>> kEvents = {
    {"out-of-order-lab",
     {"lab.orders_cdf",
      {R"((1, "created", 10.0, "UPSERT", 1))", R"((1, "shipped", 10.0, "UPSERT", 3))",
       R"((1, "paid", 10.0, "UPSERT", 2))", R"((2, null, null, "DELETE", 5))",
       R"((2, "created", 25.5, "UPSERT", 4))", R"((3, "created", 7.0, "UPSERT", 1))",
       R"((3, "paid", 7.5, "UPSERT", 2))", R"((1, "delivered", 10.0, "UPSERT", 4))"}}},
    {"scd2-users",
     {"main.cdc_tutorial.users_cdf",
      {R"((124, "Raul", "Oaxaca", "INSERT", 1))", R"((123, "Isabel", "Monterrey", "INSERT", 1))",
       R"((125, "Mercedes", "Tijuana", "INSERT", 2))", R"((126, "Lily", "Cancun", "INSERT", 2))",
       R"((123, null, null, "DELETE", 6))", R"((125, "Mercedes", "Guadalajara", "UPDATE", 6))",
       R"((125, "Mercedes", "Mexicali", "UPDATE", 5))", R"((123, "Isabel", "Chihuahua", "UPDATE", 5))"}}},
};

/// The sample's sources, then its events `perUpdate` at a time, an update after each group.
bool runSample(storage::Database& db, const pipeline::Pipeline& p, const std::string& sample, int perUpdate) {
    if (!source(db, sampleFile(sample, "sources.sql")))
        return false;
    const auto& [table, events] = kEvents.at(sample);
    for (std::size_t i = 0; i < events.size(); i += static_cast<std::size_t>(perUpdate)) {
        std::string insert = "INSERT INTO " + table + " VALUES ";
        for (std::size_t e = i; e < std::min(events.size(), i + static_cast<std::size_t>(perUpdate)); ++e)
            insert += (e > i ? ", " : "") + events[e];
        if (!source(db, insert + ";"))
            return false;
        engine::UpdateOptions options;
        options.now = static_cast<std::int64_t>(60 * (i + 1));
        auto report = engine::runUpdate(db, p, options);
        if (!report) {
            qWarning("update: %s", report.error().format().c_str());
            return false;
        }
    }
    return true;
}

} // namespace

class TestMergeComparison : public QObject {
    Q_OBJECT
private slots:
    void differences_data() {
        QTest::addColumn<QString>("sample");
        QTest::addColumn<QString>("target");
        QTest::addColumn<int>("perUpdate");
        QTest::addColumn<QString>("summary");
        QTest::addColumn<QStringList>("described");

        // Order 2's DELETE (seq 5) arrives before its insert (seq 4). AUTO CDC keeps a tombstone and drops
        // the late insert; the MERGE's delete finds no row, and the late insert brings order 2 back. Order
        // 1's late `paid` (seq 2, after `shipped` seq 3) is applied by the MERGE too, but `delivered` (seq 4)
        // overwrites it again before the end.
        QTest::newRow("SCD1, an event per update")
            << "out-of-order-lab"
            << "orders_current" << 1
            << "MERGE differs from AUTO CDC in 1 row of orders_current: 1 only in MERGE"
            << QStringList{"orderId=2: only in MERGE (2, created, 25.5)"};
        // All in one batch, the MERGE keeps each key's latest row by sequence: order 2's DELETE wins and
        // matches nothing, so both tables agree.
        QTest::newRow("SCD1, one update")
            << "out-of-order-lab"
            << "orders_current" << 8 << "MERGE gives the same table as AUTO CDC for orders_current (2 rows)"
            << QStringList{};
        // SCD 2: the MERGE closes the open version at whatever sequence arrives. Order 1: `shipped` (3)
        // closes `created` at 3, the late `paid` (2) closes `shipped` at 2 — an end before its start — and
        // `delivered` (4) closes `paid` at 4; AUTO CDC slots `paid` in between: created [1,2), paid [2,3),
        // shipped [3,4). Order 2: the DELETE finds no open version, so the late insert stays open; AUTO CDC
        // closes it at the delete's 5.
        QTest::newRow("SCD2, an event per update")
            << "out-of-order-lab"
            << "orders_history" << 1
            << "MERGE differs from AUTO CDC in 4 rows of orders_history: 4 with different cells"
            << QStringList{"orderId=1, __START_AT=1: __END_AT is 3 in MERGE, 2 in AUTO CDC",
                           "orderId=1, __START_AT=2: __END_AT is 4 in MERGE, 3 in AUTO CDC",
                           "orderId=1, __START_AT=3: __END_AT is 2 in MERGE, 4 in AUTO CDC",
                           "orderId=2, __START_AT=4: __END_AT is null in MERGE, 5 in AUTO CDC"};
        // One batch: the MERGE's dedup keeps only order 1's `delivered` and order 2's DELETE, so the history
        // AUTO CDC keeps of the batch's earlier versions is missing.
        QTest::newRow("SCD2, one update")
            << "out-of-order-lab"
            << "orders_history" << 8
            << "MERGE differs from AUTO CDC in 5 rows of orders_history: 5 only in AUTO CDC"
            << QStringList{"orderId=1, __START_AT=1: only in AUTO CDC (1, created, 10.0, 1, 2)",
                           "orderId=1, __START_AT=2: only in AUTO CDC (1, paid, 10.0, 2, 3)",
                           "orderId=1, __START_AT=3: only in AUTO CDC (1, shipped, 10.0, 3, 4)",
                           "orderId=2, __START_AT=4: only in AUTO CDC (2, created, 25.5, 4, 5)",
                           "orderId=3, __START_AT=1: only in AUTO CDC (3, created, 7.0, 1, 2)"};
        // The seed tutorial: Isabel (123) is deleted at 6 and her late update (5) arrives after; the MERGE
        // closed her version at 6 and opens Chihuahua for good — the deleted user is back. Mercedes (125):
        // Guadalajara (6) then the late Mexicali (5): the MERGE closes Guadalajara at 5 and leaves Mexicali
        // open; AUTO CDC keeps Guadalajara current and closes Mexicali at 6.
        QTest::newRow("scd2-users, an event per update")
            << "scd2-users"
            << "users_history" << 1
            << "MERGE differs from AUTO CDC in 5 rows of users_history: 5 with different cells"
            << QStringList{"userId=123, __START_AT=1: __END_AT is 6 in MERGE, 5 in AUTO CDC",
                           "userId=123, __START_AT=5: __END_AT is null in MERGE, 6 in AUTO CDC",
                           "userId=125, __START_AT=2: __END_AT is 6 in MERGE, 5 in AUTO CDC",
                           "userId=125, __START_AT=5: __END_AT is null in MERGE, 6 in AUTO CDC",
                           "userId=125, __START_AT=6: __END_AT is 5 in MERGE, null in AUTO CDC"};
    }

    void differences() {
        QFETCH(QString, sample);
        QFETCH(QString, target);
        QFETCH(int, perUpdate);
        QFETCH(QString, summary);
        QFETCH(QStringList, described);
        auto db = openDb();
        const auto p = parse(sampleFile(sample.toStdString(), "pipeline.sql"));
        QVERIFY(runSample(db, p, sample.toStdString(), perUpdate));
        auto c = engine::compareWithMerge(db, p, target.toStdString());
        QVERIFY2(c.ok(), c.ok() ? "" : c.error().format().c_str());
        QCOMPARE(QString::fromStdString(c->summary()), summary);
        QStringList actual;
        for (const auto& d : c->differences)
            actual << QString::fromStdString(c->describe(d));
        QCOMPARE(actual, described);
        QCOMPARE(c->events, std::size_t(8));
        QCOMPARE(c->updates, 8 / perUpdate);
    }

    /// The Databricks SQL: the textbook clauses, no sequence comparison with the stored row.
    void sqlIsTheTextbookMerge() {
        auto db = openDb();
        const auto p = parse(sampleFile("out-of-order-lab", "pipeline.sql"));
        QVERIFY(source(db, sampleFile("out-of-order-lab", "sources.sql")));
        auto scd1 = engine::compareWithMerge(db, p, "orders_current");
        QVERIFY(scd1.ok());
        const QString sql1 = QString::fromStdString(scd1->sql);
        for (const char* clause :
             {"MERGE INTO orders_current AS t", "PARTITION BY orderId ORDER BY seq DESC", "WHERE __rn = 1",
              "ON t.orderId = s.orderId", "WHEN MATCHED AND s.__is_delete THEN DELETE",
              "WHEN MATCHED THEN UPDATE SET t.status = s.status, t.amount = s.amount",
              "WHEN NOT MATCHED AND NOT s.__is_delete THEN\n  INSERT (orderId, status, amount) VALUES "
              "(s.orderId, "
              "s.status, s.amount);"})
            QVERIFY2(sql1.contains(clause), qPrintable(sql1));
        QVERIFY(scd1->identical()); // nothing delivered yet: both tables are empty
        auto scd2 = engine::compareWithMerge(db, p, "orders_history");
        QVERIFY(scd2.ok());
        const QString sql2 = QString::fromStdString(scd2->sql);
        for (const char* clause : {"MERGE INTO orders_history AS t", "UNION ALL",
                                   "ON t.orderId = s.__merge_orderId AND t.__END_AT IS NULL",
                                   "WHEN MATCHED THEN UPDATE SET t.__END_AT = s.__seq",
                                   "VALUES (s.orderId, s.status, s.amount, s.__seq, NULL);"})
            QVERIFY2(sql2.contains(clause), qPrintable(sql2));
    }

    /// What the textbook MERGE does not have: IGNORE NULL UPDATES (its UPDATE SET writes the NULL) and APPLY
    /// AS TRUNCATE (its rows, with no key, are left out of the batch instead of inserted as a NULL key).
    void autoCdcOnlyOptionsAreLeftOut() {
        auto db = openDb();
        const auto p = parse(R"(CREATE OR REFRESH STREAMING TABLE t;
CREATE FLOW f AS AUTO CDC INTO t FROM stream(src) KEYS (id) IGNORE NULL UPDATES
APPLY AS DELETE WHEN op = 'DELETE' APPLY AS TRUNCATE WHEN op = 'TRUNCATE'
SEQUENCE BY seq COLUMNS * EXCEPT (op, seq) STORED AS SCD TYPE 1;)");
        QVERIFY(source(db, "CREATE TABLE src (id INT, v STRING, op STRING, seq INT);"));
        for (const char* row :
             {"(null, null, 'TRUNCATE', 0)", "(1, 'a', 'UPSERT', 1)", "(1, null, 'UPSERT', 2)"}) {
            QVERIFY(source(db, std::string("INSERT INTO src VALUES ") + row + ";"));
            QVERIFY(engine::runUpdate(db, p, {}).ok());
        }
        auto c = engine::compareWithMerge(db, p, "t");
        QVERIFY2(c.ok(), c.ok() ? "" : c.error().format().c_str());
        QStringList actual;
        for (const auto& d : c->differences)
            actual << QString::fromStdString(c->describe(d));
        QCOMPARE(actual, QStringList{"id=1: v is null in MERGE, a in AUTO CDC"});
        QCOMPARE(c->events, std::size_t(2)); // the truncate is not one of the MERGE's
        const QString sql = QString::fromStdString(c->sql);
        QVERIFY2(sql.contains("-- IGNORE NULL UPDATES is AUTO CDC's") &&
                     sql.contains("WHERE NOT coalesce(op = 'TRUNCATE', false)"),
                 qPrintable(sql));
    }

    void unknownTargetIsAnError() {
        auto db = openDb();
        const auto p = parse(sampleFile("out-of-order-lab", "pipeline.sql"));
        QVERIFY(source(db, sampleFile("out-of-order-lab", "sources.sql")));
        auto c = engine::compareWithMerge(db, p, "nope");
        QVERIFY(!c.ok());
        QCOMPARE(QString::fromStdString(c.error().code), QStringLiteral("NO_SUCH_TARGET"));
        QCOMPARE(engine::mergeComparableTargets(p),
                 (std::vector<std::string>{"orders_current", "orders_history"}));
    }
};

QTEST_GUILESS_MAIN(TestMergeComparison)
#include "tst_merge_comparison.moc"
