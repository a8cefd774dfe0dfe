// The translator is checked by running its SQL, not by reading it: each Spark expression and query in
// tests/conformance/sql/ is translated, evaluated by SQLite, and its typed result compared with Spark's.
#include "core/sql/Parser.h"
#include "core/sql/SqlApi.h"
#include "core/sql/Translator.h"
#include "core/storage/Database.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTest>

using namespace cdc;
using namespace cdc::sql;

namespace {

QStringList dataLines(const QString& name) {
    QFile f(QStringLiteral(CDC_TESTS_DIR "/conformance/sql/") + name);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QStringList out;
    for (const QString& line : QString::fromUtf8(f.readAll()).split('\n'))
        if (!line.trimmed().isEmpty() && !line.startsWith('#'))
            out << line;
    return out;
}

QString typed(const Value& v) {
    if (isNull(v))
        return QStringLiteral("null");
    if (std::holds_alternative<std::int64_t>(v))
        return "int:" + QString::fromStdString(displayText(v));
    if (std::holds_alternative<double>(v))
        return "real:" + QString::fromStdString(displayText(v));
    return "text:" + QString::fromStdString(displayText(v));
}

/// One row per `spark => expected` line of a data file (columns spark, expected); the number of rows.
int addCaseRows(const QString& file) {
    QTest::addColumn<QString>("spark");
    QTest::addColumn<QString>("expected");
    const QStringList lines = dataLines(file);
    for (const QString& line : lines) {
        int sep = line.lastIndexOf(QStringLiteral(" => "));
        QTest::newRow(line.left(sep).toUtf8().constData()) << line.left(sep) << line.mid(sep + 4);
    }
    return static_cast<int>(lines.size());
}

/// The Spark expression translated and run by SQLite: its typed value, or `error: MESSAGE` of the first
/// problem (translation or run time).
QString evaluated(const QString& spark) {
    std::string text = spark.toStdString();
    auto parsed = Parser(text, "expr").parseSingleExpression();
    if (!parsed.ok())
        return "error: " + QString::fromStdString(parsed.error().format());
    auto sql = Translator::translateExpression(parsed.value());
    if (!sql.ok())
        return "error: " + QString::fromStdString(sql.error().format());
    auto db = storage::Database::openMemory();
    if (!db.ok())
        return "error: " + QString::fromStdString(db.error().format());
    auto st = db->prepare("SELECT " + sql.value());
    if (!st.ok())
        return "error: " + QString::fromStdString(st.error().message);
    auto row = st->step();
    if (!row.ok())
        return "error: " + QString::fromStdString(row.error().message);
    return row.value() ? typed(st->value(0)) : QStringLiteral("no row");
}

} // namespace

class TestTranslator : public QObject {
    Q_OBJECT
private slots:
    void expressionEvaluatesLikeSpark_data() { QVERIFY(addCaseRows("expressions.txt") > 50); }
    void expressionEvaluatesLikeSpark() {
        QFETCH(QString, spark);
        QFETCH(QString, expected);
        if (expected.startsWith(
                QStringLiteral("skip: "))) // "=> skip: reason" marks what is not supported yet
            QSKIP(qPrintable(expected.mid(6)));
        QCOMPARE(evaluated(spark), expected);
    }

