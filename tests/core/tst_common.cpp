// The value types every layer shares (DataType, Diagnostic, ResultSet's writers). Their spelling is what
// users read in the CLI, error messages and exports, so the tests pin it exactly, wide characters included.
#include "core/common/DataType.h"
#include "core/common/Diagnostic.h"
#include "core/common/ResultSet.h"
#include "core/common/Utf8.h"

#include <QTest>

#include <cmath>

using namespace cdc;

class TestCommon : public QObject {
    Q_OBJECT
private slots:
    void dataTypeRoundTrip_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("canonical");
        QTest::newRow("int") << "int"
                             << "INT";
        QTest::newRow("integer alias") << "INTEGER"
                                       << "INT";
        QTest::newRow("long alias") << "long"
                                    << "BIGINT";
        QTest::newRow("decimal") << "decimal(10, 2)"
                                 << "DECIMAL(10,2)";
        QTest::newRow("array") << "array<string>"
                               << "ARRAY<STRING>";
        QTest::newRow("struct") << "STRUCT<ts: TIMESTAMP, id:BIGINT>"
                                << "STRUCT<ts: TIMESTAMP, id: BIGINT>";
        QTest::newRow("map") << "MAP<STRING, INT>"
                             << "MAP<STRING, INT>";
        QTest::newRow("varchar") << "varchar(20)"
                                 << "STRING";
    }
    void dataTypeRoundTrip() {
        QFETCH(QString, text);
        QFETCH(QString, canonical);
        auto t = DataType::parse(text.toStdString());
        QVERIFY(t.has_value());
        QCOMPARE(QString::fromStdString(t->toString()), canonical);
        QCOMPARE(DataType::parse(t->toString()), t);
    }

    void orderability() {
        QVERIFY(DataType::parse("STRUCT<a: INT, b: STRING>")->isOrderable());
        QVERIFY(!DataType::parse("MAP<STRING, INT>")->isOrderable());
        QVERIFY(!DataType::parse("STRUCT<a: MAP<STRING, INT>>")->isOrderable());
    }

    void commonTypeWidens() {
        using K = DataType::Kind;
        QCOMPARE(commonType(DataType::of(K::Int), DataType::of(K::BigInt))->kind, K::BigInt);
        QCOMPARE(commonType(DataType::of(K::Void), DataType::of(K::String))->kind, K::String);
        QCOMPARE(commonType(DataType::of(K::Int), DataType::of(K::Double))->kind, K::Double);
    }

    void diagnosticFormat() {
        auto d = Diagnostic::error("PARSE", "expected KEYS after source", {"p.sql", 3, 7, 40, 4});
        QCOMPARE(QString::fromStdString(d.format()),
                 QStringLiteral("p.sql:3:7: error: expected KEYS after source"));
        QCOMPARE(QString::fromStdString(Diagnostic::error("X", "boom").format()),
                 QStringLiteral("error: boom"));
    }

    void jsonRendering() {
        using K = DataType::Kind;
        ResultSet rs;
        rs.columns = {"id", "name", "ts", "flag", "s", "d"};
        rs.types = {DataType::of(K::Int),     DataType::of(K::String),           DataType::of(K::Timestamp),
                    DataType::of(K::Boolean), DataType::parse("STRUCT<a: INT>"), DataType::of(K::Double)};
        // Value by value: from an initializer list of Values GCC 12 -O3 warns falsely
        // (-Wfree-nonheap-object).
        Row first, second;
        first.emplace_back(std::int64_t{1});
        first.emplace_back(std::string("a\"b"));
        first.emplace_back(std::string("2026-08-30 10:00:00"));
        first.emplace_back(std::int64_t{1});
        first.emplace_back(std::string("{\"a\":1}"));
        first.emplace_back(2.5);
        second.emplace_back(std::int64_t{2});
        second.resize(3);
        second.emplace_back(std::int64_t{0});
        second.resize(5);
        second.emplace_back(1.0);
        rs.rows.push_back(std::move(first));
        rs.rows.push_back(std::move(second));
        QCOMPARE(QString::fromStdString(toJson(rs)),
                 QStringLiteral(
                     "[\n  {\"id\":1,\"name\":\"a\\\"b\",\"ts\":\"2026-08-30T10:00:00Z\","
                     "\"flag\":true,\"s\":{\"a\":1},\"d\":2.5},\n"
                     "  {\"id\":2,\"name\":null,\"ts\":null,\"flag\":false,\"s\":null,\"d\":1.0}\n]\n"));
    }

    // --format json keeps what the rows hold: two columns of one name both (Spark's JSON does too), bytes
    // that are not UTF-8 as U+FFFD (the document stays valid), NaN and infinities as Spark's strings, control
    // characters escaped.
    void jsonKeepsEveryColumnAndStaysValid() {
        ResultSet rs;
        rs.columns = {"a", "a", "text", "nan", "inf"};
        Row row;
        row.emplace_back(std::int64_t{1});
        row.emplace_back(std::int64_t{2});
        row.emplace_back(std::string("x\xff\n\x01"));
        row.emplace_back(std::nan(""));
        row.emplace_back(-1.0 / 0.0);
        rs.rows.push_back(std::move(row));
        QCOMPARE(QString::fromStdString(toJson(rs)),
                 QString::fromUtf8("[\n  {\"a\":1,\"a\":2,\"text\":\"x\xef\xbf\xbd\\n\\u0001\","
                                   "\"nan\":\"NaN\",\"inf\":\"-Infinity\"}\n]\n"));
    }

    // What SQL text and read_files accept: well-formed UTF-8 (RFC 3629), the first bad byte's offset
    // otherwise.
    void utf8FirstInvalidByte_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("offset"); // -1: valid
        QTest::newRow("ascii") << QByteArray("plain") << -1;
        QTest::newRow("2, 3 and 4 bytes") << QByteArray("\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80") << -1;
        QTest::newRow("Latin-1 byte") << QByteArray("caf\xE9") << 3;
        QTest::newRow("lone continuation") << QByteArray("a\x80") << 1;
        QTest::newRow("truncated sequence") << QByteArray("r\xE2\x82sum") << 1;
        QTest::newRow("overlong '/'") << QByteArray("\xC0\xAF") << 0;
        QTest::newRow("overlong 3 bytes") << QByteArray("x\xE0\x80\xAF") << 1;
        QTest::newRow("surrogate") << QByteArray("\xED\xA0\x80") << 0;
        QTest::newRow("past U+10FFFF") << QByteArray("\xF4\x90\x80\x80") << 0;
        QTest::newRow("F5") << QByteArray("ok\xF5") << 2;
    }
    void utf8FirstInvalidByte() {
        QFETCH(QByteArray, text);
        QFETCH(int, offset);
        const std::size_t at = utf8::firstInvalid(std::string_view(text.constData(), text.size()));
        QCOMPARE(at == std::string_view::npos ? -1 : static_cast<int>(at), offset);
    }

    // JSON output stays valid whatever a stored value holds: bytes that are not UTF-8 show as U+FFFD.
    void jsonStringReplacesBytesThatAreNotUtf8() {
        QCOMPARE(QString::fromStdString(jsonString("caf\xE9 \xC3\xA9\x01")),
                 QStringLiteral("\"caf\uFFFD \u00E9\\u0001\""));
    }

    void epochSecondsShownAsIso_data() {
        QTest::addColumn<qint64>("seconds");
        QTest::addColumn<QString>("iso");
        QTest::newRow("epoch") << qint64(0) << "1970-01-01T00:00:00Z";
        QTest::newRow("a tombstone's time") << qint64(1'700'000'000) << "2023-11-14T22:13:20Z";
        QTest::newRow("leap day, last second") << qint64(1'709'251'199) << "2024-02-29T23:59:59Z";
        QTest::newRow("before the epoch") << qint64(-1) << "1969-12-31T23:59:59Z";
    }
    void epochSecondsShownAsIso() {
        QFETCH(qint64, seconds);
        QFETCH(QString, iso);
        QCOMPARE(QString::fromStdString(epochSecondsToIso(seconds)), iso);
        // An integer in a TIMESTAMP column is such a time wherever it is shown; elsewhere it stays a number.
        const Value v = std::int64_t{seconds};
        const auto ts = DataType::of(DataType::Kind::Timestamp);
        QCOMPARE(QString::fromStdString(displayValue(v, ts)), iso);
        QCOMPARE(QString::fromStdString(jsonValue(v, ts)), '"' + iso + '"');
        QCOMPARE(QString::fromStdString(displayValue(v, DataType::of(DataType::Kind::BigInt))),
                 QString::number(seconds));
    }

    void tableAlignsWideCharacters() {
        ResultSet rs;
        rs.columns = {"city", "n"};
        rs.rows.push_back({std::string("カーメル"), std::int64_t{2}});
        rs.rows.push_back({std::string("Oaxaca"), std::int64_t{1}});
        const QStringList lines = QString::fromStdString(toTable(rs)).split('\n');
        // Every border and row line ends at the same terminal column: "カーメル" takes 8 columns.
        QCOMPARE(lines[0], QStringLiteral("+----------+---+"));
        QCOMPARE(lines[3], QStringLiteral("| カーメル | 2 |"));
        QCOMPARE(lines[4], QStringLiteral("| Oaxaca   | 1 |"));
    }

    void csvQuotesWhatNeedsIt() {
        ResultSet rs;
        rs.columns = {"a", "b"};
        rs.rows.push_back({std::string("x,y"), std::monostate{}});
        QCOMPARE(QString::fromStdString(toCsv(rs)), QStringLiteral("a,b\n\"x,y\",\n"));
    }
};

QTEST_GUILESS_MAIN(TestCommon)
#include "tst_common.moc"
