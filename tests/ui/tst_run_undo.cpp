// Undo and redo of simulation runs (RunCommand) and of row edits (ChangesetCommand): a run that does not
// change the schema is undone by rewinding its updates and putting its events back in the queue, a queue or
// settings edit by the rows it changed, neither by restoring a copy of the whole project. Exactness is
// checked on the whole working copy: every table's rows and the schema, before the run against after Edit ›
// Undo, and after the run against after Edit › Redo, for every sample, for single steps and for a Run to End
// of many updates.
#include "ui/model/ChangesetCommand.h"
#include "ui/model/Project.h"
#include "ui/model/ProjectStore.h"
#include "ui/model/RunCommand.h"
#include "ui/model/SimulationRunner.h"
#include "ui/widgets/MainWindow.h"
#include "ui/widgets/ProjectController.h"
#include "ui/widgets/SimulationController.h"

#include <sqlite3.h>

#include <QAction>
#include <QUndoStack>
#include <QtTest>

using namespace cdc;
using namespace cdc::ui;

namespace {

/// The whole working copy as text: the schema, then every table's rows in rowid (or key) order.
QStringList dump(storage::Database& db) {
    QStringList out;
    QStringList tables;
    auto schema = db.prepare("SELECT type, name, sql FROM sqlite_schema ORDER BY type, name");
    if (!schema)
        return {QString::fromStdString(schema.error().message)};
    (void)schema->forEachRow([&](const storage::Statement& row) {
        const QString name = QString::fromStdString(row.text(1));
        out << QString::fromStdString(row.text(0)) + " " + name + ": " + QString::fromStdString(row.text(2));
        if (row.text(0) == "table" && !name.startsWith(QLatin1String("sqlite_")))
            tables << name;
    });
    for (const QString& table : std::as_const(tables)) {
        auto rows = db.prepare("SELECT * FROM " + storage::quoteIdentifier(table.toStdString()));
        if (!rows)
            return {QString::fromStdString(rows.error().message)};
        (void)rows->forEachRow([&](const storage::Statement& row) {
            QStringList cells;
            for (int c = 0; c < row.columnCount(); ++c) {
                // The update log's measured durations differ from run to run; everything else must not.
                if (table == QLatin1String("__cdc_updates") &&
                    row.columnName(c).find("ms") != std::string::npos)
                    continue;
                cells << (row.isNull(c) ? QStringLiteral("NULL") : QString::fromStdString(row.text(c)));
            }
            out << table + ": " + cells.join(QLatin1Char('|'));
        });
    }
    return out;
}

/// The window's own Edit › Undo / Redo actions, found by their standard keys.
QAction* editAction(MainWindow& w, QKeySequence::StandardKey key) {
    for (QAction* action : w.findChildren<QAction*>())
        if (action->parent() == &w && action->shortcuts().contains(QKeySequence(key).operator[](0)))
            return action;
    return nullptr;
}

bool isRewound(QUndoStack* stack) {
    return dynamic_cast<const RunCommand*>(stack->command(stack->index() - 1)) != nullptr;
}

} // namespace

