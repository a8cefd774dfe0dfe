// Predict, then see (issue 17 §4): a predicted table graded against the actual one by row identity (keys,
// plus __START_AT for SCD2), and a wrong cell explained from the key's provenance. The expected grades are
// written out by hand from the tables in each case.
#include "EngineTestUtil.h"
#include "SqlTestUtil.h"

#include "core/engine/PredictionGrade.h"

#include <QtTest/QtTest>

using namespace enginetest;

namespace {

using Rows = std::vector<Row>;

/// "actualRow:cells" per predicted row ("-1" for an extra row; cells as R/W), then "missing:..." .
QStringList gradeText(const engine::PredictionGrade& g) {
    QStringList out;
    for (const engine::GradedRow& r : g.rows) {
        QString cells;
        for (bool right : r.right)
            cells += right ? QLatin1Char('R') : QLatin1Char('W');
        out << (r.extra() ? QStringLiteral("extra") : QStringLiteral("%1:%2").arg(r.actual).arg(cells));
    }
    QStringList missing;
    for (int m : g.missing)
        missing << QString::number(m);
    out << "missing:" + missing.join(',');
    return out;
}

const Rows kScd1Actual = {{i(124), s("Raul"), s("Oaxaca")},
                          {i(125), s("Mercedes"), s("Guadalajara")},
                          {i(126), s("Lily"), s("Cancun")}};

/// Mercedes (125) of the seed tutorial in a target of SCD type `scd`: Tijuana (2), Guadalajara (6), then the
/// late Mexicali (5), one update each; her key explained.
Result<engine::Explanation> explainMercedes(int scd) {
    auto db = openDb();
    if (!source(db, "CREATE TABLE users_cdf (userId INT, name STRING, city STRING, operation STRING, "
                    "sequenceNum INT);"))
        return Diagnostic::error("TEST", "cannot create the source");
    const auto p = parse("CREATE OR REFRESH STREAMING TABLE users;\n"
                         "CREATE FLOW f AS AUTO CDC INTO users FROM stream(users_cdf) KEYS (userId)\n"
                         "APPLY AS DELETE WHEN operation = \"DELETE\" SEQUENCE BY sequenceNum\n"
                         "COLUMNS * EXCEPT (operation, sequenceNum) STORED AS SCD TYPE " +
                         std::to_string(scd) + ";");
    std::int64_t now = 1000;
    for (const char* batch : {R"(INSERT INTO users_cdf VALUES (125, "Mercedes", "Tijuana", "INSERT", 2))",
                              R"(INSERT INTO users_cdf VALUES (125, "Mercedes", "Guadalajara", "UPDATE", 6))",
                              R"(INSERT INTO users_cdf VALUES (125, "Mercedes", "Mexicali", "UPDATE", 5))"})
        if (!source(db, batch) || update(db, p, now += 60).updateId <= 0)
            return Diagnostic::error("TEST", std::string("cannot deliver ") + batch);
    return engine::explainKey(db, p, "users", {i(125)});
}

} // namespace

Q_DECLARE_METATYPE(Rows)

