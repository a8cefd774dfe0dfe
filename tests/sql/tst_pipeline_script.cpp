// PipelineScript: a pipeline text split into statements with exact byte ranges; an edit re-prints only the
// statement it changes and leaves every other byte (comments, odd spacing, blank lines) as typed.
#include "PipelineTestSupport.h"
#include "core/sql/PipelineEdits.h"
#include "core/sql/PipelineScript.h"

#include <QTest>

using namespace cdc;
using namespace cdc::sql;

namespace {

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

const char* kThree = "CREATE OR REFRESH STREAMING TABLE a;\n\n"
                     "CREATE TEMPORARY VIEW v AS SELECT * FROM a;\n\n"
                     "CREATE OR REFRESH STREAMING TABLE b;\n";

} // namespace

class TestPipelineScript : public QObject {
    Q_OBJECT
private slots:
    void statementsKeepTheirExactBytes() {
        const std::string text = pipelinetest::dataFile("commented_pipeline.sql");
        auto script = PipelineScript::parse(text);
        QVERIFY2(script.ok(), script.ok() ? "" : script.error().format().c_str());
        QCOMPARE(script->statements().size(), std::size_t(3));
        auto bytes = [&](std::size_t i) {
            const auto& s = script->statements()[i];
            return q(text.substr(s.begin, s.end - s.begin));
        };
        // From the first token to the `;` inclusive, wherever the `;` stands; the last has none.
        QCOMPARE(bytes(0), QString("create or refresh streaming table   users_history   ;"));
        QVERIFY(bytes(1).startsWith("CREATE FLOW apply_cdc AS AUTO CDC INTO users_history\n"));
        QVERIFY(bytes(1).endsWith("    STORED AS SCD TYPE 2\n;"));
        QCOMPARE(
            bytes(2),
            QString("CREATE   TEMPORARY VIEW recent AS\nSELECT * FROM users_history WHERE sequenceNum > 5"));
        QCOMPARE(q(script->text()), q(text));
    }

    void editInTheMiddleLeavesEveryOtherByte() {
        const std::string text = pipelinetest::dataFile("commented_pipeline.sql");
        // The flow's bytes, found by hand: from CREATE FLOW to the `;` alone on its line.
        const std::size_t begin = text.find("CREATE FLOW");
        const std::size_t end = text.find("\n;\n") + 2;
        auto edit = PipelineEdits::setKeys(text, "apply_cdc", {"userId", "tenantId"});
        QVERIFY2(edit.ok(), edit.ok() ? "" : edit.error().format().c_str());
        const std::string& out = edit->text;
        const std::size_t suffix = text.size() - end;
        QCOMPARE(q(out.substr(0, begin)), q(text.substr(0, begin)));
        QCOMPARE(q(out.substr(out.size() - suffix)), q(text.substr(end)));
        QCOMPARE(q(out.substr(begin, out.size() - suffix - begin)),
                 QString("CREATE FLOW apply_cdc AS AUTO CDC INTO users_history\n"
                         "FROM STREAM(main.cdc_tutorial.users_cdf)\n"
                         "KEYS (userId, tenantId)\n"
                         "APPLY AS DELETE WHEN operation = 'DELETE'\n"
                         "SEQUENCE BY sequenceNum\n"
                         "STORED AS SCD TYPE 2;"));
        // The result means what the hand-written equivalent means.
        QString errors;
        auto edited = pipelinetest::positionless(out, &errors);
        QVERIFY2(errors.isEmpty(), qPrintable(errors));
        QCOMPARE(edited.cdcFlows.size(), std::size_t(1));
        QCOMPARE(edited.cdcFlows[0].keys.size(), std::size_t(2));
        QCOMPARE(q(edited.cdcFlows[0].keys[1].name), QString("tenantId"));
        QVERIFY(pipelinetest::equal(edited, pipelinetest::positionless(pipelinetest::dataFile(
                                                "commented_pipeline_keys_edited.sql"))));
    }

    void editThatChangesNothingKeepsTheStatementAsTyped() {
        // Same keys, same condition in another spelling: the statement means what it meant, so its
        // comments and layout stay.
        const std::string text = pipelinetest::dataFile("commented_pipeline.sql");
        auto keys = PipelineEdits::setKeys(text, "APPLY_CDC", {"userId"});
        QVERIFY(keys.ok());
        QCOMPARE(q(keys->text), q(text));
        auto condition = PipelineEdits::setDeleteCondition(text, "apply_cdc", "operation   =  'DELETE'");
        QVERIFY(condition.ok());
        QCOMPARE(q(condition->text), q(text));
    }

    void editOfTheLastStatementWithoutSemicolon() {
        const std::string text = pipelinetest::dataFile("commented_pipeline.sql");
        auto edit = PipelineEdits::setViewQuery(text, "recent", "select userId from users_history");
        QVERIFY2(edit.ok(), edit.ok() ? "" : edit.error().format().c_str());
        const std::size_t begin = text.find("   CREATE   TEMPORARY VIEW") + 3;
        QCOMPARE(q(edit->text.substr(0, begin)), q(text.substr(0, begin)));
        QCOMPARE(q(edit->text.substr(begin)),
                 QString("CREATE TEMPORARY VIEW recent\nAS SELECT userId\nFROM users_history;   -- no "
                         "semicolon at the end\n"));
        QCOMPARE(q(edit->description), QString("Set query of view recent"));
    }