class TestRunUndo : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        // A run the rewind cannot undo (it changes the schema) must take the copy instead, never warn.
        QTest::failOnWarning(
            QRegularExpression(QStringLiteral("changed the schema|cannot undo|cannot redo")));
    }

    void stepsUndoAndRedoExactly_data() {
        QTest::addColumn<QString>("sample");
        QTest::addColumn<bool>("rewinds"); ///< whether its later steps are undone by rewinding
        for (const char* sample : {"scd1-users", "scd1-truncate", "scd2-users", "scd2-track-history",
                                   "out-of-order-lab", "tombstone-gc-lab"})
            QTest::newRow(sample) << QString::fromLatin1(sample) << true;
        // Its queue holds steps (source scripts that may change the schema): every run keeps a copy.
        QTest::newRow("snapshot-users") << QStringLiteral("snapshot-users") << false;
    }

    void stepsUndoAndRedoExactly() {
        QFETCH(QString, sample);
        QFETCH(bool, rewinds);
        MainWindow w;
        QVERIFY(w.projectController()->openSample(sample));
        QAction* undo = editAction(w, QKeySequence::Undo);
        QAction* redo = editAction(w, QKeySequence::Redo);
        QVERIFY(undo && redo);
        QUndoStack* stack = w.project()->undoStack();
        storage::Database& db = w.project()->db();

        // Step by step to the end of the queue, each step undone and redone at once. A run stores the
        // editor's text first (outside the history): so does the test, before it reads the state.
        QVERIFY(w.project()->storeDocument());
        std::vector<QStringList> states{dump(db)};
        int rewound = 0;
        while (w.simulation()->stepAction()->isEnabled() && states.size() < 12) {
            QVERIFY(w.simulation()->step());
            w.simulation()->waitForFinished();
            states.push_back(dump(db));
            rewound += isRewound(stack);
            undo->trigger();
            QCOMPARE(dump(db), states[states.size() - 2]);
            redo->trigger();
            QCOMPARE(dump(db), states.back());
        }
        QVERIFY2(states.size() >= 3, "the sample has at least two steps");
        // The first step creates the targets (a copy undoes it); the later ones rewind.
        QCOMPARE(rewound, rewinds ? int(states.size()) - 2 : 0);

        // All the way back, then all the way forward again.
        for (std::size_t i = states.size() - 1; i > 0; --i) {
            undo->trigger();
            QCOMPARE(dump(db), states[i - 1]);
        }
        for (std::size_t i = 1; i < states.size(); ++i) {
            redo->trigger();
            QCOMPARE(dump(db), states[i]);
        }
    }

    // A run's last checkpoint waits until its results are shown: right after the step the working file
    // itself (read without its WAL) does not hold the step's update yet, the WAL does; then a worker thread
    // copies it, and Edit › Undo and Redo work whether or not that copy has finished.
    void checkpointWaitsUntilTheRunIsShown() {
        MainWindow w;
        QVERIFY(w.projectController()->openSample(QStringLiteral("scd2-users")));
        storage::Database& db = w.project()->db();
        const std::string file = w.project()->workingPath().toStdString();
        const auto updatesInFile = [&file] { // the file alone: immutable=1 reads no WAL
            sqlite3* raw = nullptr;
            qint64 count = -1;
            if (sqlite3_open_v2(("file:" + file + "?immutable=1").c_str(), &raw,
                                SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) == SQLITE_OK) {
                sqlite3_stmt* st = nullptr;
                sqlite3_prepare_v2(raw, "SELECT count(*) FROM __cdc_updates", -1, &st, nullptr);
                count = st && sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -2;
                sqlite3_finalize(st);
            }
            sqlite3_close(raw);
            return count;
        };
        const auto updates = [&db] {
            auto st = db.prepare("SELECT count(*) FROM __cdc_updates");
            return st && st->step().ok() ? st->int64(0) : -1;
        };
        SimulationRunner* runner = w.simulation()->runner();
        QVERIFY(w.simulation()->step()); // creates the engine's tables
        runner->waitForFinished();
        runner->waitForCheckpoint();
        QCOMPARE(updatesInFile(), qint64(1));
        for (int step = 2; step <= 3; ++step) {
            QVERIFY(w.simulation()->step());
            runner->waitForFinished(); // results applied; the event loop has not run since
            QCOMPARE(updates(), qint64(step));
            QCOMPARE(updatesInFile(), qint64(step - 1));
            runner->waitForCheckpoint();
            QCOMPARE(updatesInFile(), qint64(step));
        }
        // Undo and redo while the checkpoint may still be running.
        QVERIFY(w.simulation()->step());
        runner->waitForFinished();
        QCoreApplication::processEvents(); // starts the checkpoint
        const QStringList after = dump(db);
        editAction(w, QKeySequence::Undo)->trigger();
        QCOMPARE(updates(), qint64(3));
        editAction(w, QKeySequence::Redo)->trigger();
        QCOMPARE(dump(db), after);
    }

    void runToEndIsOneRewoundStep() {
        MainWindow w;
        QVERIFY(w.projectController()->openSample(QStringLiteral("scd2-users")));
        storage::Database& db = w.project()->db();
        QVERIFY(w.simulation()->step()); // creates the target
        w.simulation()->waitForFinished();
        // The user moved the clock and reordered the queue before the run: both come back exactly.
        QVERIFY(w.project()->advanceClock(3600));
        auto queued = projectstore::events(db);
        QVERIFY(queued && queued->size() >= 3);
        QList<qint64> order;
        for (const auto& e : *queued)
            order.prepend(e.id);
        QVERIFY(w.project()->reorderEvents(order));
        QVERIFY(w.project()->storeDocument());
        const QStringList before = dump(db);

        w.simulation()->runToEndAction()->trigger();
        w.simulation()->waitForFinished();
        QVERIFY(projectstore::events(db)->isEmpty());
        QVERIFY(isRewound(w.project()->undoStack()));
        const QStringList after = dump(db);
        editAction(w, QKeySequence::Undo)->trigger();
        QCOMPARE(dump(db), before);
        editAction(w, QKeySequence::Redo)->trigger();
        QCOMPARE(dump(db), after);
    }

    void eventsQueuedBehindComeBackInOrder() {
        // Events delivered, then (after the run) more events queued: Rewind Here puts the delivered ones
        // back ahead of them, in their order, without rewriting the waiting ones.
        MainWindow w;
        QVERIFY(w.projectController()->openSample(QStringLiteral("scd1-users")));
        storage::Database& db = w.project()->db();
        const auto original = projectstore::events(db);
        QVERIFY(original && original->size() >= 2);
        QVERIFY(w.simulation()->step());
        w.simulation()->waitForFinished();
        QVERIFY(w.simulation()->step());
        w.simulation()->waitForFinished();
        QList<QueuedEvent> late{QueuedEvent::row(0, original->first().source, original->first().values)};
        QVERIFY(w.project()->appendEvents(late, QStringLiteral("Add event")));
        QVERIFY(w.project()->rewindTo(0));
        const auto back = projectstore::events(db);
        QVERIFY(back);
        QCOMPARE(back->size(), original->size() + 1);
        for (qsizetype i = 0; i < original->size(); ++i) {
            QCOMPARE(back->at(i).source, original->at(i).source);
            QCOMPARE(back->at(i).values, original->at(i).values);
        }
        QCOMPARE(back->last().values, late.first().values);
    }

    // Edits of the queue and the settings keep the rows they changed (ChangesetCommand): undo and redo are
    // as exact as the whole copies they replace.
    void rowEditsUndoAndRedoExactly_data() {
        QTest::addColumn<QString>("edit");
        for (const char* edit : {"append", "update", "remove", "reorder", "clock", "timeout", "volumes"})
            QTest::newRow(edit) << QString::fromLatin1(edit);
    }

    void rowEditsUndoAndRedoExactly() {
        QFETCH(QString, edit);
        MainWindow w;
        QVERIFY(w.projectController()->openSample(QStringLiteral("scd2-users")));
        Project* project = w.project();
        storage::Database& db = project->db();
        QVERIFY(w.simulation()->step());
        w.simulation()->waitForFinished();
        QVERIFY(project->storeDocument());
        const auto queued = projectstore::events(db);
        QVERIFY(queued && queued->size() >= 2);
        const QStringList before = dump(db);
        Status done;
        if (edit == QLatin1String("append")) {
            done = project->appendEvents(
                {QueuedEvent::row(0, queued->first().source, queued->first().values)}, QStringLiteral("Add"));
        } else if (edit == QLatin1String("update")) {
            QueuedEvent changed = queued->at(1);
            changed.values.back() = Value(std::int64_t(99));
            done = project->updateEvent(changed);
        } else if (edit == QLatin1String("remove")) {
            done = project->removeEvents({queued->first().id, queued->last().id});
        } else if (edit == QLatin1String("reorder")) {
            QList<qint64> order;
            for (const QueuedEvent& e : *queued)
                order.prepend(e.id);
            done = project->reorderEvents(order);
        } else if (edit == QLatin1String("clock")) {
            done = project->advanceClock(90);
        } else if (edit == QLatin1String("timeout")) {
            done = project->setQueryTimeoutSetting(42);
        } else {
            done = project->setVolumesSetting(QStringLiteral("/tmp/volumes"));
        }
        QVERIFY2(done.ok(), done.ok() ? "" : done.error().message.c_str());
        QUndoStack* stack = project->undoStack();
        QVERIFY(dynamic_cast<const ChangesetCommand*>(stack->command(stack->index() - 1)));
        const QStringList after = dump(db);
        QVERIFY(after != before);
        editAction(w, QKeySequence::Undo)->trigger();
        QCOMPARE(dump(db), before);
        editAction(w, QKeySequence::Redo)->trigger();
        QCOMPARE(dump(db), after);
        // Through the run before it, and forward again.
        editAction(w, QKeySequence::Undo)->trigger();
        editAction(w, QKeySequence::Undo)->trigger();
        editAction(w, QKeySequence::Redo)->trigger();
        editAction(w, QKeySequence::Redo)->trigger();
        QCOMPARE(dump(db), after);
    }

    // Rewind Here keeps one copy (the updates it undoes are only there); redo rewinds again, exactly.
    void rewindUndoesAndRedoesExactly() {
        MainWindow w;
        QVERIFY(w.projectController()->openSample(QStringLiteral("scd2-users")));
        storage::Database& db = w.project()->db();
        for (int i = 0; i < 3; ++i) {
            QVERIFY(w.simulation()->step());
            w.simulation()->waitForFinished();
        }
        QVERIFY(w.project()->storeDocument());
        const QStringList before = dump(db);
        QVERIFY(w.project()->rewindTo(1));
        const QStringList after = dump(db);
        QVERIFY(after != before);
        for (int round = 0; round < 2; ++round) {
            editAction(w, QKeySequence::Undo)->trigger();
            QCOMPARE(dump(db), before);
            editAction(w, QKeySequence::Redo)->trigger();
            QCOMPARE(dump(db), after);
        }
    }

    void filesFromBeforeTheQueueOriginStillRewind() {
        // A project saved before deliveries kept their queue id and position: opening it adds the columns and
        // indexes, and its deliveries still go back to the front of the queue, ahead of the waiting events.
        auto db = storage::Database::openMemory();
        QVERIFY(db);
        QVERIFY(
            db->exec("CREATE TABLE __cdc_delivery(id INTEGER PRIMARY KEY, update_id INTEGER, source TEXT NOT "
                     "NULL, source_rowid INTEGER NOT NULL, row_json TEXT NOT NULL)"));
        QVERIFY(projectstore::ensureSchema(*db));
        QVERIFY(projectstore::ensureSchema(*db)); // idempotent
        QVERIFY(db->tableExists("__cdc_delivery_update"));
        QVERIFY(db->tableExists("__cdc_event_queue_order"));
        QVERIFY(db->exec("CREATE TABLE src(v INTEGER)"));
        QVERIFY(
            projectstore::appendEvents(*db, {QueuedEvent::row(0, QStringLiteral("waiting"), {Value(3)})}));
        // Two rows delivered by update 1 the old way (no origin), oldest first.
        QVERIFY(db->exec("INSERT INTO src(rowid, v) VALUES(1, 1), (2, 2)"));
        QVERIFY(projectstore::recordDelivery(*db, QStringLiteral("gone"), 1, {Value(1)}));
        QVERIFY(projectstore::recordDelivery(*db, QStringLiteral("gone"), 2, {Value(2)}));
        QVERIFY(projectstore::assignDeliveries(*db, 1));
        QVERIFY(projectstore::undeliverAfter(*db, 0));
        const auto queue = projectstore::events(*db);
        QVERIFY(queue);
        QStringList order;
        for (const QueuedEvent& e : *queue)
            order << e.source + "=" + QString::number(std::get<std::int64_t>(e.values.front()));
        QCOMPARE(order, (QStringList{"gone=1", "gone=2", "waiting=3"}));
    }
};

QTEST_MAIN(TestRunUndo)
#include "tst_run_undo.moc"