class TestPredictionGrade : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { sql::installSparkFunctions(); }

    void grades_data() {
        QTest::addColumn<Rows>("predicted");
        QTest::addColumn<Rows>("actual");
        QTest::addColumn<std::vector<std::size_t>>("identity");
        QTest::addColumn<QStringList>("grade");
        QTest::addColumn<QString>("summary");

        QTest::newRow("all right") << kScd1Actual << kScd1Actual << std::vector<std::size_t>{0}
                                   << QStringList{"0:RRR", "1:RRR", "2:RRR", "missing:"}
                                   << "Every cell right: 9 of 9 cells right";
        // Rows are matched by key, not by position.
        QTest::newRow("any order") << Rows{kScd1Actual[2], kScd1Actual[0], kScd1Actual[1]} << kScd1Actual
                                   << std::vector<std::size_t>{0}
                                   << QStringList{"2:RRR", "0:RRR", "1:RRR", "missing:"}
                                   << "Every cell right: 9 of 9 cells right";
        QTest::newRow("one wrong cell")
            << Rows{kScd1Actual[0], {i(125), s("Mercedes"), s("Mexicali")}, kScd1Actual[2]} << kScd1Actual
            << std::vector<std::size_t>{0} << QStringList{"0:RRR", "1:RRW", "2:RRR", "missing:"}
            << "8 of 9 cells right";
        // Isabel kept (her delete not believed), Lily forgotten.
        QTest::newRow("extra and missing")
            << Rows{kScd1Actual[0], kScd1Actual[1], {i(123), s("Isabel"), s("Chihuahua")}} << kScd1Actual
            << std::vector<std::size_t>{0} << QStringList{"0:RRR", "1:RRR", "extra", "missing:2"}
            << "6 of 6 cells right, 1 row missing, 1 extra row";
        // A key guessed twice counts once; the second is extra.
        QTest::newRow("duplicate key")
            << Rows{kScd1Actual[0], kScd1Actual[0]} << Rows{kScd1Actual[0]} << std::vector<std::size_t>{0}
            << QStringList{"0:RRR", "extra", "missing:"} << "3 of 3 cells right, 1 extra row";
        // NULL equals NULL; NULL against a value is wrong.
        QTest::newRow("nulls") << Rows{{i(1), Value{}, Value{}}} << Rows{{i(1), Value{}, s("x")}}
                               << std::vector<std::size_t>{0} << QStringList{"0:RRW", "missing:"}
                               << "2 of 3 cells right";
        // SCD2: versions are told apart by (key, __START_AT); a guess of two versions where there are three
        // misses the version the late event split off.
        const Rows scd2Actual = {{i(125), s("Tijuana"), i(2), i(5)},
                                 {i(125), s("Mexicali"), i(5), i(6)},
                                 {i(125), s("Guadalajara"), i(6), Value{}}};
        QTest::newRow("scd2 missing version")
            << Rows{{i(125), s("Tijuana"), i(2), i(6)}, {i(125), s("Guadalajara"), i(6), Value{}}}
            << scd2Actual << std::vector<std::size_t>{0, 2} << QStringList{"0:RRRW", "2:RRRR", "missing:1"}
            << "7 of 8 cells right, 1 row missing";
    }

    void grades() {
        QFETCH(Rows, predicted);
        QFETCH(Rows, actual);
        QFETCH(std::vector<std::size_t>, identity);
        QFETCH(QStringList, grade);
        QFETCH(QString, summary);
        const auto g = engine::gradePrediction(predicted, actual, identity);
        QCOMPARE(gradeText(g), grade);
        QCOMPARE(QString::fromStdString(engine::gradeSummary(g)), summary);
    }

    /// The seed tutorial's SCD1 example: guessing Mexicali for Mercedes is explained by the late event's
    /// fate.
    void explainsWrongCellFromProvenance() {
        const auto e = explainMercedes(1);
        QVERIFY2(e.ok(), e ? "" : e.error().format().c_str());
        const QString why = QString::fromStdString(
            engine::explainWrongCell(*e, "city", s("Mexicali"), s("Guadalajara"), std::nullopt));
        QVERIFY2(why.startsWith("city: you said Mexicali, it is Guadalajara — set by sequence 6 (update 2); "
                                "the event with Mexicali (sequence 5 (update 3)) is stale: arrived"),
                 qPrintable(why));
        QVERIFY2(why.contains("after sequence 6 had been applied"), qPrintable(why));
        // A value no event carried: only the event that set the truth is named.
        const QString invented = QString::fromStdString(
            engine::explainWrongCell(*e, "city", s("Paris"), s("Guadalajara"), std::nullopt));
        QCOMPARE(invented, "city: you said Paris, it is Guadalajara — set by sequence 6 (update 2)");
        QVERIFY(QString::fromStdString(engine::explainRow(*e, true))
                    .startsWith("missing from your prediction — "));
    }

    /// SCD2: Mercedes' versions after the late Mexicali event; a wrong __END_AT and the missing version are
    /// explained by the events that opened those versions.
    void explainsScd2VersionsFromProvenance() {
        const auto e = explainMercedes(2);
        QVERIFY2(e.ok(), e ? "" : e.error().format().c_str());
        const QString end =
            QString::fromStdString(engine::explainWrongCell(*e, "__END_AT", i(6), i(5), std::nullopt, i(2)));
        QVERIFY2(end.startsWith(
                     "__END_AT: you said 6, it is 5 — sequence 2 (update 1): opened the version [2, 5); "
                     "it ends at 5"),
                 qPrintable(end));
        const QString missing = QString::fromStdString(engine::explainRow(*e, true, i(5)));
        QVERIFY2(missing.startsWith(
                     "missing from your prediction — sequence 5 (update 3): opened the version [5, 6)") &&
                     missing.contains("arrived late"),
                 qPrintable(missing));
    }
};

QTEST_GUILESS_MAIN(TestPredictionGrade)
#include "tst_prediction_grade.moc"
