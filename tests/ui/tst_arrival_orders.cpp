// Run › Test Arrival Orders…, as a user drives it: the shortcut opens the dialog, the boxes are typed into,
// Run replays the events off the GUI thread with a progress bar, Cancel stops it, a divergence shows its
// minimal counterexample, and Load into Queue sets the project up to step through it — one step that Undo
// takes back.
#include "ui/model/EventQueueModel.h"
#include "ui/model/Project.h"
#include "ui/widgets/ArrivalOrderDialog.h"
#include "ui/widgets/MainWindow.h"
#include "ui/widgets/ProjectController.h"

#include "ui/UiTestSupport.h"

#include <QApplication>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardPaths>
#include <QtTest>

using namespace cdc;
using namespace cdc::ui;

namespace {

using uitest::saveScreenshot;

/// Shows the main window on a sample.
void showSample(MainWindow& w, const QString& sample) {
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.projectController()->openSample(sample));
}

/// Opens the dialog with its shortcut, as a user does.
ArrivalOrderDialog* openDialog(MainWindow& w) {
    QTest::keyClick(&w, Qt::Key_O, Qt::ControlModifier | Qt::ShiftModifier);
    return w.arrivalOrderDialog();
}

/// Types `value` into a spin box: select all, then the digits.
void typeInto(QSpinBox* box, int value) {
    box->setFocus();
    QTest::keyClick(box, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(box, QString::number(value));
}

} // namespace

class TestArrivalOrders : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    /// The out-of-order sample does not depend on arrival order: every replay gives its tables.
    void orderFreeSampleIsIdentical() {
        MainWindow w;
        showSample(w, QStringLiteral("out-of-order-lab"));
        if (QTest::currentTestFailed())
            return;
        ArrivalOrderDialog* dialog = openDialog(w);
        QVERIFY(dialog);
        QTRY_VERIFY(dialog->isVisible());
        typeInto(dialog->ordersBox(), 60);
        QCOMPARE(dialog->ordersBox()->value(), 60);
        QTest::mouseClick(dialog->runButton(), Qt::LeftButton);
        QVERIFY(!dialog->runButton()->isEnabled() || !dialog->isRunning());
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->isRunning() && dialog->runButton()->isEnabled(), 60000);
        QVERIFY2(dialog->reportView()->toPlainText().startsWith(
                     "arrival order does not matter: identical in 60 of 60 arrival orders (8 events"),
                 qPrintable(dialog->reportView()->toPlainText()));
        QCOMPARE(dialog->progressBar()->value(), 60);
        QVERIFY(!dialog->loadButton()->isEnabled());
        saveScreenshot(*dialog, QStringLiteral("arrival-orders-identical.png"));
    }

    /// A queued event ties with a delivered one (same key, same sequence): the later arrival wins, so the
    /// order matters. The dialog shows the two events; Load into Queue queues exactly them, in the order that
    /// gives the other table, and stepping through them gives it; Undo restores the project.
    void tieIsFoundAndLoadsIntoTheQueue() {
        MainWindow w;
        showSample(w, QStringLiteral("out-of-order-lab"));
        if (QTest::currentTestFailed())
            return;
        const Row refund{std::int64_t(3), std::string("refunded"), 7.5, std::string("UPSERT"),
                         std::int64_t(2)};
        QVERIFY(w.project()
                    ->appendEvents({QueuedEvent::row(0, QStringLiteral("lab.orders_cdf"), refund)},
                                   QStringLiteral("Queue a tie"))
                    .ok());
        const int queuedBefore = w.eventQueueModel()->rowCount();
        ArrivalOrderDialog* dialog = openDialog(w);
        QVERIFY(dialog);
        QTest::mouseClick(dialog->runButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->isRunning() && dialog->runButton()->isEnabled(), 60000);
        const QString report = dialog->reportView()->toPlainText();
        QVERIFY2(report.contains("minimal counterexample: 2 event(s) in 1 update(s)"), qPrintable(report));
        QVERIFY2(report.contains("lab.orders_cdf (3, paid, 7.5, UPSERT, 2)"), qPrintable(report));
        QVERIFY2(report.contains("lab.orders_cdf (3, refunded, 7.5, UPSERT, 2)"), qPrintable(report));
        QVERIFY(dialog->loadButton()->isEnabled());
        saveScreenshot(*dialog, QStringLiteral("arrival-orders-counterexample.png"));

        QTest::mouseClick(dialog->loadButton(), Qt::LeftButton);
        QCOMPARE(w.eventQueueModel()->rowCount(), 2);
        QVERIFY(!dialog->loadButton()->isEnabled());
        // The queue holds the arrival that differs: the in-order run keeps the later-written "refunded".
        const auto* queue = w.eventQueueModel();
        QStringList arrived;
        for (int r = 0; r < queue->rowCount(); ++r)
            arrived << queue->index(r, EventQueueModel::ValuesColumn).data().toString();
        QVERIFY2(arrived.join('|').indexOf("refunded") < arrived.join('|').indexOf("paid"),
                 qPrintable(arrived.join('|')));

        // Undo takes the whole load back: Esc closes the dialog, Ctrl+Z in the main window.
        QTest::keyClick(dialog, Qt::Key_Escape);
        QTRY_VERIFY(!dialog->isVisible());
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QTest::keyClick(&w, Qt::Key_Z, Qt::ControlModifier);
        QTRY_COMPARE(w.eventQueueModel()->rowCount(), queuedBefore);
    }

    /// Cancel stops a long run at once and says so; the dialog can run again.
    void cancelStopsTheRun() {
        MainWindow w;
        showSample(w, QStringLiteral("scd2-users"));
        if (QTest::currentTestFailed())
            return;
        ArrivalOrderDialog* dialog = openDialog(w);
        QVERIFY(dialog);
        typeInto(dialog->ordersBox(), 100000);
        QTest::mouseClick(dialog->runButton(), Qt::LeftButton);
        QVERIFY(dialog->isRunning());
        QVERIFY(dialog->cancelButton()->isEnabled());
        QTRY_VERIFY(dialog->progressBar()->value() > 0); // the window stays live: progress arrives
        saveScreenshot(*dialog, QStringLiteral("arrival-orders-running.png"));
        QTest::mouseClick(dialog->cancelButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(dialog->findChild<QLabel*>(QStringLiteral("summaryLabel"))->text(),
                                  QStringLiteral("Cancelled."), 10000);
        QVERIFY(!dialog->isRunning());
        QVERIFY(dialog->runButton()->isEnabled());
        QVERIFY(!dialog->cancelButton()->isEnabled());
    }
};

QTEST_MAIN(TestArrivalOrders)
#include "tst_arrival_orders.moc"
