#include "core/sql/Parser.h"
#include "core/sql/Printer.h"
#include "core/sql/SqlApi.h"

#include <QDir>
#include <QFile>
#include <QTest>

using namespace cdc;
using namespace cdc::sql;

namespace {

QString readFile(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readAll());
}

QString conformanceDir() {
    return QStringLiteral(CDC_TESTS_DIR "/conformance/sql");
}

QString describe(const std::vector<Diagnostic>& diags) {
    QStringList out;
    for (const auto& d : diags)
        out << QString::fromStdString(d.format());
    return out.join('\n');
}

} // namespace

class TestParser : public QObject {
    Q_OBJECT
private slots:
    void seedParsesAndRoundTrips_data() {
        QTest::addColumn<QString>("path");
        QDir dir(conformanceDir() + "/seeds");
        const auto files = dir.entryList({"*.sql"}, QDir::Files, QDir::Name);
        QVERIFY(files.size() >= 10);
        for (const auto& f : files)
            QTest::newRow(f.toUtf8().constData()) << dir.filePath(f);
    }
    void seedParsesAndRoundTrips() {
        QFETCH(QString, path);
        std::string text = readFile(path).toStdString();
        QVERIFY(!text.empty());
        ParsedScript script = Parser(text, path.toStdString()).parseScript();
        QVERIFY2(script.diagnostics.empty(), qPrintable(describe(script.diagnostics)));
        QVERIFY(!script.statements.empty());
        for (const auto& st : script.statements) {
            std::string printed = Printer::statement(st);
            ParsedScript again = Parser(printed, "<printed>").parseScript();
            QVERIFY2(again.diagnostics.empty(),
                     qPrintable(describe(again.diagnostics) + "\n" + QString::fromStdString(printed)));
            QCOMPARE(again.statements.size(), std::size_t(1));
            QVERIFY2(again.statements[0] == st, printed.c_str());
            QCOMPARE(QString::fromStdString(Printer::statement(again.statements[0])),
                     QString::fromStdString(printed));
        }
    }

    void malformedStatementsReportPosition_data() {
        QTest::addColumn<QString>("sql");
        QTest::addColumn<QString>("expected");
        // errors.txt: blocks introduced by "-- case: NAME" and "-- expect: LINE:COL: MESSAGE", then the SQL.
        QString text = readFile(conformanceDir() + "/errors.txt");
        QVERIFY(!text.isEmpty());
        QString name, expect, sql;
        int count = 0;
        auto flush = [&] {
            if (!name.isEmpty()) {
                QTest::newRow(name.toUtf8().constData()) << sql << expect;
                ++count;
            }
        };
        for (const QString& line : text.split('\n')) {
            if (line.startsWith("-- case: ")) {
                flush();
                name = line.mid(9).trimmed();
                expect.clear();
                sql.clear();
            } else if (line.startsWith("-- expect: ")) {
                expect = line.mid(11).trimmed();
            } else if (!name.isEmpty()) {
                sql += line + '\n';
            }
        }
        flush();
        QVERIFY(count >= 25);
    }
    void malformedStatementsReportPosition() {
        QFETCH(QString, sql);
        QFETCH(QString, expected);
        std::string text = sql.toStdString();
        ParsedScript script = Parser(text, "case.sql").parseScript();
        QVERIFY2(!script.diagnostics.empty(), "no error reported");
        const Diagnostic& d = script.diagnostics.front();
        int sep = expected.indexOf(QStringLiteral(": "));
        QString want = "case.sql:" + expected.left(sep) + ": error: " + expected.mid(sep + 2);
        QCOMPARE(QString::fromStdString(d.format()), want);
    }

    void recoversAtSemicolonAndReportsEveryError() {
        std::string text = "CREATE FLOW f AS AUTO CDC INTO t FROM s SEQUENCE BY x;\n"
                           "CREATE OR REFRESH STREAMING TABLE ok;\n"
                           "CREATE FLOW g AS AUTO CDC INTO t FROM s KEYS (id);\n";
        ParsedScript script = Parser(text, "p.sql").parseScript();
        QCOMPARE(script.statements.size(), std::size_t(1));
        QCOMPARE(script.diagnostics.size(), std::size_t(2));
        QCOMPARE(QString::fromStdString(script.diagnostics[0].format()),
                 QStringLiteral("p.sql:1:41: error: expected KEYS after source"));
        QCOMPARE(script.diagnostics[1].location.line, 3);
    }

