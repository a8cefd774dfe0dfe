// Export (core/export): every sample and test pipeline goes SQL → model → Python → model and comes back the
// same (positions aside); the YAML of both project kinds reads back with yaml-cpp and has the keys the
// Databricks and Spark docs list; the exported SQL and Python, re-imported, build the same tables as the
// original over the samples' data; Spark's unsupported constructs come back as positioned warnings.
#include "core/engine/Engine.h"
#include "core/export/PipelineExporter.h"
#include "core/export/PythonPrinter.h"
#include "core/export/SparkCompatibility.h"
#include "core/pipeline/PipelineLocations.h"
#include "core/python/PythonPipelineReader.h"
#include "core/python/PythonRunner.h"
#include "core/sql/SqlApi.h"
#include "core/storage/Catalog.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <regex>
#include <set>

using namespace cdc;
using namespace cdc::exporting;

namespace {

std::string readFile(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return f.readAll().toStdString();
}

bool isPythonFile(const QString& path) {
    return path.endsWith(QLatin1String(".py"));
}

sql::PipelineParse parseAny(const std::string& text, const std::string& file) {
    return file.ends_with(".py") ? python::parsePythonPipeline(text, file) : sql::parsePipeline(text, file);
}

/// The model without what a round trip may change: positions, the parser's warnings, and the spelling
/// APPLY CHANGES INTO (the Python API has one function for both).
pipeline::Pipeline comparable(pipeline::Pipeline p) {
    pipeline::forEachLocation(p, [](SourceLocation& l) { l = {}; });
    p.warnings.clear();
    for (auto& f : p.cdcFlows)
        f.legacySyntax = false;
    // A `*` in a query carries where it was written (for its errors) inside the translated SQL.
    static const std::regex star(R"(\{\{STAR:[0-9a-f]*\}\})");
    auto unplace = [](pipeline::Query& q) {
        q.sqliteTemplate = std::regex_replace(q.sqliteTemplate, star, "{{STAR}}");
    };
    for (auto& v : p.views)
        unplace(v.query);
    for (auto& f : p.appendFlows)
        unplace(f.query);
    for (auto& f : p.cdcFlows) {
        if (f.snapshotQuery)
            unplace(*f.snapshotQuery);
        if (f.versionQuery)
            unplace(*f.versionQuery);
    }
    return p;
}

/// Equal models, position-free (Pipeline's operator== would compare the warnings, which have none).
bool sameModel(const pipeline::Pipeline& a, const pipeline::Pipeline& b) {
    pipeline::Pipeline x = comparable(a), y = comparable(b);
    return x.streamingTables == y.streamingTables && x.views == y.views && x.cdcFlows == y.cdcFlows &&
           x.appendFlows == y.appendFlows;
}

/// Every pipeline file of the samples and the conformance tests that parses (statically) without errors,
/// relative to the source folder.
QStringList pipelineFiles() {
    QStringList out;
    const QDir root(QStringLiteral(CDC_SOURCE_DIR));
    for (const char* folder : {"samples", "tests/conformance/engine", "tests/conformance/sql/seeds",
                               "tests/conformance/sql/e2e", "tests/conformance/python"}) {
        QDirIterator it(root.filePath(QLatin1String(folder)),
                        {QStringLiteral("*.sql"), QStringLiteral("*.py")}, QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            QString path = it.next();
            QString name = QFileInfo(path).fileName();
            // The engine's error cases are pipelines that must not run; source scripts, event scripts and
            // expected results are not pipelines.
            if (path.contains(QLatin1String("/error_")))
                continue;
            if (!isPythonFile(path) && !name.startsWith(QLatin1String("pipeline")) &&
                !path.contains(QLatin1String("/seeds/")))
                continue;
            auto parsed = parseAny(readFile(path), name.toStdString());
            const auto& p = parsed.pipeline;
            if (parsed.hasErrors() || (p.streamingTables.empty() && p.views.empty()))
                continue;
            out << root.relativeFilePath(path);
        }
    }
    out.sort();
    return out;
}

/// The pipelines whose Python form cannot be the same model, each for a reason the printer reports as a
/// warning: FROM SNAPSHOT over a query or WITH VERSION (the API takes a table name or a Python function).
const std::set<QString> kLossyInPython = {
    // FROM SNAPSHOT (SELECT * FROM t): written as source="t", read back as FROM SNAPSHOT t.
    "samples/snapshot-users/pipeline.sql",
    "tests/conformance/sql/seeds/001_snapshot_flow.sql",
    // FROM SNAPSHOT ... WITH VERSION: no Python form but a snapshot function.
    "tests/conformance/engine/files_struct_versions/pipeline.sql",
    "tests/conformance/engine/files_versions_scd1/pipeline.sql",
    "tests/conformance/engine/snapshot_scd1/pipeline.sql",
    "tests/conformance/engine/snapshot_versions_per_update/pipeline.sql",
    "tests/conformance/sql/seeds/001_snapshot_versioned_flow.sql",
    // AUTO CDC FROM a view without STREAM: the API reads every source as a stream.
    "tests/conformance/engine/view_stream_static_join/pipeline.sql",
    "tests/conformance/sql/seeds/004_syntax_all_clauses.sql",
};

/// The rows of every dataset the pipeline publishes, sorted, as text.
std::map<std::string, std::vector<std::string>> publishedRows(storage::Database& db,
                                                              const pipeline::Pipeline& p) {
    std::map<std::string, std::vector<std::string>> out;
    std::vector<std::string> names;
    for (const auto& t : p.streamingTables)
        names.push_back(t.name.name);
    for (const auto& v : p.views)
        if (v.materialized)
            names.push_back(v.name.name);
    for (const auto& name : names) {
        auto rs = sql::runQuery(db, "SELECT * FROM " + name);
        if (!rs) {
            out[name] = {"error: " + rs.error().message};
            continue;
        }
        std::vector<std::string> rows;
        for (const auto& r : rs->rows) {
            std::string line;
            for (std::size_t c = 0; c < r.size(); ++c)
                line += (c ? "|" : "") + displayValue(r[c], rs->typeOf(c));
            rows.push_back(line);
        }
        std::sort(rows.begin(), rows.end());
        out[name] = rows;
    }
    return out;
}

/// A sample's sources and events in a fresh database, then one update of `p`.
std::map<std::string, std::vector<std::string>> runSample(const QString& sample,
                                                          const pipeline::Pipeline& p) {
    auto db = storage::Database::openMemory();
    if (!db || !storage::Catalog::ensureSchema(*db))
        qFatal("cannot open an in-memory database");
    for (const char* script : {"sources.sql", "events.sql"}) {
        QString path = QStringLiteral(CDC_SOURCE_DIR "/samples/%1/%2").arg(sample, QLatin1String(script));
        if (QFile::exists(path)) {
            auto st = sql::executeSourceScript(*db, readFile(path), script);
            if (!st)
                return {{"source", {st.error().format()}}};
        }
    }
    auto report = engine::runUpdate(*db, p);
    if (!report)
        return {{"update", {report.error().format()}}};
    return publishedRows(*db, p);
}

ExportSource sourceOf(const QString& relativePath) {
    QString path = QStringLiteral(CDC_SOURCE_DIR "/") + relativePath;
    ExportSource s;
    s.text = readFile(path);
    s.file = QFileInfo(path).fileName().toStdString();
    auto parsed = parseAny(s.text, s.file);
    if (parsed.hasErrors())
        qFatal("%s", parsed.firstError()->format().c_str());
    s.pipeline = parsed.pipeline;
    return s;
}

const ExportFile* fileNamed(const ExportPlan& plan, const std::string& path) {
    for (const auto& f : plan.files)
        if (f.path == path)
            return &f;
    return nullptr;
}

} // namespace

