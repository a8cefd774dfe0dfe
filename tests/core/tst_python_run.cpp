// Python pipeline files run for real (core/python/PythonRunner): each file runs in CPython in a worker
// process — this test program started again with --python-worker, as the CLI and the app do. The seed's
// Python examples give the same tables as their SQL forms, a loop over tables runs, errors of every kind
// are positioned in the .py file, and a snapshot function (the seed's next_snapshot_and_version) is called
// once per pending version by the engine. Cases are data under tests/conformance/python/.

#include "ConformanceFile.h"
#include "TimeLimits.h"
#include "core/engine/Engine.h"
#include "core/python/PythonRunner.h"
#include "core/sql/SqlApi.h"
#include "core/storage/Catalog.h"
#include "core/storage/Database.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace cdc;

namespace {

QString readText(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

/// The first error of a parse as text, for failure messages (empty when there is none).
std::string errorText(const sql::PipelineParse& parse) {
    auto e = parse.firstError();
    return e ? e->format() : std::string();
}

QString pythonDir() {
    return QStringLiteral(CDC_TESTS_DIR "/conformance/python");
}

constexpr std::int64_t kFirstUpdate = 1767261600; // 2026-01-01T10:00:00Z; each update an hour later

/// A database of its own for one side of a comparison.
struct Side {
    explicit Side(const QString& path) : db(storage::Database::open(path.toStdString()).value()) {
        QVERIFY(storage::Catalog::ensureSchema(db).ok());
    }
    storage::Database db;
    std::int64_t updates = 0;
};

/// Every row of a table or target as text, sorted: the comparison ignores row order.
QStringList rows(storage::Database& db, const QString& table) {
    auto rs = sql::runQuery(db, ("SELECT * FROM " + table).toStdString());
    if (!rs) {
        qWarning("%s", rs.error().format().c_str());
        return {QStringLiteral("<error>")};
    }
    QStringList out;
    for (const auto& row : rs->rows) {
        QStringList cells;
        for (const auto& v : row)
            cells << QString::fromStdString(displayText(v));
        out << cells.join('\t');
    }
    std::sort(out.begin(), out.end());
    return out;
}

Status update(Side& side, const pipeline::Pipeline& p, const engine::SnapshotFunctionCall& functions = {}) {
    engine::UpdateOptions options;
    options.now = kFirstUpdate + 3600 * side.updates++;
    options.snapshotFunction = functions;
    auto report = engine::runUpdate(side.db, p, options);
    if (!report)
        return report.error();
    return Status::success();
}

/// The database's user-visible state and bookkeeping, to check that a failed run changed nothing.
QStringList dump(storage::Database& db) {
    QStringList out;
    auto tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name");
    QStringList names;
    (void)tables->forEachRow(
        [&](const storage::Statement& r) { names << QString::fromStdString(r.text(0)); });
    for (const auto& name : names) {
        auto st = db.prepare(("SELECT * FROM \"" + name + "\"").toStdString());
        QStringList lines;
        (void)st->forEachRow([&](const storage::Statement& r) {
            QStringList cells;
            for (int i = 0; i < r.columnCount(); ++i)
                cells << QString::fromStdString(displayText(r.value(i)));
            lines << cells.join('|');
        });
        std::sort(lines.begin(), lines.end());
        out << name + ": " + lines.join(" / ");
    }
    return out;
}

python::RunOptions options(const QString& volumesRoot = {}) {
    python::RunOptions o;
    o.volumesRoot = volumesRoot.toStdString();
    return o;
}

/// The seed's CSV snapshots placed in `root`'s volume folder (Volumes/main/cdc_tutorial/snapshots/).
bool placeSnapshots(const QString& root, const QStringList& files) {
    const QString dir = root + "/Volumes/main/cdc_tutorial/snapshots";
    if (!QDir().mkpath(dir))
        return false;
    for (const auto& f : files)
        if (!QFile::copy(pythonDir() + "/snapshot/" + f, dir + "/" + f))
            return false;
    return true;
}

} // namespace

class TestPythonRun : public QObject {
    Q_OBJECT
private slots:
    /// Each case folder of conformance/python/run: a `script` of steps (`sql FILE` into the sources,
    /// `update`, `compare TARGET`) run twice — with the pipeline's SQL form and with its Python form run
    /// in the worker — and every compared target must hold the same rows, and some.
    void sameTablesAsSql_data() {
        QTest::addColumn<QString>("caseDir");
        QDir root(pythonDir() + "/run");
        const auto cases = root.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
        QVERIFY(cases.size() >= 6);
        for (const auto& c : cases)
            QTest::newRow(qPrintable(c)) << root.filePath(c);
    }
    void sameTablesAsSql() {
        QFETCH(QString, caseDir);
        QTemporaryDir work;
        const auto file = [&](const QString& name) {
            const QString path = test::conformanceFile(caseDir, name);
            if (path.isEmpty())
                qWarning("missing %s in %s", qPrintable(name), qPrintable(caseDir));
            return path;
        };
        Side fromSql(work.filePath("sql.db")), fromPython(work.filePath("python.db"));
        const QString sqlPath = file("pipeline.sql"), pyPath = file("pipeline.py");
        auto sqlPipeline = sql::parsePipeline(readText(sqlPath).toStdString(), sqlPath.toStdString());
        QVERIFY2(!sqlPipeline.hasErrors(), errorText(sqlPipeline).c_str());
        const std::string pyText = readText(pyPath).toStdString();

        int compared = 0;
        const auto steps = readText(caseDir + "/script").split('\n', Qt::SkipEmptyParts);
        for (const QString& step : steps) {
            if (step.startsWith('#'))
                continue;
            if (step.startsWith("sql ")) {
                const QString path = file(step.mid(4));
                for (Side* side : {&fromSql, &fromPython}) {
                    auto st =
                        sql::executeSourceScript(side->db, readText(path).toStdString(), path.toStdString());
                    QVERIFY2(st.ok(), st.ok() ? "" : st.error().format().c_str());
                }
            } else if (step == "update") {
                auto a = update(fromSql, sqlPipeline.pipeline);
                QVERIFY2(a.ok(), a.ok() ? "" : a.error().format().c_str());
                // The file runs at each update, as in the app and the CLI, knowing the project's tables.
                python::RunOptions o = options();
                o.tables = python::catalogColumns(fromPython.db);
                auto run = python::runPipelineFile(pyText, pyPath.toStdString(), o);
                QVERIFY2(!run.parse.hasErrors(), errorText(run.parse).c_str());
                auto b = update(fromPython, run.parse.pipeline);
                QVERIFY2(b.ok(), b.ok() ? "" : b.error().format().c_str());
            } else if (step.startsWith("compare ")) {
                const QStringList expected = rows(fromSql.db, step.mid(8));
                QVERIFY(!expected.isEmpty());
                QCOMPARE(rows(fromPython.db, step.mid(8)), expected);
                ++compared;
            } else {
                QFAIL(qPrintable("unknown step: " + step));
            }
        }
        QVERIFY(compared > 0);
    }

