// The result panels driven offscreen with real events: what the user sees after an update.
#include "ResultFixtures.h"

#include "ui/model/results/ChangeFeedModel.h"
#include "ui/model/results/Scd2TimelineModel.h"
#include "ui/model/results/TargetRowsModel.h"
#include "ui/model/results/TombstoneModel.h"
#include "ui/widgets/results/ChangeLegend.h"
#include "ui/widgets/results/Scd2TimelinePanel.h"
#include "ui/widgets/results/Scd2TimelineView.h"
#include "ui/widgets/results/TargetSelector.h"
#include "ui/widgets/results/TargetTablePanel.h"
#include "ui/widgets/results/TombstonePanel.h"

#include <QAction>
#include <QApplication>
#include <QHeaderView>
#include <QScrollBar>
#include <QTableView>
#include <QToolBar>
#include <QToolButton>
#include <QToolTip>
#include <QtTest>

using namespace cdc::ui;
using namespace cdc::test;

namespace {
QList<TargetSnapshot> update2() {
    return {scd1AfterDeletes(), scd2AfterUpdate2()};
}
QList<TargetSnapshot> update3() {
    return {scd1AfterGc(), scd2StartMovedEarlier()};
}

QPoint centerOf(const QRectF& r) {
    return r.center().toPoint();
}

/// Lets pending layout requests run, as the event loop would before the user sees the widget.
bool saveShot(QWidget& w, const QString& name, const QString& suffix) {
    for (int i = 0; i < 3; ++i) // nested layouts settle one level per pass
        QCoreApplication::processEvents();
    return w.grab().save(QDir::tempPath() + QStringLiteral("/cdc_views_%1_%2.png").arg(name, suffix));
}
} // namespace

class TestResultWidgets : public QObject {
    Q_OBJECT
private slots:
    void tablePanelShowsRowsAndLegend();
    void tablePanelKeepsSelectedTarget();
    void changeFeedToggle();
    void tablePanelSelectRow();
    void placeholders();
    void timelineListsOnlyScd2Targets();
    void timelineBarGeometry();
    void timelineClickActivatesVersion();
    void timelineHoverTooltip();
    void timelineZoom();
    void timelineKeyboardSelection();
    void timelineSelectRowScrollsToLane();
    void tombstonePanelBeforeAndAfterGc();
    void renderScreenshots_data();
    void renderScreenshots();
};

void TestResultWidgets::tablePanelShowsRowsAndLegend() {
    TargetTablePanel panel;
    panel.resize(900, 300);
    panel.show();
    panel.setSnapshots(update2());
    QCOMPARE(panel.targetSelector()->count(), 2);
    QCOMPARE(panel.currentTarget(), QStringLiteral("users"));
    QVERIFY(panel.placeholderText().isEmpty());
    QTableView* view = panel.rowsView();
    QVERIFY(view->isVisible());
    QCOMPARE(view->model()->rowCount(), 5);
    QCOMPARE(view->model()->index(1, 2).data().toString(), QStringLiteral("Guadalajara"));
    QCOMPARE(static_cast<RowChange>(view->model()->index(4, 0).data(RowChangeRole).toInt()),
             RowChange::Deleted);
    QCOMPARE(panel.legend()->entryText(RowChange::Inserted), QStringLiteral("Inserted 1"));
    QCOMPARE(panel.legend()->entryText(RowChange::Updated), QStringLiteral("Changed 1"));
    QCOMPARE(panel.legend()->entryText(RowChange::Closed), QStringLiteral("Closed 0"));
    QCOMPARE(panel.legend()->entryText(RowChange::Deleted), QStringLiteral("Deleted 1"));
    QCOMPARE(panel.summaryText(), QStringLiteral("SCD type 1 · update 2 · 4 rows"));
}

void TestResultWidgets::tablePanelKeepsSelectedTarget() {
    TargetTablePanel panel;
    panel.show();
    panel.setSnapshots(update2());
    QSignalSpy changed(&panel, &ResultPanel::targetChanged);
    panel.targetSelector()->setCurrentIndex(1);
    QCOMPARE(changed.size(), 1);
    QCOMPARE(panel.currentTarget(), QStringLiteral("users_scd2"));
    QCOMPARE(panel.rowsModel()->rowCount(), 7);
    QCOMPARE(panel.legend()->entryText(RowChange::Closed), QStringLiteral("Closed 2"));

    panel.setSnapshots(update3());
    QCOMPARE(changed.size(), 1); // still the same target, now with update 3's rows
    QCOMPARE(panel.currentTarget(), QStringLiteral("users_scd2"));
    QCOMPARE(panel.rowsModel()->rowCount(), 8);
    QCOMPARE(panel.rowsModel()->snapshot().updateId, 3);

    // A target that disappears falls back to the first one.
    panel.setSnapshots({scd1AfterGc()});
    QCOMPARE(panel.currentTarget(), QStringLiteral("users"));
    QCOMPARE(changed.size(), 2);
}

