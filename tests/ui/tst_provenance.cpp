// Explain Row (Why This Row?), as a user drives it: step the seed SCD1 sample to its end (F5), click a row
// of Target Tables, press Ctrl+Shift+Y, and read every event of that key with its fate; click an event to see
// its row in Sources, click its update to select it in the Update Timeline; type a deleted key into the panel
// and press Enter. The panel works off the GUI thread and never changes the project.
#include "UiTestSupport.h"
#include "ui/model/Project.h"
#include "ui/model/results/ProvenanceModels.h"
#include "ui/model/results/TargetRowsModel.h"
#include "ui/widgets/MainWindow.h"
#include "ui/widgets/ProjectController.h"
#include "ui/widgets/SimulationController.h"
#include "ui/widgets/SourcesPanel.h"
#include "ui/widgets/TimelinePanel.h"
#include "ui/widgets/results/ProvenancePanel.h"
#include "ui/widgets/results/TargetTablePanel.h"

#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QtTest>

using namespace cdc;
using namespace cdc::ui;
using uitest::saveScreenshot;

namespace {

/// The seed SCD1 sample run to its end, one event per update (F5), in a shown window.
void runSampleToEnd(MainWindow& w, const QString& sample) {
    w.show();
    QApplication::setActiveWindow(&w);
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QVERIFY(w.projectController()->openSample(sample));
    QTest::keyClick(&w, Qt::Key_F5);
    w.simulation()->waitForFinished();
    QTRY_VERIFY(!w.project()->isBusy());
}

/// The view row of Target Tables whose first cell reads `key`.
int targetRow(MainWindow& w, const QString& key) {
    QTableView* view = w.targetTablePanel()->rowsView();
    for (int r = 0; r < view->model()->rowCount(); ++r)
        if (view->model()->index(r, 0).data().toString() == key)
            return r;
    return -1;
}

/// "sequence fate" per event of the panel, in its order.
QStringList fates(const ProvenancePanel* panel) {
    QStringList out;
    const auto* model = panel->eventsModel();
    for (int r = 0; r < model->rowCount(); ++r)
        out << model->index(r, ProvenanceEventsModel::SequenceColumn).data().toString() + " " +
                   model->index(r, ProvenanceEventsModel::FateColumn).data().toString();
    return out;
}

void clickCell(QTableView* view, int row, int column) {
    const QModelIndex at = view->model()->index(row, column);
    view->scrollTo(at);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(at).center());
}

} // namespace