    /// Each file of conformance/python/record runs to the pipeline SQL of its .sql file (the DataFrame API,
    /// decorators with and without arguments, append flows, every flow parameter, the legacy dlt names),
    /// which the SQL front end parses without an error.
    void recordsPipelineSql_data() {
        QTest::addColumn<QString>("pyFile");
        QDir dir(pythonDir() + "/record");
        const auto files = dir.entryList({"*.py"}, QDir::Files, QDir::Name);
        QVERIFY(files.size() >= 3);
        for (const auto& f : files)
            QTest::newRow(qPrintable(f)) << dir.filePath(f);
    }
    void recordsPipelineSql() {
        QFETCH(QString, pyFile);
        auto run = python::runPipelineFile(readText(pyFile).toStdString(), "seed.py", options());
        QVERIFY2(!run.parse.hasErrors(), errorText(run.parse).c_str());
        QCOMPARE(QString::fromStdString(run.sql), readText(pyFile.chopped(3) + ".sql"));
    }

    /// Each file of conformance/python/run_errors starts with `# expect: LINE:COL CODE message`: running it
    /// is that error at that position of the file (a short time limit for the endless loop).
    void errorsArePositioned_data() {
        QTest::addColumn<QString>("pyFile");
        QDir dir(pythonDir() + "/run_errors");
        const auto files = dir.entryList({"*.py"}, QDir::Files, QDir::Name);
        QVERIFY(files.size() >= 8);
        for (const auto& f : files)
            QTest::newRow(qPrintable(f)) << dir.filePath(f);
    }
    void errorsArePositioned() {
        QFETCH(QString, pyFile);
        const QString text = readText(pyFile);
        static const QRegularExpression header(QStringLiteral("^# expect: (\\d+):(\\d+) (\\S+) (.*)$"),
                                               QRegularExpression::MultilineOption);
        const auto m = header.match(text);
        QVERIFY2(m.hasMatch(), "the case has no '# expect:' line");
        QTemporaryDir volumes;
        auto o = options(volumes.path());
        // Scaled (TimeLimits.h): under AddressSanitizer a run that ends in an error takes 1.1 s, too close to
        // 1.5 s; endless_loop.py still has to stop at it (its header leaves the limit out of the message).
        o.timeout = test::scaled(std::chrono::milliseconds(1500));
        const auto started = std::chrono::steady_clock::now();
        auto run = python::runPipelineFile(text.toStdString(), pyFile.toStdString(), o);
        QVERIFY(std::chrono::steady_clock::now() - started < test::scaled(std::chrono::seconds(5)));
        auto error = run.parse.firstError();
        QVERIFY2(error, "the file ran without an error");
        const QString shown = QString::fromStdString(error->format());
        QVERIFY2(shown.startsWith(pyFile + ":" + m.captured(1) + ":" + m.captured(2) + ": error: "),
                 qPrintable(shown));
        QCOMPARE(QString::fromStdString(error->code), m.captured(3));
        QVERIFY2(shown.contains(m.captured(4)), qPrintable(shown));
    }

