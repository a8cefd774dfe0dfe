// Work on a project that would never end, or never fit, as a user meets it: a target view that is a
// recursive CTE without end reads off the GUI thread with a Cancel in the status bar (clicked, or Esc) or a
// time limit, the window responsive throughout; a project file beyond the size limit is refused before a
// byte of it is copied; a large one copies with a progress dialog whose Cancel keeps the open project.
#include "core/storage/Database.h"
#include "core/storage/MemoryFolder.h"
#include "ui/model/Project.h"
#include "ui/widgets/CodeEditor.h"
#include "ui/widgets/MainWindow.h"
#include "ui/widgets/ProjectController.h"
#include "ui/widgets/ProjectSettingsDialog.h"
#include "ui/widgets/ResultsController.h"
#include "ui/widgets/SimulationController.h"
#include "ui/widgets/results/TargetTablePanel.h"

#include "TimeLimits.h"

#include <QApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QElapsedTimer>
#include <QLockFile>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolButton>
#include <QtTest>

using namespace cdc;
using namespace cdc::ui;

namespace {

/// With CDC_SCREENSHOT_DIR set, `widget`'s picture goes there as `name`.png, to be looked at.
void screenshot(QWidget* widget, const QString& name) {
    if (const QString dir = qEnvironmentVariable("CDC_SCREENSHOT_DIR"); !dir.isEmpty())
        QVERIFY(widget->grab().save(dir + QLatin1Char('/') + name + QStringLiteral(".png")));
}

/// A saved sample project after one update: a small, ordinary project file.
QString savedProject(const QString& path) {
    MainWindow w;
    [&] {
        QVERIFY(w.projectController()->openSample(QStringLiteral("scd1-users")));
        QVERIFY(w.simulation()->step());
        w.simulation()->waitForFinished();
        QVERIFY(w.projectController()->saveTo(path));
    }();
    return path;
}

/// The project at `path` with its target's public view replaced by one that never ends (a recursive CTE
/// with no end, whose rows are all filtered away): what a project someone sent may hold.
void makeTargetViewEndless(const QString& path) {
    auto db = storage::Database::open(path.toStdString(), storage::Database::Mode::ReadWrite);
    QVERIFY(db.ok());
    auto views = db->prepare("SELECT name FROM sqlite_schema WHERE type = 'view' AND name NOT LIKE '\\_\\_%' "
                             "ESCAPE '\\' ORDER BY name");
    QVERIFY(views.ok());
    QStringList names;
    QVERIFY(views->forEachRow([&](storage::Statement& row) { names << QString::fromStdString(row.text(0)); })
                .ok());
    QVERIFY(!names.isEmpty());
    for (const QString& name : names) {
        QStringList columns;
        auto info = db->prepare("SELECT name FROM pragma_table_info(?)");
        QVERIFY(info.ok());
        const std::string view = name.toStdString();
        info->bind(1, std::string_view(view));
        QVERIFY(info->forEachRow([&](storage::Statement& row) {
                        columns << QStringLiteral("NULL AS \"%1\"").arg(QString::fromStdString(row.text(0)));
                    })
                    .ok());
        QVERIFY(!columns.isEmpty());
        const QString sql =
            QStringLiteral(
                "DROP VIEW \"%1\"; CREATE VIEW \"%1\" AS WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL "
                "SELECT n + 1 FROM c) SELECT %2 FROM c WHERE n < 0")
                .arg(name, columns.join(QStringLiteral(", ")));
        QVERIFY2(db->exec(sql.toStdString()).ok(), qPrintable(sql));
    }
}

/// This process's working-copy folders (with partial copies in them) wherever WorkingCopyFolder puts them:
/// the RAM-backed folders and the temporary folder. Other processes' (tests running beside this one) are
/// left out by the lock file's process id.
QStringList temporaryEntries() {
    QStringList entries;
    QStringList parents{QDir::tempPath()};
    for (const std::string& folder : storage::memoryFolderCandidates())
        parents << QString::fromStdString(folder);
    for (const QString& parent : parents) {
        const QDir dir(parent);
        for (const QString& name :
             dir.entryList({QStringLiteral("cdcstudio-*")}, QDir::Dirs | QDir::NoDotAndDotDot)) {
            QLockFile lock(dir.filePath(name + QStringLiteral("/owner.lock")));
            qint64 pid = 0;
            QString host, app;
            if (lock.getLockInfo(&pid, &host, &app) && pid == QCoreApplication::applicationPid())
                entries << dir.filePath(name);
        }
    }
    entries.sort();
    return entries;
}

/// Counts ticks of a 20 ms timer while `wait` runs: a window that responds keeps ticking.
int ticksDuring(int waitMs) {
    int ticks = 0;
    QTimer timer;
    timer.setInterval(20);
    QObject::connect(&timer, &QTimer::timeout, [&ticks] { ++ticks; });
    timer.start();
    QTest::qWait(waitMs);
    return ticks;
}

} // namespace