class TestExport : public QObject {
    Q_OBJECT

private slots:
    void sqlToPythonAndBack_data();
    void sqlToPythonAndBack();
    void pythonRuntimeRunsTheExport_data();
    void pythonRuntimeRunsTheExport();
    void bundleYaml_data();
    void bundleYaml();
    void sparkYaml();
    void sparkWarningsArePositioned();
    void reimportBuildsTheSameTables_data();
    void reimportBuildsTheSameTables();
    void sourceData();
    void refusesANonEmptyFolder();
};

void TestExport::sqlToPythonAndBack_data() {
    QTest::addColumn<QString>("file");
    const QStringList files = pipelineFiles();
    QVERIFY2(files.size() > 40, qPrintable(QString::number(files.size())));
    for (const QString& f : files)
        QTest::newRow(qPrintable(f)) << f;
}

void TestExport::sqlToPythonAndBack() {
    QFETCH(QString, file);
    ExportSource source = sourceOf(file);
    PythonText py = printPython(source.pipeline);
    if (kLossyInPython.count(file)) {
        // What the API cannot say is reported where it is, and the file still reads back.
        QVERIFY(!py.warnings.empty());
        for (const auto& w : py.warnings)
            QVERIFY2(w.location.valid() && w.location.line > 0, w.format().c_str());
        QVERIFY2(!python::parsePythonPipeline(py.text, "exported.py").hasErrors(), py.text.c_str());
        return;
    }
    QVERIFY2(py.warnings.empty(), py.warnings.empty() ? "" : py.warnings.front().format().c_str());
    auto back = python::parsePythonPipeline(py.text, "exported.py");
    QVERIFY2(!back.hasErrors(),
             (back.firstError() ? back.firstError()->format() + "\n" + py.text : py.text).c_str());
    QVERIFY2(sameModel(source.pipeline, back.pipeline), py.text.c_str());
    // ... and model → SQL → model: the SQL the Python file stands for, in canonical form, parses the same.
    auto sqlText = python::translateToSql(py.text, "exported.py");
    QVERIFY(sqlText.ok());
    auto formatted = sql::formatSql(*sqlText, "exported.sql");
    QVERIFY(formatted.ok());
    auto again = sql::parsePipeline(*formatted, "exported.sql");
    QVERIFY(!again.hasErrors());
    QVERIFY2(sameModel(again.pipeline, source.pipeline), formatted->c_str());
}

