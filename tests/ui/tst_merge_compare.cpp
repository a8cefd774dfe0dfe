// Run › Compare with MERGE…, as a user drives it: F5 delivers the out-of-order sample's events one per
// update, Ctrl+Shift+M opens the dialog, which shows the hand-written MERGE as SQL and its table next to AUTO
// CDC's with the wrong rows and cells highlighted; the target box switches to the SCD 2 table; Copy SQL and
// Export SQL… hand the MERGE over as Databricks SQL.
#include "ui/model/EventQueueModel.h"
#include "ui/model/Project.h"
#include "ui/model/results/MergeTableModel.h"
#include "ui/widgets/CodeEditor.h"
#include "ui/widgets/MainWindow.h"
#include "ui/widgets/MergeCompareDialog.h"
#include "ui/widgets/ProjectController.h"
#include "ui/widgets/SimulationController.h"

#include "ui/UiTestSupport.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

using namespace cdc;
using namespace cdc::ui;

namespace {

using Mark = MergeTableModel::Mark;
using uitest::answerFileDialog;
using uitest::saveScreenshot;

/// The rows a view shows, as "cell|cell|..." with a row's marks after it: `[row]` for a row only on this
/// side,
/// `[cells: name,...]` for differing cells.
QStringList shown(const QTableView* view) {
    const QAbstractItemModel* model = view->model();
    QStringList rows;
    for (int r = 0; r < model->rowCount(); ++r) {
        QStringList cells, marked;
        bool whole = false;
        for (int c = 0; c < model->columnCount(); ++c) {
            const QModelIndex at = model->index(r, c);
            cells << at.data().toString();
            const auto mark = static_cast<Mark>(at.data(MergeTableModel::MarkRole).toInt());
            whole = whole || mark == Mark::RowOnlyHere;
            if (mark == Mark::CellDiffers)
                marked << model->headerData(c, Qt::Horizontal).toString();
            // What the user sees: a marked cell has a background.
            if (mark != Mark::None && !at.data(Qt::BackgroundRole).value<QColor>().isValid())
                return {QStringLiteral("marked cell without a background at %1,%2").arg(r).arg(c)};
        }
        rows << cells.join('|') + (whole ? QStringLiteral(" [row]") : QString()) +
                    (marked.isEmpty() ? QString() : QStringLiteral(" [cells: %1]").arg(marked.join(',')));
    }
    return rows;
}

} // namespace

