// Source SQL -> parsePipeline -> engine update -> runQuery, one case per folder under
// tests/conformance/sql/e2e/ (source.sql, pipeline.sql, query.sql, expected.csv; the first two may be
// `.ref` files naming a verbatim seed, see ConformanceFile.h).
#include "ConformanceFile.h"
#include "core/common/ResultSet.h"
#include "core/engine/Engine.h"
#include "core/sql/SqlApi.h"
#include "core/storage/Database.h"

#include <QDir>
#include <QFile>
#include <QTest>

using namespace cdc;

namespace {
std::string readFile(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll().toStdString();
}
} // namespace

class TestEndToEnd : public QObject {
    Q_OBJECT
private slots:
    void caseProducesExpectedRows_data() {
        QTest::addColumn<QString>("dir");
        QDir root(QStringLiteral(CDC_TESTS_DIR "/conformance/sql/e2e"));
        const auto cases = root.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
        QVERIFY(cases.size() >= 5);
        for (const auto& c : cases)
            QTest::newRow(c.toUtf8().constData()) << root.filePath(c);
    }
    void caseProducesExpectedRows() {
        QFETCH(QString, dir);
        // Every case names all four files; a missing one must not read as an empty script or table.
        const QString files[] = {cdc::test::conformanceFile(dir, "source.sql"),
                                 cdc::test::conformanceFile(dir, "pipeline.sql"), dir + "/query.sql",
                                 dir + "/expected.csv"};
        for (const QString& f : files)
            QVERIFY2(!f.isEmpty() && QFile::exists(f), qPrintable("missing " + f + " in " + dir));
        auto db = storage::Database::openMemory();
        QVERIFY(db.ok());
        auto st = sql::executeSourceScript(*db, readFile(files[0]), "source.sql");
        QVERIFY2(st.ok(), st.ok() ? "" : st.error().format().c_str());
        sql::PipelineParse parsed = sql::parsePipeline(readFile(files[1]), "pipeline.sql");
        QVERIFY2(!parsed.hasErrors(), parsed.firstError() ? parsed.firstError()->format().c_str() : "");
        auto valid = engine::validate(*db, parsed.pipeline);
        QVERIFY2(valid.ok(), valid.ok() ? "" : valid.error().format().c_str());
        auto report = engine::runUpdate(*db, parsed.pipeline);
        QVERIFY2(report.ok(), report.ok() ? "" : report.error().format().c_str());
        auto rs = sql::runQuery(*db, readFile(files[2]), "query.sql");
        QVERIFY2(rs.ok(), rs.ok() ? "" : rs.error().format().c_str());
        QCOMPARE(QString::fromStdString(toCsv(rs.value())), QString::fromStdString(readFile(files[3])));
    }
};

QTEST_GUILESS_MAIN(TestEndToEnd)
#include "tst_end_to_end.moc"
