// PipelineEdits: every designer edit gives the exact canonical statement, the parsed pipeline field it
// changes and the sentence for its undo step; bad input is refused with a positioned error; and the seed
// SCD2 pipeline, built from an empty text with edits alone, means and computes what the seed does.
#include "PipelineTestSupport.h"
#include "core/common/ResultSet.h"
#include "core/engine/Engine.h"
#include "core/sql/PipelineEdits.h"
#include "core/storage/Database.h"

#include <QTest>

#include <functional>

using namespace cdc;
using namespace cdc::sql;
using Mode = pipeline::ColumnSelection::Mode;

namespace {

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

using Edit = std::function<Result<PipelineEdit>(std::string_view)>;
using Field = std::function<QString(const pipeline::Pipeline&)>;

const std::string kTable = "CREATE OR REFRESH STREAMING TABLE users_history;\n\n";

/// The seed flow's canonical text with `lines` in place of its clauses from KEYS on.
std::string seedFlow(const std::string& head, const std::string& clauses) {
    return kTable + head + "\n" + clauses + ";\n";
}
const std::string kSeedHead = "CREATE FLOW apply_cdc AS AUTO CDC INTO users_history\n"
                              "FROM STREAM(main.cdc_tutorial.users_cdf)";
const std::string kSeedClauses = "KEYS (userId)\n"
                                 "APPLY AS DELETE WHEN operation = 'DELETE'\n"
                                 "SEQUENCE BY sequenceNum\n"
                                 "COLUMNS * EXCEPT (operation, sequenceNum)\n"
                                 "STORED AS SCD TYPE 2";

const std::string kInline = "CREATE OR REFRESH STREAMING TABLE users\n"
                            "FLOW AUTO CDC\nFROM STREAM(users_cdf)\nKEYS (userId)\nSEQUENCE BY ts;\n";
const std::string kLegacy =
    "APPLY CHANGES INTO LIVE.users\nFROM STREAM(users_cdf)\nKEYS (userId)\nSEQUENCE BY ts;\n";

/// A flow with every clause the edits below take out again.
const std::string kFullHead = "CREATE FLOW apply_cdc AS AUTO CDC ONCE INTO users_history\n"
                              "FROM STREAM(main.cdc_tutorial.users_cdf)";
std::string fullFlow(const std::string& ignoreNull = "IGNORE NULL UPDATES ON * EXCEPT (city)\n",
                     const std::string& truncate = "APPLY AS TRUNCATE WHEN operation = 'TRUNCATE'\n",
                     const std::string& sequence = "struct(sequenceNum, ts)",
                     const std::string& tail = "TRACK HISTORY ON (city)\nCOLUMNS TO UPDATE changed",
                     const std::string& head = kFullHead) {
    return seedFlow(head, "KEYS (userId)\n" + ignoreNull + "APPLY AS DELETE WHEN operation = 'DELETE'\n" +
                              truncate + "SEQUENCE BY " + sequence +
                              "\nCOLUMNS * EXCEPT (operation, sequenceNum)\n" + "STORED AS SCD TYPE 2\n" +
                              tail);
}

const std::string kAppend = "CREATE OR REFRESH STREAMING TABLE a;\n\n"
                            "CREATE FLOW copy AS INSERT INTO a BY NAME\nSELECT *\nFROM STREAM(s);\n";

QString names(const std::vector<pipeline::Identifier>& ids) {
    QStringList out;
    for (const auto& i : ids)
        out << q(i.name);
    return out.join(',');
}

QString selection(const std::optional<pipeline::ColumnSelection>& sel) {
    if (!sel)
        return "none";
    const char* mode = sel->mode == Mode::All ? "all" : sel->mode == Mode::Only ? "only" : "except";
    return QString(mode) + ":" + names(sel->columns);
}

const pipeline::AutoCdcFlow& flow(const pipeline::Pipeline& p) {
    return p.cdcFlows.at(0);
}

struct FlowCase {
    const char* name;
    std::string before;
    Edit edit;
    std::string after; ///< the whole expected text
    const char* description;
    Field field;
    const char* expectedField;
};

const std::vector<FlowCase>& flowCases() {
    static const std::vector<FlowCase> cases = {
        {"keys", "",
         [](auto t) {
             return PipelineEdits::setKeys(t, "apply_cdc", {"userId", "tenantId"});
         },
         seedFlow(kSeedHead, "KEYS (userId, tenantId)\n"
                             "APPLY AS DELETE WHEN operation = 'DELETE'\nSEQUENCE BY sequenceNum\n"
                             "COLUMNS * EXCEPT (operation, sequenceNum)\nSTORED AS SCD TYPE 2"),
         "Set keys of apply_cdc to userId, tenantId", [](auto& p) { return names(flow(p).keys); },
         "userId,tenantId"},
        {"target", "", [](auto t) { return PipelineEdits::setTarget(t, "apply_cdc", "users_scd2"); },
         seedFlow(
             "CREATE FLOW apply_cdc AS AUTO CDC INTO users_scd2\nFROM STREAM(main.cdc_tutorial.users_cdf)",
             kSeedClauses),
         "Set target of apply_cdc to users_scd2", [](auto& p) { return q(flow(p).target.name); },
         "users_scd2"},
        {"source not a stream", "",
         [](auto t) {
             return PipelineEdits::setSource(t, "apply_cdc", "main.cdc_tutorial.users_raw", false);
         },
         seedFlow("CREATE FLOW apply_cdc AS AUTO CDC INTO users_history\nFROM main.cdc_tutorial.users_raw",
                  kSeedClauses),
         "Set source of apply_cdc to main.cdc_tutorial.users_raw",
         [](auto& p) { return q(flow(p).source.name) + (flow(p).source.stream ? " stream" : " batch"); },
         "main.cdc_tutorial.users_raw batch"},
        {"sequence of two columns", "",
         [](auto t) {
             return PipelineEdits::setSequence(t, "apply_cdc", {"sequenceNum", "ts"});
         },
         seedFlow(kSeedHead, "KEYS (userId)\nAPPLY AS DELETE WHEN operation = 'DELETE'\n"
                             "SEQUENCE BY struct(sequenceNum, ts)\n"
                             "COLUMNS * EXCEPT (operation, sequenceNum)\nSTORED AS SCD TYPE 2"),
         "Set sequence of apply_cdc to struct(sequenceNum, ts)",
         [](auto& p) {
             return QString(flow(p).sequenceIsStruct ? "struct:" : "single:") +
                    q(flow(p).sequenceFieldNames.at(0)) + "," + q(flow(p).sequenceFieldNames.at(1));
         },
         "struct:sequenceNum,ts"},
        {"delete condition", "",
         [](auto t) {
             return PipelineEdits::setDeleteCondition(t, "apply_cdc", "operation IN (\"DELETE\", 'GONE')");
         },
         seedFlow(kSeedHead, "KEYS (userId)\nAPPLY AS DELETE WHEN operation IN ('DELETE', 'GONE')\n"
                             "SEQUENCE BY sequenceNum\n"
                             "COLUMNS * EXCEPT (operation, sequenceNum)\nSTORED AS SCD TYPE 2"),
         "Set delete condition of apply_cdc to operation IN ('DELETE', 'GONE')",
         [](auto& p) { return q(flow(p).applyAsDelete->sparkText); }, "operation IN ('DELETE', 'GONE')"},
        {"delete condition cleared", "",
         [](auto t) { return PipelineEdits::setDeleteCondition(t, "apply_cdc", std::nullopt); },
         seedFlow(kSeedHead, "KEYS (userId)\nSEQUENCE BY sequenceNum\n"
                             "COLUMNS * EXCEPT (operation, sequenceNum)\nSTORED AS SCD TYPE 2"),
         "Clear delete condition of apply_cdc",
         [](auto& p) { return QString(flow(p).applyAsDelete ? "set" : "none"); }, "none"},
        {"truncate condition", "",
         [](auto t) { return PipelineEdits::setTruncateCondition(t, "apply_cdc", "operation = 'TRUNCATE'"); },
         seedFlow(kSeedHead, "KEYS (userId)\nAPPLY AS DELETE WHEN operation = 'DELETE'\n"
                             "APPLY AS TRUNCATE WHEN operation = 'TRUNCATE'\nSEQUENCE BY sequenceNum\n"
                             "COLUMNS * EXCEPT (operation, sequenceNum)\nSTORED AS SCD TYPE 2"),
         "Set truncate condition of apply_cdc to operation = 'TRUNCATE'",
         [](auto& p) { return q(flow(p).applyAsTruncate->sparkText); }, "operation = 'TRUNCATE'"},
        {"SCD type 1", "",
         [](auto t) { return PipelineEdits::setScdType(t, "apply_cdc", pipeline::ScdType::Type1); },
         seedFlow(kSeedHead,
                  "KEYS (userId)\nAPPLY AS DELETE WHEN operation = 'DELETE'\nSEQUENCE BY sequenceNum\n"
                  "COLUMNS * EXCEPT (operation, sequenceNum)\nSTORED AS SCD TYPE 1"),
         "Set SCD type of apply_cdc to 1",
         [](auto& p) { return QString::number(static_cast<int>(flow(p).scdType)); }, "1"},
        {"columns listed", "",
         [](auto t) {
             return PipelineEdits::setColumns(t, "apply_cdc", {Mode::Only, {"userId", "city"}});
         },
         seedFlow(kSeedHead,
                  "KEYS (userId)\nAPPLY AS DELETE WHEN operation = 'DELETE'\nSEQUENCE BY sequenceNum\n"
                  "COLUMNS (userId, city)\nSTORED AS SCD TYPE 2"),
         "Set columns of apply_cdc to userId, city", [](auto& p) { return selection(flow(p).columns); },
         "only:userId,city"},
        {"all columns", "",
         [](auto t) {
             return PipelineEdits::setColumns(t, "apply_cdc", {Mode::All, {}});
         },
         seedFlow(kSeedHead,
                  "KEYS (userId)\nAPPLY AS DELETE WHEN operation = 'DELETE'\nSEQUENCE BY sequenceNum\n"
                  "STORED AS SCD TYPE 2"),
         "Set columns of apply_cdc to all columns", [](auto& p) { return selection(flow(p).columns); },
         "all:"},
        {"track history all but", "",
         [](auto t) {
             return PipelineEdits::setTrackHistory(t, "apply_cdc", ColumnChoice{Mode::Except, {"city"}});
         },
         seedFlow(kSeedHead, kSeedClauses + "\nTRACK HISTORY ON * EXCEPT (city)"),
         "Set track history of apply_cdc to all columns except city",
         [](auto& p) { return selection(flow(p).trackHistory); }, "except:city"},
        {"ignore null updates", "",
         [](auto t) { return PipelineEdits::setIgnoreNullUpdates(t, "apply_cdc", ColumnChoice{}); },
         seedFlow(kSeedHead, "KEYS (userId)\nIGNORE NULL UPDATES\nAPPLY AS DELETE WHEN operation = 'DELETE'\n"
                             "SEQUENCE BY sequenceNum\n"
                             "COLUMNS * EXCEPT (operation, sequenceNum)\nSTORED AS SCD TYPE 2"),
         "Set ignore null updates of apply_cdc to all columns",
         [](auto& p) { return selection(flow(p).ignoreNullUpdates); }, "all:"},
        {"ignore null updates on columns", "",
         [](auto t) {
             return PipelineEdits::setIgnoreNullUpdates(t, "apply_cdc", ColumnChoice{Mode::Only, {"city"}});
         },
         seedFlow(kSeedHead,
                  "KEYS (userId)\nIGNORE NULL UPDATES ON (city)\nAPPLY AS DELETE WHEN operation = 'DELETE'\n"
                  "SEQUENCE BY sequenceNum\n"
                  "COLUMNS * EXCEPT (operation, sequenceNum)\nSTORED AS SCD TYPE 2"),
         "Set ignore null updates of apply_cdc to city",
         [](auto& p) { return selection(flow(p).ignoreNullUpdates); }, "only:city"},
        {"columns to update", "",
         [](auto t) { return PipelineEdits::setColumnsToUpdate(t, "apply_cdc", std::string("changed")); },
         seedFlow(kSeedHead, kSeedClauses + "\nCOLUMNS TO UPDATE changed"),
         "Set columns to update of apply_cdc to changed",
         [](auto& p) { return q(flow(p).columnsToUpdate->name); }, "changed"},
        {"once", "", [](auto t) { return PipelineEdits::setOnce(t, "apply_cdc", true); },
         seedFlow("CREATE FLOW apply_cdc AS AUTO CDC ONCE INTO users_history\n"
                  "FROM STREAM(main.cdc_tutorial.users_cdf)",
                  kSeedClauses),
         "Set ONCE on apply_cdc", [](auto& p) { return QString(flow(p).once ? "once" : "continuous"); },
         "once"},
        {"rename", "", [](auto t) { return PipelineEdits::renameFlow(t, "APPLY_CDC", "users_flow"); },
         seedFlow("CREATE FLOW users_flow AS AUTO CDC INTO users_history\nFROM "
                  "STREAM(main.cdc_tutorial.users_cdf)",
                  kSeedClauses),
         "Rename flow APPLY_CDC to users_flow", [](auto& p) { return q(flow(p).name.name); }, "users_flow"},
        {"keys of a FLOW clause", kInline, [](auto t) { return PipelineEdits::setKeys(t, "users", {"id"}); },
         "CREATE OR REFRESH STREAMING TABLE users\nFLOW AUTO CDC\nFROM STREAM(users_cdf)\nKEYS (id)\n"
         "SEQUENCE BY ts;\n",
         "Set keys of users to id", [](auto& p) { return names(flow(p).keys); }, "id"},
        {"ONCE on a FLOW clause", kInline, [](auto t) { return PipelineEdits::setOnce(t, "users", true); },
         "CREATE OR REFRESH STREAMING TABLE users\nFLOW AUTO CDC ONCE\nFROM STREAM(users_cdf)\nKEYS "
         "(userId)\n"
         "SEQUENCE BY ts;\n",
         "Set ONCE on users", [](auto& p) { return QString(flow(p).once ? "once" : "continuous"); }, "once"},
        {"SCD type of APPLY CHANGES", kLegacy,
         [](auto t) { return PipelineEdits::setScdType(t, "users", pipeline::ScdType::Type2); },
         "APPLY CHANGES INTO LIVE.users\nFROM STREAM(users_cdf)\nKEYS (userId)\nSEQUENCE BY ts\n"
         "STORED AS SCD TYPE 2;\n",
         "Set SCD type of users to 2",
         [](auto& p) { return QString::number(static_cast<int>(flow(p).scdType)); }, "2"},
        {"renamed APPLY CHANGES becomes CREATE FLOW", kLegacy,
         [](auto t) { return PipelineEdits::renameFlow(t, "users", "users_flow"); },
         "CREATE FLOW users_flow AS AUTO CDC INTO LIVE.users\nFROM STREAM(users_cdf)\nKEYS (userId)\n"
         "SEQUENCE BY ts;\n",
         "Rename flow users to users_flow",
         [](auto& p) { return q(flow(p).name.name) + (flow(p).legacySyntax ? " legacy" : " current"); },
         "users_flow current"},
        {"ONCE on APPLY CHANGES makes it CREATE FLOW", kLegacy,
         [](auto t) { return PipelineEdits::setOnce(t, "users", true); },
         "CREATE FLOW users AS AUTO CDC ONCE INTO LIVE.users\nFROM STREAM(users_cdf)\nKEYS (userId)\n"
         "SEQUENCE BY ts;\n",
         "Set ONCE on users",
         [](auto& p) { return q(flow(p).name.name) + (flow(p).once ? " once" : " continuous"); },
         "users once"},
        {"single sequence column", fullFlow(),
         [](auto t) { return PipelineEdits::setSequence(t, "apply_cdc", {"ts"}); },
         fullFlow("IGNORE NULL UPDATES ON * EXCEPT (city)\n",
                  "APPLY AS TRUNCATE WHEN operation = 'TRUNCATE'\n", "ts"),
         "Set sequence of apply_cdc to ts",
         [](auto& p) {
             return QString(flow(p).sequenceIsStruct ? "struct:" : "single:") +
                    q(flow(p).sequenceBy[0].sparkText);
         },
         "single:ts"},
        {"ignore null updates off", fullFlow(),
         [](auto t) { return PipelineEdits::setIgnoreNullUpdates(t, "apply_cdc", std::nullopt); },
         fullFlow(""), "Turn off ignore null updates of apply_cdc",
         [](auto& p) { return selection(flow(p).ignoreNullUpdates); }, "none"},
        {"truncate condition cleared", fullFlow(),
         [](auto t) { return PipelineEdits::setTruncateCondition(t, "apply_cdc", std::nullopt); },
         fullFlow("IGNORE NULL UPDATES ON * EXCEPT (city)\n", ""), "Clear truncate condition of apply_cdc",
         [](auto& p) { return QString(flow(p).applyAsTruncate ? "set" : "none"); }, "none"},
        {"track history cleared", fullFlow(),
         [](auto t) { return PipelineEdits::setTrackHistory(t, "apply_cdc", std::nullopt); },
         fullFlow("IGNORE NULL UPDATES ON * EXCEPT (city)\n",
                  "APPLY AS TRUNCATE WHEN operation = 'TRUNCATE'\n", "struct(sequenceNum, ts)",
                  "COLUMNS TO UPDATE changed"),
         "Clear track history of apply_cdc", [](auto& p) { return selection(flow(p).trackHistory); }, "none"},
        {"columns to update cleared", fullFlow(),
         [](auto t) { return PipelineEdits::setColumnsToUpdate(t, "apply_cdc", std::nullopt); },
         fullFlow("IGNORE NULL UPDATES ON * EXCEPT (city)\n",
                  "APPLY AS TRUNCATE WHEN operation = 'TRUNCATE'\n", "struct(sequenceNum, ts)",
                  "TRACK HISTORY ON (city)"),
         "Clear columns to update of apply_cdc",
         [](auto& p) { return QString(flow(p).columnsToUpdate ? "set" : "none"); }, "none"},
        {"ONCE cleared", fullFlow(), [](auto t) { return PipelineEdits::setOnce(t, "apply_cdc", false); },
         fullFlow("IGNORE NULL UPDATES ON * EXCEPT (city)\n",
                  "APPLY AS TRUNCATE WHEN operation = 'TRUNCATE'\n", "struct(sequenceNum, ts)",
                  "TRACK HISTORY ON (city)\nCOLUMNS TO UPDATE changed",
                  "CREATE FLOW apply_cdc AS AUTO CDC INTO users_history\nFROM "
                  "STREAM(main.cdc_tutorial.users_cdf)"),
         "Clear ONCE on apply_cdc", [](auto& p) { return QString(flow(p).once ? "once" : "continuous"); },
         "continuous"},
        {"target of an append flow", kAppend, [](auto t) { return PipelineEdits::setTarget(t, "copy", "b"); },
         "CREATE OR REFRESH STREAMING TABLE a;\n\nCREATE FLOW copy AS INSERT INTO b BY NAME\nSELECT *\nFROM "
         "STREAM(s);\n",
         "Set target of copy to b", [](auto& p) { return q(p.appendFlows.at(0).target.name); }, "b"},
        {"ONCE on an append flow", kAppend, [](auto t) { return PipelineEdits::setOnce(t, "copy", true); },
         "CREATE OR REFRESH STREAMING TABLE a;\n\nCREATE FLOW copy AS INSERT INTO ONCE a BY NAME\nSELECT *\n"
         "FROM STREAM(s);\n",
         "Set ONCE on copy",
         [](auto& p) { return QString(p.appendFlows.at(0).once ? "once" : "continuous"); }, "once"},
        {"ONCE on a table's AS query", "CREATE STREAMING TABLE t AS SELECT * FROM STREAM(s);\n",
         [](auto t) { return PipelineEdits::setOnce(t, "t", true); },
         "CREATE STREAMING TABLE t\nFLOW INSERT ONCE BY NAME\nSELECT *\nFROM STREAM(s);\n", "Set ONCE on t",
         [](auto& p) { return QString(p.appendFlows.at(0).once ? "once" : "continuous"); }, "once"},
    };
    return cases;
}

/// Runs the scd2-users sample's sources and events through `pipelineText`; the target's rows as CSV.
QString runSeedEvents(const std::string& pipelineText) {
    auto db = storage::Database::openMemory();
    if (!db)
        return "no database";
    const QString sample = QStringLiteral(CDC_SOURCE_DIR "/samples/scd2-users/");
    for (const char* file : {"sources.sql", "events.sql"}) {
        auto st = sql::executeSourceScript(*db, pipelinetest::readFile(sample + file), file);
        if (!st)
            return q(st.error().format());
    }
    PipelineParse parsed = parsePipeline(pipelineText, "pipeline.sql");
    if (parsed.hasErrors())
        return q(parsed.firstError()->format());
    if (auto valid = engine::validate(*db, parsed.pipeline); !valid)
        return q(valid.error().format());
    if (auto report = engine::runUpdate(*db, parsed.pipeline); !report)
        return q(report.error().format());
    auto rows = runQuery(*db, "SELECT * FROM users_history ORDER BY userId, __START_AT");
    return rows ? q(toCsv(*rows)) : q(rows.error().format());
}

} // namespace

