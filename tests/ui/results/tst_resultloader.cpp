// loadTargetSnapshots over real engine updates of the doc example, and what the models make of it.
#include "../../engine/EngineTestUtil.h"
#include "ResultFixtures.h"

#include "core/sql/SqlApi.h"
#include "ui/model/results/Scd2TimelineModel.h"
#include "ui/model/results/TargetRowsModel.h"
#include "ui/model/results/TargetSnapshot.h"
#include "ui/model/results/TombstoneModel.h"

#include <QtTest>

using namespace enginetest;
using cdc::ui::RowChange;

class TestResultLoader : public QObject {
    Q_OBJECT
private slots:
    void emptyBeforeTheFirstUpdate();
    void docExampleInTwoUpdatesThenGc();
    void samplePipelineThroughSql_data();
    void samplePipelineThroughSql();
};

namespace {

const cdc::ui::TargetSnapshot& snapshotOf(const QList<cdc::ui::TargetSnapshot>& list, const char* target) {
    const cdc::ui::TargetSnapshot* s = cdc::ui::findSnapshot(list, QString::fromLatin1(target));
    if (!s)
        qFatal("no snapshot for %s", target);
    return *s;
}

} // namespace

void TestResultLoader::emptyBeforeTheFirstUpdate() {
    auto db = openDb();
    createUsers(db);
    const auto p = pipelineOf({seedFlow("users", "users_cdf", 1)});
    auto snapshots = cdc::ui::loadTargetSnapshots(db, cdc::ui::targetOrder(p));
    QVERIFY(snapshots.ok());
    QVERIFY(snapshots->isEmpty()); // no update has created the target yet
}

