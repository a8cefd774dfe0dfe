// Work that survives a crash, through the real main window: the autosave after an update and after the
// interval, a window destroyed without closing (a crash) whose work a new window offers to recover, Recover
// and Discard in the dialog, a clean close leaving nothing, and saves that never damage the previous file.
#include "core/storage/Database.h"
#include "core/storage/MemoryFolder.h"
#include "ui/model/AtomicSave.h"
#include "ui/model/Autosave.h"
#include "ui/model/EventQueueModel.h"
#include "ui/model/Project.h"
#include "ui/model/ProjectStore.h"
#include "ui/model/RecoveryStore.h"
#include "ui/model/TerminationSignals.h"
#include "ui/model/results/TargetSnapshot.h"
#include "ui/widgets/CodeEditor.h"
#include "ui/widgets/MainWindow.h"
#include "ui/widgets/ProjectController.h"
#include "ui/widgets/RecoveryDialog.h"
#include "ui/widgets/ResultsController.h"
#include "ui/widgets/SimulationController.h"
#include "ui/widgets/WorkbenchPanel.h"

#include <QDir>
#include <QDirIterator>
#include <QLockFile>
#include <QPointer>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

#include <csignal>

#include <unistd.h>

using namespace cdc;
using namespace cdc::ui;

namespace {
QByteArray fileBytes(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<unreadable>");
}

/// The pipeline text stored in a project or autosave file.
QString storedPipeline(const QString& path) {
    auto db = storage::Database::open(path.toStdString(), storage::Database::Mode::ReadOnly);
    return db ? projectstore::value(*db, projectstore::kPipelineKey, QStringLiteral("<none>"))
              : QStringLiteral("<cannot open>");
}

/// What the window shows: the queue's first column and every target's rows.
QStringList shownState(const MainWindow& w) {
    QStringList lines;
    const EventQueueModel* queue = w.eventQueueModel();
    for (int r = 0; r < queue->rowCount(); ++r)
        lines << QStringLiteral("queue: ") + queue->index(r, 0).data().toString() + QLatin1Char('|') +
                     queue->index(r, queue->columnCount() - 1).data().toString();
    for (const TargetSnapshot& target : w.results()->snapshots())
        for (const auto& row : target.rows.rows) {
            QStringList cells;
            for (std::size_t c = 0; c < row.size(); ++c)
                cells << QString::fromStdString(displayValue(row[c], target.rows.typeOf(c)));
            lines << target.target + QStringLiteral(": ") + cells.join(QLatin1Char('|'));
        }
    return lines;
}

/// Types at the end of the pipeline editor, as a user would.
void typeInEditor(MainWindow& w, const QString& text) {
    CodeEditor* editor = w.workbench()->editor();
    editor->setFocus();
    editor->setCursorPosition(editor->lines() - 1, editor->text(editor->lines() - 1).size());
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (i > 0)
            QTest::keyClick(editor, Qt::Key_Return);
        QTest::keyClicks(editor, lines[i]);
    }
}

/// Types and has the autosave written at once; true when its file is there.
bool typeAndAutosave(MainWindow& w, const QString& text) {
    typeInEditor(w, text);
    w.autosave()->saveNow();
    w.autosave()->finishNow();
    return QFileInfo::exists(w.autosave()->databasePath());
}

void step(MainWindow& w) {
    QVERIFY(w.simulation()->step());
    w.simulation()->waitForFinished();
}

void clearRecoveryFolder() {
    QDir folder(recoverystore::folder());
    for (const QString& name : folder.entryList(QDir::Files | QDir::Hidden))
        folder.remove(name);
}
} // namespace