class TestPipelineEdits : public QObject {
    Q_OBJECT
private slots:
    void flowEdit_data() {
        QTest::addColumn<int>("index");
        for (std::size_t i = 0; i < flowCases().size(); ++i)
            QTest::newRow(flowCases()[i].name) << static_cast<int>(i);
    }
    void flowEdit() {
        QFETCH(int, index);
        const FlowCase& c = flowCases()[static_cast<std::size_t>(index)];
        const std::string before =
            c.before.empty() ? pipelinetest::dataFile("scd2_users_pipeline.sql") : c.before;
        auto edit = c.edit(before);
        QVERIFY2(edit.ok(), edit.ok() ? "" : edit.error().format().c_str());
        QCOMPARE(q(edit->text), q(c.after));
        QCOMPARE(q(edit->description), QString(c.description));
        QString errors;
        auto parsed = pipelinetest::positionless(edit->text, &errors);
        QVERIFY2(errors.isEmpty(), qPrintable(errors));
        QCOMPARE(c.field(parsed), QString(c.expectedField));
    }

    void addRemoveRename_data() {
        QTest::addColumn<QString>("before");
        QTest::addColumn<int>("operation");
        QTest::addColumn<QString>("after");
        QTest::addColumn<QString>("description");
        const QString seed = q(pipelinetest::dataFile("scd2_users_pipeline.sql"));
        const QString tables =
            "CREATE OR REFRESH STREAMING TABLE users\n"
            "FLOW AUTO CDC FROM STREAM(users_cdf) KEYS (id) SEQUENCE BY ts;\n\n"
            "-- recent users\n"
            "CREATE MATERIALIZED VIEW recent AS SELECT users.id FROM LIVE.users WHERE users.ts > 5;\n\n"
            "CREATE FLOW copy AS INSERT INTO archive BY NAME SELECT * FROM STREAM(users);\n";
        QTest::newRow("add streaming table")
            << seed << 0 << seed + "\nCREATE OR REFRESH STREAMING TABLE users_scd1;\n"
            << "Add streaming table users_scd1";
        QTest::newRow("add AUTO CDC flow")
            << seed << 1
            << seed +
                   "\nCREATE FLOW scd1_flow AS AUTO CDC INTO users_scd1\nFROM main.cdc_tutorial.users_cdf\n"
                   "KEYS (userId)\nSEQUENCE BY struct(sequenceNum, name)\nSTORED AS SCD TYPE 1;\n"
            << "Add flow scd1_flow";
        QTest::newRow("add append flow")
            << seed << 2
            << seed + "\nCREATE FLOW backfill AS INSERT INTO users_history BY NAME\n"
                      "SELECT *\nFROM main.cdc_tutorial.old_users;\n"
            << "Add flow backfill";
        QTest::newRow("add materialized view") << seed << 3
                                               << seed + "\nCREATE OR REFRESH MATERIALIZED VIEW counts\nAS "
                                                         "SELECT count(*) AS n\nFROM users_history;\n"
                                               << "Add materialized view counts";
        QTest::newRow("add temporary view")
            << seed << 4 << seed + "\nCREATE TEMPORARY VIEW changes\nAS SELECT *\nFROM STREAM(users_cdf);\n"
            << "Add view changes";
        QTest::newRow("remove streaming table with its flow")
            << tables << 5
            << "-- recent users\n"
               "CREATE MATERIALIZED VIEW recent AS SELECT users.id FROM LIVE.users WHERE users.ts > 5;\n\n"
               "CREATE FLOW copy AS INSERT INTO archive BY NAME SELECT * FROM STREAM(users);\n"
            << "Remove streaming table users and its flow users";
        QTest::newRow("remove view")
            << tables << 6
            << "CREATE OR REFRESH STREAMING TABLE users\n"
               "FLOW AUTO CDC FROM STREAM(users_cdf) KEYS (id) SEQUENCE BY ts;\n\n"
               "-- recent users\n"
               "CREATE FLOW copy AS INSERT INTO archive BY NAME SELECT * FROM STREAM(users);\n"
            << "Remove materialized view recent";
        QTest::newRow("remove the FLOW clause only")
            << tables << 7
            << "CREATE OR REFRESH STREAMING TABLE users;\n\n" + tables.mid(tables.indexOf("-- recent"))
            << "Remove flow users from streaming table users";
        QTest::newRow("rename a table and what reads it")
            << tables << 8
            << "CREATE OR REFRESH STREAMING TABLE customers\nFLOW AUTO CDC\nFROM STREAM(users_cdf)\nKEYS "
               "(id)\n"
               "SEQUENCE BY ts;\n\n"
               "-- recent users\n"
               "CREATE MATERIALIZED VIEW recent\nAS SELECT customers.id\nFROM LIVE.customers\nWHERE "
               "customers.ts > 5;\n\n"
               "CREATE FLOW copy AS INSERT INTO archive BY NAME\nSELECT *\nFROM STREAM(customers);\n"
            << "Rename streaming table users to customers (and 2 statements that use it)";
        QTest::newRow("remove a CREATE FLOW")
            << seed << 10 << q(kTable.substr(0, kTable.size() - 1)) << "Remove flow apply_cdc";
        QTest::newRow("rename: CTE of the same name and table_changes")
            << "CREATE OR REFRESH STREAMING TABLE users;\n\n"
               "CREATE TEMPORARY VIEW shadow AS WITH users AS (SELECT 1 AS id) SELECT * FROM users;\n\n"
               "CREATE TEMPORARY VIEW feed AS SELECT * FROM table_changes('users', 1) JOIN users AS u ON "
               "u.id = 1;\n"
            << 8
            << "CREATE OR REFRESH STREAMING TABLE customers;\n\n"
               "CREATE TEMPORARY VIEW shadow AS WITH users AS (SELECT 1 AS id) SELECT * FROM users;\n\n"
               "CREATE TEMPORARY VIEW feed\nAS SELECT *\nFROM table_changes('customers', 1) INNER JOIN "
               "customers AS u "
               "ON u.id = 1;\n"
            << "Rename streaming table users to customers (and 1 statement that uses it)";
        QTest::newRow("rename the target of a flow")
            << seed << 9
            << q(seedFlow("CREATE OR REFRESH STREAMING TABLE users_scd2;\n\nCREATE FLOW apply_cdc AS AUTO "
                          "CDC INTO "
                          "users_scd2\nFROM STREAM(main.cdc_tutorial.users_cdf)",
                          kSeedClauses)
                     .substr(kTable.size()))
            << "Rename streaming table users_history to users_scd2 (and 1 statement that uses it)";
    }
    void addRemoveRename() {
        QFETCH(QString, before);
        QFETCH(int, operation);
        QFETCH(QString, after);
        QFETCH(QString, description);
        const std::string text = before.toStdString();
        const std::vector<std::function<Result<PipelineEdit>()>> operations = {
            [&] { return PipelineEdits::addStreamingTable(text, "users_scd1"); },
            [&] {
                return PipelineEdits::addAutoCdcFlow(text, {"scd1_flow",
                                                            "main.cdc_tutorial.users_cdf",
                                                            false,
                                                            "users_scd1",
                                                            {"userId"},
                                                            {"sequenceNum", "name"},
                                                            pipeline::ScdType::Type1});
            },
            [&] {
                return PipelineEdits::addAppendFlow(text, "backfill", "users_history",
                                                    "select * from main.cdc_tutorial.old_users");
            },
            [&] {
                return PipelineEdits::addView(text, "counts", "SELECT COUNT(*) n FROM users_history", true);
            },
            [&] { return PipelineEdits::addView(text, "changes", "SELECT * FROM STREAM users_cdf", false); },
            [&] { return PipelineEdits::removeEntity(text, "users"); },
            [&] { return PipelineEdits::removeEntity(text, "recent"); },
            [&] { return PipelineEdits::removeFlow(text, "users"); },
            [&] { return PipelineEdits::renameDataset(text, "users", "customers"); },
            [&] { return PipelineEdits::renameDataset(text, "users_history", "users_scd2"); },
            [&] { return PipelineEdits::removeEntity(text, "apply_cdc"); },
        };
        auto edit = operations.at(static_cast<std::size_t>(operation))();
        QVERIFY2(edit.ok(), edit.ok() ? "" : edit.error().format().c_str());
        QCOMPARE(q(edit->text), after);
        QCOMPARE(q(edit->description), description);
        QString errors;
        pipelinetest::positionless(edit->text, &errors);
        QVERIFY2(errors.isEmpty(), qPrintable(errors));
    }

