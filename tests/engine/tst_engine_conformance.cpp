// Conformance: the seed examples, verbatim seed SQL in, exact seed tables out. Each folder under
// tests/conformance/engine is one case (layout in its README.md).

#include "ConformanceFile.h"
#include "core/engine/Engine.h"
#include "core/sql/SqlApi.h"
#include "core/storage/Catalog.h"

#include <QTemporaryDir>
#include <QtTest/QtTest>

using namespace cdc;

namespace {

QString readFile(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readAll());
}

/// Header line + sorted rows of a query, as in the .tsv files.
QStringList queryTable(storage::Database& db, const std::string& target) {
    auto rs = sql::runQuery(db, "SELECT * FROM " + target, "<conformance>");
    if (!rs)
        return {QString::fromStdString("error: " + rs.error().format())};
    QStringList rows;
    for (const Row& r : rs->rows) {
        QStringList cells;
        for (const Value& v : r)
            cells << QString::fromStdString(displayText(v));
        rows << cells.join('\t');
    }
    rows.sort();
    QStringList header;
    for (const auto& c : rs->columns)
        header << QString::fromStdString(c);
    return QStringList{header.join('\t')} + rows;
}

/// Every schema object and every row, or without `setUp` only the rows outside what an update's set-up
/// writes (the registry, catalog and state rows of the tables it creates empty).
QStringList databaseDump(storage::Database& db, bool setUp) {
    static const QStringList kSetUp{"__cdc_targets", "__cdc_target_state", "__cdc_catalog", "__cdc_columns",
                                    "__cdc_table_properties"};
    QStringList out;
    auto names = sql::runQuery(db, "SELECT name, sql FROM sqlite_schema ORDER BY name", "<dump>");
    if (!names)
        return {QString::fromStdString(names.error().format())};
    for (const Row& r : names->rows) {
        const QString name = QString::fromStdString(displayText(r[0]));
        if (setUp)
            out << QString::fromStdString(displayText(r[1]));
        if (name.startsWith("sqlite") || (!setUp && kSetUp.contains(name)))
            continue;
        auto st = db.prepare("SELECT * FROM " + storage::quoteIdentifier(name.toStdString()));
        if (!st)
            continue; // an index
        for (auto more = st->step(); more && more.value(); more = st->step()) {
            QStringList cells;
            for (const Value& v : st->row())
                cells << QString::fromStdString(displayText(v));
            out << name + ": " + cells.join('|');
        }
    }
    return out;
}

QStringList expectedTable(const QString& path) {
    QStringList lines = readFile(path).split('\n', Qt::SkipEmptyParts);
    if (lines.isEmpty())
        return {};
    QString header = lines.takeFirst();
    lines.sort();
    return QStringList{header} + lines;
}

} // namespace

class TestEngineConformance : public QObject {
    Q_OBJECT

private slots:
    void seedCases_data();
    void seedCases();
    void changeFeedThroughQuery();
};

/// The source script run before update `step` of a case: source.sql (or the seed its source.sql.ref names),
/// then source.N.sql. Empty when there is none.
static QString sourceFile(const QDir& d, int step) {
    return cdc::test::conformanceFile(d.path(), step == 1 ? QStringLiteral("source.sql")
                                                          : QStringLiteral("source.%1.sql").arg(step));
}

void TestEngineConformance::seedCases_data() {
    QTest::addColumn<QString>("dir");
    QDir root(QStringLiteral(CDC_TESTS_DIR "/conformance/engine"));
    const auto cases = root.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    QVERIFY(cases.size() >= 5);
    for (const QString& c : cases)
        QTest::newRow(qPrintable(c)) << root.filePath(c);
}

