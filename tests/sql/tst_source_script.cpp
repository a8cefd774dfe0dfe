// Source scripts are the data users feed the simulator, so they must behave as on Databricks: INSERT
// casts as ANSI store assignment does, a failing script leaves nothing behind, UPDATE / DELETE / TRUNCATE
// of stored rows are logged (the engine refuses changed input), and pipeline statements are refused.
#include "core/sql/Parser.h"
#include "core/sql/SqlApi.h"
#include "core/sql/Translator.h"
#include "core/storage/Catalog.h"
#include "core/storage/Database.h"

#include <QFile>
#include <QTest>

using namespace cdc;
using namespace cdc::sql;

namespace {

std::string seed(const char* name) {
    QFile f(QStringLiteral(CDC_TESTS_DIR "/conformance/sql/seeds/") + name);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll().toStdString();
}

QString cells(const Row& row) {
    QStringList out;
    for (const auto& v : row)
        out << QString::fromStdString(displayText(v));
    return out.join('|');
}

QString types(const ResultSet& rs) {
    QStringList out;
    for (const auto& t : rs.types)
        out << (t ? QString::fromStdString(t->toString()) : QStringLiteral("?"));
    return out.join(',');
}

/// Every row of a SQLite query as "a|b|c", or the error.
QStringList rows(storage::Database& db, const std::string& sql) {
    auto st = db.prepare(sql);
    if (!st)
        return {"error: " + QString::fromStdString(st.error().message)};
    QStringList out;
    auto done = st->forEachRow([&](storage::Statement& row) { out << cells(row.row()); });
    if (!done)
        out << "error: " + QString::fromStdString(done.error().message);
    return out;
}

QStringList rows(const ResultSet& rs) {
    QStringList out;
    for (const auto& row : rs.rows)
        out << cells(row);
    return out;
}

} // namespace