    void refused_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("operation");
        QTest::addColumn<QString>("error");
        const QString seed = q(pipelinetest::dataFile("scd2_users_pipeline.sql"));
        QTest::newRow("bad delete condition, positioned in what was typed")
            << seed << 0 << "<delete condition>:2:6: error: unexpected 'DELETE' after the expression";
        QTest::newRow("bad view query")
            << seed << 1 << "<query>:1:8: error: expected an expression in the SELECT list";
        QTest::newRow("text that does not parse")
            << "CREATE STREAMING TABLE t;\nCREATE FLOW f AS AUTO CDC INTO t FROM s KEYS (k) SEQUENCE BY;\n"
            << 2 << "pipeline.sql:2:61: error: expected an expression, found ';'";
        QTest::newRow("target of a FLOW clause") << q(kInline) << 3
                                                 << "error: flow 'users' is its streaming table's FLOW "
                                                    "clause, named after the table and writing it";
        QTest::newRow("name taken") << seed << 4
                                    << "error: there is already a streaming table named 'USERS_HISTORY'";
        QTest::newRow("no such flow") << seed << 5 << "error: there is no flow named 'nope'";
        QTest::newRow("no keys") << seed << 6 << "error: at least one key column is needed";
        QTest::newRow("sequence of a snapshot flow")
            << "CREATE STREAMING TABLE t;\nCREATE FLOW f AS AUTO CDC INTO t FROM SNAPSHOT s KEYS (k);\n"
            << 7 << "error: flow 'f' reads FROM SNAPSHOT, which takes no SEQUENCE BY";
        QTest::newRow("flow name taken") << seed << 8 << "error: there is already a flow named 'APPLY_CDC'";
    }
    void refused() {
        QFETCH(QString, text);
        QFETCH(int, operation);
        QFETCH(QString, error);
        const std::string t = text.toStdString();
        const std::vector<std::function<Result<PipelineEdit>()>> operations = {
            [&] { return PipelineEdits::setDeleteCondition(t, "apply_cdc", "operation =\n \"x\" DELETE"); },
            [&] { return PipelineEdits::addView(t, "v", "SELECT FROM users_history", false); },
            [&] { return PipelineEdits::setKeys(t, "f", {"id"}); },
            [&] { return PipelineEdits::setTarget(t, "users", "elsewhere"); },
            [&] { return PipelineEdits::addStreamingTable(t, "USERS_HISTORY"); },
            [&] { return PipelineEdits::setScdType(t, "nope", pipeline::ScdType::Type1); },
            [&] { return PipelineEdits::setKeys(t, "apply_cdc", {}); },
            [&] { return PipelineEdits::setSequence(t, "f", {"v"}); },
            [&] { return PipelineEdits::addAppendFlow(t, "APPLY_CDC", "users_history", "SELECT 1 AS one"); },
        };
        auto edit = operations.at(static_cast<std::size_t>(operation))();
        QVERIFY(!edit.ok());
        QCOMPARE(q(edit.error().format()), error);
    }

    void buildsTheSeedFromNothing() {
        const std::string seed = pipelinetest::dataFile("scd2_users_pipeline.sql");
        std::string text;
        QStringList undoTexts;
        auto apply = [&](const Result<PipelineEdit>& edit) {
            QVERIFY2(edit.ok(), edit.ok() ? "" : edit.error().format().c_str());
            text = edit->text;
            undoTexts << q(edit->description);
        };
        apply(PipelineEdits::addStreamingTable(text, "users_history"));
        apply(PipelineEdits::addAutoCdcFlow(text, {"apply_cdc",
                                                   "main.cdc_tutorial.users_cdf",
                                                   true,
                                                   "users_history",
                                                   {"userId"},
                                                   {"sequenceNum"},
                                                   std::nullopt}));
        apply(PipelineEdits::setDeleteCondition(text, "apply_cdc", "operation = \"DELETE\""));
        apply(PipelineEdits::setColumns(text, "apply_cdc", {Mode::Except, {"operation", "sequenceNum"}}));
        apply(PipelineEdits::setScdType(text, "apply_cdc", pipeline::ScdType::Type2));
        QCOMPARE(undoTexts,
                 QStringList({"Add streaming table users_history", "Add flow apply_cdc",
                              "Set delete condition of apply_cdc to operation = 'DELETE'",
                              "Set columns of apply_cdc to all columns except operation, sequenceNum",
                              "Set SCD type of apply_cdc to 2"}));

        QString errors;
        const pipeline::Pipeline built = pipelinetest::positionless(text, &errors);
        QVERIFY2(errors.isEmpty(), qPrintable(errors));
        QCOMPARE(built.cdcFlows.size(), std::size_t(1));
        QVERIFY(pipelinetest::equal(built, pipelinetest::positionless(seed)));

        // And it computes what the seed computes: the tutorial's SCD2 history.
        const QString fromSeed = runSeedEvents(seed);
        QCOMPARE(runSeedEvents(text), fromSeed);
        QCOMPARE(fromSeed, q(pipelinetest::readFile(
                               QStringLiteral(CDC_TESTS_DIR "/conformance/sql/e2e/seed_scd2/expected.csv"))));
    }
};

QTEST_GUILESS_MAIN(TestPipelineEdits)
#include "tst_pipeline_edits.moc"