void TestResultWidgets::changeFeedToggle() {
    TargetTablePanel panel;
    panel.resize(900, 300);
    panel.show();
    panel.setSnapshots(update2());
    QVERIFY(!panel.isChangeFeedVisible());
    auto* button = qobject_cast<QToolButton*>(panel.toolBar()->widgetForAction(panel.changeFeedAction()));
    QVERIFY(button);
    QCOMPARE(button->text(), QStringLiteral("Change feed"));
    QTest::mouseClick(button, Qt::LeftButton);
    QVERIFY(panel.isChangeFeedVisible());
    QVERIFY(panel.feedView()->isVisible());
    QVERIFY(!panel.rowsView()->isVisible());
    QVERIFY(!panel.legend()->isVisible());
    QAbstractItemModel* feed = panel.feedView()->model();
    QCOMPARE(feed->rowCount(), 4);
    QCOMPARE(feed->index(0, 3).data().toString(), QStringLiteral("delete"));
    QCOMPARE(feed->index(2, 3).data().toString(), QStringLiteral("update_postimage"));
    QCOMPARE(panel.summaryText(), QStringLiteral("SCD type 1 · update 2 · 4 changes"));

    // The feed follows the target and the update.
    panel.targetSelector()->setCurrentIndex(1);
    QCOMPARE(feed->rowCount(), 7);
    panel.setSnapshots(update3());
    QCOMPARE(feed->rowCount(), 2);
    QVERIFY(panel.isChangeFeedVisible());

    panel.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&panel));
    panel.feedView()->setFocus();
    QTest::keyClick(panel.feedView(), Qt::Key_F6, Qt::ControlModifier);
    QVERIFY(!panel.isChangeFeedVisible());
    QVERIFY(panel.rowsView()->isVisible());
    QVERIFY(!button->isChecked());
}

void TestResultWidgets::tablePanelSelectRow() {
    TargetTablePanel panel;
    panel.resize(700, 200);
    panel.show();
    panel.setSnapshots(update2());
    panel.setChangeFeedVisible(true);
    QSignalSpy selected(&panel, &TargetTablePanel::rowSelected);
    panel.selectRow(QStringLiteral("users_scd2"), 4);
    QCOMPARE(panel.currentTarget(), QStringLiteral("users_scd2"));
    QVERIFY(!panel.isChangeFeedVisible());
    QCOMPARE(panel.rowsView()->currentIndex().row(), 4);
    QVERIFY(panel.rowsView()->selectionModel()->isRowSelected(4, {}));
    QCOMPARE(selected.size(), 0); // programmatic: no echo

    // A click by the user is announced.
    QTableView* view = panel.rowsView();
    const QRect cell = view->visualRect(view->model()->index(1, 1));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, cell.center());
    QCOMPARE(selected.size(), 1);
    QCOMPARE(selected[0][0].toString(), QStringLiteral("users_scd2"));
    QCOMPARE(selected[0][1].toInt(), 1);

    // Far rows of a lazily fetched table are fetched on demand.
    panel.setSnapshots({scd2Large(3000, 1)});
    panel.selectRow(QStringLiteral("big"), 2500);
    QCOMPARE(panel.rowsView()->currentIndex().row(), 2500);
    QCOMPARE(panel.rowsView()->currentIndex().data().toString(), QStringLiteral("2500"));
}

void TestResultWidgets::placeholders() {
    TargetTablePanel table;
    Scd2TimelinePanel timeline;
    TombstonePanel tombstones;
    for (ResultPanel* p : std::initializer_list<ResultPanel*>{&table, &timeline, &tombstones}) {
        p->show();
        QVERIFY(!p->placeholderText().isEmpty());
        QVERIFY(!p->targetSelector()->isEnabled());
    }
    timeline.setSnapshots({scd1AfterDeletes()});
    QVERIFY(timeline.placeholderText().contains(QStringLiteral("SCD type 2")));
    table.setSnapshots({scd1AfterDeletes()});
    QVERIFY(table.placeholderText().isEmpty());
    table.setSnapshots({});
    QVERIFY(!table.placeholderText().isEmpty());
    QCOMPARE(table.rowsModel()->rowCount(), 0);
}