class TestMergeCompare : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("QT_FILE_DIALOG_NATIVE", "0");
    }

    void outOfOrderLabShowsTheWrongRows() {
        MainWindow w;
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.projectController()->openSample(QStringLiteral("out-of-order-lab")));
        QCOMPARE(w.eventQueueModel()->rowCount(), 8);
        QTest::keyClick(&w, Qt::Key_F5); // Run to End: one update per event, in the sample's arrival order
        w.simulation()->waitForFinished();
        QTRY_COMPARE(w.eventQueueModel()->rowCount(), 0);

        QTest::keyClick(&w, Qt::Key_M, Qt::ControlModifier | Qt::ShiftModifier);
        MergeCompareDialog* dialog = w.mergeCompareDialog();
        QVERIFY(dialog);
        QTRY_VERIFY(dialog->isVisible());
        const QAbstractItemModelTester mergeTester(dialog->mergeModel(),
                                                   QAbstractItemModelTester::FailureReportingMode::QtTest);
        const QAbstractItemModelTester autoCdcTester(dialog->autoCdcModel(),
                                                     QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_VERIFY_WITH_TIMEOUT(dialog->comparison() && !dialog->isRunning(), 20000);
        QCOMPARE(dialog->targetBox()->currentText(), QStringLiteral("orders_current"));
        QCOMPARE(dialog->targetBox()->count(), 2);

        // SCD 1: order 2's DELETE (seq 5) came before its insert (seq 4). AUTO CDC keeps the tombstone and
        // drops the late insert; the MERGE's delete found nothing and the insert brought the order back.
        QVERIFY2(dialog->summaryLabel()->text().startsWith(
                     "MERGE differs from AUTO CDC in 1 row of orders_current: 1 only in MERGE"),
                 qPrintable(dialog->summaryLabel()->text()));
        QVERIFY(dialog->summaryLabel()->text().contains("orderId=2: only in MERGE (2, created, 25.5)"));
        QCOMPARE(shown(dialog->autoCdcView()), (QStringList{"1|delivered|10.0", "3|paid|7.5"}));
        QCOMPARE(shown(dialog->mergeView()),
                 (QStringList{"1|delivered|10.0", "2|created|25.5 [row]", "3|paid|7.5"}));
        const QString sql = dialog->sqlView()->text();
        QVERIFY2(sql.contains("MERGE INTO orders_current AS t") &&
                     sql.contains("WHEN MATCHED AND s.__is_delete THEN DELETE") &&
                     sql.contains("PARTITION BY orderId ORDER BY seq DESC"),
                 qPrintable(sql));
        QVERIFY(dialog->sqlView()->isReadOnly());

        // SCD 2, chosen with the keyboard: the MERGE closes the open version at whatever sequence arrives
        // (the late `paid` closes `shipped` at 2, before it started) and never closes order 2's late insert.
        dialog->targetBox()->setFocus();
        QTest::keyClick(dialog->targetBox(), Qt::Key_Down);
        QCOMPARE(dialog->targetBox()->currentText(), QStringLiteral("orders_history"));
        QTRY_VERIFY_WITH_TIMEOUT(dialog->comparison() && dialog->comparison()->target == "orders_history" &&
                                     !dialog->isRunning(),
                                 20000);
        QVERIFY2(dialog->summaryLabel()->text().startsWith(
                     "MERGE differs from AUTO CDC in 4 rows of orders_history: 4 with different cells"),
                 qPrintable(dialog->summaryLabel()->text()));
        QCOMPARE(shown(dialog->mergeView()),
                 (QStringList{"1|created|10.0|1|3 [cells: __END_AT]", "1|paid|10.0|2|4 [cells: __END_AT]",
                              "1|shipped|10.0|3|2 [cells: __END_AT]", "1|delivered|10.0|4|null",
                              "2|created|25.5|4|null [cells: __END_AT]", "3|created|7.0|1|2",
                              "3|paid|7.5|2|null"}));
        QCOMPARE(shown(dialog->autoCdcView()).value(2),
                 QStringLiteral("1|shipped|10.0|3|4 [cells: __END_AT]"));
        QVERIFY(dialog->sqlView()->text().contains("WHEN MATCHED THEN UPDATE SET t.__END_AT = s.__seq"));
        saveScreenshot(*dialog, QStringLiteral("merge-compare.png"));

        // Copy SQL and Export SQL…: the Databricks SQL the editor shows.
        QTest::mouseClick(dialog->copyButton(), Qt::LeftButton);
        QCOMPARE(QGuiApplication::clipboard()->text(), dialog->sqlView()->text());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("merge.sql"));
        answerFileDialog(path);
        QTest::mouseClick(dialog->exportButton(), Qt::LeftButton);
        QFile exported(path);
        QVERIFY(exported.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(exported.readAll()), dialog->sqlView()->text());

        // Esc closes it.
        QTest::keyClick(dialog, Qt::Key_Escape);
        QTRY_VERIFY(!dialog->isVisible());
    }

    /// Before any update both tables are empty and the same; the SQL is there.
    void nothingDeliveredIsIdentical() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.projectController()->openSample(QStringLiteral("scd2-users")));
        QTest::keyClick(&w, Qt::Key_M, Qt::ControlModifier | Qt::ShiftModifier);
        MergeCompareDialog* dialog = w.mergeCompareDialog();
        QVERIFY(dialog);
        QTRY_VERIFY_WITH_TIMEOUT(dialog->comparison() && !dialog->isRunning(), 20000);
        QVERIFY2(dialog->summaryLabel()->text().startsWith(
                     "MERGE gives the same table as AUTO CDC for users_history (0 rows)"),
                 qPrintable(dialog->summaryLabel()->text()));
        QCOMPARE(dialog->mergeModel()->markedRows(), 0);
        QVERIFY(dialog->sqlView()->text().contains("MERGE INTO users_history AS t"));
    }
};

QTEST_MAIN(TestMergeCompare)
#include "tst_merge_compare.moc"
