// AUTO CDC FROM SNAPSHOT in the engine (semantics.md §7, Part 1 #7, §10.4), through the SQL front end as
// users write it: the errors (positioned, nothing written), rewind and the change feed of a snapshot update,
// one SCD1 ordering domain with AUTO CDC flows, ONCE, and the property that snapshots applied one update
// at a time build the same target as all of them replayed by a full refresh.

#include "EngineTestUtil.h"
#include "SqlTestUtil.h"
#include "core/engine/Engine.h"
#include "core/sql/SqlApi.h"

#include <QRandomGenerator>
#include <QtTest/QtTest>

using namespace cdc;
using enginetest::databaseDump;
using enginetest::parse;
using enginetest::rows;
using enginetest::source;

namespace {

constexpr std::int64_t kStart = 1'790'000'000;

/// The seed's snapshot tables (seed 001, example C5), as its sample-data SQL creates them.
const char* kSeedSource = R"sql(
CREATE TABLE main.cdc_tutorial.snapshot (userId INT, city STRING);
CREATE TABLE main.cdc_tutorial.snapshot_version (version BIGINT);
INSERT INTO main.cdc_tutorial.snapshot VALUES (1, 'Oaxaca'), (2, 'Monterrey'), (3, 'Tijuana');
INSERT INTO main.cdc_tutorial.snapshot_version VALUES (0);
)sql";

/// The seed's second snapshot.
const char* kSeedSecond = R"sql(
TRUNCATE TABLE main.cdc_tutorial.snapshot;
INSERT INTO main.cdc_tutorial.snapshot VALUES (2, 'Carmel'), (3, 'Los Angeles'), (4, 'Death Valley'),
  (6, 'Kings Canyon');
UPDATE main.cdc_tutorial.snapshot_version SET version = 1;
)sql";

/// Seed 001's C5 flow, SCD type `scd`.
std::string seedPipeline(int scd) {
    return "CREATE OR REFRESH STREAMING TABLE target;\n"
           "CREATE FLOW target_snapshot_flow AS AUTO CDC INTO target\n"
           "FROM SNAPSHOT (SELECT userId, city FROM main.cdc_tutorial.snapshot)\n"
           "WITH VERSION (SELECT version FROM main.cdc_tutorial.snapshot_version WHERE (NOT EXISTS (SELECT 1 "
           "FROM last_snapshot_version()) OR version > (SELECT version FROM last_snapshot_version())))\n"
           "KEYS (userId)\nSTORED AS SCD TYPE " +
           std::to_string(scd) + ";\n";
}

Result<engine::UpdateReport> run(storage::Database& db, const pipeline::Pipeline& p, std::int64_t now,
                                 bool fullRefresh = false) {
    engine::UpdateOptions o;
    o.now = now;
    o.fullRefresh = fullRefresh;
    return engine::runUpdate(db, p, o);
}

QStringList table(storage::Database& db, const std::string& name) {
    return rows(db, "SELECT * FROM " + name);
}

QStringList feed(storage::Database& db, const std::string& target, std::int64_t update) {
    auto rs = engine::changeFeed(db, target, update, update);
    if (!rs)
        return {QString::fromStdString(rs.error().format())};
    QStringList out;
    for (const Row& r : rs->rows) {
        QStringList cells;
        for (std::size_t c = 0; c + 2 < r.size(); ++c) // without _commit_version, _commit_timestamp
            cells << QString::fromStdString(displayText(r[c]));
        out << cells.join('\t');
    }
    out.sort();
    return out;
}

/// One snapshot of the property test: id -> (city, score) display texts.
using Snapshot = std::map<int, std::pair<QString, QString>>;

