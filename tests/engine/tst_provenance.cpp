// Provenance (issue 17 §1): for a key of an AUTO CDC target, every event in sequence order with its fate and
// the update that delivered it, and which event set each current value. The cases are the seed tutorial's
// SCD1 and SCD2 examples, delivered in the batches its comments name, and one case per fate the rule book
// gives an event: stale, blocked by a tombstone, resurrected after GC, removed by / below a TRUNCATE, a tie
// decided by arrival, and partial updates taking columns from different events.
#include "EngineTestUtil.h"
#include "SqlTestUtil.h"

#include "core/engine/Provenance.h"

#include <QtTest/QtTest>

using namespace enginetest;

namespace {

constexpr const char* kSeedSource = R"sql(
CREATE TABLE users_cdf (userId INT, name STRING, city STRING, operation STRING, sequenceNum INT);
)sql";

std::string seedPipeline(int scd) {
    return "CREATE OR REFRESH STREAMING TABLE users;\n"
           "CREATE FLOW apply_cdc AS AUTO CDC INTO users FROM stream(users_cdf) KEYS (userId)\n"
           "APPLY AS DELETE WHEN operation = \"DELETE\"\n"
           "SEQUENCE BY sequenceNum COLUMNS * EXCEPT (operation, sequenceNum) STORED AS SCD TYPE " +
           std::to_string(scd) + ";";
}

// The seed's events in the four batches its comments describe: initial load, new users, Isabel removed and
// Mercedes moved, and the late batch at sequence 5.
const QStringList kSeedBatches = {
    R"(INSERT INTO users_cdf VALUES (124, "Raul", "Oaxaca", "INSERT", 1), (123, "Isabel", "Monterrey", "INSERT", 1))",
    R"(INSERT INTO users_cdf VALUES (125, "Mercedes", "Tijuana", "INSERT", 2), (126, "Lily", "Cancun", "INSERT", 2))",
    R"(INSERT INTO users_cdf VALUES (123, null, null, "DELETE", 6), (125, "Mercedes", "Guadalajara", "UPDATE", 6))",
    R"(INSERT INTO users_cdf VALUES (125, "Mercedes", "Mexicali", "UPDATE", 5), (123, "Isabel", "Chihuahua", "UPDATE", 5))",
};

/// "sequence fate @update" per event, in the explanation's order.
QStringList fates(const engine::Explanation& e) {
    QStringList out;
    for (const auto& ev : e.events)
        out << QString::fromStdString(displayText(ev.sequence) + (ev.isDelete ? " delete " : " ") +
                                      engine::fateName(ev.fate) + " @" + std::to_string(ev.update));
    return out;
}

/// "column=value<-sequence" per current column.
QStringList origins(const engine::Explanation& e) {
    QStringList out;
    for (const auto& c : e.current)
        out << QString::fromStdString(
            c.column + "=" + displayText(c.value) + "<-" +
            (c.event < 0 ? std::string("none")
                         : displayText(e.events[static_cast<std::size_t>(c.event)].sequence)));
    return out;
}

} // namespace

class TestProvenance : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { sql::installSparkFunctions(); }
    void explainsKeys_data();
    void explainsKeys();
    void whyTextNamesTheEvents();
    void projectIsNotChanged();
    void keyFromText();
};

