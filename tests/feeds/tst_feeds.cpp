// Change feed import (core/feeds). The conformance cases under tests/conformance/feeds/ are sample feeds
// written from each format's documentation, each holding the seed tutorial's eight changes: imported, then
// run through the seed SCD1 and SCD2 pipelines (samples/scd1-users, samples/scd2-users), they must give the
// tables the tutorial documents (scd1.csv, scd2.csv; for SCD2 in the feed's own sequence values).
// Malformed records are cases of one data-driven test: each names its line and byte, and imports nothing.

#include "core/engine/Engine.h"
#include "core/feeds/FeedImporter.h"
#include "core/sql/SqlApi.h"
#include "core/storage/Catalog.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest/QtTest>

#include <fstream>
#include <sstream>

using namespace cdc;
using namespace cdc::feeds;

namespace {

const QString kCases = QStringLiteral(CDC_TESTS_DIR "/conformance/feeds");
const std::string kTable = "main.cdc_tutorial.users_cdf";

ReaderOptions named(std::string file) {
    ReaderOptions o;
    o.file = std::move(file);
    return o;
}

std::string readText(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return f.readAll().toStdString();
}

storage::Database openDb() {
    auto db = storage::Database::openMemory();
    if (!db || !storage::Catalog::ensureSchema(*db))
        qFatal("cannot open an in-memory database");
    return std::move(db).value();
}

/// The seed's users_cdf table, created empty by the sample's own source SQL.
void createSeedTable(storage::Database& db) {
    const auto st = sql::executeSourceScript(db, readText(CDC_SOURCE_DIR "/samples/scd1-users/sources.sql"),
                                             "sources.sql");
    QVERIFY2(st.ok(), st.ok() ? "" : st.error().format().c_str());
}

/// Every row of a query as CSV (cdcstudio-cli query --format csv).
std::string queryCsv(storage::Database& db, const std::string& sql) {
    auto rs = sql::runQuery(db, sql);
    return rs ? toCsv(*rs) : "error: " + rs.error().format();
}

std::string rowCount(storage::Database& db) {
    return queryCsv(db, "SELECT count(*) AS n FROM " + kTable);
}

Result<ImportReport> importText(storage::Database& db, FeedFormat format, const std::string& text,
                                const std::string& sequenceColumn = "sequence",
                                ImportProgress progress = {}) {
    std::istringstream head{text};
    auto existing = findSourceTable(db, kTable);
    if (!existing)
        return existing.error();
    FeedPreview preview = previewFeed(head, format, named("feed"), 1000);
    const FeedMapping mapping =
        *existing ? FeedMapping::forTable(**existing, preview.fields, format)
                  : FeedMapping::forNewTable(preview.records, format, "operation", sequenceColumn);
    std::istringstream in{text};
    auto reader = FeedReader::create(format, in, named("feed"));
    return importFeed(db, *reader, kTable, mapping, nullptr, progress);
}

/// Every record a reader gives, one line each: `sequence | name=value ...` (NULL for a null), or the error.
std::string shownRecords(FeedReader& reader) {
    std::string shown;
    for (;;) {
        auto record = reader.next();
        if (!record)
            return shown + "error: " + record.error().message;
        if (!*record)
            return shown;
        shown += displayText((*record)->sequence) + " |";
        for (const auto& [name, value] : (*record)->fields)
            shown += " " + name + "=" +
                     (std::holds_alternative<std::monostate>(value) ? "NULL" : displayText(value));
        shown += "\n";
    }
}

} // namespace

class TestFeeds : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { sql::installSparkFunctions(); }

    void conformance_data();
    void conformance();
    void tableChangesExportIsCdcStudiosOwn();
    void malformed_data();
    void malformed();
    void cancelLeavesNothing();
    void progressIsReportedWhileStreaming();
    void debeziumTruncate();
    void plainCsvRecords_data();
    void plainCsvRecords();
    void formatNames();
    void importFileDetectsTheFormat();
};