void TestEngineConformance::seedCases() {
    QFETCH(QString, dir);
    auto db = storage::Database::openMemory();
    QVERIFY(db.ok());
    auto parse = sql::parsePipeline(readFile(cdc::test::conformanceFile(dir, "pipeline.sql")).toStdString(),
                                    "pipeline.sql");
    QVERIFY2(!parse.hasErrors(), parse.hasErrors() ? parse.firstError()->format().c_str() : "");
    QDir d(dir);
    // Files for read_files / list_files: the case's Volumes/ folder, each file there from its update on.
    QTemporaryDir volumes;
    QVERIFY(volumes.isValid());
    const int volumeSteps = cdc::test::lastVolumeStep(dir);
    db->setVolumes(VolumeRoot(volumes.path().toStdString()));
    int updates = 0;
    std::int64_t succeeded = 0;
    for (int step = 1;; ++step) {
        const QString source = step == 1 ? "source.sql" : QString("source.%1.sql").arg(step);
        const QString sourcePath = sourceFile(d, step);
        if (sourcePath.isEmpty() && step > volumeSteps)
            break;
        if (!sourcePath.isEmpty()) {
            QVERIFY2(QFile::exists(sourcePath), qPrintable("missing " + sourcePath));
            auto st = sql::executeSourceScript(db.value(), readFile(sourcePath).toStdString(),
                                               source.toStdString());
            QVERIFY2(st.ok(), st.ok() ? "" : st.error().format().c_str());
        }
        engine::UpdateOptions options;
        options.now = 1'790'000'000 + step * 3600;
        // A file arrives a minute before the update that first sees it.
        QVERIFY(cdc::test::copyVolumeFiles(dir, step, volumes.path(),
                                           QDateTime::fromSecsSinceEpoch(*options.now - 60, Qt::UTC)));
        options.fullRefresh = readFile(d.filePath(QString("options.%1").arg(step))).contains("full-refresh");
        const QString error = readFile(d.filePath(QString("error.%1.txt").arg(step)));
        // A failed update changes no row; its set-up (tables created empty) stays only where the case says.
        const bool setUpStays = error.contains("tables set up");
        const QStringList before = databaseDump(db.value(), !setUpStays);
        auto report = engine::runUpdate(db.value(), parse.pipeline, options);
        if (!error.isEmpty()) {
            QVERIFY2(!report.ok(), "the update was expected to fail");
            const auto& loc = report.error().location;
            QCOMPARE(QString::fromStdString(report.error().code + " " + std::to_string(loc.line) + ":" +
                                            std::to_string(loc.column)),
                     error.split('\n').first().trimmed());
            QCOMPARE(QString::fromStdString(loc.file), QString("pipeline.sql"));
            QCOMPARE(databaseDump(db.value(), !setUpStays), before);
        } else {
            QVERIFY2(report.ok(), report.ok() ? "" : report.error().format().c_str());
            QCOMPARE(report->updateId, ++succeeded);
        }
        updates = step;
        for (const QString& f : d.entryList({QString("*.%1.tsv").arg(step)}, QDir::Files)) {
            const std::string target = f.left(f.size() - QString(".%1.tsv").arg(step).size()).toStdString();
            QCOMPARE(queryTable(db.value(), target), expectedTable(d.filePath(f)));
        }
    }
    QVERIFY(updates >= 1);
    int checked = 0;
    for (QString f : d.entryList({"*.tsv", "*.tsv.ref"}, QDir::Files)) {
        if (f.endsWith(".ref"))
            f.chop(4); // the expectation of another case, named by the .ref file
        const QString stem = f.left(f.size() - 4);
        if (stem.contains('.'))
            continue; // a per-update expectation, checked above
        QCOMPARE(queryTable(db.value(), stem.toStdString()),
                 expectedTable(cdc::test::conformanceFile(dir, f)));
        ++checked;
    }
    QVERIFY(checked >= 1 || !d.entryList({"error.*.txt"}, QDir::Files).isEmpty());
}

void TestEngineConformance::changeFeedThroughQuery() {
    // table_changes() as users write it, over the seed's SCD1 example run in two updates.
    auto db = storage::Database::openMemory();
    QVERIFY(db.ok());
    const QString dir = QStringLiteral(CDC_TESTS_DIR "/conformance/engine/scd1_reinsert_next_update");
    auto parse = sql::parsePipeline(readFile(cdc::test::conformanceFile(dir, "pipeline.sql")).toStdString(),
                                    "pipeline.sql");
    QVERIFY(!parse.hasErrors());
    for (int step : {1, 2}) {
        const QString source = sourceFile(QDir(dir), step);
        QVERIFY(
            sql::executeSourceScript(db.value(), readFile(source).toStdString(), source.toStdString()).ok());
        QVERIFY(engine::runUpdate(db.value(), parse.pipeline, {}).ok());
    }
    auto rs = sql::runQuery(db.value(), "SELECT userId, city, _change_type, _commit_version FROM "
                                        "table_changes('users_current', 2) ORDER BY _change_type");
    QVERIFY2(rs.ok(), rs.ok() ? "" : rs.error().format().c_str());
    QCOMPARE(rs->rows.size(), 1u);
    QCOMPARE(displayText(rs->rows[0][0]), std::string("123"));
    QCOMPARE(displayText(rs->rows[0][2]), std::string("insert"));
    QCOMPARE(displayText(rs->rows[0][3]), std::string("2"));
    auto all = sql::runQuery(db.value(), "SELECT count(*) FROM table_changes('users_current', 1, 1)");
    QVERIFY(all.ok());
    QCOMPARE(displayText(all->rows[0][0]), std::string("3"));
}

QTEST_GUILESS_MAIN(TestEngineConformance)
#include "tst_engine_conformance.moc"