/// The target §7.4's reference algorithm builds from `snapshots` (ascending versions), written from the rule
/// book: SCD1 is the last snapshot; SCD2 closes a key's open version at the first version that lacks the key
/// or changes a tracked column, and updates untracked columns in place.
QStringList expectedTarget(const std::vector<std::pair<std::int64_t, Snapshot>>& snapshots, int scd,
                           bool trackCityOnly) {
    QStringList out;
    if (scd == 1) {
        for (const auto& [id, values] : snapshots.back().second)
            out << QString("%1\t%2\t%3").arg(id).arg(values.first, values.second);
        out.sort();
        return out;
    }
    struct Open {
        QString city, score;
        std::int64_t start;
    };
    std::map<int, Open> open;
    const auto close = [&](int id, const Open& o, const QString& end) {
        out << QString("%1\t%2\t%3\t%4\t%5").arg(id).arg(o.city, o.score).arg(o.start).arg(end);
    };
    for (const auto& [version, snapshot] : snapshots) {
        for (auto it = open.begin(); it != open.end();) {
            if (!snapshot.count(it->first)) {
                close(it->first, it->second, QString::number(version));
                it = open.erase(it);
            } else {
                ++it;
            }
        }
        for (const auto& [id, values] : snapshot) {
            auto it = open.find(id);
            if (it == open.end()) {
                open[id] = {values.first, values.second, version};
                continue;
            }
            const bool trackedChanged =
                it->second.city != values.first || (!trackCityOnly && it->second.score != values.second);
            if (trackedChanged) {
                close(id, it->second, QString::number(version));
                it->second = {values.first, values.second, version};
            } else {
                it->second.score = values.second; // untracked: in place
            }
        }
    }
    for (const auto& [id, o] : open)
        close(id, o, "null");
    out.sort();
    return out;
}

} // namespace

class TestEngineSnapshot : public QObject {
    Q_OBJECT

private slots:
    void errors_data();
    void errors();
    void rewindSnapshotUpdate_data();
    void rewindSnapshotUpdate();
    void changeFeedOfSnapshotUpdate_data();
    void changeFeedOfSnapshotUpdate();
    void oneOrderingDomainWithAutoCdc();
    void onceRunsAgainOnFullRefresh();
    void metrics();
    void periodicAgainAtTheSameTime();
    void perUpdateEqualsFullRefresh_data();
    void perUpdateEqualsFullRefresh();
};