void TestFeeds::conformance_data() {
    QTest::addColumn<QString>("dir");
    QTest::addColumn<int>("scd");
    const QStringList cases = QDir(kCases).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    QVERIFY(cases.size() >= 9);
    for (const QString& c : cases)
        for (int scd : {1, 2})
            QTest::newRow(qPrintable(c + "/scd" + QString::number(scd))) << kCases + "/" + c << scd;
}

void TestFeeds::conformance() {
    QFETCH(QString, dir);
    QFETCH(int, scd);
    const QJsonObject meta =
        QJsonDocument::fromJson(QByteArray::fromStdString(readText(dir + "/case.json"))).object();
    const auto format = parseFormat(meta["format"].toString().toStdString());
    QVERIFY(format);
    QString feedPath;
    for (const QString& name : QDir(dir).entryList({"feed.*"}, QDir::Files))
        feedPath = dir + "/" + name;
    const std::string text = readText(feedPath);
    QCOMPARE(formatName(detectFormat(std::string_view(text).substr(0, 4096))), formatName(*format));

    storage::Database db = openDb();
    if (meta["table"].toString() == "existing")
        createSeedTable(db);
    auto report = importText(db, *format, text, meta["sequence_column"].toString("sequence").toStdString());
    QVERIFY2(report.ok(), report.ok() ? "" : report.error().format().c_str());
    QCOMPARE(report->created, meta["table"].toString() == "new");
    QCOMPARE(int(report->imported), meta["imported"].toInt());
    QCOMPARE(int(report->tombstones), meta["tombstones"].toInt());
    QCOMPARE(int(report->preimages), meta["preimages"].toInt());

    const QString sample = QStringLiteral(CDC_SOURCE_DIR "/samples/scd%1-users/pipeline.sql").arg(scd);
    auto parsed = sql::parsePipeline(readText(sample), "pipeline.sql");
    QVERIFY(!parsed.hasErrors());
    engine::UpdateOptions options;
    options.now = 1767261600;
    auto update = engine::runUpdate(db, parsed.pipeline, options);
    QVERIFY2(update.ok(), update.ok() ? "" : update.error().format().c_str());
    const std::string actual = scd == 1
                                   ? queryCsv(db, "SELECT * FROM users_current ORDER BY userId")
                                   : queryCsv(db, "SELECT * FROM users_history ORDER BY userId, __START_AT");
    QCOMPARE(QString::fromStdString(actual),
             QString::fromStdString(readText(dir + QStringLiteral("/scd%1.csv").arg(scd))));
}

void TestFeeds::tableChangesExportIsCdcStudiosOwn() {
    // The cdf-table-changes case is `cdcstudio-cli query "SELECT * FROM table_changes('users_current', 1)"
    // --format csv` after the seed's SCD1 pipeline read its events in two updates: regenerate it here, so
    // the case keeps testing CDC Studio's real output.
    storage::Database db = openDb();
    createSeedTable(db);
    auto parsed =
        sql::parsePipeline(readText(CDC_SOURCE_DIR "/samples/scd1-users/pipeline.sql"), "pipeline.sql");
    QVERIFY(!parsed.hasErrors());
    const std::string events = readText(CDC_SOURCE_DIR "/samples/scd1-users/events.sql");
    // Updates 1 and 2: the first four rows, then the last four.
    const auto split = events.find("  -- Isabel is removed");
    QVERIFY(split != std::string::npos);
    std::string first = events.substr(0, split);
    first.erase(first.find_last_of(','), 1);
    first += ";";
    const std::string second = "INSERT INTO main.cdc_tutorial.users_cdf VALUES\n" + events.substr(split);
    std::int64_t now = 1767261600;
    for (const std::string& batch : {first, second}) {
        const auto st = sql::executeSourceScript(db, batch, "events.sql");
        QVERIFY2(st.ok(), st.ok() ? "" : st.error().format().c_str());
        engine::UpdateOptions options;
        options.now = now;
        now += 60;
        auto update = engine::runUpdate(db, parsed.pipeline, options);
        QVERIFY2(update.ok(), update.ok() ? "" : update.error().format().c_str());
    }
    QCOMPARE(QString::fromStdString(queryCsv(
                 db, "SELECT * FROM table_changes('users_current', 1) ORDER BY _commit_version, userId, "
                     "_change_type")),
             QString::fromStdString(readText(kCases + "/cdf-table-changes/feed.csv")));
}