class TestQueryGuard : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("CDCStudioGuardTests"));
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        savedProject(m_dir.filePath(QStringLiteral("endless.cdcstudio")));
        makeTargetViewEndless(m_dir.filePath(QStringLiteral("endless.cdcstudio")));
    }

    void endlessTargetViewIsStopped_data();
    void endlessTargetViewIsStopped();
    void tooLargeProjectIsRefused();
    void cancelledOpenKeepsTheProject();

private:
    QTemporaryDir m_dir;
};

void TestQueryGuard::endlessTargetViewIsStopped_data() {
    QTest::addColumn<QString>("how");
    QTest::addColumn<int>("timeoutSeconds"); // set in Project Settings once the project is open
    QTest::addColumn<QString>("message");
    QTest::newRow("Cancel clicked") << "click" << 0 << "Query cancelled";
    QTest::newRow("Esc") << "escape" << 0 << "Query cancelled";
    QTest::newRow("time limit") << "" << 2 << "Query stopped after 2 s (the time limit)";
}

void TestQueryGuard::endlessTargetViewIsStopped() {
    QFETCH(QString, how);
    QFETCH(int, timeoutSeconds);
    QFETCH(QString, message);
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));

    QElapsedTimer opening;
    opening.start();
    QVERIFY(w.projectController()->openFile(m_dir.filePath(QStringLiteral("endless.cdcstudio"))));
    qInfo("open returned after %lld ms", static_cast<long long>(opening.elapsed()));
    QVERIFY(opening.elapsed() < 10000);
    ResultsController* results = w.results();
    QVERIFY(results->isLoading());

    // The read goes on off the GUI thread: the window keeps handling events, the progress shows. The
    // window is scaled (TimeLimits.h): sanitized, on a busy 2-core machine, 400 ms let only 3 or 4 through.
    const int ticks = ticksDuring(static_cast<int>(test::scaled(std::chrono::milliseconds(400)).count()));
    QVERIFY2(ticks >= 5, qPrintable(QString::number(ticks))); // of 20: a busy machine delays some
    QVERIFY(results->isLoading());
    auto* progress = w.statusBar()->findChild<QWidget*>(QStringLiteral("queryProgress"));
    QVERIFY(progress && progress->isVisible());
    auto* table = w.findChild<TargetTablePanel*>();
    QVERIFY(table);
    QVERIFY2(table->placeholderText().startsWith(QStringLiteral("Reading the target tables")),
             qPrintable(table->placeholderText()));
    auto* cancel = progress->findChild<QToolButton*>(QStringLiteral("queryCancelButton"));
    QVERIFY(cancel && cancel->isVisible());
    if (how == QLatin1String("click"))
        screenshot(&w, QStringLiteral("query-progress"));
    if (timeoutSeconds > 0) {
        // File › Project Settings…: a shorter limit; the read starts again under it.
        ProjectSettingsDialog dialog(w.project(), &w);
        QCOMPARE(dialog.queryTimeoutEdit()->value(), 30);
        dialog.queryTimeoutEdit()->setValue(timeoutSeconds);
        QTest::mouseClick(dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok),
                          Qt::LeftButton);
        QCOMPARE(w.project()->queryTimeout(), std::chrono::milliseconds(timeoutSeconds * 1000));
        QVERIFY(results->isLoading());
    }

    QElapsedTimer stopping;
    stopping.start();
    if (how == QLatin1String("click"))
        QTest::mouseClick(cancel, Qt::LeftButton);
    else if (how == QLatin1String("escape"))
        // In the editor, which otherwise keeps Esc for itself (it closes its completion list).
        QTest::keyClick(w.findChild<CodeEditor*>(), Qt::Key_Escape);
    QTRY_VERIFY_WITH_TIMEOUT(!results->isLoading(), 10000);
    qInfo("stopped %lld ms after the %s", static_cast<long long>(stopping.elapsed()),
          how.isEmpty() ? "last check" : qPrintable(how));
    QVERIFY(!progress->isVisible());
    QVERIFY2(results->stopMessage().startsWith(message), qPrintable(results->stopMessage()));
    QVERIFY2(table->placeholderText().startsWith(message), qPrintable(table->placeholderText()));
    if (how == QLatin1String("click"))
        screenshot(&w, QStringLiteral("query-cancelled"));
    // The window still answers, and the project is the one opened.
    QVERIFY(ticksDuring(100) >= 1);
    QCOMPARE(QFileInfo(w.project()->filePath()).fileName(), QStringLiteral("endless.cdcstudio"));
}