void TestEngineSnapshot::errors_data() {
    QTest::addColumn<QString>("pipelineSql");
    QTest::addColumn<QStringList>("sources"); ///< the source script before each update; the last one fails
    QTest::addColumn<bool>("sameTime");       ///< the failing update runs at the previous update's time
    QTest::addColumn<QString>("code");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");

    const QString periodic = "CREATE OR REFRESH STREAMING TABLE t;\n"
                             "CREATE FLOW f AS AUTO CDC INTO t\nFROM SNAPSHOT main.cdc_tutorial.snapshot\n"
                             "KEYS (userId);\n";
    const QString prefix = "APPLY_CHANGES_FROM_SNAPSHOT_ERROR.";
    QTest::newRow("duplicate key")
        << periodic
        << QStringList{QString(kSeedSource) + "INSERT INTO main.cdc_tutorial.snapshot VALUES (2, 'Carmel');"}
        << false << prefix + "DUPLICATE_KEY_VIOLATION" << 3 << 15;
    QTest::newRow("duplicate key in a later snapshot")
        << periodic
        << QStringList{kSeedSource, "INSERT INTO main.cdc_tutorial.snapshot VALUES (3, 'Carmel');"} << false
        << prefix + "DUPLICATE_KEY_VIOLATION" << 3 << 15;
    QTest::newRow("null key")
        << periodic
        << QStringList{QString(kSeedSource) +
                       "INSERT INTO main.cdc_tutorial.snapshot VALUES (NULL, 'Carmel');"}
        << false << "AUTOCDC_MICROBATCH_VALIDATION.NULL_KEY" << 4 << 7;
    QTest::newRow("periodic snapshot at the same time")
        << periodic << QStringList{kSeedSource, kSeedSecond} << true
        << prefix + "OUT_OF_ORDER_SNAPSHOT_VERSION" << 2 << 1;
    // §7.3: an empty first snapshot cannot be told apart from "no data yet".
    QTest::newRow("empty first snapshot")
        << periodic << QStringList{"CREATE TABLE main.cdc_tutorial.snapshot (userId INT, city STRING);"}
        << false << prefix + "FIRST_SNAPSHOT_EMPTY" << 3 << 15;
    QTest::newRow("empty first snapshot of a version")
        << QString::fromStdString(seedPipeline(2))
        << QStringList{QString(kSeedSource) + "TRUNCATE TABLE main.cdc_tutorial.snapshot;"} << false
        << prefix + "FIRST_SNAPSHOT_EMPTY" << 3 << 16;
    QTest::newRow("null version")
        << QString::fromStdString(seedPipeline(2))
        << QStringList{QString(kSeedSource) + "UPDATE main.cdc_tutorial.snapshot_version SET version = NULL;"}
        << false << prefix + "NULL_SNAPSHOT_VERSION" << 4 << 15;
    const QString unfiltered = "CREATE OR REFRESH STREAMING TABLE t;\n"
                               "CREATE FLOW f AS AUTO CDC INTO t\nFROM SNAPSHOT main.cdc_tutorial.snapshot\n"
                               "WITH VERSION (SELECT version FROM main.cdc_tutorial.snapshot_version)\n"
                               "KEYS (userId) STORED AS SCD TYPE 2;\n";
    // The version query is asked again after each round: one that offers a processed version again fails.
    QTest::newRow("version offered again") << unfiltered << QStringList{kSeedSource} << false
                                           << prefix + "OUT_OF_ORDER_SNAPSHOT_VERSION" << 4 << 15;
    QTest::newRow("lower version")
        << "CREATE OR REFRESH STREAMING TABLE t;\n"
           "CREATE FLOW f AS AUTO CDC INTO t\nFROM SNAPSHOT main.cdc_tutorial.snapshot\n"
           "WITH VERSION (SELECT version FROM main.cdc_tutorial.snapshot_version WHERE version IS DISTINCT "
           "FROM "
           "(SELECT version FROM last_snapshot_version()))\n"
           "KEYS (userId) STORED AS SCD TYPE 2;\n"
        << QStringList{QString(kSeedSource) + "UPDATE main.cdc_tutorial.snapshot_version SET version = 5;",
                       "UPDATE main.cdc_tutorial.snapshot_version SET version = 4;"}
        << false << prefix + "OUT_OF_ORDER_SNAPSHOT_VERSION" << 4 << 15;
    QTest::newRow("current_snapshot_version() in WITH VERSION")
        << "CREATE OR REFRESH STREAMING TABLE t;\n"
           "CREATE FLOW f AS AUTO CDC INTO t\nFROM SNAPSHOT main.cdc_tutorial.snapshot\n"
           "WITH VERSION (SELECT version FROM current_snapshot_version())\nKEYS (userId);\n"
        << QStringList{kSeedSource} << false << "UNRESOLVABLE_TABLE_VALUED_FUNCTION" << 4 << 35;
    QTest::newRow("last_snapshot_version() in the snapshot query")
        << "CREATE OR REFRESH STREAMING TABLE t;\n"
           "CREATE FLOW f AS AUTO CDC INTO t\nFROM SNAPSHOT (SELECT * FROM main.cdc_tutorial.snapshot WHERE "
           "userId > (SELECT version FROM last_snapshot_version()))\n"
           "WITH VERSION (SELECT version FROM main.cdc_tutorial.snapshot_version)\nKEYS (userId);\n"
        << QStringList{kSeedSource} << false << "UNRESOLVABLE_TABLE_VALUED_FUNCTION" << 3 << 93;
    QTest::newRow("current_snapshot_version() in a view")
        << "CREATE TEMPORARY VIEW v AS SELECT * FROM main.cdc_tutorial.snapshot WHERE userId > (SELECT "
           "version FROM current_snapshot_version());\n"
           "CREATE OR REFRESH STREAMING TABLE t;\n"
           "CREATE FLOW f AS AUTO CDC INTO t\nFROM SNAPSHOT v\nKEYS (userId);\n"
        << QStringList{kSeedSource} << false << "UNRESOLVABLE_TABLE_VALUED_FUNCTION" << 1 << 105;
    QTest::newRow("two snapshot flows")
        << periodic + "CREATE FLOW g AS AUTO CDC INTO t\nFROM SNAPSHOT "
                      "main.cdc_tutorial.snapshot\nKEYS (userId);\n"
        << QStringList{kSeedSource} << false << prefix + "MULTIPLE_QUERIES_FOR_TABLE" << 5 << 1;
    const QString events = "CREATE TABLE ev (userId INT, city STRING, seq TIMESTAMP, n BIGINT);";
    QTest::newRow("snapshot and AUTO CDC on SCD2")
        << "CREATE OR REFRESH STREAMING TABLE t;\n"
           "CREATE FLOW f AS AUTO CDC INTO t\nFROM SNAPSHOT main.cdc_tutorial.snapshot\n"
           "KEYS (userId) STORED AS SCD TYPE 2;\n"
           "CREATE FLOW g AS AUTO CDC INTO t FROM STREAM(ev) KEYS (userId) SEQUENCE BY seq COLUMNS * EXCEPT "
           "(seq, n) STORED AS SCD TYPE 2;\n"
        << QStringList{QString(kSeedSource) + events} << false << prefix + "INTEROP_SCD2_NOT_SUPPORTED" << 5
        << 1;
    QTest::newRow("AUTO CDC with another sequence type")
        << periodic +
               "CREATE FLOW g AS AUTO CDC INTO t FROM STREAM(ev) KEYS (userId) SEQUENCE BY n COLUMNS * "
               "EXCEPT (seq, n);\n"
        << QStringList{QString(kSeedSource) + events} << false << "INCOMPATIBLE_FLOWS" << 5 << 1;
    QTest::newRow("AUTO CDC with IGNORE NULL UPDATES")
        << periodic + "CREATE FLOW g AS AUTO CDC INTO t FROM STREAM(ev) KEYS (userId) IGNORE NULL UPDATES "
                      "SEQUENCE BY seq COLUMNS * EXCEPT (seq, n);\n"
        << QStringList{QString(kSeedSource) + events} << false << prefix + "INTEROP_IGNORE_NULL_UNSUPPORTED"
        << 5 << 1;
}