void TestResultLoader::docExampleInTwoUpdatesThenGc() {
    auto db = openDb();
    createUsers(db);
    const auto p = pipelineOf({seedFlow("users", "users_cdf", 1), seedFlow("users_scd2", "users_cdf", 2)});
    const auto events = seedRows();
    insert(db, "users_cdf", {events.begin(), events.begin() + 4});
    QCOMPARE(update(db, p, 1000).updateId, 1);
    insert(db, "users_cdf", {events.begin() + 4, events.end()});
    QCOMPARE(update(db, p, 2000).updateId, 2);

    auto loaded = cdc::ui::loadTargetSnapshots(db, cdc::ui::targetOrder(p));
    QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().format().c_str());
    QCOMPARE(loaded->size(), 2);

    const auto& scd2 = snapshotOf(*loaded, "users_scd2");
    QVERIFY(scd2.scd2);
    QCOMPARE(scd2.updateId, 2);
    QCOMPARE(scd2.keyColumns, QStringList{"userId"});
    QCOMPARE(scd2.sequenceType, QStringLiteral("INT"));
    QCOMPARE(cdc::test::rowTexts(scd2.rows),
             (QStringList{"123 Isabel Monterrey 1 5", "123 Isabel Chihuahua 5 6", "124 Raul Oaxaca 1 null",
                          "125 Mercedes Tijuana 2 5", "125 Mercedes Mexicali 5 6",
                          "125 Mercedes Guadalajara 6 null", "126 Lily Cancun 2 null"}));
    QVERIFY(!scd2.changes.rows.empty());
    cdc::ui::TombstoneModel scd2Tombstones;
    scd2Tombstones.setSnapshot(scd2);
    QCOMPARE(scd2Tombstones.rowCount(), 1); // the delete of 123, kept as SCD2 history
    QCOMPARE(scd2Tombstones.status(0), QStringLiteral("Kept"));
    QCOMPARE(scd2Tombstones.index(0, 3).data().toString(), QStringLiteral("never"));

    cdc::ui::TargetRowsModel rows;
    rows.setSnapshot(scd2);
    QCOMPARE(rows.rowChange(0), RowChange::Closed);   // Monterrey [1, null) -> [1, 5)
    QCOMPARE(rows.rowChange(1), RowChange::Inserted); // Chihuahua [5, 6)
    QCOMPARE(rows.rowChange(2), RowChange::None);
    QCOMPARE(rows.rowChange(3), RowChange::Closed);
    QCOMPARE(rows.rowChange(4), RowChange::Inserted);
    QCOMPARE(rows.rowChange(5), RowChange::Inserted);
    QCOMPARE(rows.rowChange(6), RowChange::None);
    QCOMPARE(rows.totalRows(), 7);

    cdc::ui::Scd2TimelineModel timeline;
    timeline.setSnapshot(scd2);
    QCOMPARE(timeline.lanes().size(), 4);
    QVERIFY(timeline.lanes()[0].bars[1].closedByDelete);
    QCOMPARE(timeline.barLabel(timeline.lanes()[2].bars[1]), QStringLiteral("Mercedes \u00b7 Mexicali"));

    const auto& scd1 = snapshotOf(*loaded, "users");
    QVERIFY(!scd1.scd2);
    QCOMPARE(cdc::test::rowTexts(scd1.rows),
             (QStringList{"124 Raul Oaxaca", "125 Mercedes Guadalajara", "126 Lily Cancun"}));
    rows.setSnapshot(scd1);
    QCOMPARE(rows.totalRows(), 4); // + the ghost of 123
    QCOMPARE(rows.rowChange(1), RowChange::Updated);
    QCOMPARE(rows.rowChange(3), RowChange::Deleted);
    QCOMPARE(rows.index(3, 0).data().toString(), QStringLiteral("123"));
    QCOMPARE(cdc::test::rowTexts(scd1.tombstones).size(), 1);
    QVERIFY(cdc::test::rowTexts(scd1.tombstones)[0].startsWith(QStringLiteral("123 6 ")));
    QVERIFY(scd1.collected.rows.empty());

    cdc::ui::TombstoneModel tombstones;
    tombstones.setSnapshot(scd1);
    QCOMPARE(tombstones.rowCount(), 1);
    QCOMPARE(tombstones.status(0), QStringLiteral("Live"));
    tombstones.setSimulatedNow(2000 + 172800);
    QCOMPARE(tombstones.status(0), QStringLiteral("Due for GC"));

    // Update 3, two days later, reads nothing new but collects the tombstone.
    QCOMPARE(update(db, p, 2000 + 172800 + 1).updateId, 3);
    loaded = cdc::ui::loadTargetSnapshots(db, cdc::ui::targetOrder(p));
    QVERIFY(loaded.ok());
    const auto& gc = snapshotOf(*loaded, "users");
    QCOMPARE(gc.updateId, 3);
    QVERIFY(gc.tombstones.rows.empty());
    QCOMPARE(gc.collected.rows.size(), std::size_t(1));
    tombstones.setSnapshot(gc);
    QCOMPARE(tombstones.rowCount(), 1);
    QCOMPARE(tombstones.index(0, 0).data().toString(), QStringLiteral("123"));
    QCOMPARE(tombstones.status(0), QStringLiteral("Collected in update 3"));
    rows.setSnapshot(gc);
    QCOMPARE(rows.totalRows(), 3);
    QCOMPARE(
        rows.count(RowChange::Inserted) + rows.count(RowChange::Updated) + rows.count(RowChange::Deleted), 0);
}

namespace {
std::string readSample(const QString& sample, const char* file) {
    QFile f(QStringLiteral(CDC_SOURCE_DIR "/samples/%1/%2").arg(sample, QString::fromLatin1(file)));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(f.fileName()));
    return f.readAll().toStdString();
}
} // namespace

void TestResultLoader::samplePipelineThroughSql_data() {
    QTest::addColumn<QString>("sample");
    QTest::addColumn<QStringList>("rows");
    QTest::addColumn<QStringList>("tracked");
    QTest::newRow("scd2-users") << "scd2-users"
                                << QStringList{"123 Isabel Monterrey 1 5",  "123 Isabel Chihuahua 5 6",
                                               "124 Raul Oaxaca 1 null",    "125 Mercedes Tijuana 2 5",
                                               "125 Mercedes Mexicali 5 6", "125 Mercedes Guadalajara 6 null",
                                               "126 Lily Cancun 2 null"}
                                << QStringList{};
    QTest::newRow("scd2-track-history")
        << "scd2-track-history"
        << QStringList{"123 Isabel Chihuahua 1 6", "124 Raul Oaxaca 1 null",
                       "125 Mercedes Guadalajara 2 null", "126 Lily Cancun 2 null"}
        << QStringList{"name"};
}