    void ownCasesRoundTrip_data() {
        QTest::addColumn<QString>("sql");
        QTest::newRow("operators")
            << "SELECT a || b, 7 / 2, 7 div 2, a % 3, a <=> b, a != b, a <> b, -x, ~y, a & b | c ^ d FROM t";
        QTest::newRow("predicates")
            << "SELECT * FROM t WHERE a IS NOT NULL AND b NOT IN (1, 2) AND c BETWEEN 1 AND 2 "
               "AND d NOT LIKE 'x%' AND e RLIKE '^a' AND f IS NOT DISTINCT FROM g";
        QTest::newRow("case") << "SELECT CASE WHEN a = 1 THEN 'one' WHEN a = 2 THEN 'two' ELSE 'many' END, "
                                 "CASE a WHEN 1 THEN 'x' END FROM t";
        QTest::newRow("joins")
            << "SELECT t.a, u.b FROM t AS t JOIN u ON t.id = u.id LEFT OUTER JOIN v USING (id) "
               "CROSS JOIN w, x";
        QTest::newRow("group")
            << "SELECT a, count(*) AS n, sum(DISTINCT b) FROM t GROUP BY a HAVING count(*) > 1 "
               "ORDER BY n DESC NULLS LAST, a LIMIT 10";
        QTest::newRow("union") << "SELECT 1 UNION ALL SELECT 2 UNION SELECT 3";
        QTest::newRow("cte") << "WITH a AS (SELECT 1 AS x), b AS (SELECT x FROM a) SELECT * FROM b";
        QTest::newRow("subqueries")
            << "SELECT (SELECT max(x) FROM t) AS m FROM u WHERE EXISTS (SELECT 1 FROM v) "
               "AND id IN (SELECT id FROM w)";
        QTest::newRow("table_changes") << "SELECT * FROM table_changes('users_current', 1, 3)";
        QTest::newRow("stream") << "SELECT * FROM STREAM users";
        QTest::newRow("struct")
            << "SELECT struct(a, b), named_struct('x', 1), array(1, 2), cast(a AS STRING), a::INT FROM t";
        QTest::newRow("precedence")
            << "SELECT (a + b) * c, a - (b - c), NOT (a AND b), (a OR b) AND c, -(-1), (a).b FROM t";
        QTest::newRow("strings") << "SELECT 'it''s', \"double\", 'back\\\\slash', 'a' 'b' FROM t";
        QTest::newRow("insert select") << "INSERT INTO t (a, b) SELECT x, y FROM u WHERE x > 0";
        QTest::newRow("update") << "UPDATE t SET a = a + 1, b = 'x' WHERE id = 3";
        QTest::newRow("delete") << "DELETE FROM t WHERE id IN (1, 2)";
        QTest::newRow("drop") << "DROP TABLE IF EXISTS main.s.t";
        QTest::newRow("create table")
            << "CREATE TABLE IF NOT EXISTS t (a INT NOT NULL COMMENT 'k', b DECIMAL(10,2), "
               "c ARRAY<STRING>, d STRUCT<x: INT, y: STRING>, e TIMESTAMP)";
        QTest::newRow("mv")
            << "CREATE OR REFRESH MATERIALIZED VIEW mv COMMENT 'c' AS SELECT a, count(*) FROM t GROUP BY a";
        QTest::newRow("temp view") << "CREATE TEMPORARY VIEW v AS SELECT * FROM STREAM(src)";
        QTest::newRow("live view") << "CREATE TEMPORARY LIVE VIEW v AS SELECT * FROM stream(LIVE.src)";
        QTest::newRow("append flow") << "CREATE FLOW f AS INSERT INTO ONCE t BY NAME SELECT * FROM src";
        QTest::newRow("st as") << "CREATE OR REFRESH STREAMING TABLE t (id INT, v STRING) COMMENT 'x' "
                                  "TBLPROPERTIES ('pipelines.cdc.tombstoneGCThresholdInSeconds' = '60') "
                                  "AS SELECT * FROM STREAM(src)";
        QTest::newRow("ignore null on") << "CREATE FLOW f AS AUTO CDC ONCE INTO t FROM src KEYS (a, b) "
                                           "IGNORE NULL UPDATES ON * EXCEPT (c) SEQUENCE BY STRUCT(ts, id) "
                                           "COLUMNS (a, b, c) STORED AS SCD TYPE 2 TRACK HISTORY ON (c)";
        QTest::newRow("columns to update") << "CREATE FLOW f AS AUTO CDC INTO t FROM STREAM src KEYS (a) "
                                              "SEQUENCE BY s COLUMNS TO UPDATE cols";
        QTest::newRow("typed literals")
            << "SELECT DATE '2024-01-01', TIMESTAMP '2024-01-01 10:00:00', 1L, 1.5D, 2.50, 1e3";
        QTest::newRow("expectations")
            << "CREATE OR REFRESH STREAMING TABLE t (id INT, CONSTRAINT valid_id EXPECT (id IS NOT NULL) "
               "ON VIOLATION DROP ROW, CONSTRAINT c2 EXPECT (id > 0)) AS SELECT * FROM STREAM(s)";
        QTest::newRow("view expectations")
            << "CREATE TEMPORARY VIEW v (id COMMENT 'k', CONSTRAINT ok EXPECT (id > 0) "
               "ON VIOLATION FAIL UPDATE) AS SELECT id FROM s";
        QTest::newRow("mv typed columns")
            << "CREATE MATERIALIZED VIEW mv (id INT, n BIGINT) AS SELECT id, count(*) FROM s GROUP BY id";
        QTest::newRow("backticks") << "SELECT `weird name`, `select` FROM `my table`";
    }
    void ownCasesRoundTrip() {
        QFETCH(QString, sql);
        std::string text = sql.toStdString();
        ParsedScript script = Parser(text, "own.sql").parseScript();
        QVERIFY2(script.diagnostics.empty(), qPrintable(describe(script.diagnostics)));
        QCOMPARE(script.statements.size(), std::size_t(1));
        std::string printed = Printer::statement(script.statements[0]);
        ParsedScript again = Parser(printed, "<printed>").parseScript();
        QVERIFY2(again.diagnostics.empty(),
                 qPrintable(describe(again.diagnostics) + "\n" + QString::fromStdString(printed)));
        QVERIFY2(again.statements.at(0) == script.statements[0], printed.c_str());
    }