    void findsDefinitions_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("dataset");
        QTest::addColumn<int>("flow");
        const QString mixed =
            "CREATE STREAMING TABLE LIVE.users FLOW AUTO CDC FROM s KEYS (k) SEQUENCE BY q;\n"
            "CREATE MATERIALIZED VIEW Totals AS SELECT count(*) AS n FROM users;\n"
            "APPLY CHANGES INTO LIVE.legacy FROM STREAM(s) KEYS (k) SEQUENCE BY q;\n"
            "CREATE FLOW Backfill AS INSERT INTO users BY NAME SELECT * FROM old;\n"
            "CREATE STREAMING TABLE appended AS SELECT * FROM STREAM(s);\n"
            "CREATE STREAMING TABLE plain;\n";
        QTest::newRow("table with its FLOW clause, LIVE. ignored") << mixed << "USERS" << 0 << 0;
        QTest::newRow("materialized view, any case") << mixed << "totals" << 1 << -1;
        QTest::newRow("APPLY CHANGES flow named after its target") << mixed << "legacy" << -1 << 2;
        QTest::newRow("CREATE FLOW") << mixed << "backfill" << -1 << 3;
        QTest::newRow("streaming table AS query is a flow") << mixed << "appended" << 4 << 4;
        QTest::newRow("table without a flow") << mixed << "plain" << 5 << -1;
        QTest::newRow("unknown") << mixed << "nothing" << -1 << -1;
    }
    void findsDefinitions() {
        QFETCH(QString, text);
        QFETCH(QString, name);
        QFETCH(int, dataset);
        QFETCH(int, flow);
        auto script = PipelineScript::parse(text.toStdString());
        QVERIFY2(script.ok(), script.ok() ? "" : script.error().format().c_str());
        auto asInt = [](std::optional<std::size_t> i) { return i ? static_cast<int>(*i) : -1; };
        QCOMPARE(asInt(script->findDataset(name.toStdString())), dataset);
        QCOMPARE(asInt(script->findFlow(name.toStdString())), flow);
    }

    void splices_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("operation");
        QTest::addColumn<int>("index");
        QTest::addColumn<QString>("expected");
        QTest::newRow("remove the first and the blank line after it")
            << kThree << "remove" << 0
            << "CREATE TEMPORARY VIEW v AS SELECT * FROM a;\n\nCREATE OR REFRESH STREAMING TABLE b;\n";
        QTest::newRow("remove the middle")
            << kThree << "remove" << 1
            << "CREATE OR REFRESH STREAMING TABLE a;\n\nCREATE OR REFRESH STREAMING TABLE b;\n";
        QTest::newRow("remove the last: no blank line trails")
            << kThree << "remove" << 2
            << "CREATE OR REFRESH STREAMING TABLE a;\n\nCREATE TEMPORARY VIEW v AS SELECT * FROM a;\n";
        QTest::newRow("remove keeps comments around")
            << "-- head\ncreate streaming table a;  \n\n-- about b\ncreate streaming table b;"
            << "remove" << 0 << "-- head\n-- about b\ncreate streaming table b;";
        QTest::newRow("remove the only statement") << "CREATE STREAMING TABLE a;\n"
                                                   << "remove" << 0 << "";
        QTest::newRow("append after one blank line")
            << "create streaming table a; -- kept\n\n\n"
            << "append" << 0 << "create streaming table a; -- kept\n\nCREATE OR REFRESH STREAMING TABLE a;\n";
        QTest::newRow("append to nothing") << "  \n"
                                           << "append" << 0 << "CREATE OR REFRESH STREAMING TABLE a;\n";
        QTest::newRow("replace keeps the bytes around")
            << "/* x */ create streaming table b ; -- y\n"
            << "replace" << 0 << "/* x */ CREATE OR REFRESH STREAMING TABLE a; -- y\n";
    }
    void splices() {
        QFETCH(QString, text);
        QFETCH(QString, operation);
        QFETCH(int, index);
        QFETCH(QString, expected);
        auto script = PipelineScript::parse(text.toStdString());
        QVERIFY(script.ok());
        Statement table;
        StreamingTableStmt a;
        a.orRefresh = true;
        a.name.parts = {"a"};
        table.body = a;
        const auto i = static_cast<std::size_t>(index);
        std::string out = operation == "remove"   ? script->removed(i)
                          : operation == "append" ? script->appended(table)
                                                  : script->replaced(i, table);
        QCOMPARE(q(out), expected);
    }

    void unparseableTextIsRefused() {
        const std::string text = "CREATE OR REFRESH STREAMING TABLE a;\n\nCREATE FLOW f AS AUTO CDC INTO a\n"
                                 "FROM s KEYS (k);\n";
        auto script = PipelineScript::parse(text, "p.sql");
        QVERIFY(!script.ok());
        QCOMPARE(q(script.error().format()),
                 QString("p.sql:4:16: error: expected SEQUENCE BY: AUTO CDC needs a "
                         "sequencing column"));
        auto edit = PipelineEdits::setKeys(text, "f", {"id"});
        QVERIFY(!edit.ok());
        QCOMPARE(edit.error().location.line, 4);
        QCOMPARE(edit.error().code, std::string("PARSE"));
    }
};

QTEST_GUILESS_MAIN(TestPipelineScript)
#include "tst_pipeline_script.moc"
