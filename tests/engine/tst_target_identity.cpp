// What a database says of its targets without the pipeline (engine::storedTargets), whether the pipeline
// would now compute them differently (engine::outdatedTargets), and what a full refresh's change feed holds.
#include "core/engine/Engine.h"
#include "core/engine/StoredTarget.h"
#include "core/sql/SqlApi.h"
#include "core/storage/Catalog.h"

#include <QtTest>

using namespace cdc;

namespace {

const char* kSources = R"sql(
CREATE TABLE cdf (userId INT, name STRING, city STRING, operation STRING, seq INT);
INSERT INTO cdf VALUES (124, "Raul", "Oaxaca", "INSERT", 1), (123, "Isabel", "Monterrey", "INSERT", 1),
  (125, "Mercedes", "Tijuana", "INSERT", 2), (123, null, null, "DELETE", 6);
)sql";

std::string flowInto(const std::string& target, const std::string& from, const std::string& stored,
                     const std::string& extra = "") {
    return "CREATE OR REFRESH STREAMING TABLE " + target + ";\nCREATE FLOW " + target +
           "_flow AS AUTO CDC INTO " + target + " FROM stream(" + from +
           ") KEYS (userId) APPLY AS DELETE WHEN operation = \"DELETE\" SEQUENCE BY seq "
           "COLUMNS * EXCEPT (operation, seq) STORED AS " +
           stored + extra + ";\n";
}

pipeline::Pipeline parse(const std::string& text) {
    auto parsed = sql::parsePipeline(text, "pipeline.sql");
    if (auto error = parsed.firstError())
        qFatal("%s", error->format().c_str());
    return parsed.pipeline;
}

storage::Database sourcesDb() {
    auto db = storage::Database::openMemory();
    if (!db)
        qFatal("no database");
    if (auto st = sql::executeSourceScript(*db, kSources, "sources.sql"); !st)
        qFatal("%s", st.error().format().c_str());
    return std::move(db).value();
}

QStringList outdated(storage::Database& db, const pipeline::Pipeline& p) {
    auto found = engine::outdatedTargets(db, p);
    if (!found)
        return {QString::fromStdString("error: " + found.error().message)};
    QStringList out;
    for (const auto& t : *found)
        out << QString::fromStdString(t.target + " " + t.code);
    return out;
}

void update(storage::Database& db, const pipeline::Pipeline& p, bool fullRefresh = false) {
    engine::UpdateOptions options;
    options.now = 1767225600;
    options.fullRefresh = fullRefresh;
    auto report = engine::runUpdate(db, p, options);
    QVERIFY2(report.ok(), report.ok() ? "" : report.error().format().c_str());
}

QStringList feed(storage::Database& db, const std::string& target, std::int64_t updateId) {
    auto rows = engine::changeFeed(db, target, updateId, updateId);
    if (!rows)
        return {QString::fromStdString(rows.error().message)};
    QStringList out;
    const auto column = [&](const char* name) {
        return static_cast<std::size_t>(std::find(rows->columns.begin(), rows->columns.end(), name) -
                                        rows->columns.begin());
    };
    for (const Row& r : rows->rows)
        out << QString::fromStdString(displayText(r[column("userId")]) + " " +
                                      displayText(r[column("name")]) + " " +
                                      displayText(r[column("_change_type")]));
    out.sort();
    return out;
}

} // namespace

class TestTargetIdentity : public QObject {
    Q_OBJECT
private slots:
    void storedTargetsAreReadWithoutThePipeline() {
        auto db = sourcesDb();
        update(db, parse(flowInto("current", "cdf", "SCD TYPE 1") +
                         flowInto("history", "cdf", "SCD TYPE 2", " TRACK HISTORY ON * EXCEPT (city)")));
        auto stored = engine::storedTargets(db);
        QVERIFY(stored.ok());
        QCOMPARE(stored->size(), std::size_t(2));
        const engine::StoredTarget& current = stored->at(0);
        QCOMPARE(current.name, std::string("current"));
        QVERIFY(!current.scd2());
        QCOMPARE(current.keyNames(), std::vector<std::string>{"userId"});
        QCOMPARE(current.columns.size(), std::size_t(3));
        QCOMPARE(current.sequenceType.toString(), std::string("INT"));
        QVERIFY(current.untrackedColumns().empty());
        QVERIFY(current.currentLayout);
        QCOMPARE(current.createdIn, std::int64_t(1));

        const engine::StoredTarget& history = stored->at(1);
        QVERIFY(history.scd2());
        QCOMPARE(history.columns.size(), std::size_t(3)); // __START_AT / __END_AT are not data columns
        QCOMPARE(history.untrackedColumns(), std::vector<std::string>{"city"});
        QCOMPARE(history.sequenceType.toString(), std::string("INT"));

        auto found = engine::findStoredTarget(db, "HISTORY");
        QVERIFY(found.ok() && found->has_value());
        QCOMPARE(found->value().name, std::string("history"));
        auto missing = engine::findStoredTarget(db, "cdf"); // a source, not a target
        QVERIFY(missing.ok() && !missing->has_value());
    }