    void everyPrefixOfEverySeedFailsCleanly() {
        // Never a crash, never an error without a position, whatever the cut.
        QDir dir(conformanceDir() + "/seeds");
        int parses = 0;
        for (const auto& f : dir.entryList({"*.sql"}, QDir::Files, QDir::Name)) {
            std::string text = readFile(dir.filePath(f)).toStdString();
            for (std::size_t cut = 0; cut <= text.size(); ++cut) {
                std::string prefix = text.substr(0, cut);
                ParsedScript script = Parser(prefix, "cut.sql").parseScript();
                for (const auto& d : script.diagnostics) {
                    QVERIFY2(d.location.valid(), d.format().c_str());
                    QVERIFY(d.location.offset <= prefix.size());
                    QVERIFY(!d.message.empty());
                }
                for (const auto& st : script.statements)
                    (void)Printer::statement(st);
                (void)parsePipeline(prefix, "cut.sql");
                ++parses;
            }
        }
        QVERIFY(parses > 3000);
    }

    void positionsAreLineColumnAndByteOffset() {
        std::string text = "SELECT\n  'é', bad FROM";
        ParsedScript script = Parser(text, "f.sql").parseScript();
        QCOMPARE(script.diagnostics.size(), std::size_t(1));
        const auto& loc = script.diagnostics[0].location;
        QCOMPARE(loc.line, 2);
        QCOMPARE(loc.column, 17); // bytes: the é counts two
        QCOMPARE(loc.offset, std::size_t(text.size()));
    }
};

QTEST_GUILESS_MAIN(TestParser)
#include "tst_parser.moc"
