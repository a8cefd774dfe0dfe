// From text to pipeline::Pipeline, the model the engine runs: each clause of the seed flows lands in
// its field (with positions the editor underlines), every error is reported in order, and Format SQL is
// canonical, stable and keeps comments.
#include "core/sql/SqlApi.h"
#include "core/storage/Database.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <algorithm>

using namespace cdc;
using namespace cdc::sql;
using pipeline::ColumnSelection;

namespace {

std::string seed(const QString& name) {
    QFile f(QStringLiteral(CDC_TESTS_DIR "/conformance/sql/seeds/") + name);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll().toStdString();
}

QString names(const std::vector<pipeline::Identifier>& ids) {
    QStringList out;
    for (const auto& i : ids)
        out << QString::fromStdString(i.name);
    return out.join(',');
}

QString errors(const PipelineParse& p) {
    QStringList out;
    for (const auto& d : p.diagnostics)
        out << QString::fromStdString(d.format());
    return out.join('\n');
}

/// Evaluates a translated expression against one row of named values.
QString evaluate(const std::string& sqlite, const std::string& row) {
    auto db = storage::Database::openMemory();
    auto st = db->prepare("SELECT " + sqlite + " FROM (" + row + ")");
    if (!st)
        return QString::fromStdString(st.error().message);
    if (!st->step().value())
        return "no row";
    return QString::fromStdString(displayText(st->value(0)));
}

} // namespace

class TestPipelineBuilder : public QObject {
    Q_OBJECT
private slots:
    void scd1FlowFromTheSeed() {
        PipelineParse p = parsePipeline(seed("001_scd1_flow.sql"), "scd1.sql");
        QVERIFY2(!p.hasErrors(), qPrintable(errors(p)));
        QCOMPARE(p.pipeline.streamingTables.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(p.pipeline.streamingTables[0].name.name),
                 QStringLiteral("users_current"));
        QVERIFY(p.pipeline.streamingTables[0].schema.empty());
        QCOMPARE(p.pipeline.cdcFlows.size(), std::size_t(1));
        const auto& f = p.pipeline.cdcFlows[0];
        QCOMPARE(QString::fromStdString(f.name.name), QStringLiteral("apply_cdc"));
        QCOMPARE(QString::fromStdString(f.target.name), QStringLiteral("users_current"));
        QCOMPARE(f.target.location.line, 4);
        QCOMPARE(QString::fromStdString(f.source.name), QStringLiteral("main.cdc_tutorial.users_cdf"));
        QVERIFY(f.source.stream);
        QVERIFY(!f.source.changeFeed);
        QCOMPARE(names(f.keys), QStringLiteral("userId"));
        QVERIFY(f.applyAsDelete && f.applyAsTruncate);
        QCOMPARE(QString::fromStdString(f.applyAsDelete->sparkText), QStringLiteral("operation = 'DELETE'"));
        QCOMPARE(QString::fromStdString(f.applyAsDelete->sqlite),
                 QStringLiteral("(\"operation\" = 'DELETE')"));
        QCOMPARE(f.applyAsDelete->location.line, 10);
        QCOMPARE(f.applyAsDelete->location.column, 3);
        QVERIFY(!f.applyAsDelete->columnName);
        QCOMPARE(evaluate(f.applyAsTruncate->sqlite, "SELECT 'TRUNCATE' AS operation"), QStringLiteral("1"));
        QCOMPARE(f.sequenceBy.size(), std::size_t(1));
        QVERIFY(!f.sequenceIsStruct);
        QCOMPARE(QString::fromStdString(f.sequenceBy[0].columnName.value_or("")),
                 QStringLiteral("sequenceNum"));
        QCOMPARE(f.columns.mode, ColumnSelection::Mode::Except);
        QCOMPARE(names(f.columns.columns), QStringLiteral("operation,sequenceNum"));
        QCOMPARE(f.scdType, pipeline::ScdType::Type1);
        QCOMPARE(f.storedAsLocation.line, 17);
        QVERIFY(!f.trackHistory && !f.ignoreNullUpdates && !f.columnsToUpdate && !f.once && !f.legacySyntax);
    }

    void scd2TrackHistory() {
        PipelineParse p = parsePipeline(seed("001_scd2_track_history.sql"), "scd2.sql");
        QVERIFY2(!p.hasErrors(), qPrintable(errors(p)));
        const auto& f = p.pipeline.cdcFlows.at(0);
        QCOMPARE(f.scdType, pipeline::ScdType::Type2);
        QVERIFY(f.trackHistory);
        QCOMPARE(f.trackHistory->mode, ColumnSelection::Mode::Except);
        QCOMPARE(names(f.trackHistory->columns), QStringLiteral("city"));
        QVERIFY(!f.applyAsTruncate);
    }