void TestFeeds::malformed_data() {
    QTest::addColumn<QString>("format");
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("offset");
    QTest::addColumn<QString>("message");
    const QByteArray good =
        R"({"before":null,"after":{"userId":1,"name":"a","city":"b"},"op":"c","source":{"lsn":10}})"
        "\n";
    const int g = int(good.size());
    QTest::newRow("bad JSON") << "debezium"
                              << good + R"({"before":null,"after":{"userId":2,)"
                                        "\n"
                              << 2 << g + 35 << "not valid JSON";
    QTest::newRow("missing op") << "debezium"
                                << good + R"({"before":null,"after":{"userId":2},"source":{"lsn":11}})" << 2
                                << g << "has no \"op\"";
    QTest::newRow("unknown op code") << "debezium"
                                     << good + good + R"({"after":{"userId":2},"op":"x","source":{"lsn":11}})"
                                     << 3 << 2 * g << "unknown Debezium op 'x'";
    QTest::newRow("delete without before")
        << "debezium" << good + R"({"before":null,"op":"d","source":{"lsn":11}})" << 2 << g
        << "has no \"before\" row";
    QTest::newRow("sequence missing later")
        << "debezium" << good + R"({"after":{"userId":2},"op":"c","source":{}})" << 2 << g
        << "has no source.lsn";
    QTest::newRow("invalid UTF-8 in JSON")
        << "debezium" << good + "{\"op\":\"c\",\"after\":{\"name\":\"\xff\"}}\n"
        << 2 << g + 27 << "the byte 0xFF is not UTF-8";
    QTest::newRow("value not castable")
        << "debezium" << good + R"({"after":{"userId":"seven"},"op":"c","source":{"lsn":11}})" << 2 << g
        << "column 'userId': CAST_INVALID_INPUT";
    QTest::newRow("not an object") << "jsonl" << QByteArray("{\"userId\":1}\n[1,2]\n") << 2 << 13
                                   << "is a JSON object, not [1,2]";
    QTest::newRow("unterminated quote")
        << "csv" << QByteArray("userId,name\n1,a\n2,\"b\n3,c\n") << 3 << 18 << "is never closed";
    QTest::newRow("stray quote") << "csv" << QByteArray("userId,name\n1,a\n2,b\"c\n") << 3 << 19
                                 << "a quote inside a field";
    QTest::newRow("text after closing quote")
        << "csv" << QByteArray("userId,name\n1,\"a\"b\n") << 2 << 17 << "follows the closing quote";
    QTest::newRow("field count") << "csv" << QByteArray("userId,name\n1,a\n2,b,c\n") << 3 << 16
                                 << "has 3 fields but the header 2";
    QTest::newRow("invalid UTF-8 in CSV") << "csv" << QByteArray("userId,name\n1,a\xc3\n") << 2 << 12
                                          << "field 2 holds the byte 0xC3, which is not UTF-8";
    QTest::newRow("CSV value not castable")
        << "csv" << QByteArray("userId,name\n1,a\n2x,b\n") << 3 << 16 << "column 'userId'";
    QTest::newRow("DMS missing Op") << "dms" << QByteArray("userId,name\n1,a\n") << 2 << 12
                                    << "has no Op column";
    QTest::newRow("DMS unknown Op") << "dms" << QByteArray("Op,userId,name\nI,1,a\nX,2,b\n") << 3 << 21
                                    << "unknown DMS Op 'X'";
    QTest::newRow("DMS unknown operation")
        << "dms"
        << QByteArray(
               R"({"data":{"userId":1},"metadata":{"record-type":"data","operation":"merge","timestamp":"t"}})"
               "\n")
        << 1 << 0 << "unknown DMS operation 'merge'";
    QTest::newRow("CDF unknown change type")
        << "cdf" << QByteArray("userId,_change_type,_commit_version\n1,insert,1\n2,upsert,2\n") << 3 << 47
        << "unknown _change_type 'upsert'";
    QTest::newRow("CDF missing change type")
        << "cdf" << QByteArray("{\"userId\":1,\"_commit_version\":1}\n") << 1 << 0 << "has no _change_type";
    QTest::newRow("Flink unknown row kind")
        << "flink" << QByteArray("op,userId\n+I,1\n+X,2\n") << 3 << 15 << "unknown Flink row kind '+X'";
}