void TestProvenance::explainsKeys_data() {
    QTest::addColumn<QString>("sources");
    QTest::addColumn<QString>("pipeline");
    QTest::addColumn<QStringList>("batches"); ///< one update each, 60 s apart
    QTest::addColumn<QString>("target");
    QTest::addColumn<qint64>("key");
    QTest::addColumn<QStringList>("fates");
    QTest::addColumn<QString>("summary"); ///< a part of it
    QTest::addColumn<QStringList>("origins");

    const QString seed = kSeedSource, scd1 = QString::fromStdString(seedPipeline(1)),
                  scd2 = QString::fromStdString(seedPipeline(2));
    // SCD1: Isabel's delete at 6 arrives before her update at 5, whose tombstone blocks it.
    QTest::newRow("scd1 seed: 123 deleted, late update blocked")
        << seed << scd1 << kSeedBatches << "users" << qint64(123)
        << QStringList{"1 superseded @1", "5 blocked by tombstone @4", "6 delete tombstone @3"}
        << "is deleted: the delete at 6 (users_cdf row 5) (update 3)" << QStringList{};
    // Mercedes' move to Guadalajara (6) is applied; Mexicali (5) arrives after it and is stale.
    QTest::newRow("scd1 seed: 125 late update stale")
        << seed << scd1 << kSeedBatches << "users" << qint64(125)
        << QStringList{"2 superseded @2", "5 stale @4", "6 current @3"}
        << "is live: its row is the sequence 6 (users_cdf row 6)"
        << QStringList{"userId=125<-6", "name=Mercedes<-6", "city=Guadalajara<-6"};
    QTest::newRow("scd1 seed: 124 untouched")
        << seed << scd1 << kSeedBatches << "users" << qint64(124) << QStringList{"1 current @1"} << "is live"
        << QStringList{"userId=124<-1", "name=Raul<-1", "city=Oaxaca<-1"};
    // SCD2, one update with all the seed's events: user 123 has no open version because the delete at 6
    // closed Chihuahua's; Mercedes' Mexicali version is closed at 6 by the move to Guadalajara.
    const QStringList oneUpdate{kSeedBatches.join(";\n")};
    QTest::newRow("scd2 seed: 123 no open version")
        << seed << scd2 << oneUpdate << "users" << qint64(123)
        << QStringList{"1 opened version @1", "5 opened version @1", "6 delete closed version @1"}
        << "has no open version: its last version [5, 6) was closed at 6 by the delete at 6" << QStringList{};
    QTest::newRow("scd2 seed: 125 Mexicali closed at 6")
        << seed << scd2 << oneUpdate << "users" << qint64(125)
        << QStringList{"2 opened version @1", "5 opened version @1", "6 opened version @1"}
        << "has an open version since 6"
        << QStringList{"userId=125<-6", "name=Mercedes<-6", "city=Guadalajara<-6"};
    // Delivered in the seed's batches the late Mexicali event splits Guadalajara's predecessor.
    QTest::newRow("scd2 seed batches: late event put in its place")
        << seed << scd2 << kSeedBatches << "users" << qint64(125)
        << QStringList{"2 opened version @2", "5 opened version @4", "6 opened version @3"}
        << "has an open version since 6"
        << QStringList{"userId=125<-6", "name=Mercedes<-6", "city=Guadalajara<-6"};

    // A tombstone kept 30 s, collected before the late upsert arrives (updates are 60 s apart).
    const QString feed = "CREATE TABLE feed (id INT, name STRING, op STRING, seq INT);";
    const auto pipelineWith = [](const QString& options, const QString& table = {}) {
        return "CREATE OR REFRESH STREAMING TABLE people " + table +
               ";\nCREATE FLOW f AS AUTO CDC INTO people FROM STREAM(feed) KEYS (id) " + options +
               " APPLY AS DELETE WHEN op = 'DELETE' APPLY AS TRUNCATE WHEN op = 'TRUNCATE' SEQUENCE BY seq "
               "COLUMNS * EXCEPT (op, seq);";
    };
    QTest::newRow("resurrected after GC")
        << feed << pipelineWith("", "TBLPROPERTIES ('pipelines.cdc.tombstoneGCThresholdInSeconds' = '30')")
        << QStringList{"INSERT INTO feed VALUES (2, 'Grace', 'UPSERT', 1), (2, NULL, 'DELETE', 3)",
                       "INSERT INTO feed VALUES (2, 'Grace H.', 'UPSERT', 2)"}
        << "people" << qint64(2)
        << QStringList{"1 lost in its update @1", "2 resurrected after GC @2",
                       "3 delete tombstone collected @1"}
        << "is live" << QStringList{"id=2<-2", "name=Grace H.<-2"};
    QTest::newRow("removed by and below a truncate")
        << feed << pipelineWith("")
        << QStringList{"INSERT INTO feed VALUES (1, 'Ada', 'UPSERT', 1)",
                       "INSERT INTO feed VALUES (NULL, NULL, 'TRUNCATE', 3)",
                       "INSERT INTO feed VALUES (1, 'Ada L.', 'UPSERT', 2)"}
        << "people" << qint64(1) << QStringList{"1 removed by truncate @1", "2 before a truncate @3"}
        << "has no row and no tombstone" << QStringList{};
    QTest::newRow("tie decided by arrival")
        << feed << pipelineWith("")
        << QStringList{"INSERT INTO feed VALUES (1, 'first', 'UPSERT', 4), (1, 'second', 'UPSERT', 4)"}
        << "people" << qint64(1) << QStringList{"4 tie lost @1", "4 current @1"} << "is live"
        << QStringList{"id=1<-4", "name=second<-4"};
    const QString wide = "CREATE TABLE feed (id INT, name STRING, city STRING, op STRING, seq INT);";
    QTest::newRow("ignore null updates: columns from two events")
        << wide << pipelineWith("IGNORE NULL UPDATES")
        << QStringList{"INSERT INTO feed VALUES (1, 'Ada', 'London', 'UPSERT', 1)",
                       "INSERT INTO feed VALUES (1, NULL, 'Paris', 'UPSERT', 2)"}
        << "people" << qint64(1) << QStringList{"1 superseded @1", "2 current @2"} << "is live"
        << QStringList{"id=1<-2", "name=Ada<-1", "city=Paris<-2"};
}

