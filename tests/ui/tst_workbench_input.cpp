// The workbench driven as a user drives it: key presses and clicks on the real widgets of the main window,
// asserting what the views show. Each case is a defect a new user met (issue 11): rows shown twice after a
// full refresh, a redo shortcut that did nothing, Enter swallowed by completion, Ctrl+= typing '=', a bad
// value stored as NULL, a stale target with no hint, the queue hiding what users reorder by, and more.
#include "core/common/ResultSet.h"
#include "core/sql/SqlApi.h"
#include "ui/model/EventQueueModel.h"
#include "ui/model/IssueListModel.h"
#include "ui/model/Project.h"
#include "ui/model/ProjectStore.h"
#include "ui/model/SourceRowsModel.h"
#include "ui/model/UpdateTimelineModel.h"
#include "ui/model/results/RowChange.h"
#include "ui/model/results/Scd2TimelineModel.h"
#include "ui/widgets/AdvanceClockDialog.h"
#include "ui/widgets/CodeEditor.h"
#include "ui/widgets/EditorController.h"
#include "ui/widgets/EventQueuePanel.h"
#include "ui/widgets/MainWindow.h"
#include "ui/widgets/OutdatedBanner.h"
#include "ui/widgets/ProjectController.h"
#include "ui/widgets/SimulationController.h"
#include "ui/widgets/SourceSqlDialog.h"
#include "ui/widgets/SourcesPanel.h"
#include "ui/widgets/TimelinePanel.h"
#include "ui/widgets/WorkbenchPanel.h"
#include "ui/widgets/results/ChangeLegend.h"
#include "ui/widgets/results/Scd2TimelinePanel.h"
#include "ui/widgets/results/TargetSelector.h"
#include "ui/widgets/results/TargetTablePanel.h"

#include <Qsci/qscicommand.h>
#include <Qsci/qscicommandset.h>

#include <QAction>
#include <QApplication>
#include <QContextMenuEvent>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QProgressDialog>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTimer>
#include <QToolButton>
#include <QUndoStack>
#include <QtTest>

#include <functional>

using namespace cdc;
using namespace cdc::ui;

namespace {

void finish(MainWindow& w) {
    w.simulation()->waitForFinished();
}

/// What a table view shows, row by row ("cell|cell|..."), through whatever model (or proxy) it has.
QStringList shownRows(const QTableView* view) {
    const QAbstractItemModel* model = view->model();
    QStringList lines;
    for (int r = 0; r < model->rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < model->columnCount(); ++c)
            if (!view->isColumnHidden(c))
                cells << model->index(r, c).data().toString();
        lines << cells.join(QLatin1Char('|'));
    }
    return lines;
}

QStringList headers(const QTableView* view) {
    QStringList out;
    for (int c = 0; c < view->model()->columnCount(); ++c)
        out << view->model()->headerData(c, Qt::Horizontal).toString();
    return out;
}

/// Sends a key to whatever has the keyboard focus, as the keyboard would.
void press(int key, Qt::KeyboardModifiers modifiers = Qt::NoModifier) {
    QWidget* target = QApplication::focusWidget();
    QVERIFY2(target, "nothing has the focus");
    QTest::keyClick(target, Qt::Key(key), modifiers);
}

/// Opens a sample in a shown, active window with the keyboard focus in the event queue.
void openShown(MainWindow& w, const QString& sample) {
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QVERIFY(w.projectController()->openSample(sample));
    w.eventQueuePanel()->findChild<QTableView*>()->setFocus();
    QVERIFY(QTest::qWaitFor([] { return QApplication::focusWidget() != nullptr; }));
}

/// With CDC_SCREENSHOT_DIR set, writes what the window shows there (the docs' screenshots come from here).
void saveScreenshot(QWidget* window, const QString& name) {
    const QString dir = qEnvironmentVariable("CDC_SCREENSHOT_DIR");
    if (dir.isEmpty())
        return;
    QApplication::processEvents(); // layouts settle on posted events
    QVERIFY(window->grab().save(dir + QLatin1Char('/') + name));
}

QString infoText(const MainWindow& w) {
    return w.dock(QStringLiteral("infoDock"))->findChild<QTextBrowser*>()->toPlainText();
}

/// Runs `handle` on the next modal dialog that opens (QDialog::exec blocks the test until it closes).
void onNextDialog(std::function<void(QWidget*)> handle) {
    QTimer::singleShot(0, [handle] {
        QTRY_VERIFY(QApplication::activeModalWidget() != nullptr);
        handle(QApplication::activeModalWidget());
    });
}

QString scd2Bars(const MainWindow& w) {
    const Scd2TimelineModel* model = w.scd2TimelinePanel()->model();
    QStringList lanes;
    for (int i = 0; i < model->lanes().size(); ++i) {
        QStringList bars;
        for (const TimelineBar& bar : model->lanes()[i].bars)
            bars << model->barLabel(bar);
        lanes << model->laneLabel(i) + QLatin1String(": ") + bars.join(QLatin1String(", "));
    }
    return lanes.join(QLatin1String("; "));
}

} // namespace