void TestEngineSnapshot::errors() {
    QFETCH(QString, pipelineSql);
    QFETCH(QStringList, sources);
    QFETCH(bool, sameTime);
    QFETCH(QString, code);
    QFETCH(int, line);
    QFETCH(int, column);
    auto db = enginetest::openDb();
    const auto p = sql::parsePipeline(pipelineSql.toStdString(), "pipeline.sql");
    QVERIFY2(!p.hasErrors(), p.hasErrors() ? p.firstError()->format().c_str() : "");
    QVERIFY(source(db, "CREATE SCHEMA IF NOT EXISTS main.cdc_tutorial;"));
    std::int64_t now = kStart;
    for (int u = 0; u < sources.size(); ++u) {
        QVERIFY(source(db, sources[u].toStdString()));
        if (!(sameTime && u == sources.size() - 1))
            now += 3600;
        if (u + 1 < sources.size()) {
            auto ok = run(db, p.pipeline, now);
            QVERIFY2(ok.ok(), ok.ok() ? "" : ok.error().format().c_str());
            continue;
        }
        // The update's set-up may have created the target (empty); no row of any table changes.
        const QStringList before = databaseDump(db, {}, false);
        auto failed = run(db, p.pipeline, now);
        QVERIFY(!failed.ok());
        QCOMPARE(QString::fromStdString(failed.error().code), code);
        if (code.startsWith("APPLY_CHANGES_FROM_SNAPSHOT_ERROR") || code.endsWith("NULL_KEY"))
            QVERIFY2(QString::fromStdString(failed.error().message).contains("snapshot", Qt::CaseInsensitive),
                     failed.error().message.c_str());
        QCOMPARE(failed.error().location.file, std::string("pipeline.sql"));
        QCOMPARE(failed.error().location.line, line);
        QCOMPARE(failed.error().location.column, column);
        QCOMPARE(databaseDump(db, {}, false), before);
    }
}

