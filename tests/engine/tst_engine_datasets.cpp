// Append flows and materialized views (issue 15): rewind restores every table exactly, a full refresh
// rebuilds what the updates built, and a property: any split of one append stream into updates gives the
// same table (the reference is the stream's rows themselves, filtered and projected by hand).

#include "EngineTestUtil.h"
#include "SqlTestUtil.h"

#include <QtTest/QtTest>

#include <random>

using namespace enginetest;

namespace {

/// An append table fed by two flows, one ONCE, and materialized views over it and over each other.
constexpr const char* kPipeline = R"sql(
CREATE OR REFRESH STREAMING TABLE sales;
CREATE FLOW backfill AS INSERT INTO ONCE sales BY NAME SELECT id, amount, 'archive' AS origin FROM archive;
CREATE FLOW live AS INSERT INTO sales BY NAME SELECT id, amount * 2 AS amount FROM STREAM(events) WHERE amount > 0;
CREATE MATERIALIZED VIEW top AS SELECT max(total) AS best FROM totals;
CREATE MATERIALIZED VIEW totals AS SELECT id, sum(amount) AS total FROM sales GROUP BY id;
CREATE OR REFRESH STREAMING TABLE sales_copy AS SELECT id, amount FROM STREAM(sales);
)sql";

} // namespace

class TestEngineDatasets : public QObject {
    Q_OBJECT

private slots:
    void rewindRestoresEveryTable();
    void fullRefreshRebuilds();
    void anySplitGivesTheSameTable_data();
    void anySplitGivesTheSameTable();
    void computedColumnsAreTyped();
};

/// A materialized view's or append table's computed column has the type Spark gives it over the columns the
/// query reads (sum of an INT is a BIGINT), not none: the catalog says so, and so do the result views.
void TestEngineDatasets::computedColumnsAreTyped() {
    auto db = openDb();
    QVERIFY(source(db, "CREATE TABLE archive (id INT, amount INT); CREATE TABLE events (id INT, amount INT);"
                       "INSERT INTO archive VALUES (1, 5), (2, 7); INSERT INTO events VALUES (1, 1);"));
    QVERIFY(update(db, parse(kPipeline), 1000).updateId > 0);
    const auto columns = [&](const char* table) {
        QStringList out;
        auto info = storage::Catalog::find(db, table);
        if (info && info.value())
            for (const auto& c : info.value()->columns)
                out << QString::fromStdString(c.name + " " + c.type.toString());
        return out;
    };
    QCOMPARE(columns("totals"), QStringList({"id INT", "total BIGINT"}));
    QCOMPARE(columns("top"), QStringList({"best BIGINT"}));
    QCOMPARE(columns("sales"), QStringList({"id INT", "amount INT", "origin STRING"}));
}

void TestEngineDatasets::rewindRestoresEveryTable() {
    auto db = openDb();
    QVERIFY(source(db, "CREATE TABLE archive (id INT, amount INT); CREATE TABLE events (id INT, amount INT);"
                       "INSERT INTO archive VALUES (1, 5), (2, 7);"));
    const QStringList sources{"archive", "events", "__cdc_source_changes"};
    const auto p = parse(kPipeline);
    std::vector<QStringList> after{databaseDump(db, sources)};
    const char* batches[] = {"INSERT INTO events VALUES (1, 1), (3, 4);",
                             "INSERT INTO events VALUES (3, -1);",
                             "INSERT INTO events VALUES (2, 9), (1, 2);"};
    for (const char* batch : batches) {
        QVERIFY(source(db, batch));
        QVERIFY(update(db, p, 1000 * static_cast<std::int64_t>(after.size())).updateId > 0);
        after.push_back(databaseDump(db, sources));
    }
    QCOMPARE(target(db, "top"), QStringList{"25"});
    QCOMPARE(target(db, "totals"), QStringList({"1\t11", "2\t25", "3\t8"}));
    for (std::int64_t u = 2; u >= 0; --u) {
        QVERIFY(engine::rewindTo(db, u).ok());
        QCOMPARE(databaseDump(db, sources), after[static_cast<std::size_t>(u)]);
    }
}

