// The storage promises the rest relies on: savepoints roll back unless committed, copies work across
// page sizes (older projects open), kept statements never show stale columns, extensions cannot load,
// and catalog names resolve by unique suffix.
#include "core/storage/Backup.h"
#include "core/storage/Catalog.h"
#include "core/storage/Database.h"
#include "core/storage/MemoryFolder.h"

#include <sqlite3.h>

#include <chrono>
#include <thread>

#include <QDir>
#include <QStorageInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace cdc;
using namespace cdc::storage;

namespace {
int g_setupRuns = 0;
/// A connection set-up a layer above might add: a SQL function its SQL calls.
void addProbeFunction(sqlite3* db) {
    ++g_setupRuns;
    sqlite3_create_function_v2(
        db, "setup_probe", 0, SQLITE_UTF8, nullptr,
        [](sqlite3_context* ctx, int, sqlite3_value**) { sqlite3_result_int(ctx, 42); }, nullptr, nullptr,
        nullptr);
}
QString probe(const Database& db) {
    auto st = db.prepare("SELECT setup_probe()");
    if (!st)
        return QString::fromStdString(st.error().message);
    auto row = st->step();
    return row && row.value() ? QString::number(st->int64(0)) : QStringLiteral("no row");
}
qint64 scalar(const Database& db, const std::string& sql) {
    auto st = db.prepare(sql);
    if (!st)
        return -1;
    auto row = st->step();
    return row && row.value() ? st->int64(0) : -1;
}
} // namespace

class TestStorage : public QObject {
    Q_OBJECT
private slots:
    void transactionRollsBackUnlessCommitted() {
        auto db = Database::openMemory();
        QVERIFY(db.ok());
        QVERIFY(db->exec("CREATE TABLE t(x INTEGER)").ok());
        {
            auto tx = Transaction::begin(*db);
            QVERIFY(tx.ok());
            QVERIFY(db->exec("INSERT INTO t VALUES (1)").ok());
        } // destroyed without commit
        {
            auto tx = Transaction::begin(*db);
            QVERIFY(tx.ok());
            QVERIFY(db->exec("INSERT INTO t VALUES (2)").ok());
            QVERIFY(tx->commit().ok());
        }
        auto st = db->prepare("SELECT group_concat(x) FROM t");
        QVERIFY(st.ok());
        QVERIFY(st->step().value());
        QCOMPARE(QString::fromStdString(st->text(0)), QStringLiteral("2"));
    }

    void copyAcrossPageSizesIntoWal_data() {
        QTest::addColumn<int>("sourcePageSize");
        QTest::newRow("older 4 KB project") << 4096;
        QTest::newRow("same 2 KB pages") << 2048;
        QTest::newRow("8 KB pages") << 8192;
    }

    // New files get 2 KB pages and WAL; a project written with another page size must still copy into
    // such a working copy (and back) without losing a row.
    void copyAcrossPageSizesIntoWal() {
        QFETCH(int, sourcePageSize);
        QTemporaryDir dir;
        const std::string sourcePath = dir.filePath("source.db").toStdString();
        auto source = Database::open(sourcePath, Database::Mode::ReadWriteCreate);
        QVERIFY(source.ok());
        QVERIFY(
            source
                ->exec("CREATE TABLE t(x); INSERT INTO t VALUES (1), (2), (3); PRAGMA journal_mode = DELETE; "
                       "PRAGMA page_size = " +
                       std::to_string(sourcePageSize) + "; VACUUM")
                .ok());
        auto copy = Database::open(dir.filePath("copy.db").toStdString(), Database::Mode::ReadWriteCreate);
        QVERIFY(copy.ok());
        QVERIFY(copy->exec("CREATE TABLE stale(y)").ok()); // replaced by the copy
        auto copied = copyDatabase(*source, *copy);
        QVERIFY2(copied.ok(), copied.ok() ? "" : copied.error().message.c_str());
        auto st = copy->prepare("SELECT group_concat(x), (SELECT journal_mode FROM pragma_journal_mode), "
                                "(SELECT page_size FROM pragma_page_size) FROM t");
        QVERIFY(st.ok());
        QVERIFY(st->step().value());
        QCOMPARE(QString::fromStdString(st->text(0)), QStringLiteral("1,2,3"));
        QCOMPARE(QString::fromStdString(st->text(1)), QStringLiteral("wal"));
        QCOMPARE(st->int64(2), static_cast<std::int64_t>(sourcePageSize));
        QVERIFY(!copy->tableExists("stale"));
    }