void TestEngineSnapshot::rewindSnapshotUpdate_data() {
    QTest::addColumn<int>("scd");
    QTest::newRow("SCD1") << 1;
    QTest::newRow("SCD2") << 2;
}

void TestEngineSnapshot::rewindSnapshotUpdate() {
    QFETCH(int, scd);
    // The source side is not rewound: compare everything else.
    const QStringList sources{"main.cdc_tutorial.snapshot", "main.cdc_tutorial.snapshot_version",
                              "__cdc_source_changes"};
    const auto databaseDump = [&sources](storage::Database& db, const QStringList&) {
        return enginetest::databaseDump(db, sources);
    };
    auto db = enginetest::openDb();
    const auto p = parse(seedPipeline(scd));
    QVERIFY(source(db, "CREATE SCHEMA IF NOT EXISTS main.cdc_tutorial;"));
    QVERIFY(source(db, kSeedSource));
    const QStringList empty = databaseDump(db, {});
    QVERIFY(run(db, p, kStart).ok());
    const QStringList first = databaseDump(db, {});
    const QStringList firstTarget = table(db, "target");
    QVERIFY(source(db, kSeedSecond));
    QVERIFY(run(db, p, kStart + 60).ok());
    const QStringList second = table(db, "target");
    QVERIFY(second != firstTarget);

    QVERIFY(engine::rewindTo(db, 1).ok());
    QCOMPARE(databaseDump(db, {}), first);
    QCOMPARE(table(db, "target"), firstTarget);
    // The rewound update's snapshot version is forgotten: the same snapshot is processed again.
    auto again = run(db, p, kStart + 60);
    QVERIFY2(again.ok(), again.ok() ? "" : again.error().format().c_str());
    QCOMPARE(table(db, "target"), second);

    QVERIFY(engine::rewindTo(db, 0).ok());
    const QStringList back = databaseDump(db, {});
    for (const QString& row : empty)
        QVERIFY2(back.contains(row), qPrintable(row));
    QVERIFY(!db.tableExists("__acs_target"));
}

void TestEngineSnapshot::changeFeedOfSnapshotUpdate_data() {
    QTest::addColumn<int>("scd");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("SCD1") << 1
                          << QStringList{"1\tOaxaca\tdelete",
                                         "2\tCarmel\tupdate_postimage",
                                         "2\tMonterrey\tupdate_preimage",
                                         "3\tLos Angeles\tupdate_postimage",
                                         "3\tTijuana\tupdate_preimage",
                                         "4\tDeath Valley\tinsert",
                                         "6\tKings Canyon\tinsert"};
    QTest::newRow("SCD2") << 2
                          << QStringList{"1\tOaxaca\t0\t1\tupdate_postimage",
                                         "1\tOaxaca\t0\tnull\tupdate_preimage",
                                         "2\tCarmel\t1\tnull\tinsert",
                                         "2\tMonterrey\t0\t1\tupdate_postimage",
                                         "2\tMonterrey\t0\tnull\tupdate_preimage",
                                         "3\tLos Angeles\t1\tnull\tinsert",
                                         "3\tTijuana\t0\t1\tupdate_postimage",
                                         "3\tTijuana\t0\tnull\tupdate_preimage",
                                         "4\tDeath Valley\t1\tnull\tinsert",
                                         "6\tKings Canyon\t1\tnull\tinsert"};
}