class TestRecovery : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("CDCStudioTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_ui_recovery"));
        QStandardPaths::setTestModeEnabled(true);
    }
    void init() { clearRecoveryFolder(); }

    void autosaveFollowsAnUpdate() {
        MainWindow w;
        QVERIFY(w.projectController()->openSample(QStringLiteral("scd1-users")));
        QSignalSpy saved(w.autosave(), &Autosave::saved);
        step(w);
        QTRY_COMPARE(saved.count(), 1);
        QCOMPARE(saved.first().first().toString(), w.autosave()->databasePath());
        // The copy holds the update's result: its target has the first event's row.
        auto copy = storage::Database::open(w.autosave()->databasePath().toStdString(),
                                            storage::Database::Mode::ReadOnly);
        QVERIFY(copy);
        auto rows = copy->prepare("SELECT count(*) FROM users_current");
        QVERIFY(rows && rows->step().value());
        QCOMPARE(rows->int64(0), std::int64_t(1));
    }

    void autosaveWaitsForTheInterval() {
        MainWindow w;
        QVERIFY(w.projectController()->openSample(QStringLiteral("scd1-users")));
        QCOMPARE(w.autosave()->interval(), Autosave::kDefaultIntervalMs);
        typeInEditor(w, QStringLiteral("\n-- typed"));
        QVERIFY(w.project()->isModified());
        QTest::qWait(150);
        QVERIFY(!QFileInfo::exists(w.autosave()->databasePath()));
        w.autosave()->setInterval(40);
        QTRY_VERIFY(QFileInfo::exists(w.autosave()->databasePath()));
        // The text typed but never stored in the working copy is in the autosave.
        QVERIFY(w.project()->pipelineText().endsWith(QStringLiteral("-- typed")));
        QCOMPARE(storedPipeline(w.autosave()->databasePath()), w.project()->pipelineText());
        // Not written again without a change.
        QSignalSpy saved(w.autosave(), &Autosave::saved);
        QTest::qWait(200);
        QCOMPARE(saved.count(), 0);
    }

    void crashedWorkIsRecovered() {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("users.cdcstudio"));
        QString text;
        QStringList state;
        {
            MainWindow w;
            QVERIFY(w.projectController()->openSample(QStringLiteral("scd1-users")));
            QVERIFY(w.projectController()->saveTo(file));
            step(w);
            step(w);
            typeInEditor(w, QStringLiteral("\n-- after the crash"));
            w.autosave()->setInterval(20);
            QTRY_VERIFY(
                !w.autosave()->isWriting() &&
                storedPipeline(w.autosave()->databasePath()).endsWith(QStringLiteral("after the crash")));
            text = w.project()->pipelineText();
            state = shownState(w);
            // The user's file is never written by the autosave.
            QVERIFY(!storedPipeline(file).contains(QStringLiteral("after the crash")));
            // Destroyed without close(): what a crash leaves behind.
        }
        QVERIFY(state.size() > 2);
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        RecoveryDialog* dialog = w.offerRecovery();
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        QCOMPARE(dialog->list()->topLevelItemCount(), 1);
        QCOMPARE(dialog->list()->topLevelItem(0)->text(0), QStringLiteral("users.cdcstudio"));
        QCOMPARE(dialog->list()->topLevelItem(0)->text(1), QFileInfo(file).absoluteFilePath());
        QTest::mouseClick(dialog->recoverButton(), Qt::LeftButton);
        QCOMPARE(w.project()->pipelineText(), text);
        QCOMPARE(w.workbench()->editor()->text(), text);
        QTRY_COMPARE(shownState(w), state);
        QVERIFY(w.project()->isModified());
        QVERIFY(w.isWindowModified());
        QCOMPARE(w.project()->filePath(), QFileInfo(file).absoluteFilePath());
        // Recovered work is protected again under this session's entry, the old one is gone.
        QTRY_VERIFY(QFileInfo::exists(w.autosave()->databasePath()));
        QVERIFY(recoverystore::recoverable().isEmpty());
        QCOMPARE(QDir(recoverystore::folder()).entryList({QStringLiteral("*.cdcstudio")}).size(), 1);
        // Save writes to the original file and ends the autosave.
        QVERIFY(w.projectController()->save());
        QCOMPARE(storedPipeline(file), text);
        QVERIFY(!QFileInfo::exists(w.autosave()->databasePath()));
    }

    // An autosave is a file on disk like any other: one grown beyond the size limit (a sparse file: nothing
    // is read or copied) or holding a trigger CDC Studio did not make is refused when recovered, with the
    // reason in the status bar; the window keeps its project and the entry stays offered.
    void tamperedAutosaveIsNotRecovered_data() {
        QTest::addColumn<QString>("tampering");
        QTest::addColumn<QString>("reason");
        QTest::newRow("grown past the limit") << "grow"
                                              << "CDC Studio opens project files of at most 2";
        QTest::newRow("foreign trigger") << "trigger"
                                         << "sneaky";
    }

    void tamperedAutosaveIsNotRecovered() {
        QFETCH(QString, tampering);
        QFETCH(QString, reason);
        QString autosavePath;
        {
            MainWindow w;
            QVERIFY(typeAndAutosave(w, QStringLiteral("-- tampered with")));
            autosavePath = w.autosave()->databasePath();
        }
        if (tampering == QLatin1String("grow")) {
            QFile file(autosavePath);
            QVERIFY(file.resize(Project::kMaxProjectBytes + 4096));
        } else {
            auto db = storage::Database::open(autosavePath.toStdString(), storage::Database::Mode::ReadWrite);
            QVERIFY(db);
            QVERIFY(
                db->exec("CREATE TABLE IF NOT EXISTS victims (x INT); CREATE TRIGGER sneaky AFTER INSERT ON "
                         "victims BEGIN DELETE FROM victims; END;"));
        }
        MainWindow w;
        RecoveryDialog* dialog = w.offerRecovery();
        QVERIFY(dialog);
        QTest::mouseClick(dialog->recoverButton(), Qt::LeftButton);
        QCOMPARE(w.project()->pipelineText(), QString());
        QVERIFY(!w.project()->isModified());
        const QString message = w.statusBar()->currentMessage();
        QVERIFY2(message.startsWith(QStringLiteral("Cannot recover")) && message.contains(reason),
                 qPrintable(message));
        QCOMPARE(recoverystore::recoverable().size(), 1);
        clearRecoveryFolder();
    }

    void discardDeletesTheAutosave() {
        {
            MainWindow w;
            QVERIFY(typeAndAutosave(w, QStringLiteral("-- lost on purpose")));
        }
        MainWindow w;
        QPointer<RecoveryDialog> dialog = w.offerRecovery();
        QVERIFY(dialog);
        QCOMPARE(dialog->list()->topLevelItem(0)->text(0), QStringLiteral("Untitled"));
        QCOMPARE(dialog->list()->topLevelItem(0)->text(1), QStringLiteral("(never saved)"));
        QTest::mouseClick(dialog->discardButton(), Qt::LeftButton);
        QVERIFY(!dialog || !dialog->isVisible());
        QVERIFY(recoverystore::recoverable().isEmpty());
        QCOMPARE(QDir(recoverystore::folder()).entryList({QStringLiteral("*.cdcstudio")}), QStringList{});
        QCOMPARE(w.project()->pipelineText(), QString());
        QVERIFY(!w.project()->isModified());
        MainWindow next;
        QCOMPARE(next.offerRecovery(), nullptr);
    }

    void cleanCloseLeavesNothing() {
        MainWindow w;
        w.show();
        QVERIFY(typeAndAutosave(w, QStringLiteral("-- discarded at close")));
        w.projectController()->setSavePrompt([] { return QMessageBox::Discard; });
        QVERIFY(w.close());
        QVERIFY(!QFileInfo::exists(w.autosave()->databasePath()));
        MainWindow next;
        QCOMPARE(next.offerRecovery(), nullptr);
    }

    void aRunningSessionIsNotOffered() {
        MainWindow first;
        QVERIFY(typeAndAutosave(first, QStringLiteral("-- still open")));
        MainWindow second;
        QCOMPARE(second.offerRecovery(), nullptr);
    }

    // The handlers turn SIGTERM, SIGHUP and SIGINT into a Qt signal on the event loop (and are gone with the
    // object, so this test process gets the default actions back).
    void terminationSignalsArriveOnTheEventLoop() {
        {
            TerminationSignals handlers;
            QVERIFY(handlers.isActive());
            QSignalSpy received(&handlers, &TerminationSignals::received);
            QVERIFY(::raise(SIGHUP) == 0);
            QTRY_COMPARE(received.count(), 1);
            QCOMPARE(received.first().first().toInt(), SIGHUP);
            QVERIFY(::raise(SIGINT) == 0);
            QTRY_COMPARE(received.count(), 2);
            QCOMPARE(received.last().first().toInt(), SIGINT);
        }
        struct sigaction current {};
        QCOMPARE(::sigaction(SIGTERM, nullptr, &current), 0);
        QVERIFY(current.sa_handler == SIG_DFL);
    }

    // A kill, logout or shutdown (SIGTERM) ends the real app through its event loop: the unsaved work — both
    // updates of the run — stays in the recovery folder for the next start, and the working copy (in RAM
    // when there was room) is removed. With the default action the process ended at once and left both
    // behind: the copy holding memory, the recovery copy as old as the last autosave.
    void terminationKeepsTheWorkAndRemovesTheWorkingCopy() {
        QTemporaryDir home;
        QVERIFY(home.isValid());
        QVERIFY(QDir(home.path()).mkpath(QStringLiteral("tmp")));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("TMPDIR"), home.filePath(QStringLiteral("tmp")));
        QProcess app;
        app.setProcessEnvironment(env);
        app.start(QStringLiteral(CDC_GUI_PATH), {QStringLiteral("--sample"), QStringLiteral("scd1-users"),
                                                 QStringLiteral("--step"), QStringLiteral("2")});
        QVERIFY(app.waitForStarted());
        const qint64 pid = app.processId();
        QStringList parents{home.filePath(QStringLiteral("tmp"))};
        for (const std::string& folder : storage::memoryFolderCandidates())
            parents << QString::fromStdString(folder);
        const auto workingCopies = [&] { // folders whose lock names the app's process
            QStringList found;
            for (const QString& parent : std::as_const(parents))
                for (const QString& name :
                     QDir(parent).entryList({QStringLiteral("cdcstudio-*")}, QDir::Dirs)) {
                    QLockFile lock(parent + QLatin1Char('/') + name + QStringLiteral("/owner.lock"));
                    qint64 owner = 0;
                    QString host, appName;
                    if (lock.getLockInfo(&owner, &host, &appName) && owner == pid)
                        found << parent + QLatin1Char('/') + name;
                }
            return found;
        };
        const QString recovery = home.filePath(QStringLiteral("data"));
        const auto recoveryFiles = [&recovery](const QString& pattern) {
            QStringList found;
            QDirIterator it(recovery, {pattern}, QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext())
                found << it.next();
            return found;
        };
        // Up: the working copy made, both steps run and autosaved.
        QTRY_VERIFY_WITH_TIMEOUT(
            workingCopies().size() == 1 && recoveryFiles(QStringLiteral("*.json")).size() == 1, 60000);
        const QString workingCopy = workingCopies().first();

        app.terminate(); // SIGTERM
        QVERIFY(app.waitForFinished(60000));
        QCOMPARE(app.exitStatus(), QProcess::NormalExit);
        QCOMPARE(app.exitCode(), 128 + SIGTERM);
        QVERIFY2(!QFileInfo::exists(workingCopy), qPrintable(workingCopy));
        const QStringList kept = recoveryFiles(QStringLiteral("*.cdcstudio"));
        QCOMPARE(kept.size(), 1);
        QCOMPARE(recoveryFiles(QStringLiteral("*.json")).size(), 1);
        auto copy = storage::Database::open(kept.first().toStdString(), storage::Database::Mode::ReadOnly);
        QVERIFY(copy);
        auto updates = copy->prepare("SELECT count(*) FROM __cdc_updates");
        QVERIFY(updates && updates->step().value());
        QCOMPARE(updates->int64(0), std::int64_t(2));
    }

    void failedSaveKeepsThePreviousFile_data() {
        QTest::addColumn<QString>("failure");
        QTest::newRow("temporary file blocked") << "blocked";
        QTest::newRow("read-only folder") << "read-only";
        QTest::newRow("interrupted copy") << "interrupted";
    }

    void failedSaveKeepsThePreviousFile() {
        QFETCH(QString, failure);
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("keep.cdcstudio"));
        MainWindow w;
        QVERIFY(w.projectController()->openSample(QStringLiteral("scd2-users")));
        QVERIFY(w.projectController()->saveTo(file));
        const QByteArray before = fileBytes(file);
        step(w);
        typeInEditor(w, QStringLiteral("\n-- never saved"));
        const QString temp = atomicsave::temporaryPathFor(file);
        if (failure == QLatin1String("blocked")) {
            QVERIFY(QDir().mkpath(temp + QStringLiteral("/inside")));
            QVERIFY(!w.projectController()->saveTo(file));
            QVERIFY(w.project()->isModified());
        } else if (failure == QLatin1String("read-only")) {
            if (::geteuid() == 0)
                QSKIP("root writes into read-only folders");
            QVERIFY(QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::ExeOwner));
            QVERIFY(!w.projectController()->saveTo(file));
            QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        } else {
            // A save that stops after writing part of the copy (a full disk, a crash in between).
            const Status st =
                atomicsave::writeCopy(w.project()->db(), file, [](storage::Database&) -> Status {
                    return Diagnostic::error("IO", "disk full");
                });
            QVERIFY(!st);
            QVERIFY(!QFileInfo::exists(temp));
        }
        QCOMPARE(fileBytes(file), before);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"keep.cdcstudio"});
        // Once the obstacle is gone, the same save works and replaces the file as a whole.
        QDir(temp).removeRecursively();
        QVERIFY(w.projectController()->saveTo(file));
        QVERIFY(storedPipeline(file).endsWith(QStringLiteral("-- never saved")));
        QVERIFY(!QFileInfo::exists(temp));
    }
};

QTEST_MAIN(TestRecovery)
#include "tst_recovery.moc"