void TestResultWidgets::timelineListsOnlyScd2Targets() {
    Scd2TimelinePanel panel;
    panel.show();
    panel.setSnapshots({scd1AfterDeletes(), scd2AfterUpdate2(), scd2Timestamps()});
    QCOMPARE(panel.targetSelector()->count(), 2);
    QCOMPARE(panel.currentTarget(), QStringLiteral("users_scd2"));
    QCOMPARE(panel.model()->lanes().size(), 4);
    QCOMPARE(panel.summaryText(), QStringLiteral("update 2 · 4 keys · 7 versions · sequence BIGINT"));
    panel.selectTarget(QStringLiteral("devices"));
    QCOMPARE(panel.model()->lanes().size(), 2);
    QCOMPARE(panel.model()->axis().scale(), SequenceAxis::Scale::Temporal);
}

void TestResultWidgets::timelineBarGeometry() {
    Scd2TimelinePanel panel;
    panel.resize(900, 320);
    panel.show();
    panel.setSnapshots(update2());
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    Scd2TimelineView* view = panel.view();
    const double ppu = view->pixelsPerUnit();
    QVERIFY(ppu > 10);

    // 123: Monterrey [1,5) then Chihuahua [5,6): adjacent bars, widths proportional to the sequence span.
    const QRectF monterrey = view->barRect(0, 0), chihuahua = view->barRect(0, 1);
    QCOMPARE(monterrey.left(), view->xOf(1));
    QVERIFY(qAbs(monterrey.width() - 4 * ppu) < 0.01);
    QVERIFY(qAbs(chihuahua.left() - monterrey.right()) < 0.01);
    QVERIFY(qAbs(chihuahua.width() - ppu) < 0.01);
    QVERIFY(monterrey.left() > view->gutterWidth());
    // Lanes stack below the header.
    QCOMPARE(view->laneRect(0).top(), view->headerHeight());
    QCOMPARE(view->laneRect(2).top(), view->headerHeight() + 2 * view->laneHeight());
    QVERIFY(view->laneRect(2).contains(centerOf(view->barRect(2, 1))));
    // Open-ended versions run past the last sequence value, within the viewport at fit.
    const QRectF raul = view->barRect(1, 0);
    QVERIFY(raul.right() > view->xOf(6) + 10);
    QVERIFY(raul.right() <= view->viewport()->width());
    QCOMPARE(view->visibleLanes(), std::make_pair(0, 3));
    QCOMPARE(view->hitTest(centerOf(monterrey)), (Scd2TimelineView::Hit{0, 0}));
    QVERIFY(!view->hitTest(QPoint(5, view->laneRect(0).center().y())).valid()); // the gutter
}

void TestResultWidgets::timelineClickActivatesVersion() {
    Scd2TimelinePanel panel;
    panel.resize(900, 320);
    panel.show();
    panel.setSnapshots(update2());
    Scd2TimelineView* view = panel.view();
    QSignalSpy activated(&panel, &Scd2TimelinePanel::versionActivated);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, centerOf(view->barRect(2, 1))); // 125 Mexicali
    QCOMPARE(activated.size(), 1);
    QCOMPARE(activated[0][0].toString(), QStringLiteral("users_scd2"));
    QCOMPARE(activated[0][1].toInt(), 4);
    QCOMPARE(view->selection(), (Scd2TimelineView::Hit{2, 1}));

    // Wired to the table panel, the click selects the row there.
    TargetTablePanel table;
    table.show();
    table.setSnapshots(update2());
    connect(&panel, &Scd2TimelinePanel::versionActivated, &table, &TargetTablePanel::selectRow);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, centerOf(view->barRect(0, 1))); // 123 Chihuahua
    QCOMPARE(table.currentTarget(), QStringLiteral("users_scd2"));
    QCOMPARE(table.rowsView()->currentIndex().row(), 1);
    QCOMPARE(table.rowsView()->currentIndex().siblingAtColumn(2).data().toString(),
             QStringLiteral("Chihuahua"));

    // A click beside the bars clears the selection and activates nothing.
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {},
                      QPoint(view->viewport()->width() - 3, view->headerHeight() + 3));
    QCOMPARE(activated.size(), 2);
    QVERIFY(!view->selection().valid());
}

void TestResultWidgets::timelineHoverTooltip() {
    Scd2TimelinePanel panel;
    panel.resize(900, 320);
    panel.show();
    panel.setSnapshots(update2());
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    Scd2TimelineView* view = panel.view();
    const QPoint p = centerOf(view->barRect(2, 1));
    const QString tip = view->toolTipAt(p);
    QCOMPARE(tip, QStringLiteral("[5, 6)\nInserted by update 2\nuserId: 125\nname: Mercedes\ncity: Mexicali\n"
                                 "__START_AT: 5\n__END_AT: 6"));
    QVERIFY(view->toolTipAt(QPoint(view->viewport()->width() - 2, p.y())).isEmpty());

    QTest::mouseMove(view->viewport(), p);
    QHelpEvent help(QEvent::ToolTip, p, view->viewport()->mapToGlobal(p));
    QApplication::sendEvent(view->viewport(), &help);
    QTRY_VERIFY(QToolTip::isVisible());
    QCOMPARE(QToolTip::text(), tip);
    QToolTip::hideText();
}