void TestEngineSnapshot::changeFeedOfSnapshotUpdate() {
    QFETCH(int, scd);
    QFETCH(QStringList, expected);
    auto db = enginetest::openDb();
    const auto p = parse(seedPipeline(scd));
    QVERIFY(source(db, "CREATE SCHEMA IF NOT EXISTS main.cdc_tutorial;"));
    QVERIFY(source(db, kSeedSource));
    QVERIFY(run(db, p, kStart).ok());
    QCOMPARE(feed(db, "target", 1).size(), 3);
    QVERIFY(source(db, kSeedSecond));
    QVERIFY(run(db, p, kStart + 60).ok());
    QCOMPARE(feed(db, "target", 2), expected);
    // An update whose version query offers nothing commits no change.
    QVERIFY(run(db, p, kStart + 120).ok());
    QCOMPARE(feed(db, "target", 3), QStringList{});
}

void TestEngineSnapshot::oneOrderingDomainWithAutoCdc() {
    // §7.6: the snapshot is upserts and deletes at its version; the higher version or sequence wins per key.
    auto db = enginetest::openDb();
    const auto p = parse(R"sql(
CREATE OR REFRESH STREAMING TABLE t;
CREATE FLOW snap AS AUTO CDC INTO t
FROM SNAPSHOT (SELECT id, v FROM snaps WHERE version = (SELECT version FROM current_snapshot_version()))
WITH VERSION (SELECT DISTINCT version FROM snaps WHERE NOT EXISTS (SELECT 1 FROM last_snapshot_version())
  OR version > (SELECT version FROM last_snapshot_version()))
KEYS (id);
CREATE FLOW changes AS AUTO CDC INTO t FROM STREAM(ev) KEYS (id)
APPLY AS DELETE WHEN op = 'D' SEQUENCE BY seq COLUMNS * EXCEPT (op, seq);
)sql");
    QVERIFY(source(db, "CREATE TABLE snaps (version BIGINT, id INT, v STRING);"
                       "CREATE TABLE ev (id INT, v STRING, op STRING, seq BIGINT);"
                       "INSERT INTO snaps VALUES (10, 1, 'a'), (10, 2, 'b'), (10, 4, 'd');"
                       "INSERT INTO ev VALUES (1, 'c', 'U', 15), (2, NULL, 'D', 5), (4, NULL, 'D', 11);"));
    auto first = run(db, p, kStart);
    QVERIFY2(first.ok(), first.ok() ? "" : first.error().format().c_str());
    // 1: the change at 15 beats the snapshot at 10; 2: the delete at 5 is older than the snapshot; 4: the
    // delete at 11 is newer.
    QCOMPARE(table(db, "t"), (QStringList{"1\tc", "2\tb"}));
    QVERIFY(source(db, "INSERT INTO snaps VALUES (12, 1, 'a2'), (12, 3, 'x'), (12, 4, 'd2');"
                       "INSERT INTO ev VALUES (3, 'y', 'U', 11);"));
    QVERIFY(run(db, p, kStart + 60).ok());
    // 1: still the change at 15; 2: deleted at 12; 3: the snapshot at 12 beats the change at 11; 4: the
    // snapshot at 12 re-inserts after the delete at 11.
    QCOMPARE(table(db, "t"), (QStringList{"1\tc", "3\tx", "4\td2"}));
}

