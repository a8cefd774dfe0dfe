// Opening a project someone sent, as a user does (File › Open, the question answered by clicking): triggers
// and views CDC Studio did not make are named and never run — the user removes them from the working copy or
// does not open the file; the file on disk changes only on Save.
#include "core/storage/Database.h"
#include "ui/model/Project.h"
#include "ui/widgets/MainWindow.h"
#include "ui/widgets/ProjectController.h"

#include <QApplication>
#include <QMessageBox>
#include <QPushButton>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

using namespace cdc;
using namespace cdc::ui;

namespace {

/// A saved project with a table and, planted by someone else, a trigger and a view.
QString plantedProject(const QTemporaryDir& dir) {
    const QString path = dir.filePath("sent.cdcstudio");
    {
        Project project;
        [&] { QVERIFY(project.saveAs(path).ok()); }();
    }
    auto db = storage::Database::open(path.toStdString(), storage::Database::Mode::ReadWrite);
    [&] {
        QVERIFY(db.ok());
        QVERIFY(db->exec("CREATE TABLE users (id INT); "
                         "CREATE TRIGGER wipe AFTER INSERT ON users BEGIN DELETE FROM users; END; "
                         "CREATE VIEW spy AS SELECT * FROM users")
                    .ok());
    }();
    return path;
}

QStringList schemaObjects(storage::Database& db) {
    QStringList names;
    auto st = db.prepare("SELECT type || ' ' || name FROM sqlite_schema WHERE type IN ('trigger', 'view') "
                         "ORDER BY name");
    if (!st)
        return {QStringLiteral("<%1>").arg(QString::fromStdString(st.error().message))};
    (void)st->forEachRow([&](storage::Statement& row) { names << QString::fromStdString(row.text(0)); });
    return names;
}

/// Clicks `buttonName` (or Cancel when empty) in the next foreign-objects question; counts the questions.
void answer(const QString& buttonName, int* asked) {
    QTimer::singleShot(0, [=] {
        QTRY_VERIFY(qobject_cast<QMessageBox*>(QApplication::activeModalWidget()) != nullptr);
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        QCOMPARE(box->objectName(), QStringLiteral("foreignObjectsPrompt"));
        ++*asked;
        QVERIFY2(box->detailedText().contains("trigger wipe on users") &&
                     box->detailedText().contains("view spy"),
                 qPrintable(box->detailedText()));
        QAbstractButton* button =
            buttonName.isEmpty() ? box->button(QMessageBox::Cancel)
                                 : static_cast<QAbstractButton*>(box->findChild<QPushButton*>(buttonName));
        QVERIFY(button);
        QTest::mouseClick(button, Qt::LeftButton);
    });
}

} // namespace

class TestUntrustedOpen : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("CDCStudioUntrustedTests"));
        QStandardPaths::setTestModeEnabled(true);
    }

    void foreignObjectsAreRemovedOnlyWhenTheUserSays();
    void hiddenWindowRefusesWithTheNames();
};

void TestUntrustedOpen::foreignObjectsAreRemovedOnlyWhenTheUserSays() {
    QTemporaryDir dir;
    const QString path = plantedProject(dir);
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));

    // Cancel: nothing opened, the untitled project stays.
    int asked = 0;
    answer(QString(), &asked);
    QVERIFY(!w.projectController()->openFile(path));
    QCOMPARE(asked, 1);
    QCOMPARE(w.project()->filePath(), QString());
    QVERIFY2(w.statusBar()->currentMessage().contains("trigger wipe"),
             qPrintable(w.statusBar()->currentMessage()));

    // Remove them and open: the working copy has neither, the project is modified, the file still has both.
    answer(QStringLiteral("removeForeignButton"), &asked);
    QVERIFY(w.projectController()->openFile(path));
    QCOMPARE(asked, 2);
    QCOMPARE(w.project()->filePath(), path);
    QCOMPARE(schemaObjects(w.project()->db()), QStringList());
    QVERIFY(w.project()->isModified());
    {
        auto file = storage::Database::open(path.toStdString(), storage::Database::Mode::ReadOnly);
        QVERIFY(file.ok());
        QCOMPARE(schemaObjects(*file), (QStringList{"view spy", "trigger wipe"}));
    }
    // The trigger did not come back to run: rows written stay.
    QVERIFY(w.project()->db().exec("INSERT INTO users VALUES (1)").ok());
    auto count = w.project()->db().prepare("SELECT count(*) FROM users");
    QVERIFY(count.ok());
    auto has = count->step();
    QVERIFY(has.ok() && *has);
    QCOMPARE(count->int64(0), std::int64_t(1));
}

void TestUntrustedOpen::hiddenWindowRefusesWithTheNames() {
    QTemporaryDir dir;
    const QString path = plantedProject(dir);
    MainWindow w; // not shown: no dialogs (tests, --screenshot)
    QVERIFY(!w.projectController()->openFile(path));
    QVERIFY2(w.statusBar()->currentMessage().contains("view spy"),
             qPrintable(w.statusBar()->currentMessage()));
    QCOMPARE(w.project()->filePath(), QString());
}

QTEST_MAIN(TestUntrustedOpen)
#include "tst_untrusted_open.moc"