void TestFeeds::malformed() {
    QFETCH(QString, format);
    QFETCH(QByteArray, text);
    QFETCH(int, line);
    QFETCH(int, offset);
    QFETCH(QString, message);
    storage::Database db = openDb();
    createSeedTable(db);
    QVERIFY(sql::executeSourceScript(
                db, "INSERT INTO main.cdc_tutorial.users_cdf VALUES (9, 'x', 'y', 'INSERT', 1);", "seed")
                .ok());
    const std::string before = queryCsv(db, "SELECT * FROM " + kTable);
    // Map by name onto the seed table, the record's value fields being userId, name, city.
    storage::TableInfo info = **findSourceTable(db, kTable);
    const FeedFormat f = *parseFormat(format.toStdString());
    const FeedMapping mapping = FeedMapping::forTable(info, {"userId", "name", "city"}, f);
    std::istringstream in{text.toStdString()};
    auto reader = FeedReader::create(f, in, named("feed"));
    auto report = importFeed(db, *reader, kTable, mapping);
    QVERIFY(!report.ok());
    const Diagnostic& d = report.error();
    QCOMPARE(d.code, std::string("FEED_RECORD"));
    QVERIFY2(QString::fromStdString(d.message).contains(message), d.message.c_str());
    QVERIFY2(QString::fromStdString(d.message).startsWith(
                 QStringLiteral("line %1, byte %2: ").arg(line).arg(offset)),
             d.message.c_str());
    QCOMPARE(d.location.line, line);
    QCOMPARE(int(d.location.offset), offset);
    QCOMPARE(d.location.file, std::string("feed"));
    QCOMPARE(queryCsv(db, "SELECT * FROM " + kTable), before); // nothing imported
}

void TestFeeds::cancelLeavesNothing() {
    storage::Database db = openDb();
    std::string text = "id,name\n";
    for (int i = 0; i < 2000; ++i)
        text += std::to_string(i) + ",n" + std::to_string(i) + "\n";
    int calls = 0;
    auto report = importText(db, FeedFormat::Csv, text, "sequence",
                             [&](std::uint64_t, std::size_t) { return ++calls < 3; });
    QVERIFY(!report.ok());
    QCOMPARE(report.error().code, std::string("CANCELLED"));
    QCOMPARE(calls, 3);
    auto table = findSourceTable(db, kTable);
    QVERIFY(table.ok());
    QVERIFY(!*table); // the table the import had created went with it
}