void TestEngineDatasets::fullRefreshRebuilds() {
    auto db = openDb();
    QVERIFY(source(db, "CREATE TABLE archive (id INT, amount INT); CREATE TABLE events (id INT, amount INT);"
                       "INSERT INTO archive VALUES (1, 5); INSERT INTO events VALUES (1, 1);"));
    const auto p = parse(kPipeline);
    QVERIFY(update(db, p, 1000).updateId == 1);
    QVERIFY(source(db, "INSERT INTO archive VALUES (2, 3); INSERT INTO events VALUES (2, 2);"));
    QVERIFY(update(db, p, 2000).updateId == 2);
    // The ONCE backfill ran in update 1 only: archive row 2 is not there.
    QCOMPARE(target(db, "sales"), QStringList({"1\t2\tnull", "1\t5\tarchive", "2\t4\tnull"}));
    engine::UpdateOptions o;
    o.now = 3000;
    o.fullRefresh = true;
    auto r = engine::runUpdate(db, p, o);
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().format().c_str());
    QCOMPARE(target(db, "sales"),
             QStringList({"1\t2\tnull", "1\t5\tarchive", "2\t3\tarchive", "2\t4\tnull"}));
    QCOMPARE(target(db, "totals"), QStringList({"1\t7", "2\t7"}));
    // A stream of the refreshed table reads its restatement only, not its history as well.
    QCOMPARE(target(db, "sales_copy"), QStringList({"1\t2", "1\t5", "2\t3", "2\t4"}));
    QCOMPARE(target(db, "top"), QStringList{"7"});
    // The refresh's change feed restates the table: the new rows only, as inserts.
    QCOMPARE(rows(db, "SELECT id, amount, _change_type FROM __cdf_sales WHERE _commit_version = 3"),
             QStringList({"1\t2\tinsert", "1\t5\tinsert", "2\t3\tinsert", "2\t4\tinsert"}));
}

void TestEngineDatasets::anySplitGivesTheSameTable_data() {
    QTest::addColumn<unsigned>("seed");
    for (unsigned seed = 1; seed <= 40; ++seed)
        QTest::newRow(qPrintable(QString("seed %1").arg(seed))) << seed;
}

void TestEngineDatasets::anySplitGivesTheSameTable() {
    // A random stream of (id, amount, tag) rows delivered in random batches, with updates at random points;
    // the append table must hold exactly the stream's rows that pass the filter, projected, once each.
    QFETCH(unsigned, seed);
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> count(1, 30), amount(-3, 9), tag(0, 2), split(0, 3);
    const char* tags[] = {"a", "b", "c"};
    auto db = openDb();
    QVERIFY(source(db, "CREATE TABLE events (id INT, amount INT, tag STRING);"));
    const auto p = parse(R"sql(
CREATE TEMPORARY VIEW positive AS SELECT id, amount, upper(tag) AS tag FROM STREAM(events) WHERE amount > 0;
CREATE OR REFRESH STREAMING TABLE kept AS SELECT * FROM STREAM(positive);
CREATE MATERIALIZED VIEW per_tag AS SELECT tag, count(*) AS n FROM kept GROUP BY tag;
)sql");
    QStringList expected;
    std::map<std::string, int> perTag;
    const int n = count(rng);
    std::int64_t now = 1000;
    for (int e = 0; e < n; ++e) {
        const int a = amount(rng);
        const std::string t = tags[tag(rng)];
        insert(db, "events", {{i(e), i(a), s(t)}});
        if (a > 0) {
            expected << QString("%1\t%2\t%3").arg(e).arg(a).arg(QString::fromStdString(t).toUpper());
            ++perTag[t];
        }
        if (split(rng) == 0)
            QVERIFY(update(db, p, now += 60).updateId > 0);
    }
    QVERIFY(update(db, p, now += 60).updateId > 0);
    expected.sort();
    QCOMPARE(target(db, "kept"), expected);
    QStringList tagCounts;
    for (const auto& [t, c] : perTag)
        tagCounts << QString("%1\t%2").arg(QString::fromStdString(t).toUpper()).arg(c);
    QCOMPARE(target(db, "per_tag"), tagCounts);
}

QTEST_GUILESS_MAIN(TestEngineDatasets)
#include "tst_engine_datasets.moc"