class TestSourceScript : public QObject {
    Q_OBJECT
private slots:
    void seedSampleDataRuns_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("withTruncate");
        QTest::newRow("without TRUNCATE row") << "001_create_sample_data.sql" << false;
        QTest::newRow("with TRUNCATE row") << "001_create_sample_data_truncate.sql" << true;
    }
    void seedSampleDataRuns() {
        QFETCH(QString, file);
        QFETCH(bool, withTruncate);
        auto db = storage::Database::openMemory();
        QVERIFY(db.ok());
        const std::string script = seed(file.toUtf8().constData());
        QVERIFY2(!script.empty(), qPrintable("missing seed " + file));
        auto st = executeSourceScript(*db, script, file.toStdString());
        QVERIFY2(st.ok(), st.ok() ? "" : st.error().format().c_str());
        auto rs = runQuery(*db, "SELECT * FROM main.cdc_tutorial.users_cdf");
        QVERIFY2(rs.ok(), rs.ok() ? "" : rs.error().format().c_str());
        QCOMPARE(QString::fromStdString(rs->columns[0] + "," + rs->columns[1] + "," + rs->columns[2] + "," +
                                        rs->columns[3] + "," + rs->columns[4]),
                 QStringLiteral("userId,name,city,operation,sequenceNum"));
        QCOMPARE(types(*rs), QStringLiteral("INT,STRING,STRING,STRING,INT"));
        // The seed's rows in the seed's order (the TRUNCATE row last when it is not commented out).
        QStringList expected = {"124|Raul|Oaxaca|INSERT|1",       "123|Isabel|Monterrey|INSERT|1",
                                "125|Mercedes|Tijuana|INSERT|2",  "126|Lily|Cancun|INSERT|2",
                                "123|null|null|DELETE|6",         "125|Mercedes|Guadalajara|UPDATE|6",
                                "125|Mercedes|Mexicali|UPDATE|5", "123|Isabel|Chihuahua|UPDATE|5"};
        if (withTruncate)
            expected << "null|null|null|TRUNCATE|3";
        QCOMPARE(::rows(*rs), expected);
        QVERIFY(std::holds_alternative<std::int64_t>(rs->rows[0][0]));
        QVERIFY(std::holds_alternative<std::int64_t>(rs->rows[0][4]));
        QVERIFY(isNull(rs->rows[4][1]));
        auto table = storage::Catalog::find(*db, "users_cdf");
        QVERIFY(table.ok() && table.value());
        QCOMPARE(QString::fromStdString(table.value()->name), QStringLiteral("main.cdc_tutorial.users_cdf"));
        QCOMPARE(table.value()->kind, storage::TableKind::Source);
    }

    void snapshotScriptsLogChangesToConsumedRows() {
        auto db = storage::Database::openMemory();
        auto st = executeSourceScript(*db, seed("001_snapshot_sample_data.sql"), "a.sql");
        QVERIFY2(st.ok(), st.ok() ? "" : st.error().format().c_str());
        auto rs = runQuery(*db, "SELECT userId, city FROM main.cdc_tutorial.snapshot ORDER BY userId");
        QVERIFY(rs.ok());
        QCOMPARE(rows(*rs), QStringList({"1|Oaxaca", "2|Monterrey", "3|Tijuana"}));
        QCOMPARE(types(*rs), QStringLiteral("INT,STRING"));
        QVERIFY(!db->tableExists("__cdc_source_changes"));

        st = executeSourceScript(*db, seed("001_snapshot_new_snapshot.sql"), "b.sql");
        QVERIFY2(st.ok(), st.ok() ? "" : st.error().format().c_str());
        rs = runQuery(*db, "SELECT * FROM snapshot ORDER BY userId DESC");
        QVERIFY(rs.ok());
        QCOMPARE(rows(*rs), QStringList({"6|Kings Canyon", "4|Death Valley", "3|Los Angeles", "2|Carmel"}));
        auto version = runQuery(*db, "SELECT version FROM snapshot_version");
        QVERIFY(version.ok());
        QCOMPARE(cells(version->rows.at(0)), QStringLiteral("1"));
        QCOMPARE(types(*version), QStringLiteral("BIGINT"));

        QCOMPARE(rows(*db, "SELECT table_name, min_rowid, kind FROM __cdc_source_changes ORDER BY seq"),
                 QStringList({"main.cdc_tutorial.snapshot|1|TRUNCATE",
                              "main.cdc_tutorial.snapshot_version|1|UPDATE"}));
    }

    void changesThatTouchNoRowAreNotLogged() {
        auto db = storage::Database::openMemory();
        auto st =
            executeSourceScript(*db,
                                "CREATE TABLE t (id INT, v STRING); INSERT INTO t VALUES (1, 'a'), (2, 'b');"
                                "DELETE FROM t WHERE id = 9; UPDATE t SET v = 'x' WHERE id > 5;"
                                "DELETE FROM t WHERE id = 2;",
                                "s.sql");
        QVERIFY2(st.ok(), st.ok() ? "" : st.error().format().c_str());
        // Only the DELETE that removed a row is logged, with the first rowid it touched.
        QCOMPARE(rows(*db, "SELECT table_name, min_rowid, kind FROM __cdc_source_changes ORDER BY seq"),
                 QStringList({"t|2|DELETE"}));
        QCOMPARE(rows(*db, "SELECT id, v FROM t ORDER BY id"), QStringList({"1|a"}));
    }

    void failingStatementLeavesDatabaseUnchanged() {
        auto db = storage::Database::openMemory();
        QVERIFY(executeSourceScript(*db, "CREATE TABLE keep (x INT); INSERT INTO keep VALUES (1);", "a.sql")
                    .ok());
        std::string script = "CREATE TABLE a (x INT);\n"
                             "INSERT INTO keep VALUES (2);\n"
                             "INSERT INTO missing VALUES (1);\n"
                             "INSERT INTO keep VALUES (3);\n";
        auto st = executeSourceScript(*db, script, "b.sql");
        QVERIFY(!st.ok());
        QCOMPARE(QString::fromStdString(st.error().format()),
                 QStringLiteral("b.sql:3:13: error: table or view not found: missing"));
        QVERIFY(!db->tableExists("a"));
        auto found = storage::Catalog::find(*db, "a");
        QVERIFY(found.ok() && !found.value());
        QCOMPARE(rows(*db, "SELECT x FROM keep"), QStringList({"1"}));
        QVERIFY(!db->inTransaction());
    }

    void sqliteErrorsCarryTheStatementPosition() {
        auto db = storage::Database::openMemory();
        auto st =
            executeSourceScript(*db, "CREATE TABLE t (x INT);\nSELECT nosuchfunction(x) FROM t;", "c.sql");
        QVERIFY(!st.ok());
        QCOMPARE(QString::fromStdString(st.error().format()),
                 QStringLiteral("c.sql:2:8: error: no such function: nosuchfunction"));
        auto col =
            executeSourceScript(*db, "CREATE TABLE u (x INT);\nINSERT INTO u SELECT y FROM u;", "d.sql");
        QVERIFY(!col.ok());
        QCOMPARE(QString::fromStdString(col.error().format()),
                 QStringLiteral("d.sql:2:22: error: no such column: y"));
    }

    void insertCoercesToColumnTypes() {
        auto db = storage::Database::openMemory();
        auto st = executeSourceScript(
            *db,
            "CREATE TABLE t (d DATE, ts TIMESTAMP, n INT, s STRING, b BOOLEAN, x DOUBLE, m DECIMAL(10,2));"
            "INSERT INTO t VALUES ('2024-01-05', '2024-01-05T10:00:00Z', '42', 7, 'true', 1, 2.345);"
            "INSERT INTO t (n) VALUES (5);",
            "d.sql");
        QVERIFY2(st.ok(), st.ok() ? "" : st.error().format().c_str());
        auto rs = runQuery(*db, "SELECT * FROM t ORDER BY n DESC");
        QVERIFY(rs.ok());
        QCOMPARE(types(*rs), QStringLiteral("DATE,TIMESTAMP,INT,STRING,BOOLEAN,DOUBLE,DECIMAL(10,2)"));
        QCOMPARE(cells(rs->rows[0]), QStringLiteral("2024-01-05|2024-01-05 10:00:00|42|7|1|1.0|2.35"));
        QVERIFY(std::holds_alternative<std::string>(rs->rows[0][3]));
        QVERIFY(std::holds_alternative<double>(rs->rows[0][5]));
        QCOMPARE(cells(rs->rows[1]), QStringLiteral("null|null|5|null|null|null|null"));
    }

    // ANSI store assignment: what the column's type cannot hold fails the statement, positioned, naming the
    // row of the VALUES list and the column; nothing of the script is kept.
    void valuesTheColumnCannotHoldAreRefused_data() {
        QTest::addColumn<QString>("script");
        QTest::addColumn<QString>("error");
        const QString create = QStringLiteral(
            "CREATE TABLE t (id INT, small TINYINT, d DATE, x DOUBLE, m DECIMAL(4,2), ok BOOLEAN);\n");
        QTest::newRow("word into INT")
            << create +
                   "INSERT INTO t VALUES (1, 1, '2024-01-01', 1, 1, true),\n  ('seven', 1, null, 1, 1, true);"
            << "v.sql:2:1: error: row 2, column id: CAST_INVALID_INPUT: the value 'seven' of the "
               "type STRING cannot be cast to INT because it is malformed";
        QTest::newRow("INT overflow")
            << create + "INSERT INTO t (id) VALUES (3000000000);"
            << "v.sql:2:1: error: row 1, column id: CAST_OVERFLOW: the value 3000000000 of the type "
               "BIGINT cannot be cast to INT due to an overflow";
        QTest::newRow("TINYINT overflow")
            << create + "INSERT INTO t (small) VALUES (127), (128);"
            << "v.sql:2:1: error: row 2, column small: CAST_OVERFLOW: the value 128 of the type "
               "BIGINT cannot be cast to TINYINT due to an overflow";
        QTest::newRow("not a date")
            << create + "INSERT INTO t (d) VALUES ('2024-13-45');"
            << "v.sql:2:1: error: row 1, column d: CAST_INVALID_INPUT: the value '2024-13-45' of the "
               "type STRING cannot be cast to DATE because it is malformed";
        QTest::newRow("not a number")
            << create + "INSERT INTO t (x) VALUES ('1.5x');"
            << "v.sql:2:1: error: row 1, column x: CAST_INVALID_INPUT: the value '1.5x' of the type "
               "STRING cannot be cast to DOUBLE because it is malformed";
        QTest::newRow("DECIMAL too wide")
            << create + "INSERT INTO t (m) VALUES (123.4);"
            << "v.sql:2:1: error: row 1, column m: CAST_OVERFLOW: the value 123.4 of the type "
               "DOUBLE cannot be cast to DECIMAL(4,2) due to an overflow";
        QTest::newRow("not a boolean")
            << create + "INSERT INTO t (ok) VALUES ('maybe');"
            << "v.sql:2:1: error: row 1, column ok: CAST_INVALID_INPUT: the value 'maybe' of the "
               "type STRING cannot be cast to BOOLEAN because it is malformed";
        QTest::newRow("UPDATE")
            << create + "INSERT INTO t (id) VALUES (1), (2);\nUPDATE t SET id = 'two' WHERE id = 2;"
            << "v.sql:3:1: error: row 2, column id: CAST_INVALID_INPUT: the value 'two' of the type "
               "STRING cannot be cast to INT because it is malformed";
    }

    void valuesTheColumnCannotHoldAreRefused() {
        QFETCH(QString, script);
        QFETCH(QString, error);
        auto db = storage::Database::openMemory();
        auto st = executeSourceScript(*db, script.toStdString(), "v.sql");
        QVERIFY(!st.ok());
        QCOMPARE(QString::fromStdString(st.error().format()), error);
        QVERIFY(!db->tableExists("t")); // the whole script rolled back
    }

    // What converts is stored converted, as before.
    void convertibleTextIsStoredTyped() {
        auto db = storage::Database::openMemory();
        auto st = executeSourceScript(*db,
                                      "CREATE TABLE t (id INT, small TINYINT, d DATE, x DOUBLE);"
                                      "INSERT INTO t VALUES (' 42 ', -128, '2024-02-29', '1e3'), ('7.9', "
                                      "127, '2024-01-05T23:59:59Z', -0.5);",
                                      "c.sql");
        QVERIFY2(st.ok(), st.ok() ? "" : st.error().format().c_str());
        auto rs = runQuery(*db, "SELECT * FROM t ORDER BY id");
        QVERIFY(rs.ok());
        QCOMPARE(cells(rs->rows[0]), QStringLiteral("7|127|2024-01-05|-0.5"));
        QCOMPARE(cells(rs->rows[1]), QStringLiteral("42|-128|2024-02-29|1000.0"));
    }

    void largeValuesListsInsert() {
        auto db = storage::Database::openMemory();
        std::string script = "CREATE TABLE big (id INT, v STRING); INSERT INTO big VALUES ";
        for (int i = 0; i < 3000; ++i)
            script += (i ? ", (" : "(") + std::to_string(i) + ", 'v" + std::to_string(i) + "')";
        auto st = executeSourceScript(*db, script, "big.sql");
        QVERIFY2(st.ok(), st.ok() ? "" : st.error().format().c_str());
        auto rs = runQuery(*db, "SELECT count(*), sum(id), max(v) FROM big");
        QVERIFY(rs.ok());
        QCOMPARE(cells(rs->rows.at(0)), QStringLiteral("3000|4498500|v999"));
    }

    // INSERT … VALUES of plain literals skips the AST (one prepared INSERT, values cast in C++): what it
    // stores must be what the general path stores for the same value, type for type. `SELECT lit`
    // takes the general path; the VALUES row the literal one.
    void literalRowsStoreWhatTheGeneralPathStores_data() {
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("literal");
        const std::pair<const char*, const char*> cases[] = {
            {"INT", "42"},
            {"INT", "-7"},
            {"INT", "'12'"},
            {"BIGINT", "9223372036854775807"},
            {"BIGINT", "-9223372036854775807"},
            {"TINYINT", "127"},
            {"STRING", "'it''s'"},
            {"STRING", "'a\\nb\\tc'"},
            {"STRING", "r'raw\\n'"},
            {"STRING", "\"double\""},
            {"STRING", "5"},
            {"STRING", "TRUE"},
            {"STRING", "'caf\u00e9 \u6771\u4eac'"},
            {"DOUBLE", "3"},
            {"DOUBLE", "'2.5'"},
            {"FLOAT", "'1e3'"},
            {"BOOLEAN", "TRUE"},
            {"BOOLEAN", "false"},
            {"BOOLEAN", "'true'"},
            {"DATE", "'2024-01-05'"},
            {"TIMESTAMP", "'2024-01-05 10:00:00'"},
            {"DECIMAL(10,2)", "7"},
            {"DECIMAL(10,2)", "'2.345'"},
            {"INT", "NULL"},
            {"STRING", "NULL"},
        };
        for (const auto& [type, literal] : cases)
            QTest::newRow((std::string(type) + " " + literal).c_str())
                << QString::fromUtf8(type) << QString::fromUtf8(literal);
    }

    void literalRowsStoreWhatTheGeneralPathStores() {
        QFETCH(QString, type);
        QFETCH(QString, literal);
        auto db = storage::Database::openMemory();
        const std::string create = "CREATE TABLE t (k INT, v " + type.toStdString() + ");\n";
        const std::string lit = literal.toStdString();
        auto st = executeSourceScript(*db,
                                      create + "INSERT INTO t VALUES (1, " + lit + ");\n" +
                                          "INSERT INTO t SELECT 2, " + lit + ";\n" +
                                          "INSERT INTO t (v, k) VALUES (" + lit + ", 3), (" + lit + ", 4);\n",
                                      "lit.sql");
        QVERIFY2(st.ok(), st.ok() ? "" : st.error().format().c_str());
        const QStringList stored =
            rows(*db, "SELECT k, typeof(v), quote(v) FROM " +
                          storage::quoteIdentifier(storage::Catalog::sqliteNameFor("t")) + " ORDER BY rowid");
        QCOMPARE(stored.size(), 4);
        const QString general = stored[1].section('|', 1);
        QVERIFY2(!general.startsWith("error"), qPrintable(stored.join(" / ")));
        QCOMPARE(stored[0], "1|" + general);
        QCOMPARE(stored[2], "3|" + general);
        QCOMPARE(stored[3], "4|" + general);
    }

    // A VALUES list that is literal for a while and then is not: the rows written so far are taken back
    // and the general path writes the whole list once, in order.
    void valuesListThatStopsBeingLiteralIsWrittenOnce() {
        auto db = storage::Database::openMemory();
        auto st =
            executeSourceScript(*db,
                                "CREATE TABLE t (id INT, v STRING);\n"
                                "INSERT INTO t VALUES (1, 'a'), (2, 'b'), (1 + 2, upper('c')), (4, 'd');\n"
                                "INSERT INTO t VALUES (5, 'e'), (6, 'f') ;",
                                "mixed.sql");
        QVERIFY2(st.ok(), st.ok() ? "" : st.error().format().c_str());
        QCOMPARE(rows(*db, "SELECT id, v FROM t ORDER BY rowid"),
                 QStringList({"1|a", "2|b", "3|C", "4|d", "5|e", "6|f"}));
    }

    // Statements are read and run one at a time, yet a syntax error anywhere in the script is still the
    // error reported (positioned in the whole script), even after a statement that fails to run, and
    // nothing of the script stays.
    void syntaxErrorsWinWhereverTheyAre_data() {
        QTest::addColumn<QString>("script");
        QTest::addColumn<QString>("error");
        QTest::newRow("after a failing literal insert")
            << "CREATE TABLE t (id INT);\nINSERT INTO t VALUES ('x');\nINSERT INTO t VALUES (1;\n"
            << "s.sql:3:24: error: expected ')' to close the VALUES row";
        QTest::newRow("after a failing query")
            << "CREATE TABLE t (id INT);\nINSERT INTO t SELECT nosuch(1);\nINSERT INTO t VALUES (1), (2);\n"
               "SELECT FROM;\n"
            << "s.sql:4:8: error: expected an expression in the SELECT list";
        QTest::newRow("runtime error alone")
            << "CREATE TABLE t (id INT);\nINSERT INTO t VALUES (1), ('x');\nINSERT INTO t VALUES (2);\n"
            << "s.sql:2:1: error: row 2, column id: CAST_INVALID_INPUT: the value 'x' of the type STRING "
               "cannot be cast to INT because it is malformed";
    }

    void syntaxErrorsWinWhereverTheyAre() {
        QFETCH(QString, script);
        QFETCH(QString, error);
        auto db = storage::Database::openMemory();
        auto st = executeSourceScript(*db, script.toStdString(), "s.sql");
        QVERIFY(!st.ok());
        QCOMPARE(QString::fromStdString(st.error().format()), error);
        auto found = storage::Catalog::find(*db, "t");
        QVERIFY(found.ok() && !found.value());
        QVERIFY(!db->inTransaction());
    }

    void insertOverwriteReplacesRows() {
        auto db = storage::Database::openMemory();
        auto st =
            executeSourceScript(*db,
                                "CREATE TABLE t (id INT, v STRING); INSERT INTO t VALUES (1, 'a'), (2, 'b');"
                                "INSERT OVERWRITE t SELECT id + 10, v FROM t WHERE id = 2;",
                                "o.sql");
        QVERIFY2(st.ok(), st.ok() ? "" : st.error().format().c_str());
        auto rs = runQuery(*db, "SELECT * FROM t");
        QVERIFY(rs.ok());
        QCOMPARE(rows(*rs), QStringList({"12|b"}));
        QCOMPARE(rows(*db, "SELECT table_name, min_rowid, kind FROM __cdc_source_changes ORDER BY seq"),
                 QStringList({"t|1|TRUNCATE"}));
    }

    void createTableAsSelectCopiesTypes() {
        auto db = storage::Database::openMemory();
        QVERIFY(executeSourceScript(*db, seed("001_create_sample_data.sql"), "a.sql").ok());
        auto st = executeSourceScript(
            *db,
            "CREATE TABLE inserts AS SELECT * FROM users_cdf WHERE operation = 'INSERT';"
            "CREATE TABLE stats AS SELECT operation, count(*) AS n, max(sequenceNum) / 2 AS h "
            "FROM users_cdf GROUP BY operation;",
            "b.sql");
        QVERIFY2(st.ok(), st.ok() ? "" : st.error().format().c_str());
        auto inserts = storage::Catalog::find(*db, "inserts");
        QVERIFY(inserts.ok() && inserts.value());
        QStringList columns;
        for (const auto& c : inserts.value()->columns)
            columns << QString::fromStdString(c.name + " " + c.type.toString());
        QCOMPARE(columns, QStringList({"userId INT", "name STRING", "city STRING", "operation STRING",
                                       "sequenceNum INT"}));
        auto rs = runQuery(*db, "SELECT * FROM stats ORDER BY operation");
        QVERIFY(rs.ok());
        QCOMPARE(types(*rs), QStringLiteral("STRING,BIGINT,DOUBLE"));
        QCOMPARE(rows(*rs), QStringList({"DELETE|1|3.0", "INSERT|4|1.0", "UPDATE|3|3.0"}));
        QCOMPARE(rows(*db, "SELECT userId, city FROM \"inserts\" ORDER BY userId"),
                 QStringList({"123|Monterrey", "124|Oaxaca", "125|Tijuana", "126|Cancun"}));
    }

    void runQueryIsReadOnlyAndPositioned_data() {
        QTest::addColumn<QString>("sql");
        QTest::addColumn<QString>("expected");
        QTest::newRow("delete") << "DELETE FROM t"
                                << "<query>:1:1: error: only read-only queries can run here; DELETE changes "
                                   "data (run it as a source script)";
        QTest::newRow("missing") << "SELECT * FROM nope"
                                 << "<query>:1:15: error: table or view not found: nope";
        QTest::newRow("two") << "SELECT 1; SELECT 2"
                             << "<query>:1:11: error: expected exactly one query, found 2 statements";
        QTest::newRow("parse") << "SELECT FROM t"
                               << "<query>:1:8: error: expected an expression in the SELECT list";
        QTest::newRow("no such column") << "SELECT x,\n  nam FROM t"
                                        << "<query>:2:3: error: no such column: nam";
        QTest::newRow("no such function") << "SELECT x, frobnicate(x) FROM t"
                                          << "<query>:1:11: error: no such function: frobnicate";
        QTest::newRow("tvf") << "SELECT * FROM last_snapshot_version()"
                             << "<query>:1:15: error: table-valued function last_snapshot_version() is only "
                                "available in a pipeline";
    }
    void runQueryIsReadOnlyAndPositioned() {
        QFETCH(QString, sql);
        QFETCH(QString, expected);
        auto db = storage::Database::openMemory();
        QVERIFY(
            executeSourceScript(*db, "CREATE TABLE t (x INT); INSERT INTO t VALUES (1), (2)", "a.sql").ok());
        auto rs = runQuery(*db, sql.toStdString());
        QVERIFY(!rs.ok());
        QCOMPARE(QString::fromStdString(rs.error().format()), expected);
        QCOMPARE(rows(*db, "SELECT x FROM t ORDER BY x"), QStringList({"1", "2"})); // nothing ran
    }

    void translatedQueriesBindWithOrWithoutAliases() {
        // The engine binds relations as "item AS name"; runQuery binds bare table names. Both must run.
        auto db = storage::Database::openMemory();
        QVERIFY(executeSourceScript(*db, seed("001_create_sample_data.sql"), "a.sql").ok());
        auto q = Parser("SELECT u.userId, users_cdf.city FROM main.cdc_tutorial.users_cdf AS u "
                        "JOIN main.cdc_tutorial.users_cdf ON u.userId = users_cdf.userId "
                        "WHERE u.operation = 'DELETE' AND users_cdf.operation = 'INSERT'",
                        "q")
                     .parseSingleQuery();
        QVERIFY(q.ok());
        auto t = Translator::translateQuery(q.value());
        QVERIFY(t.ok());
        pipeline::Query pq;
        pq.sqliteTemplate = t->sql;
        pq.relations = t->relations;
        for (bool withAlias : {false, true}) {
            std::string sql = bindRelations(pq, [&](const pipeline::RelationRef& r) {
                std::string table = storage::quoteIdentifier(storage::Catalog::sqliteNameFor(r.name));
                return withAlias ? table + " AS " + storage::quoteIdentifier(r.name) : table;
            });
            QCOMPARE(rows(*db, sql), QStringList({"123|Monterrey"}));
        }
    }

    void fullyQualifiedColumnReferences() {
        auto db = storage::Database::openMemory();
        QVERIFY(executeSourceScript(*db, seed("001_create_sample_data.sql"), "a.sql").ok());
        auto rs = runQuery(
            *db, "SELECT main.cdc_tutorial.users_cdf.userId, users_cdf.city FROM main.cdc_tutorial.users_cdf "
                 "WHERE main.cdc_tutorial.users_cdf.sequenceNum = 6 AND city IS NOT NULL");
        QVERIFY2(rs.ok(), rs.ok() ? "" : rs.error().format().c_str());
        QCOMPARE(rows(*rs), QStringList({"125|Guadalajara"}));
        QCOMPARE(types(*rs), QStringLiteral("INT,STRING"));
    }

    void pipelineStatementsAreRejectedInSourceScripts() {
        auto db = storage::Database::openMemory();
        auto st = executeSourceScript(*db, "CREATE OR REFRESH STREAMING TABLE x;", "p.sql");
        QVERIFY(!st.ok());
        QCOMPARE(QString::fromStdString(st.error().format()),
                 QStringLiteral("p.sql:1:1: error: CREATE STREAMING TABLE belongs in the pipeline "
                                "definition, not in a source script"));
    }

    void existingTableAndDrop() {
        auto db = storage::Database::openMemory();
        QVERIFY(executeSourceScript(*db, "CREATE TABLE s.t (x INT);", "a.sql").ok());
        auto again = executeSourceScript(*db, "CREATE TABLE s.t (x INT);", "a.sql");
        QVERIFY(!again.ok());
        QCOMPARE(QString::fromStdString(again.error().message), QStringLiteral("table already exists: s.t"));
        QVERIFY(executeSourceScript(
                    *db, "CREATE TABLE IF NOT EXISTS s.t (y INT); DROP TABLE s.t; DROP TABLE IF EXISTS s.t;",
                    "b.sql")
                    .ok());
        QVERIFY(!db->tableExists("s.t"));
        QVERIFY(executeSourceScript(*db, "CREATE TABLE main.s.u (x INT); DROP TABLE u;", "c.sql").ok());
        QVERIFY(!db->tableExists("main.s.u"));
        auto missing = executeSourceScript(*db, "DROP TABLE u;", "d.sql");
        QVERIFY(!missing.ok());
        QCOMPARE(QString::fromStdString(missing.error().format()),
                 QStringLiteral("d.sql:1:12: error: table or view not found: u"));
    }
};

QTEST_GUILESS_MAIN(TestSourceScript)
#include "tst_source_script.moc"
