// The replay loop through the real main window: samples, Step / Deliver / Run to end off the GUI
// thread, the update timeline, exact history views, Rewind Here (undoable), tombstone GC on the
// simulated clock, error squiggles while typing, and save + reopen.
#include "core/common/ResultSet.h"
#include "ui/model/EventQueueModel.h"
#include "ui/model/IssueListModel.h"
#include "ui/model/Project.h"
#include "ui/model/ProjectStore.h"
#include "ui/model/SimulationRunner.h"
#include "ui/model/UpdateLogModel.h"
#include "ui/model/UpdateTimelineModel.h"
#include "ui/model/results/RowChange.h"
#include "ui/model/results/Scd2TimelineModel.h"
#include "ui/model/results/TargetRowsModel.h"
#include "ui/model/results/TombstoneModel.h"
#include "ui/widgets/CodeEditor.h"
#include "ui/widgets/EditorController.h"
#include "ui/widgets/MainWindow.h"
#include "ui/widgets/ProjectController.h"
#include "ui/widgets/ResultsController.h"
#include "ui/widgets/SimulationController.h"
#include "ui/widgets/SqlLexer.h"
#include "ui/widgets/TimelinePanel.h"
#include "ui/widgets/WorkbenchPanel.h"
#include "ui/widgets/results/Scd2TimelinePanel.h"
#include "ui/widgets/results/TargetTablePanel.h"
#include "ui/widgets/results/TombstonePanel.h"

#include <QAction>
#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

using namespace cdc;
using namespace cdc::ui;

namespace {
QStringList render(const ResultSet& rs, const QStringList& columns = {}) {
    QList<int> picked;
    for (std::size_t i = 0; i < rs.columns.size(); ++i)
        if (columns.isEmpty() || columns.contains(QString::fromStdString(rs.columns[i])))
            picked << int(i);
    QStringList lines;
    for (const auto& row : rs.rows) {
        QStringList cells;
        for (int i : picked)
            cells << QString::fromStdString(displayValue(row[i], rs.typeOf(i)));
        lines << cells.join(QLatin1Char('|'));
    }
    return lines;
}

const TargetSnapshot* target(const MainWindow& w, const QString& name) {
    return findSnapshot(w.results()->snapshots(), name);
}

QStringList targetRows(const MainWindow& w, const QString& name, const QStringList& columns = {}) {
    const TargetSnapshot* s = target(w, name);
    return s ? render(s->rows, columns) : QStringList{QStringLiteral("<no target %1>").arg(name)};
}

void finish(MainWindow& w) {
    w.simulation()->waitForFinished();
}

// What the target table shows: each row as "cells [change]".
QStringList tableView(const TargetRowsModel* model) {
    QStringList lines;
    for (int r = 0; r < model->rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < model->columnCount(); ++c)
            cells << model->index(r, c).data().toString();
        const auto change = RowChange(model->index(r, 0).data(RowChangeRole).toInt());
        static const char* const names[] = {"", " [inserted]", " [updated]", " [closed]", " [deleted]"};
        lines << cells.join(QLatin1Char('|')) + QLatin1String(names[int(change)]);
    }
    return lines;
}
} // namespace