void TestExport::pythonRuntimeRunsTheExport_data() {
    QTest::addColumn<QString>("file");
    for (const QString& f : pipelineFiles())
        QTest::newRow(qPrintable(f)) << f;
}

void TestExport::pythonRuntimeRunsTheExport() {
    // What Databricks does with the file: run it. CDC Studio's runtime (our pyspark.pipelines) must record
    // the same pipeline as the static reading.
    QFETCH(QString, file);
    if (kLossyInPython.count(file))
        return;
    ExportSource source = sourceOf(file);
    PythonText py = printPython(source.pipeline);
    python::RunOptions options;
    auto run = python::runPipelineFile(py.text, "exported.py", options);
    const std::string why = run.parse.hasErrors() ? run.parse.firstError()->format() + "\n" + py.text : "";
    QVERIFY2(!run.parse.hasErrors(), why.c_str());
    QVERIFY2(sameModel(run.parse.pipeline, source.pipeline), (run.sql + "\n----\n" + py.text).c_str());
}

void TestExport::bundleYaml_data() {
    QTest::addColumn<int>("language");
    QTest::newRow("sql") << int(ExportLanguage::Sql);
    QTest::newRow("python") << int(ExportLanguage::Python);
}

void TestExport::bundleYaml() {
    QFETCH(int, language);
    ExportOptions o;
    o.kind = ExportKind::Bundle;
    o.language = ExportLanguage(language);
    o.name = "users_scd2";
    o.catalog = "dev_catalog";
    o.schema = "cdc: demo"; // needs quoting in YAML: the emitter's job
    auto plan = planExport(sourceOf("samples/scd2-users/pipeline.sql"), o);
    QVERIFY2(plan.ok(), plan.ok() ? "" : plan.error().format().c_str());

    const ExportFile* bundle = fileNamed(*plan, "databricks.yml");
    QVERIFY(bundle);
    YAML::Node b = YAML::Load(bundle->content);
    QCOMPARE(b["bundle"]["name"].as<std::string>(), std::string("users_scd2"));
    QVERIFY(b["include"].IsSequence());
    QCOMPARE(b["include"][0].as<std::string>(), std::string("resources/*.yml"));
    QCOMPARE(b["variables"]["catalog"]["default"].as<std::string>(), std::string("dev_catalog"));
    QCOMPARE(b["variables"]["schema"]["default"].as<std::string>(), std::string("cdc: demo"));
    QVERIFY(b["variables"]["schema"]["description"].IsScalar());
    QCOMPARE(b["targets"]["dev"]["mode"].as<std::string>(), std::string("development"));
    QVERIFY(b["targets"]["dev"]["default"].as<bool>());
    for (const char* key : {"bundle", "include", "variables", "targets"})
        QVERIFY2(b[key], key);
    QCOMPARE(b.size(), std::size_t(4)); // nothing else at the top

    const ExportFile* resource = fileNamed(*plan, "resources/users_scd2.pipeline.yml");
    QVERIFY(resource);
    YAML::Node r = YAML::Load(resource->content);
    YAML::Node p = r["resources"]["pipelines"]["users_scd2"];
    QVERIFY(p.IsMap());
    QCOMPARE(p["name"].as<std::string>(), std::string("users_scd2"));
    QCOMPARE(p["catalog"].as<std::string>(), std::string("${var.catalog}"));
    QCOMPARE(p["schema"].as<std::string>(), std::string("${var.schema}"));
    QVERIFY(p["serverless"].as<bool>());
    QCOMPARE(p["root_path"].as<std::string>(), std::string(".."));
    QCOMPARE(p["libraries"][0]["glob"]["include"].as<std::string>(), std::string("../transformations/**"));
    const std::set<std::string> documented = {"name",       "catalog",   "schema",
                                              "serverless", "root_path", "libraries"};
    for (const auto& kv : p)
        QVERIFY2(documented.count(kv.first.as<std::string>()), kv.first.as<std::string>().c_str());

    // The glob (relative to the resource file, one folder down) matches the transformation file.
    const std::string transformation = o.language == ExportLanguage::Sql ? "transformations/users_scd2.sql"
                                                                         : "transformations/users_scd2.py";
    const ExportFile* t = fileNamed(*plan, transformation);
    QVERIFY(t);
    auto reread = parseAny(t->content, transformation);
    QVERIFY2(!reread.hasErrors(), t->content.c_str());
    QVERIFY(sameModel(reread.pipeline, sourceOf("samples/scd2-users/pipeline.sql").pipeline));
    QVERIFY(plan->warnings.empty()); // Databricks runs every construct
}