    void flowAutoCdcClauseIsAFlowNamedAfterItsTable() {
        PipelineParse p = parsePipeline(seed("004_scd2_track_history.sql"), "st.sql");
        QVERIFY2(!p.hasErrors(), qPrintable(errors(p)));
        QCOMPARE(p.pipeline.streamingTables.size(), std::size_t(1));
        const auto& t = p.pipeline.streamingTables[0];
        QCOMPARE(QString::fromStdString(t.properties.at("pipelines.channel")), QStringLiteral("PREVIEW"));
        const auto& f = p.pipeline.cdcFlows.at(0);
        QCOMPARE(QString::fromStdString(f.name.name), QStringLiteral("target"));
        QCOMPARE(QString::fromStdString(f.target.name), QStringLiteral("target"));
        QCOMPARE(QString::fromStdString(f.source.name), QStringLiteral("cdc_data.users"));
        QCOMPARE(f.scdType, pipeline::ScdType::Type2);
    }

    void sequenceByStruct() {
        PipelineParse p = parsePipeline("CREATE FLOW f AS AUTO CDC INTO t FROM s KEYS (id) "
                                        "SEQUENCE BY STRUCT(ts, id, seq + 1)",
                                        "s.sql");
        QVERIFY2(!p.hasErrors(), qPrintable(errors(p)));
        const auto& f = p.pipeline.cdcFlows.at(0);
        QVERIFY(f.sequenceIsStruct);
        QCOMPARE(f.sequenceBy.size(), std::size_t(3));
        QCOMPARE(QString::fromStdString(f.sequenceFieldNames[0] + "," + f.sequenceFieldNames[1] + "," +
                                        f.sequenceFieldNames[2]),
                 QStringLiteral("ts,id,col3"));
        QCOMPARE(QString::fromStdString(f.sequenceBy[2].sqlite), QStringLiteral("(\"seq\" + 1)"));
        QVERIFY(!f.source.stream);
    }

    void ignoreNullUpdatesAndColumnsToUpdate() {
        PipelineParse p = parsePipeline(
            "CREATE FLOW a AS AUTO CDC ONCE INTO t FROM s KEYS (id) IGNORE NULL UPDATES "
            "SEQUENCE BY v;\n"
            "CREATE FLOW b AS AUTO CDC INTO t FROM s KEYS (id) IGNORE NULL UPDATES ON (x, y) "
            "SEQUENCE BY v;\n"
            "CREATE FLOW c AS AUTO CDC INTO t FROM s KEYS (id) SEQUENCE BY v COLUMNS TO UPDATE cols;",
            "n.sql");
        QVERIFY2(!p.hasErrors(), qPrintable(errors(p)));
        QCOMPARE(p.pipeline.cdcFlows.size(), std::size_t(3));
        QVERIFY(p.pipeline.cdcFlows[0].once);
        QCOMPARE(p.pipeline.cdcFlows[0].ignoreNullUpdates->mode, ColumnSelection::Mode::All);
        QCOMPARE(p.pipeline.cdcFlows[1].ignoreNullUpdates->mode, ColumnSelection::Mode::Only);
        QCOMPARE(names(p.pipeline.cdcFlows[1].ignoreNullUpdates->columns), QStringLiteral("x,y"));
        QCOMPARE(QString::fromStdString(p.pipeline.cdcFlows[2].columnsToUpdate->name),
                 QStringLiteral("cols"));
    }

    void snapshotFlows() {
        PipelineParse p = parsePipeline(seed("001_snapshot_versioned_flow.sql"), "snap.sql");
        QVERIFY2(!p.hasErrors(), qPrintable(errors(p)));
        const auto& f = p.pipeline.cdcFlows.at(0);
        QVERIFY(f.fromSnapshot);
        QVERIFY(f.snapshotQuery && f.versionQuery);
        QCOMPARE(QString::fromStdString(f.target.name), QStringLiteral("main.cdc_tutorial.target_versioned"));
        QVERIFY(f.sequenceBy.empty());
        QCOMPARE(f.scdType, pipeline::ScdType::Type2);
        QStringList rels;
        for (const auto& r : f.versionQuery->relations)
            rels << QString::fromStdString(r.name);
        QCOMPARE(
            rels.join(';'),
            QStringLiteral("list_files('/Volumes/main/cdc_tutorial/snapshots/');last_snapshot_version()"));
        QCOMPARE(QString::fromStdString(f.snapshotQuery->outputColumns[0]), QStringLiteral("userId"));

        PipelineParse q = parsePipeline(seed("001_snapshot_flow.sql"), "snap2.sql");
        QVERIFY2(!q.hasErrors(), qPrintable(errors(q)));
        QCOMPARE(QString::fromStdString(q.pipeline.cdcFlows.at(0).snapshotQuery->relations.at(0).name),
                 QStringLiteral("main.cdc_tutorial.snapshot"));
    }