    // A full refresh rebuilds from every row: its change feed lists the rebuilt rows as inserts, and says so.
    void fullRefreshFeedRestatesTheRows() {
        auto db = sourcesDb();
        const auto p = parse(flowInto("current", "cdf", "SCD TYPE 1"));
        update(db, p);
        QCOMPARE(feed(db, "current", 1), (QStringList{"124 Raul insert", "125 Mercedes insert"}));
        update(db, p, true);
        QCOMPARE(feed(db, "current", 2), (QStringList{"124 Raul insert", "125 Mercedes insert"}));
        QCOMPARE(engine::wasFullRefresh(db, 1).value(), false);
        QCOMPARE(engine::wasFullRefresh(db, 2).value(), true);
        QCOMPARE(engine::wasFullRefresh(db, 3).value(), false);
    }

    // A changed view or expression leaves stored rows as the old definition made them: the target is out of
    // date until a full refresh; a changed key or SCD type is a schema change the next update refuses.
    void changedDefinitionsMakeTargetsOutdated() {
        auto db = sourcesDb();
        const auto original = parse(flowInto("current", "cdf", "SCD TYPE 1"));
        QCOMPARE(outdated(db, original), QStringList{}); // nothing built yet
        update(db, original);
        QCOMPARE(outdated(db, original), QStringList{});
        update(db, original);
        QCOMPARE(outdated(db, original), QStringList{}); // the same definition twice

        const auto viaView =
            parse("CREATE TEMPORARY VIEW clean AS SELECT userId, upper(name) AS name, city, operation, seq "
                  "FROM stream(cdf);\n" +
                  flowInto("current", "clean", "SCD TYPE 1"));
        QCOMPARE(outdated(db, viaView), QStringList{"current DEFINITION_CHANGED"});
        update(db, viaView); // old and new rows mixed: still out of date, now with the new definition too
        QCOMPARE(outdated(db, viaView), QStringList{"current DEFINITION_CHANGED"});
        QCOMPARE(outdated(db, original), QStringList{"current DEFINITION_CHANGED"});
        update(db, viaView, true);
        QCOMPARE(outdated(db, viaView), QStringList{});
        QCOMPARE(outdated(db, original), QStringList{"current DEFINITION_CHANGED"});

        // Rewinding the refresh and the mixed update brings back the state the original made.
        QVERIFY(engine::rewindTo(db, 2).ok());
        QCOMPARE(outdated(db, original), QStringList{});

        const auto scd2 = parse(flowInto("current", "cdf", "SCD TYPE 2"));
        QCOMPARE(outdated(db, scd2), QStringList{"current SCHEMA_CHANGED"});
        const auto otherDelete =
            parse(flowInto("current", "cdf", "SCD TYPE 1")
                      .replace(flowInto("current", "cdf", "SCD TYPE 1").find("\"DELETE\""), 8, "\"REMOVE\""));
        QCOMPARE(outdated(db, otherDelete), QStringList{"current DEFINITION_CHANGED"});
    }

    // A GC threshold that is not a whole number of seconds is refused where the table declares it; it
    // silently meant two days before.
    void malformedGcThresholdIsAPositionedError_data() {
        QTest::addColumn<QString>("value");
        QTest::newRow("words") << "two days";
        QTest::newRow("negative") << "-5";
        QTest::newRow("fraction") << "1.5";
        QTest::newRow("empty") << "";
    }
    void malformedGcThresholdIsAPositionedError() {
        QFETCH(QString, value);
        auto db = sourcesDb();
        std::string text = flowInto("current", "cdf", "SCD TYPE 1");
        text.replace(text.find(';'), 1,
                     " TBLPROPERTIES ('pipelines.cdc.tombstoneGCThresholdInSeconds' = '" +
                         value.toStdString() + "');");
        auto report = engine::runUpdate(db, parse(text));
        QVERIFY(!report.ok());
        QCOMPARE(QString::fromStdString(report.error().format()),
                 QStringLiteral(
                     "pipeline.sql:1:1: error: pipelines.cdc.tombstoneGCThresholdInSeconds takes a whole "
                     "number of seconds (0 or more), not '%1'")
                     .arg(value));
        QVERIFY(!db.tableExists("__cdc_updates") || engine::lastUpdateId(db).value() == 0);
    }
};

QTEST_GUILESS_MAIN(TestTargetIdentity)
#include "tst_target_identity.moc"
