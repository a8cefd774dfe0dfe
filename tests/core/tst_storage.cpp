#include "core/storage/Catalog.h"
#include "core/storage/Database.h"

#include <QTest>

using namespace cdc;
using namespace cdc::storage;

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
            QVERIFY(db->exec("INSERT INTO t VALUES (2)").ok());
            QVERIFY(tx->commit().ok());
        }
        auto st = db->prepare("SELECT group_concat(x) FROM t");
        QVERIFY(st.ok());
        QVERIFY(st->step().value());
        QCOMPARE(QString::fromStdString(st->text(0)), QStringLiteral("2"));
    }

    void nestedSavepointRollsBackOnlyInner() {
        auto db = Database::openMemory();
        QVERIFY(db->exec("CREATE TABLE t(x INTEGER)").ok());
        auto outer = Transaction::begin(*db, "outer");
        QVERIFY(db->exec("INSERT INTO t VALUES (1)").ok());
        {
            auto inner = Transaction::begin(*db, "inner");
            QVERIFY(db->exec("INSERT INTO t VALUES (2)").ok());
        }
        QVERIFY(outer->commit().ok());
        auto st = db->prepare("SELECT count(*) FROM t");
        QVERIFY(st->step().value());
        QCOMPARE(st->int64(0), 1);
    }

    void badSqlIsAnErrorValue() {
        auto db = Database::openMemory();
        auto st = db->prepare("SELEC 1");
        QVERIFY(!st.ok());
        QCOMPARE(QString::fromStdString(st.error().code), QStringLiteral("SQLITE"));
        QVERIFY(QString::fromStdString(st.error().message).contains("syntax error"));
    }

    void extensionLoadingIsDisabled() {
        auto db = Database::openMemory();
        auto st = db->prepare("SELECT load_extension('/nonexistent.so')");
        if (st.ok()) {
            auto r = st->step();
            QVERIFY(!r.ok());
            QVERIFY(QString::fromStdString(r.error().message).contains("not authorized"));
        }
    }

    void catalogResolvesQualifiedAndSuffixNames() {
        auto db = Database::openMemory();
        TableInfo t{"main.cdc_tutorial.users_cdf", "main.cdc_tutorial.users_cdf", TableKind::Source,
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
        QVERIFY(Catalog::put(*db, {"a.users", "a.users", TableKind::Source, {}, {}}).ok());
        QVERIFY(Catalog::put(*db, {"b.users", "b.users", TableKind::Source, {}, {}}).ok());
        auto found = Catalog::find(*db, "users");
        QVERIFY(!found.ok());
        QCOMPARE(QString::fromStdString(found.error().code), QStringLiteral("AMBIGUOUS_TABLE"));
        QVERIFY(Catalog::find(*db, "a.users")->has_value());
    }
};

QTEST_GUILESS_MAIN(TestStorage)
#include "tst_storage.moc"
