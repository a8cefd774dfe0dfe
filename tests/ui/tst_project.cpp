// Project files: working copy, save / reopen, CLI-made databases, bad files, undoable queue edits.
#include "core/common/ResultSet.h"
#include "core/storage/Catalog.h"
#include "core/storage/MemoryFolder.h"
#include "ui/model/EventQueueModel.h"
#include "ui/model/Project.h"
#include "ui/model/ProjectStore.h"
#include "ui/model/SourceRowsModel.h"
#include "ui/model/SourceScripts.h"
#include "ui/model/WorkingCopyFolder.h"

#include <QDir>
#include <QFile>
#include <QLockFile>
#include <QProcess>
#include <QSignalSpy>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QtTest>

using namespace cdc;
using namespace cdc::ui;

namespace {
// A source table the way the CLI's `sql` command leaves it: catalog entry plus the SQLite table.
void createSource(storage::Database& db, const std::string& name) {
    QVERIFY(storage::Catalog::ensureSchema(db).ok());
    storage::TableInfo info;
    info.name = name;
    info.sqliteName = storage::Catalog::sqliteNameFor(name);
    info.kind = storage::TableKind::Source;
    info.columns = {{"id", DataType::of(DataType::Kind::Int)},
                    {"name", DataType::of(DataType::Kind::String)},
                    {"seq", DataType::of(DataType::Kind::BigInt)}};
    QVERIFY(db.exec("CREATE TABLE " + storage::quoteIdentifier(info.sqliteName) +
                    "(id INTEGER, name TEXT, seq INTEGER)")
                .ok());
    QVERIFY(storage::Catalog::put(db, info).ok());
}

QueuedEvent makeEvent(const char* name, std::int64_t id, std::int64_t seq) {
    return QueuedEvent::row(0, QStringLiteral("cdc.users"),
                            {Value{id}, Value{std::string(name)}, Value{seq}});
}

/// Events `prefix`1 .. `prefix``count`, with ids and sequences 1 .. count.
QList<QueuedEvent> numberedEvents(const char* prefix, int count) {
    QList<QueuedEvent> events;
    for (int i = 1; i <= count; ++i)
        events << makeEvent(QStringLiteral("%1%2").arg(QLatin1String(prefix)).arg(i).toUtf8().constData(), i,
                            i);
    return events;
}

QStringList queueNames(const EventQueueModel& model) {
    QStringList names;
    for (const auto& e : model.events())
        names << (e.isStep() ? e.label : QString::fromStdString(std::get<std::string>(e.values[1])));
    return names;
}

/// The source table's rows as "rowid|id|name|seq", in rowid order.
QStringList sourceRows(storage::Database& db) {
    QStringList lines;
    auto stmt = db.prepare("SELECT rowid, id, name, seq FROM " +
                           storage::quoteIdentifier(storage::Catalog::sqliteNameFor("cdc.users")) +
                           " ORDER BY rowid");
    while (stmt && *stmt->step()) {
        QStringList cells;
        for (int i = 0; i < 4; ++i)
            cells << QString::fromStdString(displayValue(stmt->row()[std::size_t(i)], std::nullopt));
        lines << cells.join(QLatin1Char('|'));
    }
    return lines;
}
} // namespace

class TestProject : public QObject {
    Q_OBJECT
private slots:
    void init() { QVERIFY(m_dir.isValid()); }

    void saveAndReopenKeepsEverything() {
        Project project;
        createSource(project.db(), "cdc.users");
        project.document()->type(QStringLiteral("CREATE OR REFRESH STREAMING TABLE t;"));
        QVERIFY(project.isModified());
        QVERIFY(project.appendEvents({makeEvent("Ada", 1, 1), makeEvent("Bob", 2, 1)}, QStringLiteral("add"))
                    .ok());
        const QString path = m_dir.filePath(QStringLiteral("p.cdcstudio"));
        QVERIFY(project.saveAs(path).ok());
        QVERIFY(!project.isModified());
        QCOMPARE(project.displayName(), QStringLiteral("p.cdcstudio"));

        Project reopened;
        QVERIFY(reopened.open(path).ok());
        QCOMPARE(reopened.pipelineText(), QStringLiteral("CREATE OR REFRESH STREAMING TABLE t;"));
        EventQueueModel queue(&reopened);
        QCOMPARE(queueNames(queue), (QStringList{"Ada", "Bob"}));
        QVERIFY(!reopened.isModified());
        // The saved file is a plain rollback-journal database the CLI can use.
        auto raw = storage::Database::open(path.toStdString(), storage::Database::Mode::ReadOnly);
        QVERIFY(raw.ok());
        auto mode = raw->prepare("PRAGMA journal_mode");
        QVERIFY(mode.ok() && mode->step().ok());
        QCOMPARE(QString::fromStdString(mode->text(0)), QStringLiteral("delete"));
    }

