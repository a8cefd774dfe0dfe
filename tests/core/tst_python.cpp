// The Python pipeline reader: the seed's Python examples become the equivalent pipeline SQL (never run),
// and bad input is an error at its .py position. Cases are data files in tests/conformance/python/.

#include "core/python/PythonPipelineReader.h"
#include "core/sql/SqlApi.h"

#include <QDir>
#include <QFile>
#include <QTest>

using namespace cdc;

namespace {
QString readText(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}
QString casesDir() {
    return QStringLiteral(CDC_TESTS_DIR "/conformance/python");
}

/// Each AUTO CDC flow as "name: target <- source KEYS (...)".
QStringList flows(const pipeline::Pipeline& p) {
    QStringList out;
    for (const auto& f : p.cdcFlows) {
        QStringList keys;
        for (const auto& k : f.keys)
            keys << QString::fromStdString(k.name);
        out << QString::fromStdString(f.name.name + ": " + f.target.name + " <- " + f.source.name) +
                   " KEYS (" + keys.join(", ") + ")";
    }
    return out;
}
} // namespace

class TestPython : public QObject {
    Q_OBJECT
private slots:
    void translatesToPipelineSql_data() {
        QTest::addColumn<QString>("pyFile");
        const auto files = QDir(casesDir()).entryList({"*.py"}, QDir::Files, QDir::Name);
        QVERIFY(!files.isEmpty());
        for (const auto& f : files)
            QTest::newRow(qPrintable(f)) << QDir(casesDir()).filePath(f);
    }
    void translatesToPipelineSql() {
        QFETCH(QString, pyFile);
        const QString py = readText(pyFile);
        const QString expected = readText(pyFile.chopped(3) + ".sql");
        auto sql = python::translateToSql(py.toStdString(), pyFile.toStdString());
        QVERIFY2(sql.ok(), sql.ok() ? "" : sql.error().format().c_str());
        QCOMPARE(QString::fromStdString(*sql), expected);
        // The generated SQL must be a valid pipeline with no diagnostics, the same as the expected SQL's.
        auto parsed = python::parsePythonPipeline(py.toStdString(), pyFile.toStdString());
        for (const auto& d : parsed.diagnostics)
            qWarning("%s", d.format().c_str());
        QVERIFY(!parsed.hasErrors());
        auto fromSql = sql::parsePipeline(expected.toStdString(), "expected.sql");
        QVERIFY(!fromSql.hasErrors());
        QCOMPARE(flows(parsed.pipeline), flows(fromSql.pipeline));
        QCOMPARE(flows(parsed.pipeline).size(), 1);
    }

    void flowFieldsComeFromTheArguments() {
        auto parsed =
            python::parsePythonPipeline(readText(casesDir() + "/legacy_dlt_struct.py").toStdString(), "p.py");
        QVERIFY(!parsed.hasErrors());
        const auto& flow = parsed.pipeline.cdcFlows.at(0);
        QCOMPARE(QString::fromStdString(flow.name.name), QStringLiteral("customers_flow"));
        QStringList keys, sequence, columns;
        for (const auto& k : flow.keys)
            keys << QString::fromStdString(k.name);
        for (const auto& f : flow.sequenceBy)
            sequence << QString::fromStdString(f.sparkText);
        for (const auto& c : flow.columns.columns)
            columns << QString::fromStdString(c.name);
        QCOMPARE(keys, QStringList({"id", "region"}));
        QVERIFY(flow.sequenceIsStruct);
        QCOMPARE(sequence, QStringList({"ts", "txn_id"}));
        QCOMPARE(columns, QStringList({"id", "region", "email"}));
        QVERIFY(flow.ignoreNullUpdates.has_value());
        // Positions point into the Python file: keys=["id", ...] is on line 12.
        QCOMPARE(QString::fromStdString(flow.keys[0].location.file), QStringLiteral("p.py"));
        QCOMPARE(flow.keys[0].location.line, 12);
        const auto& properties = parsed.pipeline.streamingTables.at(0).properties;
        QCOMPARE(properties.size(), std::size_t{1});
        QCOMPARE(QString::fromStdString(properties.at("pipelines.cdc.tombstoneGCThresholdInSeconds")),
                 QStringLiteral("60"));
    }