    void legacyApplyChanges() {
        PipelineParse p = parsePipeline(seed("spec_legacy_apply_changes.sql"), "legacy.sql");
        QVERIFY2(!p.hasErrors(), qPrintable(errors(p)));
        const auto& f = p.pipeline.cdcFlows.at(0);
        QVERIFY(f.legacySyntax);
        QCOMPARE(QString::fromStdString(f.target.name), QStringLiteral("customer_silver"));
        QCOMPARE(QString::fromStdString(f.name.name), QStringLiteral("customer_silver"));
        QCOMPARE(QString::fromStdString(f.source.name), QStringLiteral("customer_bronze_clean_v"));
        QVERIFY(f.source.stream);
    }

    void viewsAndAppendFlows() {
        PipelineParse p = parsePipeline(
            "CREATE TEMPORARY VIEW users AS SELECT * FROM STREAM(main.cdc_tutorial.users_cdf);\n"
            "CREATE OR REFRESH MATERIALIZED VIEW counts AS SELECT city, count(*) AS n FROM users_current "
            "GROUP BY city;\n"
            "CREATE OR REFRESH STREAMING TABLE raw (id INT NOT NULL COMMENT 'key', v STRING) AS SELECT * "
            "FROM STREAM(src);\n"
            "CREATE FLOW backfill AS INSERT INTO ONCE raw BY NAME SELECT * FROM old_src;\n"
            "CREATE LIVE TABLE legacy_mv AS SELECT 1 AS x;\n",
            "v.sql");
        QVERIFY2(!p.hasErrors(), qPrintable(errors(p)));
        QStringList views;
        for (const auto& v : p.pipeline.views)
            views << QString::fromStdString(v.name.name);
        QCOMPARE(views, QStringList({"users", "counts", "legacy_mv"}));
        QVERIFY(p.pipeline.views[0].temporary && !p.pipeline.views[0].materialized);
        QVERIFY(p.pipeline.views[0].query.relations.at(0).stream);
        QVERIFY(p.pipeline.views[1].materialized);
        QCOMPARE(QString::fromStdString(p.pipeline.views[1].query.outputColumns[0] + "," +
                                        p.pipeline.views[1].query.outputColumns[1]),
                 QStringLiteral("city,n"));
        QVERIFY(p.pipeline.views[2].materialized);
        const auto& raw = p.pipeline.streamingTables.at(0);
        QStringList schema;
        for (const auto& c : raw.schema)
            schema << QString::fromStdString(c.name + " " + c.type.toString() +
                                             (c.notNull ? " NOT NULL" : "") +
                                             (c.comment.empty() ? "" : " '" + c.comment + "'"));
        QCOMPARE(schema, QStringList({"id INT NOT NULL 'key'", "v STRING"}));
        QCOMPARE(p.pipeline.appendFlows.size(), std::size_t(2));
        QCOMPARE(QString::fromStdString(p.pipeline.appendFlows[0].name.name), QStringLiteral("raw"));
        QVERIFY(!p.pipeline.appendFlows[0].once);
        QCOMPARE(QString::fromStdString(p.pipeline.appendFlows[1].name.name), QStringLiteral("backfill"));
        QCOMPARE(QString::fromStdString(p.pipeline.appendFlows[1].target.name), QStringLiteral("raw"));
        QVERIFY(p.pipeline.appendFlows[1].once);
        QCOMPARE(QString::fromStdString(p.pipeline.appendFlows[1].query.sqliteTemplate),
                 QStringLiteral("SELECT * FROM (SELECT * FROM {{REL:0}}) AS \"old_src\""));
    }

    void expectationsAreAcceptedWithAWarning() {
        PipelineParse p =
            parsePipeline("CREATE OR REFRESH STREAMING TABLE t (\n"
                          "  CONSTRAINT valid_id EXPECT (id IS NOT NULL) ON VIOLATION DROP ROW\n"
                          ") AS SELECT * FROM STREAM(src);",
                          "x.sql");
        QVERIFY(!p.hasErrors());
        QCOMPARE(p.diagnostics.size(), std::size_t(1));
        QCOMPARE(
            QString::fromStdString(p.diagnostics[0].format()),
            QStringLiteral(
                "x.sql:2:14: warning: expectation 'valid_id' is accepted but not enforced by the simulator"));
        QCOMPARE(p.pipeline.warnings.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(p.pipeline.warnings[0].format()),
                 QString::fromStdString(p.diagnostics[0].format()));
        QCOMPARE(p.pipeline.appendFlows.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(p.pipeline.appendFlows[0].target.name), QStringLiteral("t"));
        auto db = storage::Database::openMemory();
        auto bad = executeSourceScript(*db, "CREATE TABLE s (id INT, CONSTRAINT c EXPECT (id > 0))", "s.sql");
        QVERIFY(!bad.ok());
        QCOMPARE(bad.error().location.column, 25);
    }