class TestProvenancePanel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    /// Mercedes (125): the move to Guadalajara (6) is her row; the late Mexicali update (5) is stale.
    void explainSelectedRow() {
        MainWindow w;
        runSampleToEnd(w, QStringLiteral("scd1-users"));
        if (QTest::currentTestFailed())
            return;
        const int row = targetRow(w, QStringLiteral("125"));
        QVERIFY(row >= 0);
        clickCell(w.targetTablePanel()->rowsView(), row, 1);
        QTest::keyClick(&w, Qt::Key_Y, Qt::ControlModifier | Qt::ShiftModifier);
        ProvenancePanel* panel = w.provenancePanel();
        QTRY_VERIFY(panel->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(!panel->isRunning() && panel->eventsModel()->rowCount() > 0, 30000);
        QCOMPARE(panel->targetBox()->currentText(), QStringLiteral("users_current"));
        QCOMPARE(panel->keyEdit()->text(), QStringLiteral("userId = 125"));
        QCOMPARE(fates(panel), QStringList({"2 superseded", "5 stale", "6 current"}));
        QVERIFY2(panel->summaryLabel()->text().contains("is live: its row is the sequence 6"),
                 qPrintable(panel->summaryLabel()->text()));
        // Every column of the row was set by the event at 6.
        const auto* origins = panel->originsModel();
        QCOMPARE(origins->rowCount(), 3);
        QCOMPARE(origins->index(2, ColumnOriginModel::ValueColumn).data().toString(),
                 QStringLiteral("Guadalajara"));
        QVERIFY(origins->index(2, ColumnOriginModel::SetByColumn).data().toString().startsWith("sequence 6"));
        saveScreenshot(w, QStringLiteral("provenance.png"));

        // Clicking the stale event shows its source row (the seventh the sample delivers).
        clickCell(panel->eventsView(), 1, ProvenanceEventsModel::SequenceColumn);
        QTableView* sources = w.sourcesPanel()->currentView();
        QVERIFY(sources);
        QTRY_COMPARE(sources->currentIndex().row(), 6);
        QCOMPARE(sources->model()->index(6, 2).data().toString(), QStringLiteral("Mexicali"));
        // Clicking its update selects that update in the timeline.
        clickCell(panel->eventsView(), 1, ProvenanceEventsModel::UpdateColumn);
        QTRY_COMPARE(w.timelinePanel()->selectedUpdate(), qint64(7));
    }

    /// Isabel (123) has no row: her key typed into the panel, Enter explains it — the delete at 6 left a
    /// tombstone that blocked the late update at 5.
    void explainTypedDeletedKey() {
        MainWindow w;
        runSampleToEnd(w, QStringLiteral("scd1-users"));
        if (QTest::currentTestFailed())
            return;
        ProvenancePanel* panel = w.provenancePanel();
        // The user brings the Why This Row? tab forward first.
        auto* dock = w.findChild<QDockWidget*>(QStringLiteral("provenanceDock"));
        QVERIFY(dock);
        dock->raise();
        QTRY_VERIFY(panel->isVisible());
        QCOMPARE(panel->targetBox()->count(), 1);
        panel->keyEdit()->setFocus();
        QTest::keyClicks(panel->keyEdit(), QStringLiteral("userId = 123"));
        QTest::keyClick(panel->keyEdit(), Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(!panel->isRunning() && panel->eventsModel()->rowCount() > 0, 30000);
        QCOMPARE(fates(panel), QStringList({"1 superseded", "5 blocked by tombstone", "6 tombstone"}));
        QVERIFY2(panel->summaryLabel()->text().contains("is deleted"),
                 qPrintable(panel->summaryLabel()->text()));
        QVERIFY(!panel->originsView()->isVisible());
        // A key that is not a number is refused with a message, and nothing runs.
        panel->keyEdit()->clear();
        QTest::keyClicks(panel->keyEdit(), QStringLiteral("userId = x"));
        QTest::keyClick(panel->keyEdit(), Qt::Key_Return);
        QVERIFY(!panel->isRunning());
        QVERIFY2(panel->summaryLabel()->text().contains("not a whole number"),
                 qPrintable(panel->summaryLabel()->text()));
    }

    /// The SCD2 seed: Mercedes' Mexicali version is closed at 6, where Guadalajara opened the next.
    void explainsScd2Version() {
        MainWindow w;
        runSampleToEnd(w, QStringLiteral("scd2-users"));
        if (QTest::currentTestFailed())
            return;
        const int row = targetRow(w, QStringLiteral("125"));
        QVERIFY(row >= 0);
        clickCell(w.targetTablePanel()->rowsView(), row, 1);
        w.targetTablePanel()->explainAction()->trigger();
        ProvenancePanel* panel = w.provenancePanel();
        QTRY_VERIFY_WITH_TIMEOUT(!panel->isRunning() && panel->eventsModel()->rowCount() > 0, 30000);
        QCOMPARE(fates(panel), QStringList({"2 opened version", "5 opened version", "6 opened version"}));
        const QString why =
            panel->eventsModel()->index(1, panel->eventsModel()->whyColumn()).data().toString();
        QVERIFY2(why.contains("opened the version [5, 6)") && why.contains("it arrived late"),
                 qPrintable(why));
        saveScreenshot(w, QStringLiteral("provenance-scd2.png"));
    }

    /// An event's link to its source row selects the row in the Sources grid; a row the grid does not show
    /// (older than the latest delivered rows it shows) is said so in the status bar instead of doing nothing.
    void sourceRowLinkSelectsTheRowOrSaysWhy() {
        MainWindow w;
        runSampleToEnd(w, QStringLiteral("scd1-users"));
        if (QTest::currentTestFailed())
            return;
        ProvenancePanel* panel = w.provenancePanel();
        emit panel->sourceRowRequested(QStringLiteral("users_cdf"), 1);
        auto* sourcesDock = w.findChild<QDockWidget*>(QStringLiteral("sourcesDock"));
        QVERIFY(sourcesDock);
        QTRY_VERIFY(!sourcesDock->visibleRegion().isEmpty());
        emit panel->sourceRowRequested(QStringLiteral("users_cdf"), 999999);
        QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("does not show that row")),
                 qPrintable(w.statusBar()->currentMessage()));
    }
};

QTEST_MAIN(TestProvenancePanel)
#include "tst_provenance.moc"