    void errorsPointIntoThePythonFile_data() {
        QTest::addColumn<QString>("expected");
        QTest::addColumn<QString>("source");
        QFile f(casesDir() + "/errors.txt");
        QVERIFY(f.open(QIODevice::ReadOnly | QIODevice::Text));
        int n = 0;
        while (!f.atEnd()) {
            const QString line = QString::fromUtf8(f.readLine()).trimmed();
            if (line.isEmpty() || line.startsWith('#'))
                continue;
            const auto parts = line.split('\t');
            QVERIFY2(parts.size() == 2, qPrintable(line));
            QString src = parts[1];
            src.replace(QStringLiteral("\\n"), QStringLiteral("\n"));
            QTest::newRow(qPrintable(QStringLiteral("case %1").arg(++n))) << parts[0] << src;
        }
    }
    void errorsPointIntoThePythonFile() {
        QFETCH(QString, expected);
        QFETCH(QString, source);
        auto parsed = python::parsePythonPipeline(source.toStdString(), "p.py");
        QVERIFY(parsed.hasErrors());
        const QString got = QString::fromStdString(parsed.firstError()->format());
        const QString position = expected.section(' ', 0, 0);
        const QString message = expected.section(' ', 1);
        QVERIFY2(got.startsWith("p.py:" + position + " error: "), qPrintable(got));
        QVERIFY2(got.contains(message), qPrintable(got));
    }

    void sqlErrorsInsideExpressionsMapToTheStringLiteral() {
        const std::string py =
            "from pyspark import pipelines as dp\n"
            "dp.create_auto_cdc_flow(target=\"t\", source=\"s\", keys=[\"k\"], sequence_by=\"v\",\n"
            "  apply_as_deletes=\"operation = = 'DELETE'\")\n";
        auto parsed = python::parsePythonPipeline(py, "p.py");
        QVERIFY(parsed.hasErrors());
        const auto err = *parsed.firstError();
        QCOMPARE(err.location.line, 3);
        // The literal opens at column 20: its text starts at 21, and the second '=' is 12 bytes into it.
        QCOMPARE(QString::fromStdString(err.format()),
                 QStringLiteral("p.py:3:33: error: expected an expression, found '='"));
    }
    // Positions the hand-written remapping once left in SQL terms (append flows, the relations a query
    // reads, IGNORE NULL UPDATES ON columns) now point into the .py file like every other.
    void everyPositionPointsIntoThePythonFile() {
        const std::string py = "from pyspark import pipelines as dp\n"
                               "\n"
                               "dp.create_streaming_table(\"users\")\n"
                               "\n"
                               "@dp.append_flow(target=\"users\")\n"
                               "def backfill():\n"
                               "    return spark.read.table(\"archive\")\n"
                               "\n"
                               "dp.create_auto_cdc_flow(\n"
                               "    target=\"users\",\n"
                               "    source=\"users_cdf\",\n"
                               "    keys=[\"id\"],\n"
                               "    sequence_by=\"seq\",\n"
                               "    ignore_null_updates_column_list=[\"name\"])\n";
        auto parsed = python::parsePythonPipeline(py, "p.py");
        QVERIFY(!parsed.hasErrors());
        const auto& p = parsed.pipeline;
        QCOMPARE(p.appendFlows.size(), std::size_t(1));
        const auto& append = p.appendFlows[0];
        auto at = [](const SourceLocation& l) { return QStringLiteral("%1:%2").arg(l.line).arg(l.column); };
        QCOMPARE(at(append.location), QStringLiteral("5:1"));
        QCOMPARE(at(append.name.location), QStringLiteral("6:5"));
        QCOMPARE(at(append.target.location), QStringLiteral("5:24"));
        QCOMPARE(append.query.relations.size(), std::size_t(1));
        QCOMPARE(at(append.query.relations[0].location), QStringLiteral("7:29"));
        QCOMPARE(p.cdcFlows.size(), std::size_t(1));
        QVERIFY(p.cdcFlows[0].ignoreNullUpdates.has_value());
        QCOMPARE(at(p.cdcFlows[0].ignoreNullUpdates->columns.at(0).location), QStringLiteral("14:38"));
    }
};

QTEST_GUILESS_MAIN(TestPython)
#include "tst_python.moc"