    /// A failed run, or a snapshot function failing in the middle of an update, leaves the database as it
    /// was: the update rolls back.
    void failuresLeaveTheDatabaseUnchanged() {
        QTemporaryDir work;
        QVERIFY(placeSnapshots(work.path(), {"snapshot_1.csv"}));
        Side side(work.filePath("p.db"));
        const QString tables = pythonDir() + "/snapshot/snapshot_tables.sql";
        QVERIFY(sql::executeSourceScript(side.db, readText(tables).toStdString(), "tables.sql").ok());
        const QString path = pythonDir() + "/snapshot/failing_snapshot.py";
        const std::string text = readText(path).toStdString();
        auto run = python::runPipelineFile(text, path.toStdString(), options(work.path()));
        QVERIFY2(!run.parse.hasErrors(), errorText(run.parse).c_str());
        python::SnapshotFunctions functions(options(work.path()));
        functions.add(text, path.toStdString(), run.parse.pipeline);
        QVERIFY(update(side, run.parse.pipeline, functions.callback()).ok());
        const QStringList before = dump(side.db);
        QVERIFY(before.join('\n').contains("Oaxaca"));

        // The offered DataFrame reads a table that does not exist: an error at the line that made it.
        QVERIFY(placeSnapshots(work.path(), {"snapshot_2.csv"}));
        auto unknown = update(side, run.parse.pipeline, functions.callback());
        QVERIFY(!unknown.ok());
        QVERIFY2(QString::fromStdString(unknown.error().format()).startsWith(path + ":15:"),
                 unknown.error().format().c_str());
        QCOMPARE(dump(side.db), before);

        // The function raises: the traceback's line, nothing written.
        QVERIFY(
            QFile(work.filePath("Volumes/main/cdc_tutorial/snapshots/broken")).open(QIODevice::WriteOnly));
        auto raised = update(side, run.parse.pipeline, functions.callback());
        QVERIFY(!raised.ok());
        QVERIFY2(QString::fromStdString(raised.error().format())
                     .startsWith(path + ":11:9: error: ValueError: no snapshot store"),
                 raised.error().format().c_str());
        QCOMPARE(dump(side.db), before);
    }

    /// The seed's next_snapshot_and_version (verbatim but for a table-based DataFrame) drives the flow:
    /// the engine calls it once per pending version. Both CSV files at once or one per update give the
    /// seed's table after snapshot_2.csv; the first alone gives the seed's table after snapshot_1.csv.
    void snapshotFunctionDrivesTheFlow_data() {
        QTest::addColumn<QStringList>("perUpdate"); // the files that arrive before each update
        QTest::addColumn<QString>("expected");
        QTest::newRow("first only") << QStringList{"snapshot_1.csv"} << "expected_after_1.tsv";
        QTest::newRow("both at once")
            << QStringList{"snapshot_1.csv snapshot_2.csv"} << "expected_after_2.tsv";
        QTest::newRow("one per update")
            << QStringList{"snapshot_1.csv", "snapshot_2.csv"} << "expected_after_2.tsv";
        QTest::newRow("an update with nothing new")
            << QStringList{"snapshot_1.csv", "", "snapshot_2.csv", ""} << "expected_after_2.tsv";
    }
    void snapshotFunctionDrivesTheFlow() {
        QFETCH(QStringList, perUpdate);
        QFETCH(QString, expected);
        QTemporaryDir work;
        QVERIFY(QDir().mkpath(work.filePath("Volumes/main/cdc_tutorial/snapshots")));
        Side side(work.filePath("p.db"));
        const QString tables = pythonDir() + "/snapshot/snapshot_tables.sql";
        QVERIFY(sql::executeSourceScript(side.db, readText(tables).toStdString(), "tables.sql").ok());
        const QString path = pythonDir() + "/snapshot/table_versioned_snapshot.py";
        const std::string text = readText(path).toStdString();
        for (const QString& arriving : perUpdate) {
            if (!arriving.isEmpty())
                QVERIFY(placeSnapshots(work.path(), arriving.split(' ')));
            auto run = python::runPipelineFile(text, path.toStdString(), options(work.path()));
            QVERIFY2(!run.parse.hasErrors(), errorText(run.parse).c_str());
            QCOMPARE(QString::fromStdString(run.parse.pipeline.cdcFlows.at(0).snapshotFunction),
                     QStringLiteral("next_snapshot_and_version"));
            python::SnapshotFunctions functions(options(work.path()));
            functions.add(text, path.toStdString(), run.parse.pipeline);
            auto st = update(side, run.parse.pipeline, functions.callback());
            QVERIFY2(st.ok(), st.ok() ? "" : st.error().format().c_str());
        }
        QStringList want = readText(pythonDir() + "/snapshot/" + expected).split('\n', Qt::SkipEmptyParts);
        std::sort(want.begin(), want.end());
        QCOMPARE(rows(side.db, "main.cdc_tutorial.target_versioned"), want);
    }