    // Prepared statements are kept for reuse. SQLite re-prepares a statement whose schema changed only
    // when it is stepped, and callers read a query's columns before that (the GUI's target snapshots, the
    // flow planner): a kept statement must not show the columns of a table that another connection or a
    // restored undo snapshot has rebuilt since.
    // Copying into a WAL database leaves WAL mode for the copy, which needs every other connection to it
    // closed: one about to close (the GUI's checkpoint after a run) is waited for, not an error.
    void copyWaitsForAConnectionAboutToClose() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath(QStringLiteral("to.db")).toStdString();
        auto to = Database::open(path);
        QVERIFY(to.ok());
        QVERIFY(to->exec("CREATE TABLE old(x); INSERT INTO old VALUES (1)").ok());
        auto from = Database::openMemory();
        QVERIFY(from.ok());
        QVERIFY(from->exec("CREATE TABLE copied(x); INSERT INTO copied VALUES (2)").ok());
        auto other = Database::open(path, Database::Mode::ReadOnly);
        QVERIFY(other.ok());
        QCOMPARE(scalar(*other, "SELECT x FROM old"), qint64(1)); // holds the WAL open from now on
        QVERIFY(!to->exec("PRAGMA journal_mode = DELETE").ok());  // what a copy needs, refused meanwhile
        std::thread closer([&other] {
            std::this_thread::sleep_for(std::chrono::milliseconds(150));
            other = Database::openMemory(); // closes the connection to the file
        });
        const Status copied = copyDatabase(*from, *to);
        closer.join();
        QVERIFY2(copied.ok(), copied ? "" : copied.error().message.c_str());
        QCOMPARE(scalar(*to, "SELECT x FROM copied"), qint64(2));
        auto mode = to->prepare("PRAGMA journal_mode");
        QVERIFY(mode.ok() && mode->step().ok());
        QCOMPARE(QString::fromStdString(mode->text(0)), QStringLiteral("wal"));
    }

    void keptStatementsShowTheCurrentColumns() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("working.db").toStdString();
        auto db = Database::open(path, Database::Mode::ReadWriteCreate);
        QVERIFY(db.ok());
        QVERIFY(db->exec("CREATE TABLE t(a); INSERT INTO t VALUES (1)").ok());
        const auto columns = [&] { // as the GUI reads a target: the header first, then the rows
            auto st = db->prepare("SELECT * FROM t");
            if (!st)
                return QString("error");
            QStringList names;
            for (int c = 0; c < st->columnCount(); ++c)
                names << QString::fromStdString(st->columnName(c));
            QStringList cells;
            if (auto has = st->step(); has && has.value())
                for (int c = 0; c < st->columnCount(); ++c)
                    cells << QString::fromStdString(st->text(c));
            return names.join(',') + "=" + cells.join('|');
        };
        QCOMPARE(columns(), QStringLiteral("a=1"));
        auto before = snapshotToMemory(*db);
        QVERIFY(before.ok());
        QCOMPARE(columns(), QStringLiteral("a=1")); // the kept statement

        {
            auto other = Database::open(path, Database::Mode::ReadWrite); // an update's own connection
            QVERIFY(other.ok());
            QVERIFY(other->exec("DROP TABLE t; CREATE TABLE t(a, b); INSERT INTO t VALUES (7, 8)").ok());
        }
        QCOMPARE(columns(), QStringLiteral("a,b=7|8"));

        QVERIFY(copyDatabase(*before, *db).ok()); // undo
        QCOMPARE(columns(), QStringLiteral("a=1"));

        QVERIFY(db->exec("DROP TABLE t; CREATE TABLE t(x, y, z); INSERT INTO t VALUES (4, 5, 6)").ok());
        QCOMPARE(columns(), QStringLiteral("x,y,z=4|5|6"));
    }

    void nestedSavepointRollsBackOnlyInner() {
        auto db = Database::openMemory();
        QVERIFY(db.ok());
        QVERIFY(db->exec("CREATE TABLE t(x INTEGER)").ok());
        auto outer = Transaction::begin(*db, "outer");
        QVERIFY(outer.ok());
        QVERIFY(db->exec("INSERT INTO t VALUES (1)").ok());
        {
            auto inner = Transaction::begin(*db, "inner");
            QVERIFY(inner.ok());
            QVERIFY(db->exec("INSERT INTO t VALUES (2)").ok());
        }
        QVERIFY(outer->commit().ok());
        auto st = db->prepare("SELECT group_concat(x) FROM t");
        QVERIFY(st.ok());
        QVERIFY(st->step().value());
        QCOMPARE(QString::fromStdString(st->text(0)),
                 QStringLiteral("1")); // the outer row, not the inner one
    }

    void connectionSetupsReachEveryConnection() {
        auto early = Database::openMemory(); // opened before the set-up was added
        QVERIFY(early.ok());
        QCOMPARE(probe(*early), QStringLiteral("no such function: setup_probe"));
        Database::addConnectionSetup(addProbeFunction);
        Database::addConnectionSetup(addProbeFunction); // the same function again: still once per connection
        auto later = Database::openMemory();
        QVERIFY(later.ok());
        QCOMPARE(probe(*later), QStringLiteral("42"));
        QCOMPARE(g_setupRuns, 1);
        early->runNewConnectionSetups(); // the entry points above storage catch a connection up
        QCOMPARE(probe(*early), QStringLiteral("42"));
        early->runNewConnectionSetups();
        later->runNewConnectionSetups();
        QCOMPARE(g_setupRuns, 2); // each connection ran it once
    }

    void badSqlIsAnErrorValue() {
        auto db = Database::openMemory();
        QVERIFY(db.ok());
        auto st = db->prepare("SELEC 1");
        QVERIFY(!st.ok());
        QCOMPARE(QString::fromStdString(st.error().code), QStringLiteral("SQLITE"));
        QVERIFY(QString::fromStdString(st.error().message).contains("syntax error"));
    }

    // The SQL function exists but refuses to run: SQLite says "not authorized" (a missing library would
    // be a different error, so the refusal is not mistaken for a failed load).
    void extensionLoadingIsDisabled() {
        auto db = Database::openMemory();
        QVERIFY(db.ok());
        auto st = db->prepare("SELECT load_extension('/nonexistent.so')");
        QVERIFY2(st.ok(), st.ok() ? "" : st.error().message.c_str());
        auto r = st->step();
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.error().message), QStringLiteral("not authorized"));
    }

    // A working copy goes to a RAM-backed folder only where one is: never to a disk folder, a missing one,
    // or one without room (a container's 64 MB /dev/shm must not take a large project).
    void memoryFolderIsRamBackedWithRoom() {
        QTemporaryDir disk;
        QVERIFY(disk.isValid());
        const bool diskIsRam = QStorageInfo(disk.path()).fileSystemType().startsWith("tmpfs") ||
                               QStorageInfo(disk.path()).fileSystemType() == "ramfs";
        if (!diskIsRam)
            QVERIFY(!storage::memoryBackedFolder(1, {disk.path().toStdString()}));
        QVERIFY(!storage::memoryBackedFolder(1, {"/nonexistent-cdcstudio-folder"}));
        QVERIFY(!storage::memoryBackedFolder(std::uint64_t(1) << 60, storage::memoryFolderCandidates()));
        QCOMPARE(storage::workingCopyRoom(100), std::uint64_t(200) + (std::uint64_t(256) << 20));

        const QStorageInfo shm(QStringLiteral("/dev/shm"));
        if (!shm.isValid() || shm.fileSystemType() != "tmpfs" || shm.bytesAvailable() < (qint64(64) << 20))
            QSKIP("no tmpfs /dev/shm with 64 MB free on this machine");
        auto found =
            storage::memoryBackedFolder(std::uint64_t(1) << 20, {disk.path().toStdString(), "/dev/shm"});
        QVERIFY(found);
        QCOMPARE(QString::fromStdString(*found), diskIsRam ? disk.path() : QStringLiteral("/dev/shm"));
        // More than it can hold: none.
        const auto tooMuch = static_cast<std::uint64_t>(shm.bytesTotal()) + 1;
        QVERIFY(!storage::memoryBackedFolder(tooMuch, {"/dev/shm"}));
    }

    // A full disk or memory folder is an error that says where and what to do, not SQLite's bare "database or
    // disk is full" (PRAGMA max_page_count makes SQLite fail exactly as a full filesystem does).
    void fullStorageSaysWhereAndWhatToDo_data() {
        QTest::addColumn<QString>("parent");
        QTest::addColumn<QString>("advice");
        QTest::newRow("disk") << QDir::tempPath() << "the disk holding";
        QTest::newRow("memory") << "/dev/shm"
                                << "Save the project and open it again";
    }
    void fullStorageSaysWhereAndWhatToDo() {
        QFETCH(QString, parent);
        QFETCH(QString, advice);
        const bool memory = parent == QStringLiteral("/dev/shm");
        if (memory && !storage::isMemoryBacked("/dev/shm"))
            QSKIP("no tmpfs /dev/shm on this machine");
        if (!memory && storage::isMemoryBacked(parent.toStdString()))
            QSKIP("the temporary folder is in memory on this machine");
        QTemporaryDir dir(parent + QStringLiteral("/cdcstudio-test-XXXXXX"));
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath(QStringLiteral("full.db")).toStdString();
        auto db = Database::open(path);
        QVERIFY(db.ok());
        QVERIFY(db->exec("CREATE TABLE t(x BLOB); PRAGMA max_page_count = 40").ok());
        auto insert = db->prepare("INSERT INTO t VALUES (zeroblob(1500))");
        QVERIFY(insert.ok());
        Status st;
        for (int i = 0; i < 200 && st.ok(); ++i) {
            insert->reset();
            st = insert->run();
        }
        QVERIFY(!st.ok());
        QCOMPARE(st.error().code, std::string("SQLITE_FULL"));
        const QString message = QString::fromStdString(st.error().message);
        QVERIFY2(message.contains(advice) && message.contains(QString::fromStdString(path)),
                 qPrintable(message));
        // The rows written before it stay readable.
        auto count = db->prepare("SELECT count(*) FROM t");
        QVERIFY(count.ok() && count->step().ok());
        QVERIFY(count->int64(0) > 0);
    }

    // A database in a RAM-backed folder syncs every commit (which there costs a system call): its WAL
    // writes are gathered until that sync (CoalescingWalVfs.h). Lowering it would publish commits whose
    // frames are not in the file yet, so it is refused; on disk NORMAL stays.
    void ramBackedDatabasesSyncEveryCommit_data() {
        QTest::addColumn<QString>("parent");
        QTest::addColumn<qint64>("synchronous");
        QTest::newRow("disk") << QDir::tempPath() << qint64(1);
        QTest::newRow("memory") << "/dev/shm" << qint64(2);
    }
    void ramBackedDatabasesSyncEveryCommit() {
        QFETCH(QString, parent);
        QFETCH(qint64, synchronous);
        const bool memory = synchronous == 2;
        if (memory != storage::isMemoryBacked(parent.toStdString()))
            QSKIP("this machine's folders are not what the row needs");
        QTemporaryDir dir(parent + QStringLiteral("/cdcstudio-test-XXXXXX"));
        QVERIFY(dir.isValid());
        auto db = Database::open(dir.filePath(QStringLiteral("sync.db")).toStdString());
        QVERIFY(db.ok());
        QCOMPARE(scalar(*db, "PRAGMA synchronous"), synchronous);
        const Status lowered = db->exec("PRAGMA synchronous = NORMAL");
        QCOMPARE(lowered.ok(), !memory);
        if (memory)
            QVERIFY2(lowered.error().message.find("keeps synchronous = FULL") != std::string::npos,
                     lowered.error().message.c_str());
    }

    // Every commit's frames are in the WAL file before the commit is published: another connection (through
    // this VFS or the default one) sees each commit whole and nothing uncommitted, also when a transaction
    // spills pages mid-way, rewrites them, or rolls back.
    void gatheredWalWritesReachOtherConnectionsAtEachCommit() {
        if (!storage::isMemoryBacked("/dev/shm"))
            QSKIP("no tmpfs /dev/shm on this machine");
        QTemporaryDir dir(QStringLiteral("/dev/shm/cdcstudio-test-XXXXXX"));
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath(QStringLiteral("gathered.db")).toStdString();
        auto writer = Database::open(path);
        QVERIFY(writer.ok());
        QVERIFY(writer->exec("CREATE TABLE t(k INTEGER PRIMARY KEY, v BLOB); PRAGMA wal_autocheckpoint = 0")
                    .ok());
        auto reader = Database::open(path, Database::Mode::ReadOnly);
        QVERIFY(reader.ok());
        sqlite3* plain = nullptr; // the default VFS
        QCOMPARE(sqlite3_open_v2(path.c_str(), &plain, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
        const auto plainCount = [plain] {
            sqlite3_stmt* st = nullptr;
            sqlite3_prepare_v2(plain, "SELECT count(*), coalesce(sum(length(v)), 0) FROM t", -1, &st,
                               nullptr);
            const bool row = sqlite3_step(st) == SQLITE_ROW;
            const qint64 count = row ? sqlite3_column_int64(st, 0) : -1;
            const qint64 bytes = row ? sqlite3_column_int64(st, 1) : -1;
            sqlite3_finalize(st);
            return count * 1000 == bytes ? count : -1;
        };

        qint64 rows = 0;
        const auto insert = [&](int count) {
            return writer->exec("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < " +
                                std::to_string(count) + ") INSERT INTO t(v) SELECT randomblob(1000) FROM n");
        };
        for (int commit = 0; commit < 20; ++commit) { // each commit a few hundred KB: several gathered writes
            QVERIFY(writer->exec("BEGIN").ok());
            QVERIFY(insert(150 + 37 * commit).ok());
            QCOMPARE(scalar(*reader, "SELECT count(*) FROM t"), rows);
            QVERIFY(writer->exec("COMMIT").ok());
            rows += 150 + 37 * commit;
            QCOMPARE(scalar(*reader, "SELECT count(*) FROM t"), rows);
            QCOMPARE(plainCount(), rows);
        }
        // A cache of a few pages spills frames mid-transaction and rewrites them.
        QVERIFY(writer->exec("PRAGMA cache_size = 8").ok());
        QVERIFY(writer->exec("BEGIN").ok());
        QVERIFY(insert(3000).ok());
        QVERIFY(writer->exec("UPDATE t SET v = randomblob(1000) WHERE k % 7 = 0").ok());
        QVERIFY(writer->exec("ROLLBACK").ok());
        QCOMPARE(plainCount(), rows);
        QVERIFY(writer->exec("BEGIN").ok());
        QVERIFY(insert(3000).ok());
        QVERIFY(writer->exec("UPDATE t SET v = randomblob(1000) WHERE k % 7 = 0").ok());
        QVERIFY(writer->exec("COMMIT").ok());
        rows += 3000;
        QCOMPARE(scalar(*reader, "SELECT count(*) FROM t"), rows);
        QCOMPARE(plainCount(), rows);
        sqlite3_stmt* check = nullptr;
        sqlite3_prepare_v2(plain, "PRAGMA integrity_check", -1, &check, nullptr);
        QCOMPARE(sqlite3_step(check), SQLITE_ROW);
        QCOMPARE(QString::fromUtf8(reinterpret_cast<const char*>(sqlite3_column_text(check, 0))),
                 QStringLiteral("ok"));
        sqlite3_finalize(check);
        sqlite3_close(plain);
    }

    void catalogResolvesQualifiedAndSuffixNames() {
        auto db = Database::openMemory();
        QVERIFY(db.ok());
        TableInfo t{
            "main.cdc_tutorial.users_cdf",
            "main.cdc_tutorial.users_cdf",
            TableKind::Source,
            {{"userId", DataType::of(DataType::Kind::Int)}, {"name", DataType::of(DataType::Kind::String)}},
            {{"pipelines.cdc.tombstonegcthresholdinseconds", "60"}}};
        QVERIFY(Catalog::put(*db, t).ok());
        for (const char* name : {"main.cdc_tutorial.users_cdf", "cdc_tutorial.users_cdf", "USERS_CDF"}) {
            auto found = Catalog::find(*db, name);
            QVERIFY(found.ok());
            QVERIFY2(found->has_value(), name);
            QCOMPARE(found->value(), t);
        }
        auto missing = Catalog::find(*db, "sers_cdf");
        QVERIFY(missing.ok());
        QVERIFY(!missing->has_value());
    }

    void catalogReportsAmbiguousSuffix() {
        auto db = Database::openMemory();
        QVERIFY(db.ok());
        QVERIFY(Catalog::put(*db, {"a.users", "a.users", TableKind::Source, {}, {}}).ok());
        QVERIFY(Catalog::put(*db, {"b.users", "b.users", TableKind::Source, {}, {}}).ok());
        auto found = Catalog::find(*db, "users");
        QVERIFY(!found.ok());
        QCOMPARE(QString::fromStdString(found.error().code), QStringLiteral("AMBIGUOUS_TABLE"));
        auto qualified = Catalog::find(*db, "a.users");
        QVERIFY(qualified.ok() && qualified->has_value());
        QCOMPARE(QString::fromStdString(qualified->value().name), QStringLiteral("a.users"));
    }
};

QTEST_GUILESS_MAIN(TestStorage)
#include "tst_storage.moc"