    void unsavedChangesNeverTouchTheFile() {
        const QString path = m_dir.filePath(QStringLiteral("untouched.cdcstudio"));
        {
            Project project;
            createSource(project.db(), "cdc.users");
            QVERIFY(project.saveAs(path).ok());
        }
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray before = file.readAll();
        file.close();
        {
            Project project;
            QVERIFY(project.open(path).ok());
            QVERIFY(project.appendEvents({makeEvent("Ada", 1, 1)}, QStringLiteral("add")).ok());
            project.document()->type(QStringLiteral("changed"));
            QVERIFY(project.isModified());
        } // closed without saving
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), before);
    }

    // The working copy goes where writes are cheapest: a RAM-backed folder with room for it (updates there
    // write at memory speed), else the temporary folder; either way it is a WAL database the update thread
    // writes while the GUI reads, and saving writes the project file.
    void workingCopyLivesInMemoryWhenThereIsRoom() {
        const QString path = m_dir.filePath(QStringLiteral("memory.cdcstudio"));
        {
            Project project;
            createSource(project.db(), "cdc.users");
            QVERIFY(project.saveAs(path).ok());
        }
        Project project;
        QVERIFY(project.open(path).ok());
        const QFileInfo file(path);
        const auto folder =
            storage::memoryBackedFolder(storage::workingCopyRoom(static_cast<std::uint64_t>(file.size())));
        QCOMPARE(project.workingCopyInMemory(), folder.has_value());
        const QString expectedParent = folder ? QString::fromStdString(*folder) : QDir::tempPath();
        QVERIFY2(
            QFileInfo(project.workingPath()).absolutePath().startsWith(QDir(expectedParent).absolutePath()),
            qPrintable(project.workingPath()));
        QVERIFY(!project.workingPath().startsWith(m_dir.path()));
        {
            auto mode = project.db().prepare("PRAGMA journal_mode");
            QVERIFY(mode.ok() && mode->step().ok());
            QCOMPARE(QString::fromStdString(mode->text(0)), QStringLiteral("wal"));
        }
        const auto appended = project.appendEvents({makeEvent("Ada", 1, 1)}, QStringLiteral("add"));
        QVERIFY2(appended.ok(), appended.ok() ? "" : appended.error().message.c_str());
        QVERIFY(project.saveAs(path).ok());
        Project reopened;
        QVERIFY(reopened.open(path).ok());
        EventQueueModel queue(&reopened);
        QCOMPARE(queueNames(queue), (QStringList{"Ada"}));
    }

    // A crashed session's working copy would hold RAM until the machine restarts: the next start removes
    // the folders whose owner is gone, and nothing else.
    void abandonedWorkingCopiesAreRemoved() {
        // A live session's folder, as WorkingCopyFolder makes it.
        auto live = WorkingCopyFolder::create(0, {m_dir.path().toStdString()});
        QVERIFY(live);
        QVERIFY(QFileInfo::exists(live->filePath(QStringLiteral("owner.lock"))));

        QProcess finished; // a process id that is no longer running
        finished.start(QStringLiteral("true"), {});
        QVERIFY(finished.waitForFinished());
        const qint64 deadPid = finished.processId() ? finished.processId() : 999999;
        QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("cdcstudio-crashed")));
        {
            QFile lock(m_dir.filePath(QStringLiteral("cdcstudio-crashed/owner.lock")));
            QVERIFY(lock.open(QIODevice::WriteOnly));
            lock.write(QByteArray::number(deadPid) + "\ncdcstudio\n" + QSysInfo::machineHostName().toUtf8() +
                       "\n");
        }
        QFile data(m_dir.filePath(QStringLiteral("cdcstudio-crashed/working.cdcstudio")));
        QVERIFY(data.open(QIODevice::WriteOnly));
        data.close();
        QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("cdcstudio-unlocked"))); // being made, or not ours
        QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("other-crashed")));
        QVERIFY(QFile::copy(m_dir.filePath(QStringLiteral("cdcstudio-crashed/owner.lock")),
                            m_dir.filePath(QStringLiteral("other-crashed/owner.lock"))));
        QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("cdcstudio-live")));
        QLockFile liveLock(m_dir.filePath(QStringLiteral("cdcstudio-live/owner.lock")));
        QVERIFY(liveLock.tryLock(0)); // what a running session holds
        QCOMPARE(WorkingCopyFolder::removeAbandoned(m_dir.path()), 1);
        QVERIFY(QFileInfo::exists(m_dir.filePath(QStringLiteral("cdcstudio-live/owner.lock"))));
        QVERIFY(!QFileInfo::exists(m_dir.filePath(QStringLiteral("cdcstudio-crashed"))));
        QVERIFY(QFileInfo::exists(m_dir.filePath(QStringLiteral("cdcstudio-unlocked"))));
        QVERIFY(QFileInfo::exists(m_dir.filePath(QStringLiteral("other-crashed/owner.lock"))));
        QVERIFY(QFileInfo::exists(live->filePath(QStringLiteral("owner.lock"))));
        const QString livePath = live->path();
        live.reset(); // a clean close removes its own folder
        QVERIFY(!QFileInfo::exists(livePath));
    }

    // A session that crashed with its working copy on disk (no memory folder had room) leaves it in the
    // temporary folder: the next start removes that one too.
    void abandonedWorkingCopiesOnDiskAreRemoved() {
        QTemporaryDir temp;
        QVERIFY(temp.isValid());
        const QByteArray previous = qgetenv("TMPDIR");
        qputenv("TMPDIR", temp.path().toLocal8Bit());
        QVERIFY(QDir(temp.path()).mkpath(QStringLiteral("cdcstudio-crashed")));
        QProcess finished; // a process id that is no longer running
        finished.start(QStringLiteral("true"), {});
        QVERIFY(finished.waitForFinished());
        {
            QFile lock(temp.filePath(QStringLiteral("cdcstudio-crashed/owner.lock")));
            QVERIFY(lock.open(QIODevice::WriteOnly));
            lock.write(QByteArray::number(finished.processId() ? finished.processId() : 999999) +
                       "\ncdcstudio\n" + QSysInfo::machineHostName().toUtf8() + "\n");
        }
        auto folder = WorkingCopyFolder::create(0, {}); // no memory folder: on disk
        if (previous.isNull())
            qunsetenv("TMPDIR");
        else
            qputenv("TMPDIR", previous);
        QVERIFY(folder);
        QVERIFY(!folder->inMemory());
        QVERIFY(!QFileInfo::exists(temp.filePath(QStringLiteral("cdcstudio-crashed"))));
        QCOMPARE(QFileInfo(folder->path()).absolutePath(), QFileInfo(temp.path()).absoluteFilePath());
    }

    void opensADatabaseMadeByTheCli() {
        const QString path = m_dir.filePath(QStringLiteral("cli.db"));
        {
            auto db = storage::Database::open(path.toStdString());
            QVERIFY(db.ok());
            createSource(*db, "cdc.users");
            QVERIFY(db->exec("INSERT INTO " +
                             storage::quoteIdentifier(storage::Catalog::sqliteNameFor("cdc.users")) +
                             " VALUES(7, 'Cy', 1)")
                        .ok());
        }
        Project project;
        QVERIFY(project.open(path).ok());
        QCOMPARE(project.pipelineText(), QString());
        SourceRowsModel rows(&project, QStringLiteral("users"));
        QCOMPARE(rows.rowCount(), 1);
        QCOMPARE(rows.data(rows.index(0, 1)).toString(), QStringLiteral("Cy"));
        QVERIFY(!rows.flags(rows.index(0, 1)).testFlag(Qt::ItemIsEditable));
    }

    void badFilesAreErrorsAndKeepTheOpenProject() {
        Project project;
        project.document()->type(QStringLiteral("keep me"));
        const QString junk = m_dir.filePath(QStringLiteral("junk.cdcstudio"));
        QFile file(junk);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray(4096, 'x'));
        file.close();
        auto st = project.open(junk);
        QVERIFY(!st.ok());
        QVERIFY2(QString::fromStdString(st.error().message).contains(QStringLiteral("not")),
                 st.error().message.c_str());
        QVERIFY(!project.open(m_dir.filePath(QStringLiteral("missing.cdcstudio"))).ok());
        QCOMPARE(project.pipelineText(), QStringLiteral("keep me"));
    }

    void hostileProjectCannotLoadCodeAndBreaksNothing() {
        // A project file whose trigger tries to load a shared library when events are queued.
        const QString path = m_dir.filePath(QStringLiteral("hostile.cdcstudio"));
        {
            auto db = storage::Database::open(path.toStdString());
            QVERIFY(db.ok());
            createSource(*db, "cdc.users");
            QVERIFY(projectstore::ensureSchema(*db).ok());
            QVERIFY(db->exec("CREATE TRIGGER evil AFTER INSERT ON __cdc_event_queue BEGIN "
                             "SELECT load_extension('/nonexistent/evil.so'); END")
                        .ok());
        }
        Project project;
        // Refused by name on open; opened without it only when asked to (the app asks the user).
        auto refused = project.open(path);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().code, std::string("FOREIGN_OBJECTS"));
        QVERIFY2(refused.error().message.find("trigger evil") != std::string::npos,
                 refused.error().message.c_str());
        QCOMPARE(project.filePath(), QString());
        QVERIFY(project.open(path, true).ok());
        QVERIFY(project.appendEvents({makeEvent("Ada", 1, 1)}, QStringLiteral("add")).ok());
        EventQueueModel queue(&project);
        QCOMPARE(queue.rowCount(), 1);
    }

    void queueReorderIsUndoable() {
        Project project;
        createSource(project.db(), "cdc.users");
        QVERIFY(project
                    .appendEvents({makeEvent("A", 1, 1), makeEvent("B", 2, 2), makeEvent("C", 3, 3)},
                                  QStringLiteral("add"))
                    .ok());
        EventQueueModel queue(&project);
        QCOMPARE(queueNames(queue), (QStringList{"A", "B", "C"}));
        QVERIFY(queue.moveEvents({queue.idAt(2)}, 0).ok());
        QCOMPARE(queueNames(queue), (QStringList{"C", "A", "B"}));
        QVERIFY(queue.shiftEvents({queue.idAt(1)}, +1).ok());
        QCOMPARE(queueNames(queue), (QStringList{"C", "B", "A"}));
        project.undoStack()->undo();
        QCOMPARE(queueNames(queue), (QStringList{"C", "A", "B"}));
        project.undoStack()->undo();
        QCOMPARE(queueNames(queue), (QStringList{"A", "B", "C"}));
        project.undoStack()->redo();
        QCOMPARE(queueNames(queue), (QStringList{"C", "A", "B"}));
    }

    void dragAndDropReorders() {
        Project project;
        createSource(project.db(), "cdc.users");
        QVERIFY(project
                    .appendEvents({makeEvent("A", 1, 1), makeEvent("B", 2, 2), makeEvent("C", 3, 3)},
                                  QStringLiteral("add"))
                    .ok());
        EventQueueModel queue(&project);
        std::unique_ptr<QMimeData> mime(queue.mimeData({queue.index(0, 0), queue.index(0, 2)}));
        queue.dropMimeData(mime.get(), Qt::MoveAction, 3, 0, {});
        QCOMPARE(queueNames(queue), (QStringList{"B", "C", "A"}));
    }

    void gridEditsValidateAndUndo() {
        Project project;
        createSource(project.db(), "cdc.users");
        SourceRowsModel rows(&project, QStringLiteral("cdc.users"));
        QVERIFY(rows.addEmptyRow().ok());
        QCOMPARE(rows.rowCount(), 1);
        QVERIFY(rows.flags(rows.index(0, 0)).testFlag(Qt::ItemIsEditable));
        QSignalSpy rejected(&rows, &SourceRowsModel::editRejected);
        QVERIFY(!rows.setData(rows.index(0, 0), QStringLiteral("abc")));
        QCOMPARE(rejected.size(), 1);
        QVERIFY(rows.setData(rows.index(0, 0), QStringLiteral("42")));
        QVERIFY(rows.setData(rows.index(0, 1), QStringLiteral("Zoe")));
        QCOMPARE(rows.data(rows.index(0, 0)).toString(), QStringLiteral("42"));
        QCOMPARE(rows.data(rows.index(0, 2)).toString(), QStringLiteral("null"));
        project.undoStack()->undo();
        QCOMPARE(rows.data(rows.index(0, 1)).toString(), QStringLiteral("null"));
        QCOMPARE(rows.data(rows.index(0, 0)).toString(), QStringLiteral("42"));

        // Paste-style rows with a column mapping; a bad cell rejects the whole batch.
        QVERIFY(!rows.appendTextRows({{"1", "x", "1"}, {"two", "y", "2"}}, {0, 1, 2}, QStringLiteral("paste"))
                     .ok());
        QCOMPARE(rows.rowCount(), 1);
        QVERIFY(rows.appendTextRows({{"x", "1", "5"}}, {1, 0, 2}, QStringLiteral("paste")).ok());
        QCOMPARE(rows.rowCount(), 2);
        QCOMPARE(rows.data(rows.index(1, 0)).toString(), QStringLiteral("1"));
        QCOMPARE(rows.data(rows.index(1, 1)).toString(), QStringLiteral("x"));
    }

    void deliveringMovesRowsIntoTheSourceTable() {
        Project project;
        createSource(project.db(), "cdc.users");
        QVERIFY(
            project.appendEvents({makeEvent("A", 1, 1), makeEvent("B", 2, 2)}, QStringLiteral("add")).ok());
        auto delivered = projectstore::deliverEvents(project.db(), 1);
        QVERIFY(delivered.ok());
        QCOMPARE(*delivered, 1);
        SourceRowsModel rows(&project, QStringLiteral("users"));
        QCOMPARE(rows.deliveredCount(), 1);
        QCOMPARE(rows.rowCount(), 2);
        QCOMPARE(rows.data(rows.index(0, 1)).toString(), QStringLiteral("A"));
        QVERIFY(rows.isPending(1));
    }

    // A source holding a long history shows its latest delivered rows only (the grid reloads after every
    // step), numbered as in the whole table, and every queued row after them.
    void longSourcesShowTheirLatestDeliveredRows() {
        Project project;
        createSource(project.db(), "cdc.users");
        const int total = SourceRowsModel::kDeliveredShown + 50;
        QList<QueuedEvent> events;
        for (int i = 1; i <= total + 2; ++i)
            events << makeEvent(QStringLiteral("N%1").arg(i).toUtf8().constData(), i, i);
        QVERIFY(project.appendEvents(events, QStringLiteral("add")).ok());
        auto delivered = projectstore::deliverEvents(project.db(), total);
        QVERIFY(delivered.ok());
        SourceRowsModel rows(&project, QStringLiteral("users"));
        QCOMPARE(rows.deliveredCount(), SourceRowsModel::kDeliveredShown);
        QCOMPARE(rows.hiddenDeliveredCount(), qint64(50));
        QCOMPARE(rows.rowCount(), SourceRowsModel::kDeliveredShown + 2);
        QCOMPARE(rows.data(rows.index(0, 1)).toString(), QStringLiteral("N51"));
        QCOMPARE(rows.headerData(0, Qt::Vertical).toString(), QStringLiteral("51"));
        QVERIFY(
            rows.headerData(0, Qt::Vertical, Qt::ToolTipRole).toString().contains(QStringLiteral("1,050")));
        QCOMPARE(rows.headerData(rows.rowCount() - 1, Qt::Vertical).toString(), QStringLiteral("+2"));
        QCOMPARE(rows.data(rows.index(rows.rowCount() - 1, 1)).toString(),
                 QStringLiteral("N%1").arg(total + 2));
    }

    // A source with a long queue shows its last queued rows, numbered from its first, so that a row added
    // at the end is shown.
    void longSourceQueuesShowTheirLastRows() {
        Project project;
        createSource(project.db(), "cdc.users");
        const int total = SourceRowsModel::kPendingShown + 3;
        QVERIFY(project.appendEvents(numberedEvents("Q", total), QStringLiteral("add")).ok());
        SourceRowsModel rows(&project, QStringLiteral("users"));
        QCOMPARE(rows.rowCount(), SourceRowsModel::kPendingShown);
        QCOMPARE(rows.hiddenPendingCount(), qint64(3));
        QCOMPARE(rows.data(rows.index(0, 1)).toString(), QStringLiteral("Q4"));
        QCOMPARE(rows.headerData(0, Qt::Vertical).toString(), QStringLiteral("+4"));
        QVERIFY(
            rows.headerData(0, Qt::Vertical, Qt::ToolTipRole).toString().contains(QStringLiteral("10,003")));
        QVERIFY(rows.addEmptyRow().ok());
        QCOMPARE(rows.rowCount(), SourceRowsModel::kPendingShown);
        QCOMPARE(rows.data(rows.index(rows.rowCount() - 1, 1)).toString(), QStringLiteral("null"));
        QCOMPARE(rows.headerData(rows.rowCount() - 1, Qt::Vertical).toString(),
                 QStringLiteral("+%1").arg(total + 1));
    }

    // A queue of an imported feed shows its head; moving events within it keeps the rest behind, in order.
    void longQueuesShowTheirHead() {
        Project project;
        createSource(project.db(), "cdc.users");
        const int total = EventQueueModel::kShown + 5;
        QVERIFY(project.appendEvents(numberedEvents("N", total), QStringLiteral("add")).ok());
        EventQueueModel queue(&project);
        QCOMPARE(queue.rowCount(), EventQueueModel::kShown);
        QCOMPARE(queue.totalCount(), qint64(total));
        const qint64 last = queue.idAt(EventQueueModel::kShown - 1);
        QVERIFY(queue.moveEvents({last}, 0).ok());
        QCOMPARE(queue.idAt(0), last);
        auto all = projectstore::events(project.db());
        QVERIFY(all && all->size() == total);
        QCOMPARE(all->first().id, last);
        for (int i = 1; i <= 5; ++i) // the events behind the head kept their place and order
            QCOMPARE(all->at(total - 6 + i).values.at(1),
                     Value(std::string("N") + std::to_string(total - 5 + i)));
        project.undoStack()->undo();
        QCOMPARE(queue.idAt(EventQueueModel::kShown - 1), last);
    }

    // A step (a whole script as one event) delivered between rows and then rewound leaves the source table
    // exactly as it was, rowids included, and the queue in its original order with the step intact.
    void stepDeliveryIsTakenBackExactly() {
        Project project;
        createSource(project.db(), "cdc.users");
        auto step = sourcescripts::captureStep(
            project.db(),
            QStringLiteral("-- Snapshot 2\nUPDATE cdc.users SET name = 'Z' WHERE id = 1;\n"
                           "DELETE FROM cdc.users WHERE id = 2;\nINSERT INTO cdc.users VALUES (3, 'C', 3);"),
            QStringLiteral("step.sql"));
        QVERIFY2(step.ok(), step.ok() ? "" : step.error().format().c_str());
        QCOMPARE(step->label, QStringLiteral("Snapshot 2"));
        QVERIFY(project
                    .appendEvents({makeEvent("A", 1, 1), makeEvent("B", 2, 2), *step, makeEvent("D", 4, 4)},
                                  QStringLiteral("add"))
                    .ok());
        EventQueueModel queue(&project);
        QCOMPARE(queue.index(2, EventQueueModel::SourceColumn).data().toString(), QStringLiteral("users"));
        QCOMPARE(queue.index(2, EventQueueModel::OperationColumn).data().toString(), QStringLiteral("STEP"));
        QCOMPARE(queue.index(2, EventQueueModel::ValuesColumn).data().toString(),
                 QStringLiteral("Snapshot 2"));
        QVERIFY(queue.index(2, EventQueueModel::ValuesColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("DELETE FROM cdc.users WHERE id = 2;")));

        storage::Database& db = project.db();
        // Delivered to the update the runner expects (its rows are written with it), then to a wrong guess
        // that assignDeliveries moves to the real update.
        {
            auto d = projectstore::deliverEvents(db, 2, 1);
            QVERIFY2(d.ok(), d.ok() ? "" : d.error().format().c_str());
            QCOMPARE(*d, 2);
        }
        QVERIFY(projectstore::assignDeliveries(db, 1, 1).ok());
        {
            auto d = projectstore::deliverEvents(db, 2, 9);
            QVERIFY2(d.ok(), d.ok() ? "" : d.error().format().c_str());
            QCOMPARE(*d, 2);
        }
        QVERIFY(projectstore::assignDeliveries(db, 2, 9).ok());
        QCOMPARE(sourceRows(db), (QStringList{"1|1|Z|1", "2|3|C|3", "3|4|D|4"}));
        {
            auto updates = db.prepare("SELECT group_concat(coalesce(update_id, 'NULL'), ',') FROM "
                                      "(SELECT update_id FROM __cdc_delivery ORDER BY id)");
            QVERIFY(updates.ok() && updates->step().ok());
            QCOMPARE(QString::fromStdString(updates->text(0)), QStringLiteral("1,1,2,2"));
        }

        QVERIFY(projectstore::undeliverAfter(db, 1).ok());
        QCOMPARE(sourceRows(db), (QStringList{"1|1|A|1", "2|2|B|2"}));
        QVERIFY(projectstore::undeliverAfter(db, 0).ok());
        QCOMPARE(sourceRows(db), QStringList{});
        queue.reload();
        QCOMPARE(queueNames(queue), (QStringList{"A", "B", "Snapshot 2", "D"}));
        QCOMPARE(queue.events().at(2).script, step->script);
        // Delivered again, the same rows come out.
        QCOMPARE(*projectstore::deliverEvents(db, 4), 4);
        QCOMPARE(sourceRows(db), (QStringList{"1|1|Z|1", "2|3|C|3", "3|4|D|4"}));
        // Taken back all at once, newest first: the step restores A and B, then their own deliveries go.
        QVERIFY(projectstore::undeliverAfter(db, 0).ok());
        QCOMPARE(sourceRows(db), QStringList{});
    }

    void stepScriptsOnlyWriteRows_data() {
        QTest::addColumn<QString>("script");
        QTest::addColumn<QString>("error");
        QTest::newRow("create") << "INSERT INTO cdc.users VALUES (1, 'A', 1);\nCREATE TABLE t (a INT);"
                                << "step.sql:2:1: error: a queued step only writes rows";
        QTest::newRow("drop") << "DROP TABLE cdc.users;"
                              << "step.sql:1:1: error: a queued step only writes rows";
        QTest::newRow("no rows") << "-- nothing\n"
                                 << "error: the SQL writes no rows";
        QTest::newRow("unknown table") << "DELETE FROM cdc.nope;"
                                       << "step.sql:1:13: error:";
        QTest::newRow("bad value") << "INSERT INTO cdc.users VALUES ('x', 'A', 1);"
                                   << "step.sql:1:";
    }

    void stepScriptsOnlyWriteRows() {
        QFETCH(QString, script);
        QFETCH(QString, error);
        Project project;
        createSource(project.db(), "cdc.users");
        auto step = sourcescripts::captureStep(project.db(), script, QStringLiteral("step.sql"));
        QVERIFY(!step.ok());
        const QString message = QString::fromStdString(step.error().format());
        QVERIFY2(message.startsWith(error), qPrintable(message));
        QCOMPARE(sourceRows(project.db()), QStringList{});
    }

    void rowEncodingRoundTrips() {
        const Row row{Value{},
                      Value{std::int64_t{9007199254740993}},
                      Value{2.0},
                      Value{2.5},
                      Value{std::string("é\"x")},
                      Value{Blob{{0, 1, 255}}}};
        QCOMPARE(projectstore::decodeRow(projectstore::encodeRow(row)), row);
    }

private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestProject)
#include "tst_project.moc"