void TestQueryGuard::tooLargeProjectIsRefused() {
    const QString previous = savedProject(m_dir.filePath(QStringLiteral("previous.cdcstudio")));
    // A real project, made 3 GiB by truncate: sparse, nothing of it on disk beyond its pages.
    const QString big = savedProject(m_dir.filePath(QStringLiteral("sparse.cdcstudio")));
    {
        QFile file(big);
        QVERIFY(file.resize(qint64(3) << 30));
    }
    MainWindow w;
    QVERIFY(w.projectController()->openFile(previous));
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const QStringList before = temporaryEntries();

    QString shown;
    QTimer::singleShot(0, [&] {
        QTRY_VERIFY(qobject_cast<QMessageBox*>(QApplication::activeModalWidget()) != nullptr);
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        shown = box->text();
        screenshot(box, QStringLiteral("open-too-large"));
        QTest::mouseClick(box->button(QMessageBox::Ok), Qt::LeftButton);
    });
    QElapsedTimer refusing;
    refusing.start();
    QVERIFY(!w.projectController()->openFile(big));
    qInfo("a 3 GiB sparse file refused after %lld ms (the message shown and answered)",
          static_cast<long long>(refusing.elapsed()));
    QVERIFY2(shown.contains(QStringLiteral("is 3.0\u00a0GiB")) &&
                 shown.contains(QStringLiteral("at most 2\u00a0GiB")),
             qPrintable(shown));
    QVERIFY(w.statusBar()->currentMessage().contains(QStringLiteral("at most 2\u00a0GiB")));
    // Nothing was copied, and the project that was open stays.
    QCOMPARE(temporaryEntries(), before);
    QCOMPARE(w.project()->filePath(), QFileInfo(previous).absoluteFilePath());

    // The same refusal without a window to show it in, timed on its own.
    Project project;
    QElapsedTimer alone;
    alone.start();
    const Status st = project.open(big);
    qInfo("Project::open refused the 3 GiB sparse file in %lld ms", static_cast<long long>(alone.elapsed()));
    QVERIFY(!st);
    QCOMPARE(st.error().code, std::string("PROJECT_TOO_LARGE"));
    QVERIFY(alone.elapsed() < 1000);
}

void TestQueryGuard::cancelledOpenKeepsTheProject() {
    const QString previous = savedProject(m_dir.filePath(QStringLiteral("kept.cdcstudio")));
    // Large enough that copying it takes a while: 256 MB of padding in a table of its own.
    const QString large = savedProject(m_dir.filePath(QStringLiteral("large.cdcstudio")));
    {
        auto db = storage::Database::open(large.toStdString(), storage::Database::Mode::ReadWrite);
        QVERIFY(db.ok());
        QVERIFY(
            db->exec("CREATE TABLE padding (b BLOB); INSERT INTO padding WITH RECURSIVE c(n) AS (SELECT 1 "
                     "UNION ALL SELECT n + 1 FROM c WHERE n < 65536) SELECT zeroblob(4000) FROM c")
                .ok());
    }
    QVERIFY(QFileInfo(large).size() > 256 * 1000 * 1000);
    MainWindow w;
    QVERIFY(w.projectController()->openFile(previous));
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const QStringList before = temporaryEntries();

    bool sawProgress = false;
    QTimer::singleShot(0, [&] {
        auto* dialog = w.findChild<QProgressDialog*>(QStringLiteral("openProgress"));
        QVERIFY(dialog);
        QTRY_VERIFY(dialog->isVisible());
        QTRY_VERIFY(dialog->value() > 0); // the copy is under way
        sawProgress = true;
        screenshot(dialog, QStringLiteral("open-progress"));
        auto* cancel = dialog->findChild<QPushButton*>();
        QVERIFY(cancel);
        QTest::mouseClick(cancel, Qt::LeftButton);
    });
    QElapsedTimer opening;
    opening.start();
    QVERIFY(!w.projectController()->openFile(large));
    qInfo("cancelled open returned after %lld ms", static_cast<long long>(opening.elapsed()));
    QVERIFY(sawProgress);
    QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("cancelled")),
             qPrintable(w.statusBar()->currentMessage()));
    // The partial copy is gone, and the project that was open stays.
    QCOMPARE(temporaryEntries(), before);
    QCOMPARE(w.project()->filePath(), QFileInfo(previous).absoluteFilePath());

    // Not cancelled, the same file opens (and its copy's progress is what the dialog showed).
    QElapsedTimer full;
    full.start();
    QVERIFY(w.projectController()->openFile(large));
    qInfo("the 256 MB project opened in %lld ms", static_cast<long long>(full.elapsed()));
    QCOMPARE(w.project()->filePath(), QFileInfo(large).absoluteFilePath());
}

QTEST_MAIN(TestQueryGuard)
#include "tst_query_guard.moc"