void TestExport::sparkYaml() {
    ExportOptions o;
    o.kind = ExportKind::Spark;
    o.name = "orders";
    o.catalog = "spark_catalog";
    o.schema = "lab";
    auto plan = planExport(sourceOf("samples/out-of-order-lab/pipeline.sql"), o);
    QVERIFY(plan.ok());
    QVERIFY(!fileNamed(*plan, "databricks.yml"));
    const ExportFile* f = fileNamed(*plan, "spark-pipeline.yml");
    QVERIFY(f);
    YAML::Node y = YAML::Load(f->content);
    QCOMPARE(y["name"].as<std::string>(), std::string("orders"));
    QVERIFY(y["storage"].as<std::string>().starts_with("file:///"));
    QCOMPARE(y["catalog"].as<std::string>(), std::string("spark_catalog"));
    QCOMPARE(y["database"].as<std::string>(), std::string("lab"));
    QVERIFY(y["configuration"].IsMap());
    QCOMPARE(y["libraries"][0]["glob"]["include"].as<std::string>(), std::string("transformations/**"));
    const std::set<std::string> documented = {"name",     "storage",       "catalog",
                                              "database", "configuration", "libraries"};
    for (const auto& kv : y)
        QVERIFY2(documented.count(kv.first.as<std::string>()), kv.first.as<std::string>().c_str());
    QVERIFY(fileNamed(*plan, "transformations/orders.sql"));
}