void TestResultWidgets::timelineZoom() {
    Scd2TimelinePanel panel;
    panel.resize(900, 320);
    panel.show();
    panel.setSnapshots(update2());
    Scd2TimelineView* view = panel.view();
    view->setFocus();
    QVERIFY(!panel.zoomOutAction()->isEnabled());
    const double fit = view->pixelsPerUnit();

    QTest::keyClick(view, Qt::Key_Plus);
    QCOMPARE(view->zoom(), 1.5);
    QVERIFY(qAbs(view->pixelsPerUnit() - 1.5 * fit) < 1e-9);
    QVERIFY(panel.zoomOutAction()->isEnabled());

    // Ctrl+wheel zooms around the pointer: the sequence value under it stays put.
    const QPoint anchor(static_cast<int>(view->xOf(5)), view->laneRect(0).center().y());
    QWheelEvent wheel(anchor, view->viewport()->mapToGlobal(anchor), {}, QPoint(0, 120), Qt::NoButton,
                      Qt::ControlModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(view->viewport(), &wheel);
    QCOMPARE(view->zoom(), 2.25);
    QVERIFY(qAbs(view->xOf(5) - anchor.x()) <= 1.0);
    QVERIFY(view->horizontalScrollBar()->maximum() > 0);

    QTest::keyClick(view, Qt::Key_Minus);
    QCOMPARE(view->zoom(), 1.5);
    panel.zoomFitAction()->trigger();
    QCOMPARE(view->zoom(), 1.0);
    QCOMPARE(view->horizontalScrollBar()->maximum(), 0);
    QVERIFY(!panel.zoomFitAction()->isEnabled());
    view->setZoom(1e9);
    QCOMPARE(view->zoom(), view->maximumZoom());
    QVERIFY(!panel.zoomInAction()->isEnabled());
}

void TestResultWidgets::timelineKeyboardSelection() {
    Scd2TimelinePanel panel;
    panel.resize(900, 320);
    panel.show();
    panel.setSnapshots(update2());
    Scd2TimelineView* view = panel.view();
    view->setFocus();
    QSignalSpy activated(&panel, &Scd2TimelinePanel::versionActivated);
    QTest::keyClick(view, Qt::Key_Down); // selects the first version on screen
    QCOMPARE(view->selection(), (Scd2TimelineView::Hit{0, 0}));
    QTest::keyClick(view, Qt::Key_Right);
    QTest::keyClick(view, Qt::Key_Down);
    QTest::keyClick(view, Qt::Key_Down);
    QCOMPARE(view->selection(), (Scd2TimelineView::Hit{2, 1}));
    QTest::keyClick(view, Qt::Key_Return);
    QCOMPARE(activated.size(), 1);
    QCOMPARE(activated[0][1].toInt(), 4);
}

void TestResultWidgets::timelineSelectRowScrollsToLane() {
    Scd2TimelinePanel panel;
    panel.resize(600, 200);
    panel.show();
    panel.setSnapshots({scd2Large(500, 3)});
    Scd2TimelineView* view = panel.view();
    QCOMPARE(view->verticalScrollBar()->value(), 0);
    panel.selectRow(QStringLiteral("big"), 3 * 400 + 1);
    QCOMPARE(view->selection(), (Scd2TimelineView::Hit{400, 1}));
    const auto [first, last] = view->visibleLanes();
    QVERIFY(first <= 400 && 400 <= last);
    QVERIFY(last - first < 20);
}

void TestResultWidgets::tombstonePanelBeforeAndAfterGc() {
    TombstonePanel panel;
    panel.resize(800, 200);
    panel.show();
    panel.setSnapshots(update2());
    QCOMPARE(panel.currentTarget(), QStringLiteral("users"));
    QAbstractItemModel* model = panel.view()->model();
    QCOMPARE(model->rowCount(), 1);
    QCOMPARE(model->index(0, 0).data().toString(), QStringLiteral("123"));
    QCOMPARE(model->index(0, 1).data().toString(), QStringLiteral("6"));
    QCOMPARE(model->index(0, 4).data().toString(), QStringLiteral("Live"));
    QCOMPARE(panel.summaryText(), QStringLiteral("update 2 · 1 live"));
    QCOMPARE(panel.view()->horizontalHeader()->model()->headerData(3, Qt::Horizontal).toString(),
             QStringLiteral("GC due at"));

    panel.setSimulatedNow(QDateTime(QDate(2026, 1, 4), QTime(0, 0), QTimeZone::utc()).toSecsSinceEpoch());
    QCOMPARE(model->index(0, 4).data().toString(), QStringLiteral("Due for GC"));

    panel.setSnapshots(update3());
    QCOMPARE(model->rowCount(), 1);
    QCOMPARE(model->index(0, 4).data().toString(), QStringLiteral("Collected in update 3"));
    QVERIFY(model->index(0, 0).data(CollectedRole).toBool());
    QCOMPARE(panel.summaryText(), QStringLiteral("update 3 · 0 live · 1 collected by this update"));

    panel.selectTarget(QStringLiteral("users_scd2"));
    QCOMPARE(model->rowCount(), 0);
    QCOMPARE(panel.summaryText(), QStringLiteral("update 3 · no tombstones"));
}

void TestResultWidgets::renderScreenshots_data() {
    QTest::addColumn<bool>("dark");
    QTest::newRow("light") << false;
    QTest::newRow("dark") << true;
}

void TestResultWidgets::renderScreenshots() {
    // Not an assertion on pixels: renders each panel as a user would see it, for people to look at.
    QFETCH(bool, dark);
    const QPalette original = QApplication::palette();
    if (dark) {
        QPalette p;
        p.setColor(QPalette::Window, QColor(0x2b, 0x2d, 0x30));
        p.setColor(QPalette::WindowText, QColor(0xdf, 0xe1, 0xe5));
        p.setColor(QPalette::Base, QColor(0x1e, 0x1f, 0x22));
        p.setColor(QPalette::AlternateBase, QColor(0x26, 0x28, 0x2b));
        p.setColor(QPalette::Text, QColor(0xdf, 0xe1, 0xe5));
        p.setColor(QPalette::Button, QColor(0x35, 0x37, 0x3b));
        p.setColor(QPalette::ButtonText, QColor(0xdf, 0xe1, 0xe5));
        p.setColor(QPalette::Highlight, QColor(0x2f, 0x65, 0xca));
        p.setColor(QPalette::HighlightedText, Qt::white);
        p.setColor(QPalette::PlaceholderText, QColor(0x8c, 0x8f, 0x94));
        QApplication::setPalette(p);
    }
    const QString suffix = dark ? QStringLiteral("dark") : QStringLiteral("light");

    TargetTablePanel table;
    table.resize(820, 300);
    table.show();
    table.setSnapshots(update2());
    table.selectTarget(QStringLiteral("users_scd2"));
    QVERIFY(saveShot(table, QStringLiteral("table"), suffix));
    table.selectTarget(QStringLiteral("users"));
    QVERIFY(saveShot(table, QStringLiteral("table_scd1"), suffix));
    table.setChangeFeedVisible(true);
    table.selectTarget(QStringLiteral("users_scd2"));
    QVERIFY(saveShot(table, QStringLiteral("feed"), suffix));

    Scd2TimelinePanel timeline;
    timeline.resize(820, 260);
    timeline.show();
    timeline.setSnapshots(update2());
    timeline.view()->selectBar({2, 1});
    QVERIFY(saveShot(timeline, QStringLiteral("timeline"), suffix));
    timeline.setSnapshots({scd2StartMovedEarlier(), scd2Timestamps(), scd2Struct()});
    QVERIFY(saveShot(timeline, QStringLiteral("timeline_ghost"), suffix));
    timeline.selectTarget(QStringLiteral("devices"));
    QVERIFY(saveShot(timeline, QStringLiteral("timeline_ts"), suffix));
    timeline.selectTarget(QStringLiteral("orders"));
    QVERIFY(saveShot(timeline, QStringLiteral("timeline_struct"), suffix));
    timeline.setSnapshots({scd2Large(2000, 4)});
    QVERIFY(saveShot(timeline, QStringLiteral("timeline_big"), suffix));

    TombstonePanel tombstones;
    tombstones.resize(820, 200);
    tombstones.show();
    tombstones.setSnapshots(update2());
    QVERIFY(saveShot(tombstones, QStringLiteral("tombstones"), suffix));
    tombstones.setSnapshots(update3());
    QVERIFY(saveShot(tombstones, QStringLiteral("tombstones_gc"), suffix));

    QApplication::setPalette(original);
}

QTEST_MAIN(TestResultWidgets)
#include "tst_resultwidgets.moc"