class TestWorkbenchInput : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("CDCStudioInputTests"));
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    void fullRefreshShowsEveryRowOnce_data() {
        QTest::addColumn<QString>("sample");
        QTest::addColumn<QStringList>("rows");
        QTest::addColumn<int>("versions");
        QTest::newRow("SCD1") << "scd1-users"
                              << QStringList{"124|Raul|Oaxaca", "125|Mercedes|Guadalajara", "126|Lily|Cancun"}
                              << 0;
        QTest::newRow("SCD2") << "scd2-users"
                              << QStringList{"123|Isabel|Monterrey|1|5",  "123|Isabel|Chihuahua|5|6",
                                             "124|Raul|Oaxaca|1|null",    "125|Mercedes|Tijuana|2|5",
                                             "125|Mercedes|Mexicali|5|6", "125|Mercedes|Guadalajara|6|null",
                                             "126|Lily|Cancun|2|null"}
                              << 7;
    }

    // Run to End (F5), then Run Full Refresh (Ctrl+Shift+R) with the pipeline unchanged: the views are
    // patched from each update's change feed, and a full refresh's feed restates every row.
    void fullRefreshShowsEveryRowOnce() {
        QFETCH(QString, sample);
        QFETCH(QStringList, rows);
        QFETCH(int, versions);
        MainWindow w;
        openShown(w, sample);
        press(Qt::Key_F5);
        finish(w);
        const QTableView* view = w.targetTablePanel()->rowsView();
        QCOMPARE(shownRows(view), rows);
        const QString bars = scd2Bars(w);

        press(Qt::Key_R, Qt::ControlModifier | Qt::ShiftModifier);
        finish(w);
        QCOMPARE(w.timelineModel()->lastUpdateId(), qint64(9));
        QCOMPARE(shownRows(view), rows);
        saveScreenshot(&w, QStringLiteral("full-refresh-%1.png").arg(sample));
        QCOMPARE(w.targetTablePanel()->legend()->entryText(RowChange::Inserted),
                 QStringLiteral("Inserted %1").arg(rows.size()));
        if (versions > 0) {
            int count = 0;
            for (const TimelineLane& lane : w.scd2TimelinePanel()->model()->lanes())
                count += int(lane.bars.size());
            QCOMPARE(count, versions);
        }
        QCOMPARE(scd2Bars(w), bars);
        // Updates after the refresh start from what it rebuilt: another refresh, then an update with nothing
        // new.
        press(Qt::Key_R, Qt::ControlModifier | Qt::ShiftModifier);
        finish(w);
        press(Qt::Key_Return, Qt::ControlModifier);
        finish(w);
        QCOMPARE(w.timelineModel()->lastUpdateId(), qint64(11));
        QCOMPARE(shownRows(view), rows);
        // Undo by shortcut goes back through the refreshes to the same rows.
        press(Qt::Key_Z, Qt::ControlModifier);
        press(Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(w.timelineModel()->lastUpdateId(), qint64(9));
        QCOMPARE(shownRows(view), rows);
    }

    // One history (docs/architecture.md): Ctrl+Z and Ctrl+Shift+Z step through the project's history
    // wherever the focus is. Outside the editor they undo an update; in the editor, typing first, then the
    // update before it; the editor keeps no history of its own that could disagree.
    void undoAndRedoByShortcutInsideAndOutsideTheEditor() {
        MainWindow w;
        openShown(w, QStringLiteral("scd1-users"));
        press(Qt::Key_F10);
        finish(w);
        QCOMPARE(w.timelineModel()->lastUpdateId(), qint64(1));
        press(Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(w.timelineModel()->lastUpdateId(), qint64(0));
        QCOMPARE(w.eventQueueModel()->rowCount(), 8);
        press(Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(w.timelineModel()->lastUpdateId(), qint64(1));
        QCOMPARE(w.eventQueueModel()->rowCount(), 7);

        CodeEditor* editor = w.workbench()->editor();
        const QString before = editor->text();
        editor->setFocus();
        editor->setCursorPosition(0, 0);
        QTest::keyClicks(editor, QStringLiteral("-- x"));
        QTest::keyClick(editor, Qt::Key_Return);
        QCOMPARE(editor->text(), QStringLiteral("-- x\n") + before);
        QVERIFY(!editor->isUndoAvailable());
        QCOMPARE(w.project()->undoStack()->undoText(), QStringLiteral("Edit SQL"));
        press(Qt::Key_Z, Qt::ControlModifier); // the typing, as one step
        QCOMPARE(editor->text(), before);
        QCOMPARE(w.timelineModel()->lastUpdateId(), qint64(1));
        QCOMPARE(QApplication::focusWidget(), static_cast<QWidget*>(editor));
        press(Qt::Key_Z, Qt::ControlModifier); // then the update before it
        QCOMPARE(w.timelineModel()->lastUpdateId(), qint64(0));
        QCOMPARE(editor->text(), before);
        press(Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        press(Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(w.timelineModel()->lastUpdateId(), qint64(1));
        QCOMPARE(editor->text(), QStringLiteral("-- x\n") + before);
        // Undo puts the text back where it changed instead of resetting the editor: the caret stays on its
        // line, which moves up by the undone line.
        editor->setCursorPosition(3, 2);
        press(Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(editor->text(), before);
        int line = -1, index = -1;
        editor->getCursorPosition(&line, &index);
        QCOMPARE(line, 2);
        QCOMPARE(index, 2);
    }

    // One owner per key: window-wide shortcuts are unique, a panel's own shortcut does not shadow a
    // window-wide one, and the SQL editor's built-in keys do not swallow the window's (Ctrl+T moved lines).
    void everyShortcutHasOneOwner() {
        MainWindow w;
        struct Owner {
            QString name;
            QList<QWidget*> scopes; ///< where a widget-bound shortcut works; empty: the whole window
        };
        QHash<QString, QList<Owner>> owners;
        QStringList problems;
        for (QAction* action : w.findChildren<QAction*>()) {
            const QList<QKeySequence> keys = action->shortcuts();
            for (int i = 0; i < keys.size(); ++i)
                for (int j = 0; j < i; ++j)
                    if (keys[i] == keys[j])
                        problems
                            << QStringLiteral("%1 lists %2 twice").arg(action->text(), keys[i].toString());
            Owner owner{action->text().remove(QLatin1Char('&')), {}};
            if (action->shortcutContext() == Qt::WidgetShortcut ||
                action->shortcutContext() == Qt::WidgetWithChildrenShortcut)
                for (QObject* object : action->associatedObjects())
                    if (auto* widget = qobject_cast<QWidget*>(object);
                        widget && !qobject_cast<QMenu*>(widget))
                        owner.scopes << widget;
            for (const QKeySequence& key : keys)
                owners[key.toString()] << owner;
        }
        const auto overlaps = [](const Owner& a, const Owner& b) {
            if (a.scopes.isEmpty() || b.scopes.isEmpty())
                return true;
            for (QWidget* x : a.scopes)
                for (QWidget* y : b.scopes)
                    if (x == y || x->isAncestorOf(y) || y->isAncestorOf(x))
                        return true;
            return false;
        };
        for (auto it = owners.cbegin(); it != owners.cend(); ++it)
            for (int i = 0; i < it.value().size(); ++i)
                for (int j = 0; j < i; ++j)
                    if (overlaps(it.value()[i], it.value()[j]))
                        problems << QStringLiteral("%1: %2 and %3")
                                        .arg(it.key(), it.value()[i].name, it.value()[j].name);

        // The editor may keep a window key only where it does the same thing itself, and Escape, which
        // closes its completion list (Cancel Update works only while an update runs).
        const QSet<QString> sharedWithEditor{QStringLiteral("Undo"), QStringLiteral("Redo"),
                                             QStringLiteral("Zoom In"), QStringLiteral("Zoom Out"),
                                             QStringLiteral("Cancel Update")};
        const Owner editor{QString(), {w.workbench()->editor()}};
        for (QsciCommand* command : w.workbench()->editor()->standardCommands()->commands())
            for (int key : {command->key(), command->alternateKey()})
                if (key != 0)
                    for (const Owner& o : owners.value(QKeySequence(key).toString()))
                        if (overlaps(o, editor) && !sharedWithEditor.contains(o.name))
                            problems << QStringLiteral("%1: %2 and the editor's %3")
                                            .arg(QKeySequence(key).toString(), o.name,
                                                 command->description());
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        QVERIFY(owners.contains(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z).toString()));
    }

    // About This Project names the project that is open, however it was opened.
    void aboutThisProjectNamesTheOpenProject() {
        QTemporaryDir dir;
        const QString alpha = dir.filePath(QStringLiteral("alpha.cdcstudio"));
        {
            MainWindow w;
            QVERIFY(w.project()->newProject().ok());
            QVERIFY(w.projectController()->saveTo(alpha));
            QVERIFY2(infoText(w).startsWith(QStringLiteral("alpha.cdcstudio")), qPrintable(infoText(w)));
        }
        MainWindow w;
        QVERIFY(w.projectController()->openFile(alpha));
        QVERIFY2(infoText(w).startsWith(QStringLiteral("alpha.cdcstudio")), qPrintable(infoText(w)));
        w.projectController()->newAction()->trigger();
        QVERIFY2(infoText(w).startsWith(QStringLiteral("Untitled")), qPrintable(infoText(w)));
    }

    // Typing a pipeline line by line: Enter after a word the completion list shows is a newline; once the
    // user moved in the list, Enter takes the entry.
    void enterAfterACompleteWordIsANewline() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        CodeEditor* editor = w.workbench()->editor();
        // Completion offers the document's words: two names are already in the text.
        const QString head = QStringLiteral("-- products_hist products_history\n");
        editor->setText(head);
        editor->setFocus();
        editor->setCursorPosition(1, 0);
        QTest::keyClicks(editor, QStringLiteral("products_hist"));
        QVERIFY(editor->isListActive());
        QTest::keyClick(editor, Qt::Key_Return);
        QTest::keyClicks(editor, QStringLiteral("FROM"));
        QCOMPARE(editor->text(), head + QStringLiteral("products_hist\nFROM"));

        editor->setText(head);
        editor->setCursorPosition(1, 0);
        QTest::keyClicks(editor, QStringLiteral("products_hi"));
        QVERIFY(editor->isListActive());
        QTest::keyClick(editor, Qt::Key_Down);
        QTest::keyClick(editor, Qt::Key_Return);
        QCOMPARE(editor->text(), head + QStringLiteral("products_history"));
    }

    // Ctrl+= and Ctrl++ on the main keyboard zoom the editor (only the keypad's did), Ctrl+- and Ctrl+0 too.
    void zoomKeysZoomTheEditorInsteadOfTyping() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        CodeEditor* editor = w.workbench()->editor();
        editor->setText(QStringLiteral("SELECT 1"));
        editor->setFocus();
        const auto zoom = [editor] { return int(editor->SendScintilla(QsciScintilla::SCI_GETZOOM)); };
        press(Qt::Key_0, Qt::ControlModifier);
        QCOMPARE(zoom(), 0);
        press(Qt::Key_Equal, Qt::ControlModifier);
        QCOMPARE(zoom(), 1);
        press(Qt::Key_Plus, Qt::ControlModifier);
        QCOMPARE(zoom(), 2);
        press(Qt::Key_Minus, Qt::ControlModifier);
        QCOMPARE(zoom(), 1);
        QCOMPARE(editor->text(), QStringLiteral("SELECT 1"));
        QCOMPARE(QSettings().value(QStringLiteral("editor/zoom")).toInt(), 1);
        press(Qt::Key_0, Qt::ControlModifier);
        QCOMPARE(zoom(), 0);
    }

    // A value the column's type cannot hold is refused where it is typed, naming the row and the column.
    void badValueIsRefusedInTheGrid() {
        MainWindow w;
        openShown(w, QStringLiteral("scd1-users"));
        w.raiseDock(QStringLiteral("sourcesDock"));
        QTableView* grid = w.sourcesPanel()->currentView();
        QVERIFY(grid);
        const int queued = w.eventQueueModel()->rowCount();
        const QAbstractItemModel* model = grid->model();
        const int last = model->rowCount() - 1;
        QCOMPARE(model->index(last, 0).data().toString(), QStringLiteral("123")); // Isabel's late update
        grid->setFocus();
        const QRect cell = grid->visualRect(model->index(last, 0));
        QTest::mouseClick(grid->viewport(), Qt::LeftButton, {}, cell.center());
        QTest::mouseDClick(grid->viewport(), Qt::LeftButton, {}, cell.center());
        QWidget* editor = QApplication::focusWidget();
        QVERIFY(editor && grid->isAncestorOf(editor));
        QTest::keyClick(editor, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(editor, QStringLiteral("seven"));
        QTest::keyClick(editor, Qt::Key_Return);
        // The view commits the editor's text on its next turn of the event loop.
        QTRY_VERIFY(w.statusBar()->currentMessage().contains(QStringLiteral("CAST_INVALID_INPUT")));
        QCOMPARE(model->index(last, 0).data().toString(), QStringLiteral("123"));
        QCOMPARE(w.eventQueueModel()->rowCount(), queued);
        const QString message = w.statusBar()->currentMessage();
        QVERIFY2(message.contains(QStringLiteral("row %1, column userId").arg(last + 1)) &&
                     message.contains(QStringLiteral("CAST_INVALID_INPUT")),
                 qPrintable(message));
    }

    // After a view the flow reads changes, the target says it is out of date and offers the full refresh.
    void changedViewMarksTheTargetOutOfDate() {
        MainWindow w;
        openShown(w, QStringLiteral("scd1-users"));
        for (int i = 0; i < 3; ++i) {
            press(Qt::Key_F10);
            finish(w);
        }
        OutdatedBanner* banner = w.outdatedBanner();
        QVERIFY(banner->isHidden());
        QString text = w.workbench()->editor()->text();
        text.replace(QStringLiteral("stream(main.cdc_tutorial.users_cdf)"),
                     QStringLiteral("stream(users_clean)"));
        text.prepend(
            QStringLiteral("CREATE TEMPORARY VIEW users_clean AS SELECT userId, upper(name) AS name, city, "
                           "operation, sequenceNum FROM stream(main.cdc_tutorial.users_cdf);\n"));
        w.workbench()->editor()->setText(text);
        w.project()->document()->reparseNow();
        QVERIFY2(!w.project()->document()->hasErrors(),
                 qPrintable(w.issuesModel()->index(0, 2).data().toString()));
        QVERIFY(banner->isVisible());
        QVERIFY2(banner->text().startsWith(QStringLiteral("users_current is out of date")),
                 qPrintable(banner->text()));
        saveScreenshot(&w, QStringLiteral("out-of-date.png"));
        bool listed = false;
        for (int i = 0; i < w.issuesModel()->rowCount(); ++i)
            listed = listed || w.issuesModel()->at(i)->code == "TARGET_OUT_OF_DATE";
        QVERIFY(listed);

        // An ordinary update mixes old and new rows: still out of date.
        press(Qt::Key_F10);
        finish(w);
        QCOMPARE(shownRows(w.targetTablePanel()->rowsView()),
                 (QStringList{"123|Isabel|Monterrey", "124|Raul|Oaxaca", "125|Mercedes|Tijuana",
                              "126|LILY|Cancun"}));
        QVERIFY(banner->isVisible());

        QTest::mouseClick(banner->button(), Qt::LeftButton);
        finish(w);
        QCOMPARE(shownRows(w.targetTablePanel()->rowsView()),
                 (QStringList{"123|ISABEL|Monterrey", "124|RAUL|Oaxaca", "125|MERCEDES|Tijuana",
                              "126|LILY|Cancun"}));
        QVERIFY(banner->isHidden());
        QCOMPARE(w.statusBar()->currentMessage(), QStringLiteral("Update 5 done"));
    }

    // Back at the start (no update), the legend counts nothing: it showed the last update's counts.
    void legendIsClearedAfterRewindingToTheStart() {
        MainWindow w;
        openShown(w, QStringLiteral("scd2-users"));
        for (int i = 0; i < 3; ++i) {
            press(Qt::Key_F10);
            finish(w);
        }
        ChangeLegend* legend = w.targetTablePanel()->legend();
        ChangeLegend* timelineLegend = w.scd2TimelinePanel()->legend();
        QCOMPARE(legend->entryText(RowChange::Inserted), QStringLiteral("Inserted 1"));
        QCOMPARE(timelineLegend->entryText(RowChange::Inserted), QStringLiteral("Inserted 1"));
        QTableView* timeline = w.timelinePanel()->findChild<QTableView*>(QStringLiteral("timelineView"));
        timeline->setFocus();
        QTest::mouseClick(timeline->viewport(), Qt::LeftButton, {},
                          timeline->visualRect(timeline->model()->index(0, 0)).center());
        QCOMPARE(w.timelinePanel()->selectedUpdate(), qint64(0));
        QCOMPARE(legend->entryText(RowChange::Inserted), QStringLiteral("Inserted"));
        QCOMPARE(timelineLegend->entryText(RowChange::Inserted), QStringLiteral("Inserted"));
        press(Qt::Key_Backspace, Qt::ControlModifier); // Rewind Here
        QCOMPARE(w.timelineModel()->lastUpdateId(), qint64(0));
        for (RowChange change : ChangePalette::changes()) {
            QCOMPARE(legend->entryText(change), ChangePalette::label(change));
            QCOMPARE(timelineLegend->entryText(change), ChangePalette::label(change));
        }
        QVERIFY(shownRows(w.targetTablePanel()->rowsView()).isEmpty());
    }

    // The operation and the sequence, what users reorder events by, have columns of their own, wide enough.
    void queueShowsOperationAndSequenceInTheirOwnColumns() {
        MainWindow w;
        openShown(w, QStringLiteral("scd1-users"));
        auto* view = w.eventQueuePanel()->findChild<QTableView*>(QStringLiteral("eventQueueView"));
        QCOMPARE(headers(view), (QStringList{"#", "Source", "Operation", "Sequence", "Row"}));
        QCOMPARE(shownRows(view).first(),
                 QStringLiteral("1|users_cdf|INSERT|1|userId=124, name=Raul, city=Oaxaca"));
        QCOMPARE(shownRows(view).at(4),
                 QStringLiteral("5|users_cdf|DELETE|6|userId=123, name=null, city=null"));
        for (int column : {int(EventQueueModel::OperationColumn), int(EventQueueModel::SequenceColumn)})
            for (int row = 0; row < view->model()->rowCount(); ++row) {
                const QString text = view->model()->index(row, column).data().toString();
                QVERIFY2(view->columnWidth(column) >= view->fontMetrics().horizontalAdvance(text),
                         qPrintable(QStringLiteral("'%1' is cut off").arg(text)));
            }
        // Alt+Down moves an event later: the columns move with it.
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {},
                          view->visualRect(view->model()->index(0, 0)).center());
        press(Qt::Key_Down, Qt::AltModifier);
        QCOMPARE(view->model()->index(1, EventQueueModel::SequenceColumn).data().toString(),
                 QStringLiteral("1"));
        QCOMPARE(view->model()->index(1, EventQueueModel::ValuesColumn).data().toString(),
                 QStringLiteral("userId=124, name=Raul, city=Oaxaca"));
    }

    // The update timeline keeps to its dock: zero counts left out, two columns behind a right-click on the
    // header.
    void updateTimelineColumnsFitAndCanBeChosen() {
        QSettings().remove(QStringLiteral("timeline/hiddenColumns"));
        MainWindow w;
        openShown(w, QStringLiteral("scd2-users"));
        press(Qt::Key_F5);
        finish(w);
        QTableView* timeline = w.timelinePanel()->view();
        QStringList shown;
        for (int c = 0; c < timeline->model()->columnCount(); ++c)
            if (!timeline->isColumnHidden(c))
                shown << timeline->model()->headerData(c, Qt::Horizontal).toString();
        QCOMPARE(shown, (QStringList{"Update", "Time", "Read", "Upserted", "Deleted", "Stale", "Versions"}));
        QCOMPARE(shownRows(timeline).at(6), QStringLiteral("#6|00:06:00|1|2|0|0|+1 −1"));
        QCOMPARE(shownRows(timeline).at(5), QStringLiteral("#5|00:05:00|1|1|0|0|−1"));
        int width = 0;
        for (int c = 0; c < timeline->model()->columnCount(); ++c)
            width += timeline->isColumnHidden(c) ? 0 : timeline->columnWidth(c);
        QVERIFY2(width <= timeline->viewport()->width(),
                 qPrintable(QStringLiteral("%1 > %2").arg(width).arg(timeline->viewport()->width())));

        // Right-click the header, tick Duration in the menu.
        QTimer::singleShot(0, [] {
            QTRY_VERIFY(QApplication::activePopupWidget() != nullptr);
            auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
            QVERIFY(menu);
            for (QAction* entry : menu->actions())
                if (entry->text() == QStringLiteral("Duration"))
                    QTest::mouseClick(menu, Qt::LeftButton, {}, menu->actionGeometry(entry).center());
        });
        QHeaderView* header = timeline->horizontalHeader();
        QContextMenuEvent rightClick(QContextMenuEvent::Mouse, QPoint(10, 5),
                                     header->mapToGlobal(QPoint(10, 5)));
        QApplication::sendEvent(header->viewport(), &rightClick);
        QTRY_VERIFY(!timeline->isColumnHidden(UpdateTimelineModel::DurationColumn));
        QCOMPARE(QSettings().value(QStringLiteral("timeline/hiddenColumns")).toList().size(), 1);
        MainWindow again;
        QVERIFY(!again.timelinePanel()->view()->isColumnHidden(UpdateTimelineModel::DurationColumn));
        QVERIFY(again.timelinePanel()->view()->isColumnHidden(UpdateTimelineModel::TombstonesColumn));
        QSettings().remove(QStringLiteral("timeline/hiddenColumns"));
    }

    // Ctrl+T asks how far to move the clock in a compact dialog; a preset sets the amount.
    // AUTO CDC FROM SNAPSHOT replayed from the keyboard: each queued step is the next snapshot, F10
    // delivers it and runs an update, the target shows the diff it produced, and Ctrl+Z gives the source
    // table back the snapshot before (seed 001's version-table example, SCD2).
    void snapshotStepsReplayFromTheKeyboard() {
        MainWindow w;
        openShown(w, QStringLiteral("snapshot-users"));
        auto* queue = w.eventQueuePanel()->findChild<QTableView*>();
        QCOMPARE(shownRows(queue),
                 (QStringList{"1|snapshot, snapshot_version|STEP||Snapshot 0: the first full copy of the "
                              "users table (users 1, 2 and 3)",
                              "2|snapshot, snapshot_version|STEP||Snapshot 1: user 1 is gone, users 2 and 3 "
                              "moved, users 4 and 6 are new"}));
        press(Qt::Key_F10);
        finish(w);
        auto* rows = w.targetTablePanel()->findChild<QTableView*>(QStringLiteral("targetRowsView"));
        QCOMPARE(shownRows(rows), (QStringList{"1|Oaxaca|0|null", "2|Monterrey|0|null", "3|Tijuana|0|null"}));
        press(Qt::Key_F10);
        finish(w);
        const QStringList seed{"1|Oaxaca|0|1",         "2|Monterrey|0|1",      "2|Carmel|1|null",
                               "3|Tijuana|0|1",        "3|Los Angeles|1|null", "4|Death Valley|1|null",
                               "6|Kings Canyon|1|null"};
        QCOMPARE(shownRows(rows), seed);
        QCOMPARE(w.eventQueueModel()->rowCount(), 0);
        // The diff of snapshot 1: the closed and new versions are marked in the grid.
        QStringList marks;
        for (int r = 0; r < rows->model()->rowCount(); ++r)
            marks << QString::number(rows->model()->index(r, 0).data(RowChangeRole).toInt());
        QCOMPARE(
            marks.join(QLatin1Char(',')),
            QStringLiteral("%1,%1,%2,%1,%2,%2,%2").arg(int(RowChange::Closed)).arg(int(RowChange::Inserted)));

        SourceRowsModel* snapshot = w.sourcesPanel()->modelFor(QStringLiteral("main.cdc_tutorial.snapshot"));
        QVERIFY(snapshot);
        QCOMPARE(snapshot->rowCount(), 4);
        press(Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(w.timelineModel()->lastUpdateId(), qint64(1));
        QCOMPARE(w.eventQueueModel()->rowCount(), 1);
        QStringList cities;
        for (int r = 0; r < snapshot->rowCount(); ++r)
            cities << snapshot->index(r, 1).data().toString();
        QCOMPARE(cities, (QStringList{"Oaxaca", "Monterrey", "Tijuana"}));
        press(Qt::Key_F10);
        finish(w);
        QCOMPARE(shownRows(rows), seed);
    }

    // Source SQL (Ctrl+E) › Queue as Step puts the whole script in the queue as one event; a script that
    // creates a table is refused with its position and queues nothing.
    void sourceSqlDialogQueuesAStep() {
        MainWindow w;
        openShown(w, QStringLiteral("snapshot-users"));
        QString refusal;
        onNextDialog([&](QWidget* widget) {
            auto* dialog = qobject_cast<SourceSqlDialog*>(widget);
            QVERIFY(dialog);
            dialog->editor()->setText(QString());
            QTest::keyClicks(dialog->editor(), QStringLiteral("CREATE TABLE t (a INT);"));
            auto* step = dialog->findChild<QPushButton*>(QStringLiteral("queueAsStepButton"));
            QVERIFY(step);
            QTest::mouseClick(step, Qt::LeftButton);
            QVERIFY(dialog->isVisible());
            for (auto* label : dialog->findChildren<QLabel*>())
                if (label->text().contains(QStringLiteral("error")))
                    refusal = label->text();
            dialog->editor()->setText(QString());
            QTest::keyClicks(dialog->editor(), QStringLiteral("-- Snapshot 2: Tijuana is back"));
            QTest::keyClick(dialog->editor(), Qt::Key_Return);
            QTest::keyClicks(
                dialog->editor(),
                QStringLiteral("UPDATE main.cdc_tutorial.snapshot SET city = 'Tijuana' WHERE userId = 3;"));
            QTest::mouseClick(step, Qt::LeftButton);
        });
        press(Qt::Key_E, Qt::ControlModifier);
        QVERIFY2(refusal.contains(QStringLiteral("source.sql:1:1: error: a queued step only writes rows")),
                 qPrintable(refusal));
        QCOMPARE(w.eventQueueModel()->rowCount(), 3);
        QCOMPARE(w.eventQueueModel()->index(2, EventQueueModel::ValuesColumn).data().toString(),
                 QStringLiteral("Snapshot 2: Tijuana is back"));
        QCOMPARE(w.eventQueueModel()->index(2, EventQueueModel::SourceColumn).data().toString(),
                 QStringLiteral("snapshot"));
        QCOMPARE(w.project()->undoStack()->undoText(), QStringLiteral("Queue step"));
        // Back in the window (offscreen gives the focus back to no one), Ctrl+Z takes the step out again.
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        w.eventQueuePanel()->findChild<QTableView*>()->setFocus();
        QVERIFY(QTest::qWaitFor([] { return QApplication::focusWidget() != nullptr; }));
        press(Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(w.eventQueueModel()->rowCount(), 2);
    }

    // Source SQL runs off the GUI thread: a script that takes long shows a progress dialog whose Cancel stops
    // it; the script is rolled back whole (the table its first statement made is not there), nothing is added
    // to the history, the dialog says why and stays open with the text; the same dialog then executes a
    // script that ends, as one undo step.
    void sourceSqlRunsCancellably() {
        MainWindow w;
        openShown(w, QStringLiteral("scd1-users"));
        const int steps = w.project()->undoStack()->count();
        QString values;
        for (int i = 1; i <= 100; ++i)
            values += (i > 1 ? QStringLiteral(", (") : QStringLiteral("(")) + QString::number(i) + ')';
        QString message;
        bool progressShown = false;
        onNextDialog([&](QWidget* widget) {
            auto* dialog = qobject_cast<SourceSqlDialog*>(widget);
            QVERIFY(dialog);
            // 10^12 rows: it never ends by itself.
            dialog->editor()->setText(QStringLiteral("CREATE TABLE n AS SELECT * FROM VALUES %1 AS t(x);\n"
                                                     "CREATE TABLE copies AS SELECT a.x FROM n a, n b, n c, "
                                                     "n d, n e, n f;")
                                          .arg(values));
            auto* execute = dialog->findChild<QPushButton*>(QStringLiteral("executeButton"));
            QVERIFY(execute);
            QTimer::singleShot(0, [&] {
                QProgressDialog* progress = nullptr;
                QTRY_VERIFY(
                    (progress = dialog->findChild<QProgressDialog*>(QStringLiteral("sourceSqlProgress"))) &&
                    progress->isVisible());
                progressShown = true;
                auto* cancel = progress->findChild<QPushButton*>();
                QVERIFY(cancel);
                QTest::mouseClick(cancel, Qt::LeftButton);
            });
            QTest::mouseClick(execute, Qt::LeftButton);
            QVERIFY(dialog->isVisible());
            for (auto* label : dialog->findChildren<QLabel*>())
                if (label->text().contains(QStringLiteral("error")))
                    message = label->text();
            dialog->editor()->setText(
                QStringLiteral("CREATE TABLE n AS SELECT * FROM VALUES %1 AS t(x);").arg(values));
            QTest::mouseClick(execute, Qt::LeftButton);
        });
        press(Qt::Key_E, Qt::ControlModifier);
        QVERIFY(progressShown);
        QVERIFY2(message.contains(QStringLiteral("cancel")), qPrintable(message));
        QCOMPARE(w.project()->undoStack()->count(), steps + 1);
        QCOMPARE(w.project()->undoStack()->undoText(), QStringLiteral("Run source SQL"));
        auto count = cdc::sql::runQuery(w.project()->db(), "SELECT count(*) FROM n", "<test>", {});
        QVERIFY2(count, count ? "" : count.error().format().c_str());
        QCOMPARE(std::get<std::int64_t>(count->rows.at(0).at(0)), std::int64_t{100});
        QVERIFY(!cdc::sql::runQuery(w.project()->db(), "SELECT count(*) FROM copies", "<test>", {}));
    }

    void advanceClockDialogMovesTheClock() {
        MainWindow w;
        openShown(w, QStringLiteral("tombstone-gc-lab"));
        const qint64 before = w.project()->clock();
        int width = 0;
        QString preview;
        onNextDialog([&](QWidget* dialog) {
            auto* clock = qobject_cast<AdvanceClockDialog*>(dialog);
            QVERIFY(clock);
            width = clock->width();
            for (auto* button : clock->findChildren<QPushButton*>())
                if (button->text() == QStringLiteral("2 days + 1 s"))
                    QTest::mouseClick(button, Qt::LeftButton);
            QCOMPARE(clock->seconds(), qint64(172801));
            preview = clock->previewText();
            QTest::keyClick(clock->amountBox(), Qt::Key_Return);
        });
        press(Qt::Key_T, Qt::ControlModifier);
        QCOMPARE(w.project()->clock(), before + 172801);
        QCOMPARE(preview, QDateTime::fromSecsSinceEpoch(before + 172801, Qt::UTC)
                              .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'")));
        QVERIFY2(width > 0 && width < 640, qPrintable(QString::number(width)));
        QVERIFY2(w.statusBar()->currentMessage().startsWith(QStringLiteral("Clock advanced by 172")),
                 qPrintable(w.statusBar()->currentMessage()));
    }

    // The window's size and its docks are as the user left them at the next start, also when the session
    // ended without the window being closed (a killed app, a closed X session).
    void windowLayoutIsRememberedBetweenRuns() {
        QSettings().clear();
        {
            MainWindow w;
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            w.resize(1100, 720);
            w.dock(QStringLiteral("logDock"))->toggleViewAction()->trigger();
            QVERIFY(w.dock(QStringLiteral("logDock"))->isHidden());
            QTRY_VERIFY_WITH_TIMEOUT(QSettings().contains(QStringLiteral("window/state")), 5000);
            QTest::qWait(1000); // the last change is written shortly after it
        }
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(w.size(), QSize(1100, 720));
        QVERIFY(w.dock(QStringLiteral("logDock"))->isHidden());
        QVERIFY(w.dock(QStringLiteral("targetsDock"))->isVisible());
        QSettings().clear();
    }

    // A database the CLI updated opens with the pipeline it ran and shows its targets, whatever the editor
    // says afterwards.
    void cliDatabaseOpensWithItsPipelineAndTargets() {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("state.db"));
        const QString pipeline = QStringLiteral(CDC_SOURCE_DIR "/samples/scd1-users/pipeline.sql");
        const auto cli = [&](const QStringList& args) {
            QProcess p;
            p.start(QStringLiteral(CDC_CLI_PATH), QStringList{QStringLiteral("--db"), db} + args);
            QVERIFY(p.waitForFinished(60000));
            QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        };
        cli({QStringLiteral("sql"), QStringLiteral(CDC_SOURCE_DIR "/samples/scd1-users/sources.sql"),
             QStringLiteral(CDC_SOURCE_DIR "/samples/scd1-users/events.sql")});
        cli({QStringLiteral("update"), pipeline, QStringLiteral("--now"),
             QStringLiteral("2026-08-30T10:00:00Z")});

        MainWindow w;
        QVERIFY(w.projectController()->openFile(db));
        QFile file(pipeline);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(w.workbench()->editor()->text(), QString::fromUtf8(file.readAll()));
        const TargetSelector* selector = w.targetTablePanel()->targetSelector();
        QCOMPARE(selector->count(), 1);
        QCOMPARE(selector->itemText(0), QStringLiteral("users_current"));
        const QStringList rows{"124|Raul|Oaxaca", "125|Mercedes|Guadalajara", "126|Lily|Cancun"};
        QCOMPARE(shownRows(w.targetTablePanel()->rowsView()), rows);
        QVERIFY(infoText(w).startsWith(QStringLiteral("state.db")));

        // A pipeline that no longer names the target (or does not parse) leaves the stored target on show.
        w.workbench()->editor()->setText(QStringLiteral("CREATE OR REFRESH STREAMING TABLE other;"));
        w.project()->document()->reparseNow();
        QCOMPARE(shownRows(w.targetTablePanel()->rowsView()), rows);
        w.workbench()->editor()->setText(QStringLiteral("CREATE OR REFRESH STREAMIN"));
        w.project()->document()->reparseNow();
        QVERIFY(w.project()->document()->hasErrors());
        QCOMPARE(shownRows(w.targetTablePanel()->rowsView()), rows);
    }

    // --show-dock takes every dock's name; an unknown one is an error that lists them.
    void showDockOptionRejectsUnknownNames() {
        QTemporaryDir dir;
        QProcess app;
        app.start(QStringLiteral(CDC_GUI_PATH),
                  {QStringLiteral("--show-dock"), QStringLiteral("timelineDok"),
                   QStringLiteral("--screenshot"), dir.filePath(QStringLiteral("a.png"))});
        QVERIFY(app.waitForFinished(60000));
        QCOMPARE(app.exitCode(), 2);
        const QString error = QString::fromUtf8(app.readAllStandardError());
        QVERIFY2(error.contains(QStringLiteral("no dock 'timelineDok'")) &&
                     error.contains(QStringLiteral("scd2Dock")),
                 qPrintable(error));

        app.start(QStringLiteral(CDC_GUI_PATH),
                  {QStringLiteral("--sample"), QStringLiteral("scd2-users"), QStringLiteral("--step"),
                   QStringLiteral("3"), QStringLiteral("--show-dock"), QStringLiteral("scd2Dock"),
                   QStringLiteral("--screenshot"), dir.filePath(QStringLiteral("b.png"))});
        QVERIFY(app.waitForFinished(60000));
        QCOMPARE(app.exitCode(), 0);
        QVERIFY(QFileInfo(dir.filePath(QStringLiteral("b.png"))).size() > 0);
    }
};

QTEST_MAIN(TestWorkbenchInput)
#include "tst_workbench_input.moc"