void TestExport::sparkWarningsArePositioned() {
    // scd1-truncate: AUTO CDC and APPLY AS TRUNCATE WHEN, at their lines in the pipeline text.
    ExportSource s = sourceOf("samples/scd1-truncate/pipeline.sql");
    ExportOptions o;
    o.kind = ExportKind::Spark;
    auto plan = planExport(s, o);
    QVERIFY(plan.ok());
    bool autoCdc = false, truncate = false;
    for (const auto& w : plan->warnings) {
        QCOMPARE(w.code, std::string("SPARK_UNSUPPORTED"));
        QCOMPARE(w.location.file, std::string("pipeline.sql"));
        QVERIFY2(w.location.line > 0 && w.location.column > 0, w.format().c_str());
        autoCdc |= w.message.starts_with("AUTO CDC (");
        if (w.message.starts_with("APPLY AS TRUNCATE")) {
            truncate = true;
            QCOMPARE(w.location, s.pipeline.cdcFlows.at(0).applyAsTruncate->location);
        }
    }
    QVERIFY(autoCdc);
    QVERIFY(truncate);
    // The construct stays in the file: nothing is dropped.
    QVERIFY(fileNamed(*plan, "transformations/cdc_pipeline.sql")->content.find("TRUNCATE") !=
            std::string::npos);

    // FROM SNAPSHOT and ONCE.
    auto snapshot = sparkUnsupported(sourceOf("samples/snapshot-users/pipeline.sql").pipeline);
    QVERIFY(std::any_of(snapshot.begin(), snapshot.end(),
                        [](const Diagnostic& d) { return d.message.starts_with("AUTO CDC FROM SNAPSHOT"); }));
    auto once =
        sparkUnsupported(sourceOf("tests/conformance/engine/append_once_full_refresh/pipeline.sql").pipeline);
    QVERIFY(std::any_of(once.begin(), once.end(),
                        [](const Diagnostic& d) { return d.message.starts_with("INSERT INTO ONCE"); }));
    // A pipeline of streaming tables and views only runs as it is.
    QVERIFY(sparkUnsupported(sourceOf("tests/conformance/engine/append_stream_table/pipeline.sql").pipeline)
                .empty());
}

void TestExport::reimportBuildsTheSameTables_data() {
    QTest::addColumn<QString>("sample");
    QTest::addColumn<int>("language");
    for (const char* sample : {"scd1-users", "scd2-users", "scd2-track-history", "scd1-truncate",
                               "out-of-order-lab", "tombstone-gc-lab"})
        for (int language : {int(ExportLanguage::Sql), int(ExportLanguage::Python)})
            QTest::addRow("%s-%s", sample, language == int(ExportLanguage::Sql) ? "sql" : "python")
                << QString::fromLatin1(sample) << language;
}

void TestExport::reimportBuildsTheSameTables() {
    QFETCH(QString, sample);
    QFETCH(int, language);
    ExportSource s = sourceOf(QStringLiteral("samples/%1/pipeline.sql").arg(sample));
    ExportOptions o;
    o.language = ExportLanguage(language);
    auto plan = planExport(s, o);
    QVERIFY(plan.ok());
    const ExportFile* t = fileNamed(*plan, transformationFile(o));
    QVERIFY(t);
    auto reimported = parseAny(t->content, transformationFile(o));
    QVERIFY2(!reimported.hasErrors(),
             reimported.firstError() ? reimported.firstError()->format().c_str() : "");

    auto expected = runSample(sample, s.pipeline);
    QVERIFY2(!expected.count("source") && !expected.count("update"),
             expected.begin()->second.front().c_str());
    QVERIFY(!expected.empty());
    std::size_t rows = 0;
    for (const auto& [name, r] : expected)
        rows += r.size();
    QVERIFY(rows > 0); // the comparison below compares something
    QCOMPARE(runSample(sample, reimported.pipeline), expected);
}