void TestEngineSnapshot::onceRunsAgainOnFullRefresh() {
    auto db = enginetest::openDb();
    const auto p = parse(R"sql(
CREATE OR REFRESH STREAMING TABLE t;
CREATE FLOW initial AS AUTO CDC ONCE INTO t FROM SNAPSHOT base KEYS (id);
CREATE FLOW changes AS AUTO CDC INTO t FROM STREAM(ev) KEYS (id) SEQUENCE BY seq COLUMNS * EXCEPT (seq);
)sql");
    QVERIFY(source(db,
                   "CREATE TABLE base (id INT, v STRING); CREATE TABLE ev (id INT, v STRING, seq TIMESTAMP);"
                   "INSERT INTO base VALUES (1, 'a'), (2, 'b');"));
    auto first = run(db, p, kStart);
    QVERIFY2(first.ok(), first.ok() ? "" : first.error().format().c_str());
    QCOMPARE(table(db, "t"), (QStringList{"1\ta", "2\tb"}));
    QVERIFY(source(db, "DELETE FROM base WHERE id = 1; INSERT INTO base VALUES (3, 'c');"
                       "INSERT INTO ev VALUES (2, 'b2', TIMESTAMP'2030-01-01 00:00:00');"));
    QVERIFY(run(db, p, kStart + 60).ok());
    QCOMPARE(table(db, "t"), (QStringList{"1\ta", "2\tb2"})); // the backfill did not run again
    QVERIFY(run(db, p, kStart + 120, true).ok());
    // A full refresh runs it again over the table as it is now, then the changes.
    QCOMPARE(table(db, "t"), (QStringList{"2\tb2", "3\tc"}));
}

void TestEngineSnapshot::metrics() {
    auto db = enginetest::openDb();
    const auto p = parse(seedPipeline(2));
    QVERIFY(source(db, "CREATE SCHEMA IF NOT EXISTS main.cdc_tutorial;"));
    QVERIFY(source(db, kSeedSource));
    QVERIFY(run(db, p, kStart).ok());
    QVERIFY(source(db, kSeedSecond));
    auto r = run(db, p, kStart + 60);
    QVERIFY(r.ok());
    QCOMPARE(r->flows.size(), 1u);
    const engine::FlowMetrics& m = r->flows[0];
    QCOMPARE(m.rowsRead, 4);       // the snapshot's rows
    QCOMPARE(m.versionsOpened, 4); // 2, 3, 4, 6
    QCOMPARE(m.versionsClosed, 3); // 1, 2, 3
}

void TestEngineSnapshot::periodicAgainAtTheSameTime() {
    // A second update at the same simulated time takes the same periodic snapshot: with the source
    // unchanged it is a no-op that says so; an empty snapshot after the first one is allowed and deletes.
    auto db = enginetest::openDb();
    const auto p = parse("CREATE OR REFRESH STREAMING TABLE t;\nCREATE FLOW f AS AUTO CDC INTO t\n"
                         "FROM SNAPSHOT main.cdc_tutorial.snapshot\nKEYS (userId) STORED AS SCD TYPE 2;\n");
    QVERIFY(source(db, "CREATE SCHEMA IF NOT EXISTS main.cdc_tutorial;"));
    QVERIFY(source(db, kSeedSource));
    QVERIFY(run(db, p, kStart).ok());
    const QStringList first = table(db, "t");
    QCOMPARE(first.size(), 3);
    auto again = run(db, p, kStart);
    QVERIFY2(again.ok(), again.ok() ? "" : again.error().format().c_str());
    QCOMPARE(table(db, "t"), first);
    QCOMPARE(feed(db, "t", again->updateId), QStringList());
    QCOMPARE(again->warnings.size(), 1u);
    QCOMPARE(QString::fromStdString(again->warnings[0].code), QString("SNAPSHOT_ALREADY_PROCESSED"));
    QCOMPARE(again->warnings[0].location.line, 2); // the flow
    QVERIFY(source(db, "TRUNCATE TABLE main.cdc_tutorial.snapshot;"));
    auto emptied = run(db, p, kStart + 60);
    QVERIFY2(emptied.ok(), emptied.ok() ? "" : emptied.error().format().c_str());
    QCOMPARE(rows(db, "SELECT count(*) FROM t WHERE __END_AT IS NULL"), QStringList{"0"});
}