void TestProvenance::explainsKeys() {
    QFETCH(QString, sources);
    QFETCH(QString, pipeline);
    QFETCH(QStringList, batches);
    QFETCH(QString, target);
    QFETCH(qint64, key);
    QFETCH(QStringList, fates);
    QFETCH(QString, summary);
    QFETCH(QStringList, origins);
    auto db = openDb();
    QVERIFY(source(db, sources.toStdString()));
    const auto p = parse(pipeline.toStdString());
    std::int64_t now = 1000;
    for (const QString& batch : batches) {
        QVERIFY(source(db, batch.toStdString()));
        QVERIFY(update(db, p, now += 60).updateId > 0);
    }
    auto e = engine::explainKey(db, p, target.toStdString(), {Value(static_cast<std::int64_t>(key))});
    QVERIFY2(e.ok(), e ? "" : e.error().format().c_str());
    QCOMPARE(::fates(e.value()), fates);
    QVERIFY2(QString::fromStdString(e->summary).contains(summary), e->summary.c_str());
    QCOMPARE(::origins(e.value()), origins);
    QVERIFY2(e->notes.empty(), e->notes.empty() ? "" : e->notes.front().c_str());
}

/// The text names each event's source row, update and reason, as the CLI prints it.
void TestProvenance::whyTextNamesTheEvents() {
    auto db = openDb();
    QVERIFY(source(db, kSeedSource));
    const auto p = parse(seedPipeline(1));
    std::int64_t now = 1000;
    for (const QString& batch : kSeedBatches) {
        QVERIFY(source(db, batch.toStdString()));
        QVERIFY(update(db, p, now += 60).updateId > 0);
    }
    auto e = engine::explainKey(db, p, "users", {Value(std::int64_t{125})});
    QVERIFY(e.ok());
    const QString text = QString::fromStdString(engine::explanationText(e.value()));
    QVERIFY2(text.contains("UPSERT 5  update 4  users_cdf row 7  (125, Mercedes, Mexicali)"),
             qPrintable(text));
    QVERIFY2(text.contains("stale: arrived in update 4, after sequence 6 had been applied"),
             qPrintable(text));
    QVERIFY2(
        text.contains("superseded: applied, then replaced by the sequence 6 (users_cdf row 6) in update 3"),
        qPrintable(text));
    QVERIFY2(text.contains("city = Guadalajara  <- sequence 6 (update 3)"), qPrintable(text));
}

/// Explaining reads the project and replays in a scratch copy: the project's rows and updates stay as they
/// were.
void TestProvenance::projectIsNotChanged() {
    auto db = openDb();
    QVERIFY(source(db, kSeedSource));
    const auto p = parse(seedPipeline(2));
    std::int64_t now = 1000;
    for (const QString& batch : kSeedBatches) {
        QVERIFY(source(db, batch.toStdString()));
        QVERIFY(update(db, p, now += 60).updateId > 0);
    }
    QVERIFY(source(db, R"(INSERT INTO users_cdf VALUES (123, "Isabel", "Puebla", "INSERT", 9))")); // queued
    const QStringList before = databaseDump(db, {"users_cdf"});
    auto e = engine::explainKey(db, p, "users", {Value(std::int64_t{123})});
    QVERIFY(e.ok());
    QCOMPARE(databaseDump(db, {"users_cdf"}), before);
    // The queued row was not delivered: it is no event of the explanation.
    QCOMPARE(e->events.size(), std::size_t{3});
}

void TestProvenance::keyFromText() {
    auto db = openDb();
    QVERIFY(source(db, kSeedSource));
    QVERIFY(source(db, kSeedBatches.front().toStdString()));
    QVERIFY(update(db, parse(seedPipeline(1))).updateId > 0);
    auto key = engine::keyFromText(db, "users", {{"USERID", "123"}});
    QVERIFY(key.ok());
    QCOMPARE(std::get<std::int64_t>(key->front()), std::int64_t{123});
    QCOMPARE(engine::keyFromText(db, "users", {{"userId", "x"}}).error().code, std::string("INVALID_KEY"));
    QCOMPARE(engine::keyFromText(db, "users", {{"name", "x"}}).error().code, std::string("INVALID_KEY"));
    QCOMPARE(engine::keyFromText(db, "users", {}).error().code, std::string("INVALID_KEY"));
    QCOMPARE(engine::keyFromText(db, "nope", {{"userId", "1"}}).error().code, std::string("UNKNOWN_TARGET"));
}

QTEST_GUILESS_MAIN(TestProvenance)
#include "tst_provenance.moc"