class TestSimulation : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("CDCStudioTests"));
        QStandardPaths::setTestModeEnabled(true);
    }

    void samplesRunToTheDocumentedResult_data() {
        QTest::addColumn<QString>("sample");
        QTest::addColumn<int>("events");
        QTest::addColumn<QString>("target");
        QTest::addColumn<QStringList>("columns");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("scd1-users") << "scd1-users" << 8 << "users_current" << QStringList{}
                                    << QStringList{"124|Raul|Oaxaca", "125|Mercedes|Guadalajara",
                                                   "126|Lily|Cancun"};
        QTest::newRow("scd1-truncate") << "scd1-truncate" << 9 << "users_current" << QStringList{}
                                       << QStringList{"125|Mercedes|Guadalajara"};
        QTest::newRow("scd2-users") << "scd2-users" << 8 << "users_history" << QStringList{}
                                    << QStringList{
                                           "123|Isabel|Monterrey|1|5",  "123|Isabel|Chihuahua|5|6",
                                           "124|Raul|Oaxaca|1|null",    "125|Mercedes|Tijuana|2|5",
                                           "125|Mercedes|Mexicali|5|6", "125|Mercedes|Guadalajara|6|null",
                                           "126|Lily|Cancun|2|null"};
        QTest::newRow("scd2-track-history")
            << "scd2-track-history" << 8 << "users_history" << QStringList{}
            << QStringList{"123|Isabel|Chihuahua|1|6", "124|Raul|Oaxaca|1|null",
                           "125|Mercedes|Guadalajara|2|null", "126|Lily|Cancun|2|null"};
        QTest::newRow("snapshot-users")
            << "snapshot-users" << 2 << "target" << QStringList{}
            << QStringList{"1|Oaxaca|0|1",         "2|Monterrey|0|1",      "2|Carmel|1|null",
                           "3|Tijuana|0|1",        "3|Los Angeles|1|null", "4|Death Valley|1|null",
                           "6|Kings Canyon|1|null"};
        QTest::newRow("out-of-order current")
            << "out-of-order-lab" << 8 << "orders_current" << QStringList{"orderId", "status"}
            << QStringList{"1|delivered", "3|paid"};
        QTest::newRow("out-of-order history")
            << "out-of-order-lab" << 8 << "orders_history"
            << QStringList{"orderId", "status", "__START_AT", "__END_AT"}
            << QStringList{"1|created|1|2", "1|paid|2|3",    "1|shipped|3|4", "1|delivered|4|null",
                           "2|created|4|5", "3|created|1|2", "3|paid|2|null"};
    }

    void samplesRunToTheDocumentedResult() {
        QFETCH(QString, sample);
        QFETCH(int, events);
        QFETCH(QString, target);
        QFETCH(QStringList, columns);
        QFETCH(QStringList, expected);
        MainWindow w;
        QVERIFY(w.projectController()->openSample(sample));
        QVERIFY(!w.isWindowModified());
        QCOMPARE(w.eventQueueModel()->rowCount(), events);
        QVERIFY2(!w.project()->document()->hasErrors(),
                 qPrintable(w.issuesModel()->index(0, 2).data().toString()));
        QVERIFY(w.simulation()->runToEnd());
        finish(w);
        QCOMPARE(w.eventQueueModel()->rowCount(), 0);
        QCOMPARE(w.timelineModel()->lastUpdateId(), qint64(events));
        QCOMPARE(targetRows(w, target, columns), expected);
        QVERIFY(w.isWindowModified());
    }

    void stepShowsEachUpdateAndHistoryIsExact() {
        MainWindow w;
        QVERIFY(w.projectController()->openSample(QStringLiteral("scd1-users")));
        for (int i = 0; i < 3; ++i) {
            QVERIFY(w.simulation()->step());
            finish(w);
        }
        QCOMPARE(w.eventQueueModel()->rowCount(), 5);
        QCOMPARE(w.timelineModel()->rowCount(), 4); // start + 3 updates
        QCOMPARE(targetRows(w, "users_current"),
                 (QStringList{"123|Isabel|Monterrey", "124|Raul|Oaxaca", "125|Mercedes|Tijuana"}));
        const TargetSnapshot* s = target(w, "users_current");
        QCOMPARE(s->updateId, qint64(3));
        QCOMPARE(render(s->changes, {"userId", "_change_type"}), (QStringList{"125|insert"}));
        // The target table highlights the row the last update inserted.
        QCOMPARE(w.targetTablePanel()->currentTarget(), QStringLiteral("users_current"));
        QCOMPARE(tableView(w.targetTablePanel()->rowsModel()),
                 (QStringList{"123|Isabel|Monterrey", "124|Raul|Oaxaca", "125|Mercedes|Tijuana [inserted]"}));
        QVERIFY(w.isWindowModified());

        // Selecting update 1 shows the state right after it; the latest is untouched.
        w.timelinePanel()->selectUpdate(1);
        QCOMPARE(w.results()->shownUpdate(), qint64(1));
        QCOMPARE(targetRows(w, "users_current"), (QStringList{"124|Raul|Oaxaca"}));
        QCOMPARE(tableView(w.targetTablePanel()->rowsModel()), (QStringList{"124|Raul|Oaxaca [inserted]"}));
        QVERIFY(w.results()->description().contains(QStringLiteral("1 of 3")));
        w.timelinePanel()->selectUpdate(-1);
        QCOMPARE(targetRows(w, "users_current"),
                 (QStringList{"123|Isabel|Monterrey", "124|Raul|Oaxaca", "125|Mercedes|Tijuana"}));
        QCOMPARE(w.timelineModel()->entries().at(3).upserted, qint64(1));
    }

    void rewindHereIsUndoableAndRequeuesEvents() {
        MainWindow w;
        QVERIFY(w.projectController()->openSample(QStringLiteral("scd1-users")));
        QVERIFY(w.simulation()->runToEnd());
        finish(w);
        QCOMPARE(w.eventQueueModel()->rowCount(), 0);
        QVERIFY(w.timelinePanel()->rewindTo(2).ok());
        QCOMPARE(w.timelineModel()->lastUpdateId(), qint64(2));
        QCOMPARE(w.eventQueueModel()->rowCount(), 6);
        QCOMPARE(targetRows(w, "users_current"), (QStringList{"123|Isabel|Monterrey", "124|Raul|Oaxaca"}));
        // The third event (Mercedes' insert) is first in the queue again.
        QVERIFY(w.eventQueueModel()
                    ->index(0, EventQueueModel::ValuesColumn)
                    .data()
                    .toString()
                    .contains(QStringLiteral("Tijuana")));

        w.project()->undoStack()->undo();
        QCOMPARE(w.timelineModel()->lastUpdateId(), qint64(8));
        QCOMPARE(w.eventQueueModel()->rowCount(), 0);
        QCOMPARE(targetRows(w, "users_current"),
                 (QStringList{"124|Raul|Oaxaca", "125|Mercedes|Guadalajara", "126|Lily|Cancun"}));
        w.project()->undoStack()->redo();
        QCOMPARE(targetRows(w, "users_current"), (QStringList{"123|Isabel|Monterrey", "124|Raul|Oaxaca"}));
        QCOMPARE(w.timelineModel()->lastUpdateId(), qint64(2));

        // A different arrival order after the rewind gives the same final table.
        QVERIFY(w.eventQueueModel()->moveEvents({w.eventQueueModel()->idAt(5)}, 0).ok());
        QVERIFY(w.simulation()->runToEnd());
        finish(w);
        QCOMPARE(targetRows(w, "users_current"),
                 (QStringList{"124|Raul|Oaxaca", "125|Mercedes|Guadalajara", "126|Lily|Cancun"}));

        // Undo of a whole Run to End returns to the rewound state.
        w.project()->undoStack()->undo();
        QCOMPARE(w.timelineModel()->lastUpdateId(), qint64(2));
        QCOMPARE(w.eventQueueModel()->rowCount(), 6);
    }

    void tombstonesAreCollectedAfterTheClockMoves() {
        MainWindow w;
        QVERIFY(w.projectController()->openSample(QStringLiteral("tombstone-gc-lab")));
        for (int i = 0; i < 3; ++i) {
            QVERIFY(w.simulation()->step());
            finish(w);
        }
        const TargetSnapshot* s = target(w, "accounts");
        QVERIFY(s);
        QCOMPARE(render(s->rows), QStringList{});
        QCOMPARE(render(s->tombstones, {"accountId", "__SEQUENCE"}), (QStringList{"1|3"}));
        QCOMPARE(w.timelineModel()->entries().at(3).stale, qint64(1));
        auto* tombstones = w.tombstonePanel()->model();
        QCOMPARE(tombstones->liveCount(), 1);
        QCOMPARE(tombstones->collectedCount(), 0);
        QCOMPARE(tombstones->rowCount(), 1);
        QCOMPARE(tombstones->index(0, 0).data().toString(), QStringLiteral("1"));

        QVERIFY(w.simulation()->advanceClock(7200));
        QVERIFY(w.simulation()->step()); // Grace; the expired tombstone is collected
        finish(w);
        s = target(w, "accounts");
        QCOMPARE(render(s->tombstones), QStringList{});
        QCOMPARE(render(s->collected, {"accountId", "__SEQUENCE"}), (QStringList{"1|3"}));
        QCOMPARE(render(s->rows), (QStringList{"2|Grace"}));
        // The tombstone view lists it as collected by this update.
        QCOMPARE(tombstones->liveCount(), 0);
        QCOMPARE(tombstones->collectedCount(), 1);
        QVERIFY(tombstones->isCollected(0));
        QVERIFY(tombstones->index(0, 0).data(CollectedRole).toBool());

        QVERIFY(w.simulation()->step()); // the very late upsert resurrects account 1
        finish(w);
        QCOMPARE(targetRows(w, "accounts"), (QStringList{"1|Ada (very late)", "2|Grace"}));
    }

    void typoGetsASquiggleWithTheParsersMessage() {
        MainWindow w;
        QVERIFY(w.projectController()->openSample(QStringLiteral("scd1-users")));
        auto* editor = w.workbench()->editor();
        QVERIFY(!w.project()->document()->hasErrors());
        const QString text = editor->text();
        const int at = int(text.indexOf(QStringLiteral("KEYS")));
        QVERIFY(at > 0);
        QSignalSpy parsed(w.editorController(), &EditorController::parsed);
        editor->setSelection(
            editor->text().left(at).count('\n'), at - int(text.left(at).lastIndexOf('\n')) - 1,
            editor->text().left(at).count('\n'), at - int(text.left(at).lastIndexOf('\n')) + 3);
        editor->replaceSelectedText(QStringLiteral("KEYZ"));
        QVERIFY(parsed.wait(5000)); // debounced, not immediate
        QVERIFY(w.project()->document()->hasErrors());
        QVERIFY(w.issuesModel()->errorCount() >= 1);
        const Diagnostic* first = w.issuesModel()->at(0);
        QVERIFY(first && first->location.valid());
        const int position = int(first->location.offset);
        QVERIFY(editor->hasIndicatorAt(CodeEditor::ErrorIndicator, position));
        QVERIFY(editor->diagnosticAt(position) != nullptr);
        // An update refuses to run with the error and leaves everything as it was.
        QVERIFY(!w.simulation()->step());
        QCOMPARE(w.eventQueueModel()->rowCount(), 8);
        w.project()->undoStack()->undo();
        QVERIFY(!w.project()->document()->hasErrors());
        QVERIFY(!editor->hasIndicatorAt(CodeEditor::ErrorIndicator, position));
    }

    void formatSqlAndLiveCompletionNames() {
        MainWindow w;
        QVERIFY(w.projectController()->openSample(QStringLiteral("scd2-track-history")));
        auto* editor = w.workbench()->editor();
        // Live table and column names are highlighted / completed like keywords.
        const QList<QByteArray> names = QByteArray(editor->sqlLexer()->keywords(7)).split(' ');
        QVERIFY(names.contains("users_cdf"));
        QVERIFY(names.contains("sequencenum"));
        const QString before = editor->text();
        w.editorController()->formatAction()->trigger();
        const QString after = editor->text();
        QVERIFY(after != before); // the seed text has no final semicolon; the printer writes one
        w.project()->document()->reparseNow();
        QVERIFY(!w.project()->document()->hasErrors());
        QVERIFY(after.contains(QStringLiteral("TRACK HISTORY ON")));
        QCOMPARE(w.project()->undoStack()->undoText(), QStringLiteral("Format SQL"));
        w.project()->undoStack()->undo();
        QCOMPARE(editor->text(), before);
    }

    void saveAndReopenGivesTheSameState() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("lab.cdcstudio"));
        QStringList rows, history;
        {
            MainWindow w;
            QVERIFY(w.projectController()->openSample(QStringLiteral("scd2-users")));
            QVERIFY(w.simulation()->deliver(5));
            finish(w);
            QVERIFY(w.simulation()->step());
            finish(w);
            rows = targetRows(w, "users_history");
            QVERIFY(w.projectController()->saveTo(path));
            w.timelinePanel()->selectUpdate(1);
            history = targetRows(w, "users_history");
        }
        MainWindow w;
        QVERIFY(w.projectController()->openFile(path));
        QCOMPARE(w.eventQueueModel()->rowCount(), 2);
        QCOMPARE(w.timelineModel()->lastUpdateId(), qint64(2));
        QCOMPARE(targetRows(w, "users_history"), rows);
        w.timelinePanel()->selectUpdate(1);
        QCOMPARE(targetRows(w, "users_history"), history);
        QVERIFY(w.workbench()->editor()->text().contains(QStringLiteral("SCD TYPE 2")));
        QVERIFY(!w.isWindowModified());
        // And the run continues where it stopped.
        QVERIFY(w.simulation()->runToEnd());
        finish(w);
        QCOMPARE(
            targetRows(w, "users_history"),
            (QStringList{"123|Isabel|Monterrey|1|5", "123|Isabel|Chihuahua|5|6", "124|Raul|Oaxaca|1|null",
                         "125|Mercedes|Tijuana|2|5", "125|Mercedes|Mexicali|5|6",
                         "125|Mercedes|Guadalajara|6|null", "126|Lily|Cancun|2|null"}));
    }

    void scd2TimelineShowsOneLanePerKeyAndABarPerVersion() {
        MainWindow w;
        QVERIFY(w.projectController()->openSample(QStringLiteral("scd2-users")));
        QVERIFY(w.simulation()->runToEnd());
        finish(w);
        auto* timeline = w.scd2TimelinePanel()->model();
        QCOMPARE(w.scd2TimelinePanel()->currentTarget(), QStringLiteral("users_history"));
        QCOMPARE(timeline->lanes().size(), 4);
        QStringList lanes;
        for (int i = 0; i < timeline->lanes().size(); ++i) {
            QStringList bars;
            for (const auto& bar : timeline->lanes()[i].bars)
                bars << timeline->barLabel(bar) + (bar.open ? QStringLiteral("…") : QString());
            lanes << timeline->laneLabel(i) + QStringLiteral(": ") + bars.join(QStringLiteral(", "));
        }
        QCOMPARE(lanes.size(), 4);
        QVERIFY2(lanes[0].startsWith(QStringLiteral("123")), qPrintable(lanes.join('\n')));
        QCOMPARE(timeline->lanes()[0].bars.size(), 2);
        QVERIFY(!timeline->lanes()[0].current());      // Isabel was deleted
        QCOMPARE(timeline->lanes()[2].bars.size(), 3); // Mercedes: Tijuana, Mexicali, Guadalajara
        QVERIFY(timeline->lanes()[2].bars.last().open);
        // The last update (Isabel's late update at 5) split her history: highlighted in the lane.
        QVERIFY(timeline->lanes()[0].change != RowChange::None);

        // Clicking a version selects its row in the target table.
        const TimelineBar bar = timeline->lanes()[2].bars[1];
        emit w.scd2TimelinePanel()->versionActivated(QStringLiteral("users_history"), bar.row);
        const QModelIndex current = w.targetTablePanel()->rowsView()->currentIndex();
        QCOMPARE(current.row(), bar.row);
        QCOMPARE(w.targetTablePanel()->rowsModel()->index(current.row(), 2).data().toString(),
                 QStringLiteral("Mexicali"));
    }

    void cancelStopsBetweenUpdatesAndKeepsStateConsistent() {
        MainWindow w;
        QVERIFY(w.projectController()->openSample(QStringLiteral("scd1-users")));
        QSignalSpy finished(w.simulation()->runner(), &SimulationRunner::finished);
        QVERIFY(w.simulation()->runToEnd());
        QVERIFY(!w.simulation()->stepAction()->isEnabled()); // no second run while one is going
        QVERIFY(w.project()->isBusy());
        QVERIFY(!w.project()->advanceClock(60).ok()); // edits wait for the run
        w.simulation()->cancelAction()->trigger();
        finish(w);
        QCOMPARE(finished.size(), 1);
        const int updates = finished.first().at(0).toInt();
        // Whatever the timing, every committed update consumed exactly one event.
        QCOMPARE(w.timelineModel()->lastUpdateId(), qint64(updates));
        QCOMPARE(w.eventQueueModel()->rowCount(), 8 - updates);
        QVERIFY(w.simulation()->stepAction()->isEnabled() || updates == 8);
    }

    void fullRefreshRebuildsAChangedTargetAndIsUndoable() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QVERIFY(w.projectController()->openSample(QStringLiteral("scd2-users")));
        for (int i = 0; i < 3; ++i) {
            QVERIFY(w.simulation()->step());
            finish(w);
        }
        const QStringList history{"123|Isabel|Monterrey|1|null", "124|Raul|Oaxaca|1|null",
                                  "125|Mercedes|Tijuana|2|null"};
        QCOMPARE(targetRows(w, "users_history"), history);

        // The target becomes SCD type 1: an ordinary update refuses, names the way on and changes nothing.
        QString text = w.workbench()->editor()->text();
        QVERIFY(text.contains(QStringLiteral("SCD TYPE 2")));
        text.replace(QStringLiteral("SCD TYPE 2"), QStringLiteral("SCD TYPE 1"));
        w.workbench()->editor()->setText(text);
        w.project()->document()->reparseNow();
        QVERIFY(!w.project()->document()->hasErrors());
        QVERIFY(w.simulation()->step());
        finish(w);
        QCOMPARE(w.timelineModel()->lastUpdateId(), qint64(3));
        QCOMPARE(w.eventQueueModel()->rowCount(), 5);
        QCOMPARE(w.issuesModel()->errorCount(), 1);
        QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("Run Full Refresh")),
                 qPrintable(w.statusBar()->currentMessage()));

        // Run > Run Full Refresh (Ctrl+Shift+R) rebuilds it from the three delivered events.
        QAction* action = w.simulation()->fullRefreshAction();
        QCOMPARE(action->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
        // In the Run menu, found by its title: menus added before it must not break the check.
        QMenu* runMenu = nullptr;
        for (QAction* m : w.menuBar()->actions())
            if (m->menu() && m->text() == QStringLiteral("&Run"))
                runMenu = m->menu();
        QVERIFY(runMenu && runMenu->actions().contains(action));
        QTest::keyClick(&w, Qt::Key_R, Qt::ControlModifier | Qt::ShiftModifier);
        finish(w);
        QCOMPARE(w.timelineModel()->lastUpdateId(), qint64(4));
        QCOMPARE(w.eventQueueModel()->rowCount(), 5);
        QCOMPARE(w.issuesModel()->errorCount(), 0);
        QCOMPARE(targetRows(w, "users_history"),
                 (QStringList{"123|Isabel|Monterrey", "124|Raul|Oaxaca", "125|Mercedes|Tijuana"}));
        QCOMPARE(w.statusBar()->currentMessage(), QStringLiteral("Update 4 done"));

        // One undoable step, named after what it did.
        QCOMPARE(w.project()->undoStack()->undoText(), QStringLiteral("Full refresh"));
        w.project()->undoStack()->undo();
        QCOMPARE(w.timelineModel()->lastUpdateId(), qint64(3));
        QCOMPARE(targetRows(w, "users_history"), history);
    }

    void updateWarningsReachTheIssuesList() {
        MainWindow w;
        QVERIFY(w.projectController()->openSample(QStringLiteral("scd1-users")));
        // A second event for Raul with his first event's sequence value: a tie the update warns about.
        auto queued = projectstore::events(w.project()->db());
        QVERIFY(queued && !queued->isEmpty());
        QueuedEvent tie = queued->front();
        QCOMPARE(QString::fromStdString(displayText(tie.values[2])), QStringLiteral("Oaxaca"));
        tie.id = 0;
        tie.values[2] = Value(std::string("Puebla"));
        QVERIFY(w.project()->appendEvents({tie}, QStringLiteral("Add row")).ok());
        QCOMPARE(w.issuesModel()->warningCount(), 0);

        QVERIFY(w.simulation()->deliverAll());
        finish(w);
        QCOMPARE(w.issuesModel()->errorCount(), 0);
        QCOMPARE(w.issuesModel()->warningCount(), 1);
        QCOMPARE(w.issuesModel()->at(0)->code, std::string("SEQUENCE_TIE"));
        const QString message = w.issuesModel()->index(0, IssueListModel::MessageColumn).data().toString();
        QVERIFY2(message.contains(QStringLiteral("2 events for key userId=124")), qPrintable(message));
        QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("1 warning: see Issues")),
                 qPrintable(w.statusBar()->currentMessage()));
        QVERIFY(
            targetRows(w, "users_current").contains(QStringLiteral("124|Raul|Puebla"))); // the last to arrive

        // The next run has no tie: its issues replace the previous run's.
        QVERIFY(w.simulation()->runUpdate());
        finish(w);
        QCOMPARE(w.issuesModel()->warningCount(), 0);
        QCOMPARE(w.statusBar()->currentMessage(), QStringLiteral("Update 2 done"));
    }

    void failedUpdateChangesNothingAndIsLogged() {
        MainWindow w;
        QVERIFY(w.projectController()->openSample(QStringLiteral("scd1-users")));
        // A pipeline that reads a table that does not exist is refused before any update runs.
        const QString sample = w.workbench()->editor()->text();
        w.workbench()->editor()->setText(
            QStringLiteral("CREATE OR REFRESH STREAMING TABLE t;\nCREATE FLOW f AS AUTO CDC INTO t FROM "
                           "stream(nowhere) KEYS (id) SEQUENCE BY seq;"));
        w.project()->document()->reparseNow();
        QVERIFY(w.project()->document()->hasErrors());
        QVERIFY(!w.simulation()->step());
        QCOMPARE(w.timelineModel()->lastUpdateId(), qint64(0));

        // An update that fails while it runs (an event without a key) changes nothing and is logged.
        w.workbench()->editor()->setText(sample);
        w.project()->document()->reparseNow();
        QVERIFY(!w.project()->document()->hasErrors());
        auto queued = projectstore::events(w.project()->db());
        QVERIFY(queued && queued->size() == 8);
        QueuedEvent keyless = queued->front();
        keyless.id = 0;
        keyless.values[0] = Value(std::monostate{});
        QVERIFY(w.project()->appendEvents({keyless}, QStringLiteral("Add row")).ok());
        QVERIFY(w.simulation()->deliverAll());
        finish(w);
        QCOMPARE(w.eventQueueModel()->rowCount(), 9);
        QCOMPARE(w.timelineModel()->lastUpdateId(), qint64(0));
        QCOMPARE(w.issuesModel()->errorCount(), 1);
        QVERIFY2(w.statusBar()->currentMessage().startsWith(QStringLiteral("Update failed, nothing changed")),
                 qPrintable(w.statusBar()->currentMessage()));
        QCOMPARE(w.updateLogModel()->rowCount(), 1);
        QVERIFY(w.updateLogModel()->errorAt(0).has_value());
        QVERIFY(findSnapshot(w.results()->snapshots(), QStringLiteral("users_current")) == nullptr);
    }
};

QTEST_MAIN(TestSimulation)
#include "tst_simulation.moc"