void TestEngineSnapshot::perUpdateEqualsFullRefresh_data() {
    QTest::addColumn<int>("scd");
    QTest::addColumn<bool>("trackCity");
    QTest::addColumn<quint32>("seed");
    for (quint32 seed = 1; seed <= 12; ++seed) {
        const int scd = seed % 3 == 0 ? 1 : 2;
        const bool track = seed % 3 == 2;
        QTest::newRow(qPrintable(QString("seed %1 SCD%2%3").arg(seed).arg(scd).arg(track ? " track" : "")))
            << scd << track << seed;
    }
}

void TestEngineSnapshot::perUpdateEqualsFullRefresh() {
    // Random snapshots of up to 8 keys (rows dropped, values changed, keys coming back), one update per
    // snapshot; then a full refresh replays every version in one update and must build the same target,
    // history included. Both must also equal a fresh database that processes all versions at once.
    QFETCH(int, scd);
    QFETCH(bool, trackCity);
    QFETCH(quint32, seed);
    QRandomGenerator rng(seed);
    const std::string pipelineSql =
        "CREATE OR REFRESH STREAMING TABLE t;\n"
        "CREATE FLOW f AS AUTO CDC INTO t\n"
        "FROM SNAPSHOT (SELECT id, city, score FROM snaps WHERE version = (SELECT version FROM "
        "current_snapshot_version()))\n"
        "WITH VERSION (SELECT version FROM snaps WHERE NOT EXISTS (SELECT 1 FROM "
        "last_snapshot_version()) OR version > (SELECT version FROM last_snapshot_version()) ORDER BY "
        "version "
        "DESC)\n"
        "KEYS (id) STORED AS SCD TYPE " +
        std::to_string(scd) + (trackCity ? " TRACK HISTORY ON (city)" : "") + ";\n";
    const auto p = parse(pipelineSql);
    const std::string create = "CREATE TABLE snaps (version BIGINT, id INT, city STRING, score INT);";
    auto db = enginetest::openDb();
    QVERIFY(source(db, create));
    std::string all;
    const char* cities[] = {"'Oaxaca'", "'Tijuana'", "NULL"};
    const QString shownCities[] = {"Oaxaca", "Tijuana", "null"};
    std::vector<std::pair<std::int64_t, Snapshot>> snapshots;
    std::int64_t version = 0;
    for (int u = 0; u < 6; ++u) {
        version += 1 + rng.bounded(3);
        std::string insert;
        Snapshot snapshot;
        for (int id = 1; id <= 8; ++id) {
            if (rng.bounded(4) == 0)
                continue; // missing from this snapshot
            const quint32 city = rng.bounded(3), score = rng.bounded(3);
            insert += std::string(insert.empty() ? "" : ", ") + "(" + std::to_string(version) + ", " +
                      std::to_string(id) + ", " + cities[city] + ", " + std::to_string(score) + ")";
            snapshot[id] = {shownCities[city], QString::number(score)};
        }
        if (insert.empty())
            continue;
        snapshots.emplace_back(version, snapshot);
        const std::string script = "INSERT INTO snaps VALUES " + insert + ";";
        all += script;
        QVERIFY(source(db, script));
        auto r = run(db, p, kStart + u * 60);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().format().c_str());
    }
    const QStringList perUpdate = table(db, "t");
    QCOMPARE(perUpdate, expectedTarget(snapshots, scd, trackCity));
    auto refreshed = run(db, p, kStart + 3600, true);
    QVERIFY2(refreshed.ok(), refreshed.ok() ? "" : refreshed.error().format().c_str());
    QCOMPARE(table(db, "t"), perUpdate);

    auto fresh = enginetest::openDb();
    QVERIFY(source(fresh, create + all));
    QVERIFY(run(fresh, p, kStart).ok());
    QCOMPARE(table(fresh, "t"), perUpdate);
}

QTEST_GUILESS_MAIN(TestEngineSnapshot)
#include "tst_engine_snapshot.moc"