void TestExport::sourceData() {
    auto db = storage::Database::openMemory();
    QVERIFY(db.ok() && storage::Catalog::ensureSchema(*db).ok());
    QVERIFY(sql::executeSourceScript(
                *db,
                "CREATE SCHEMA IF NOT EXISTS main.demo;"
                "CREATE TABLE main.demo.events (id INT, name STRING, price DOUBLE, ok BOOLEAN,"
                " at TIMESTAMP);"
                "INSERT INTO main.demo.events VALUES (1, 'O''Brien, \"Jr\"', 2.5, true,"
                " TIMESTAMP '2024-01-02 03:04:05'), (2, NULL, NULL, false, NULL);",
                "sources.sql")
                .ok());
    ExportSource s = sourceOf("samples/scd1-users/pipeline.sql");
    s.data = &*db;
    ExportOptions o;
    o.csvData = true;
    o.insertData = true;
    auto plan = planExport(s, o);
    QVERIFY(plan.ok());
    const ExportFile* csv = fileNamed(*plan, "data/main.demo.events.csv");
    QVERIFY(csv);
    QCOMPARE(csv->content.substr(0, csv->content.find('\n')), std::string("id,name,price,ok,at"));
    QVERIFY2(csv->content.find("\"O'Brien, \"\"Jr\"\"\"") != std::string::npos, csv->content.c_str());
    const ExportFile* inserts = fileNamed(*plan, "data/source_tables.sql");
    QVERIFY(inserts);

    // The INSERT script recreates the same rows in an empty project.
    auto copy = storage::Database::openMemory();
    QVERIFY(copy.ok() && storage::Catalog::ensureSchema(*copy).ok());
    auto st = sql::executeSourceScript(*copy, inserts->content, "source_tables.sql");
    QVERIFY2(st.ok(), (st.ok() ? std::string() : st.error().format() + "\n" + inserts->content).c_str());
    auto a = sql::runQuery(*db, "SELECT * FROM main.demo.events ORDER BY id");
    auto b = sql::runQuery(*copy, "SELECT * FROM main.demo.events ORDER BY id");
    QVERIFY(a.ok() && b.ok());
    QCOMPARE(toCsv(*b), toCsv(*a));
    QCOMPARE(a->rows.size(), std::size_t(2));
}

void TestExport::refusesANonEmptyFolder() {
    QTemporaryDir dir;
    auto plan = planExport(sourceOf("samples/scd1-users/pipeline.sql"), ExportOptions{});
    QVERIFY(plan.ok());
    auto first = writeExport(*plan, dir.path().toStdString(), false);
    QVERIFY(first.ok());
    QCOMPARE(first->written.size(), plan->files.size());
    QVERIFY(QFile::exists(dir.filePath("databricks.yml")));
    QVERIFY(QFile::exists(dir.filePath("resources/cdc_pipeline.pipeline.yml")));
    QVERIFY(QFile::exists(dir.filePath("transformations/cdc_pipeline.sql")));
    auto again = writeExport(*plan, dir.path().toStdString(), false);
    QVERIFY(!again.ok());
    QCOMPARE(again.error().code, std::string("EXPORT_FOLDER_NOT_EMPTY"));
    QVERIFY(writeExport(*plan, dir.path().toStdString(), true).ok());
}

int main(int argc, char** argv) {
    // The worker mode the Python runner starts this program in (/proc/self/exe), as the CLI and the app have
    // it.
    if (argc == 2 && argv[1] == python::kWorkerFlag)
        return python::runPythonWorker();
    QCoreApplication app(argc, argv);
    TestExport test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_export.moc"