    void everyErrorIsReportedInOrder() {
        PipelineParse p =
            parsePipeline("CREATE FLOW a AS AUTO CDC INTO t FROM s SEQUENCE BY v;\n"
                          "CREATE TABLE src (x INT);\n"
                          "CREATE OR REFRESH STREAMING TABLE ok;\n"
                          "CREATE FLOW b AS AUTO CDC INTO t FROM s KEYS (id) APPLY AS DELETE WHEN;\n",
                          "e.sql");
        QVERIFY(p.hasErrors());
        QCOMPARE(errors(p).split('\n'),
                 QStringList(
                     {"e.sql:1:41: error: expected KEYS after source",
                      "e.sql:2:1: error: this is source SQL, not a pipeline definition (CREATE STREAMING "
                      "TABLE, CREATE FLOW, CREATE VIEW, CREATE MATERIALIZED VIEW, APPLY CHANGES INTO); run "
                      "source SQL as a source script",
                      "e.sql:4:71: error: expected an expression, found ';'"}));
        QCOMPARE(QString::fromStdString(p.firstError()->format()),
                 QStringLiteral("e.sql:1:41: error: expected KEYS after source"));
        QCOMPARE(p.pipeline.streamingTables.size(), std::size_t(1));
    }

    void formatSqlIsCanonicalAndStable_data() {
        QTest::addColumn<QString>("file");
        for (const auto& f :
             QDir(QStringLiteral(CDC_TESTS_DIR "/conformance/sql/seeds")).entryList({"*.sql"}))
            QTest::newRow(f.toUtf8().constData()) << f;
    }
    void formatSqlIsCanonicalAndStable() {
        QFETCH(QString, file);
        auto once = formatSql(seed(file), file.toStdString());
        QVERIFY2(once.ok(), once.ok() ? "" : once.error().format().c_str());
        auto twice = formatSql(once.value(), "formatted");
        QVERIFY(twice.ok());
        QCOMPARE(QString::fromStdString(twice.value()), QString::fromStdString(once.value()));
    }

    void formatSqlOfTheSeedFlow() {
        auto out = formatSql(seed("001_scd1_flow.sql"), "f.sql");
        QVERIFY(out.ok());
        QCOMPARE(QString::fromStdString(out.value()),
                 QStringLiteral("CREATE OR REFRESH STREAMING TABLE users_current;\n"
                                "\n"
                                "CREATE FLOW apply_cdc AS AUTO CDC INTO users_current\n"
                                "FROM STREAM(main.cdc_tutorial.users_cdf)\n"
                                "KEYS (userId)\n"
                                "APPLY AS DELETE WHEN operation = 'DELETE'\n"
                                "APPLY AS TRUNCATE WHEN operation = 'TRUNCATE'\n"
                                "SEQUENCE BY sequenceNum\n"
                                "COLUMNS * EXCEPT (operation, sequenceNum)\n"
                                "STORED AS SCD TYPE 1;\n"));
        auto bad = formatSql("CREATE FLOW f AS AUTO CDC INTO t FROM s;", "bad.sql");
        QVERIFY(!bad.ok());
        QCOMPARE(bad.error().location.column, 40);
    }

    void formatSqlKeepsComments() {
        auto out = formatSql("-- header\nselect 1; -- trailing\n/* c */ select  2\n", "c.sql");
        QVERIFY(out.ok());
        QCOMPARE(QString::fromStdString(out.value()),
                 QStringLiteral("-- header\nSELECT 1;\n\n-- trailing\n/* c */\nSELECT 2;\n"));
        std::string inner = "CREATE FLOW f AS AUTO CDC INTO t\nFROM s -- the source\nKEYS (id) SEQUENCE BY v";
        auto kept = formatSql(inner, "k.sql");
        QVERIFY(kept.ok());
        QCOMPARE(QString::fromStdString(kept.value()), QString::fromStdString(inner + ";\n"));
    }

    void editorWordLists() {
        const auto& k = keywords();
        for (const char* w : {"KEYS", "SEQUENCE", "STREAMING", "FLOW", "TRACK", "SNAPSHOT", "SELECT"})
            QVERIFY2(std::find(k.begin(), k.end(), w) != k.end(), w);
        const auto& f = functionNames();
        for (const char* w : {"struct", "table_changes", "concat", "regexp_extract"})
            QVERIFY2(std::find(f.begin(), f.end(), w) != f.end(), w);
    }
};

QTEST_GUILESS_MAIN(TestPipelineBuilder)
#include "tst_pipeline_builder.moc"