    /// Without the function (a SQL-only caller), such a flow is an error at the flow, not a silent no-op.
    void snapshotFunctionFlowNeedsItsFile() {
        QTemporaryDir work;
        QVERIFY(placeSnapshots(work.path(), {"snapshot_1.csv"}));
        Side side(work.filePath("p.db"));
        QVERIFY(
            sql::executeSourceScript(
                side.db, readText(pythonDir() + "/snapshot/snapshot_tables.sql").toStdString(), "tables.sql")
                .ok());
        const QString path = pythonDir() + "/snapshot/table_versioned_snapshot.py";
        auto run =
            python::runPipelineFile(readText(path).toStdString(), path.toStdString(), options(work.path()));
        QVERIFY(!run.parse.hasErrors());
        auto st = update(side, run.parse.pipeline);
        QVERIFY(!st.ok());
        QCOMPARE(QString::fromStdString(st.error().code), QStringLiteral("SNAPSHOT_FUNCTION_NOT_RUN"));
    }

    /// The seed's file verbatim (read_files over the Volumes folder): the pipeline SQL it records, and the
    /// versions its function offers as snapshot_1.csv and snapshot_2.csv are listed by dbutils.fs.ls.
    void seedSnapshotFileVerbatim() {
        QTemporaryDir work;
        QVERIFY(placeSnapshots(work.path(), {"snapshot_2.csv", "snapshot_1.csv"}));
        QVERIFY(
            QFile(work.filePath("Volumes/main/cdc_tutorial/snapshots/notes.txt")).open(QIODevice::WriteOnly));
        const QString path = pythonDir() + "/snapshot/seed_versioned_snapshot.py";
        const std::string text = readText(path).toStdString();
        auto run = python::runPipelineFile(text, "seed.py", options(work.path()));
        QCOMPARE(QString::fromStdString(run.sql),
                 readText(pythonDir() + "/snapshot/seed_versioned_snapshot.sql"));

        const std::string flow = "target_versioned"; // the flow is named after its target, unqualified
        const QString load =
            "SELECT * FROM read_files('/Volumes/main/cdc_tutorial/snapshots/snapshot_%1.csv', "
            "format => 'csv', header => true)";
        std::optional<Value> last;
        for (std::int64_t version : {1, 2}) {
            auto offer = python::callSnapshotFunction(text, "seed.py", flow, last, options(work.path()));
            QVERIFY2(offer.ok(), offer.ok() ? "" : offer.error().format().c_str());
            QVERIFY(offer->has_value());
            QCOMPARE(QString::fromStdString(offer->value().sql), load.arg(version));
            QVERIFY(offer->value().version == Value(version));
            QCOMPARE(offer->value().location.line, 34); // the spark.read...load(...) line
            last = offer->value().version;
        }
        auto none = python::callSnapshotFunction(text, "seed.py", flow, last, options(work.path()));
        QVERIFY(none.ok());
        QVERIFY(!none->has_value());
    }
};

int main(int argc, char** argv) {
    // The worker mode the runner starts this program in (/proc/self/exe), as the CLI and the app have it.
    if (argc == 2 && argv[1] == python::kWorkerFlag)
        return python::runPythonWorker();
    QCoreApplication app(argc, argv);
    TestPythonRun test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_python_run.moc"