void TestFeeds::progressIsReportedWhileStreaming() {
    storage::Database db = openDb();
    createSeedTable(db);
    // 20,000 Debezium events, a tombstone after each delete: read as a stream, reported as it goes.
    const QString path = QDir::temp().filePath("cdc_feeds_large.json");
    {
        std::ofstream out(path.toStdString());
        for (int i = 0; i < 20000; ++i) {
            out << R"({"before":null,"after":{"userId":)" << i % 500 << R"(,"name":"n)" << i
                << R"(","city":"c"},"op":")" << (i < 500 ? "c" : "u") << R"(","source":{"lsn":)" << 1000 + i
                << "}}\n";
            if (i % 1000 == 999)
                out << R"({"before":{"userId":)" << i % 500 << R"(},"after":null,"op":"d","source":{"lsn":)"
                    << 1000 + i << "}}\nnull\n";
        }
    }
    std::ifstream in(path.toStdString(), std::ios::binary);
    const auto size = std::filesystem::file_size(path.toStdString());
    auto reader = FeedReader::create(FeedFormat::Debezium, in, named(path.toStdString()));
    const FeedMapping mapping = FeedMapping::forTable(**findSourceTable(db, kTable),
                                                      {"userId", "name", "city"}, FeedFormat::Debezium);
    std::vector<std::uint64_t> bytes;
    auto report = importFeed(db, *reader, kTable, mapping, nullptr, [&](std::uint64_t read, std::size_t) {
        bytes.push_back(read);
        return true;
    });
    QVERIFY2(report.ok(), report.ok() ? "" : report.error().format().c_str());
    QCOMPARE(int(report->imported), 20020);
    QCOMPARE(int(report->tombstones), 20);
    QVERIFY(bytes.size() > 50);
    QVERIFY(std::is_sorted(bytes.begin(), bytes.end()));
    QVERIFY(bytes.front() < size / 10);
    QCOMPARE(bytes.back(), std::uint64_t(size));
    QCOMPARE(rowCount(db), std::string("n\n20020\n"));
    QFile::remove(path);
}

void TestFeeds::debeziumTruncate() {
    // A truncate event has no row: only the operation (and sequence) columns are set.
    std::istringstream in{R"({"op":"t","before":null,"after":null,"source":{"lsn":5},"ts_ms":1})"
                          "\n"};
    auto reader = FeedReader::create(FeedFormat::Debezium, in);
    auto record = reader->next();
    QVERIFY(record.ok() && *record);
    QCOMPARE(operationText(*(*record)->operation), std::string("TRUNCATE"));
    QVERIFY((*record)->fields.empty());
    QCOMPARE((*record)->sequence, Value(std::int64_t(5)));
}

void TestFeeds::plainCsvRecords_data() {
    QTest::addColumn<QByteArray>("csv");
    QTest::addColumn<QByteArray>("jsonl"); // the same records as JSON Lines, read through JSON
    QTest::addColumn<QString>("sequenceField");
    QTest::addColumn<QString>("expected");
    QTest::newRow("ordinal sequence, NULL and empty")
        << QByteArray("id,name\n1,\n2,\"\"\n")
        << QByteArray("{\"id\":\"1\",\"name\":null}\n{\"id\":\"2\",\"name\":\"\"}\n") << ""
        << "1 | id=1 name=NULL\n2 | id=2 name=\n";
    QTest::newRow("sequence column leaves the values")
        << QByteArray("id,seq,name\n1,7,a\n") << QByteArray("{\"id\":\"1\",\"seq\":\"7\",\"name\":\"a\"}\n")
        << "seq"
        << "7 | id=1 name=a\n";
    QTest::newRow("sequence named in another case")
        << QByteArray("id,SeqNum\n1,9\n") << QByteArray("{\"id\":\"1\",\"SeqNum\":\"9\"}\n") << "seqnum"
        << "9 | id=1\n";
    QTest::newRow("exact name first, every spelling dropped")
        << QByteArray("id,SEQ,seq\n1,8,9\n") << QByteArray("{\"id\":\"1\",\"SEQ\":\"8\",\"seq\":\"9\"}\n")
        << "seq"
        << "9 | id=1\n";
    QTest::newRow("repeated header name keeps the last value")
        << QByteArray("id,name,name\n1,a,b\n") << QByteArray("{\"id\":\"1\",\"name\":\"a\",\"name\":\"b\"}\n")
        << ""
        << "1 | id=1 name=b\n";
    QTest::newRow("missing sequence column")
        << QByteArray("id\n1\n") << QByteArray("{\"id\":\"1\"}\n") << "seq"
        << "error: line 2, byte 3: the record has no seq";
    QTest::newRow("NULL sequence") << QByteArray("id,seq\n1,\n")
                                   << QByteArray("{\"id\":\"1\",\"seq\":null}\n") << "seq"
                                   << "error: line 2, byte 7: the record has no seq";
    // A field longer than the reader's 64 KiB buffer, and records that straddle its boundary.
    const QByteArray longName(100000, 'x');
    QByteArray many = "id,name\n", manyJson, manyExpected;
    for (int i = 1; i <= 9000; ++i) {
        many += QByteArray::number(i) + ",n" + QByteArray::number(i) + "\n";
        manyJson +=
            "{\"id\":\"" + QByteArray::number(i) + "\",\"name\":\"n" + QByteArray::number(i) + "\"}\n";
        manyExpected += QByteArray::number(i) + " | id=" + QByteArray::number(i) + " name=n" +
                        QByteArray::number(i) + "\n";
    }
    QTest::newRow("long field") << QByteArray("id,name\n1," + longName + "\n2,b\n")
                                << QByteArray("{\"id\":\"1\",\"name\":\"" + longName +
                                              "\"}\n{\"id\":\"2\",\"name\":\"b\"}\n")
                                << ""
                                << QString::fromLatin1("1 | id=1 name=" + longName + "\n2 | id=2 name=b\n");
    QTest::newRow("records across buffer boundaries")
        << many << manyJson << "" << QString::fromLatin1(manyExpected);
}