void TestResultLoader::samplePipelineThroughSql() {
    // The user's path: source SQL, pipeline SQL, events in two updates (the late batch second).
    QFETCH(QString, sample);
    QFETCH(QStringList, rows);
    QFETCH(QStringList, tracked);
    auto db = openDb();
    auto created = cdc::sql::executeSourceScript(db, readSample(sample, "sources.sql"), "sources.sql");
    QVERIFY2(created.ok(), created.ok() ? "" : created.error().format().c_str());
    const auto parsed = cdc::sql::parsePipeline(readSample(sample, "pipeline.sql"), "pipeline.sql");
    QVERIFY(!parsed.hasErrors());
    const char* first =
        "INSERT INTO main.cdc_tutorial.users_cdf VALUES (124, 'Raul', 'Oaxaca', 'INSERT', 1), "
        "(123, 'Isabel', 'Monterrey', 'INSERT', 1), (125, 'Mercedes', 'Tijuana', 'INSERT', 2), "
        "(126, 'Lily', 'Cancun', 'INSERT', 2), (123, null, null, 'DELETE', 6), "
        "(125, 'Mercedes', 'Guadalajara', 'UPDATE', 6)";
    const char* late =
        "INSERT INTO main.cdc_tutorial.users_cdf VALUES (125, 'Mercedes', 'Mexicali', 'UPDATE', 5), "
        "(123, 'Isabel', 'Chihuahua', 'UPDATE', 5)";
    QVERIFY(cdc::sql::executeSourceScript(db, first, "events.sql").ok());
    QCOMPARE(update(db, parsed.pipeline, 1000).updateId, 1);
    QVERIFY(cdc::sql::executeSourceScript(db, late, "events.sql").ok());
    QCOMPARE(update(db, parsed.pipeline, 1100).updateId, 2);

    auto loaded = cdc::ui::loadTargetSnapshots(db, cdc::ui::targetOrder(parsed.pipeline));
    QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().format().c_str());
    QCOMPARE(loaded->size(), 1);
    const cdc::ui::TargetSnapshot& s = loaded->first();
    QCOMPARE(s.target, QStringLiteral("users_history"));
    QVERIFY(s.scd2);
    QCOMPARE(s.trackedColumns, tracked);
    QCOMPARE(cdc::test::rowTexts(s.rows), rows);

    // What the query pane would show is what the views show.
    auto viaSql = cdc::sql::runQuery(db, "SELECT * FROM users_history ORDER BY userId, __START_AT");
    QVERIFY2(viaSql.ok(), viaSql.ok() ? "" : viaSql.error().format().c_str());
    QCOMPARE(cdc::test::rowTexts(viaSql.value()), rows);
    auto feed = cdc::sql::runQuery(db, "SELECT * FROM table_changes('users_history', 2, 2)");
    QVERIFY2(feed.ok(), feed.ok() ? "" : feed.error().format().c_str());
    QCOMPARE(QStringList(cdc::test::rowTexts(feed.value())), cdc::test::rowTexts(s.changes));

    // The late batch (update 2) split or updated versions: something is highlighted, nothing is lost.
    cdc::ui::TargetRowsModel model;
    model.setSnapshot(s);
    QVERIFY(model.count(RowChange::Inserted) + model.count(RowChange::Updated) +
                model.count(RowChange::Closed) >
            0);
    QCOMPARE(model.totalRows(), static_cast<int>(rows.size()) + model.count(RowChange::Deleted));
}

QTEST_MAIN(TestResultLoader)
#include "tst_resultloader.moc"