    // tests/conformance/sql/regex.txt: RLIKE, regexp_* and split as java.util.regex gives them, on values of
    // any length. A pattern that backtracks catastrophically must fail quickly, not hang.
    void regexMatchesLikeJava_data() { QVERIFY(addCaseRows("regex.txt") >= 30); }
    void regexMatchesLikeJava() {
        QFETCH(QString, spark);
        QFETCH(QString, expected);
        QElapsedTimer timer;
        timer.start();
        QCOMPARE(evaluated(spark), expected);
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QStringLiteral("took %1 ms").arg(timer.elapsed())));
    }

    void queryReturnsSparkRows_data() { QVERIFY(addCaseRows("queries.txt") >= 10); }
    void queryReturnsSparkRows() {
        QFETCH(QString, spark);
        QFETCH(QString, expected);
        auto db = storage::Database::openMemory();
        QVERIFY(db.ok());
        auto rs = runQuery(*db, spark.toStdString());
        QVERIFY2(rs.ok(), rs.ok() ? "" : rs.error().format().c_str());
        QStringList rows;
        for (const auto& row : rs->rows) {
            QStringList cells;
            for (const auto& v : row)
                cells << QString::fromStdString(displayText(v));
            rows << cells.join(',');
        }
        QCOMPARE(rows.join(';'), expected);
    }

    // tests/conformance/sql/query-errors.txt: `query => CODE line:col`, the first error the query gets.
    void queryIsRefusedAtItsPosition_data() { QVERIFY(addCaseRows("query-errors.txt") >= 5); }
    void queryIsRefusedAtItsPosition() {
        QFETCH(QString, spark);
        QFETCH(QString, expected);
        auto db = storage::Database::openMemory();
        QVERIFY(db.ok());
        auto rs = runQuery(*db, spark.toStdString());
        QVERIFY2(!rs.ok(), "the query ran");
        const Diagnostic& d = rs.error();
        // A run-time error (SQLite's, raised by a Spark function) carries Spark's code at the head of its
        // message.
        std::string code = d.code;
        if (code == "SQLITE" && d.message.find(':') != std::string::npos)
            code = d.message.substr(0, d.message.find(':'));
        QCOMPARE(QString::fromStdString(code + " " + std::to_string(d.location.line) + ":" +
                                        std::to_string(d.location.column)),
                 expected);
    }

    void relationsBecomePlaceholders() {
        auto q = Parser("SELECT * FROM stream(main.s.users) u JOIN dims ON u.id = dims.id "
                        "WHERE u.id IN (SELECT id FROM dims)",
                        "q")
                     .parseSingleQuery();
        QVERIFY(q.ok());
        auto t = Translator::translateQuery(q.value());
        QVERIFY(t.ok());
        QStringList relations;
        for (const auto& r : t->relations)
            relations << QString::fromStdString(r.name) + (r.stream ? " (stream)" : "");
        QCOMPARE(relations, QStringList({"main.s.users (stream)", "dims"}));
        QVERIFY(QString::fromStdString(t->sql).contains("(SELECT * FROM {{REL:0}}) AS \"u\""));
        QCOMPARE(QString::fromStdString(t->sql).count("{{REL:1}}"), 2);
    }

    void tableChangesReadsTheChangeFeedRange() {
        auto q = Parser("SELECT * FROM table_changes('users_current', 2, 4)", "q").parseSingleQuery();
        QVERIFY(q.ok());
        auto t = Translator::translateQuery(q.value());
        QVERIFY2(t.ok(), t.ok() ? "" : t.error().format().c_str());
        QCOMPARE(t->relations.size(), std::size_t(1));
        QVERIFY(t->relations[0].changeFeed);
        QCOMPARE(QString::fromStdString(t->relations[0].name), QStringLiteral("users_current"));
        QVERIFY2(QString::fromStdString(t->sql).contains(
                     "(SELECT * FROM {{REL:0}} WHERE \"_commit_version\" >= 2 AND \"_commit_version\" <= 4)"),
                 t->sql.c_str());
    }

    void bindRelationsSubstitutesEveryPlaceholder() {
        pipeline::Query q;
        q.sqliteTemplate =
            "SELECT * FROM {{REL:0}} AS a JOIN {{REL:1}} AS b ON a.x = b.x WHERE a.s = '{' || '{REL:0}}'";
        q.relations.resize(2);
        q.relations[0].name = "a";
        q.relations[1].name = "b";
        std::string out =
            bindRelations(q, [](const pipeline::RelationRef& r) { return "\"tbl_" + r.name + "\""; });
        QCOMPARE(QString::fromStdString(out), QStringLiteral("SELECT * FROM \"tbl_a\" AS a JOIN \"tbl_b\" AS "
                                                             "b ON a.x = b.x WHERE a.s = '{' || '{REL:0}}'"));
    }
};

QTEST_GUILESS_MAIN(TestTranslator)
#include "tst_translator.moc"