void TestFeeds::plainCsvRecords() {
    // Plain CSV is read as columns, without the JSON object the other formats go through: it must give
    // what the JSON path gives for the same strings.
    QFETCH(QByteArray, csv);
    QFETCH(QByteArray, jsonl);
    QFETCH(QString, sequenceField);
    QFETCH(QString, expected);
    ReaderOptions options = named("feed.csv");
    options.sequenceField = sequenceField.toStdString();
    std::istringstream csvIn{csv.toStdString()};
    auto csvReader = FeedReader::create(FeedFormat::Csv, csvIn, options);
    QCOMPARE(QString::fromStdString(shownRecords(*csvReader)), expected);
    options.file = "feed.jsonl";
    std::istringstream jsonIn{jsonl.toStdString()};
    auto jsonReader = FeedReader::create(FeedFormat::JsonLines, jsonIn, options);
    const std::string viaJson = shownRecords(*jsonReader);
    if (viaJson.starts_with("error: ")) // positions differ between the two files; the message does not
        QVERIFY(expected.startsWith("error: ") &&
                expected.endsWith(QString::fromStdString(viaJson.substr(viaJson.rfind(':')))));
    else
        QCOMPARE(QString::fromStdString(viaJson), expected);
}

void TestFeeds::formatNames() {
    for (FeedFormat f : allFormats())
        QCOMPARE(parseFormat(formatName(f)), std::optional<FeedFormat>(f));
    QVERIFY(!parseFormat("avro"));
}

void TestFeeds::importFileDetectsTheFormat() {
    // What `cdcstudio-cli import FILE --into TABLE` does without --format: detect, sample, map, import.
    storage::Database db = openDb();
    FileImport request;
    request.path = (kCases + "/debezium-mysql-schema/feed.json").toStdString();
    request.table = kTable;
    request.sequenceColumn = "sequenceNum";
    auto report = importFile(db, request);
    QVERIFY2(report.ok(), report.ok() ? "" : report.error().format().c_str());
    QCOMPARE(formatName(report->format), std::string("debezium"));
    QVERIFY(report->created);
    QCOMPARE(int(report->imported), 8);
    QCOMPARE(int(report->tombstones), 1);
    QCOMPARE(queryCsv(db, "SELECT * FROM " + kTable + " WHERE userId = 123 ORDER BY sequenceNum"),
             std::string("userId,name,city,operation,sequenceNum\n"
                         "123,Isabel,Monterrey,INSERT,1767261600000\n"
                         "123,Isabel,Chihuahua,UPDATE,1767262020400\n"
                         "123,Isabel,Chihuahua,DELETE,1767262080000\n"));
    // A missing file is an error naming it; a malformed one is positioned in it.
    request.path = "/nonexistent/feed.json";
    QCOMPARE(importFile(db, request).error().code, std::string("FILE"));
}

QTEST_GUILESS_MAIN(TestFeeds)
#include "tst_feeds.moc"
