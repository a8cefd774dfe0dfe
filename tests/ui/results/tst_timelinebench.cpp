// A 100,000-row SCD2 target in the timeline: the model refresh and a paint of the visible part must
// complete (times are printed for the benchmark, not asserted).
#include "ResultFixtures.h"

#include "ui/model/results/Scd2TimelineModel.h"
#include "ui/model/results/TargetRowsModel.h"
#include "ui/widgets/results/Scd2TimelineView.h"

#include <QElapsedTimer>
#include <QImage>
#include <QScrollBar>
#include <QtTest>

using namespace cdc::ui;

class TestTimelineBench : public QObject {
    Q_OBJECT
private slots:
    void hundredThousandVersions();
};

void TestTimelineBench::hundredThousandVersions() {
    // Shared, as the panels hand snapshots to their models: no copy of the 100,000 rows.
    const SharedSnapshot snapshot = std::make_shared<const TargetSnapshot>(cdc::test::scd2Large(20000, 5));
    QCOMPARE(snapshot->rows.rows.size(), std::size_t(100000));

    Scd2TimelineModel model;
    Scd2TimelineView view;
    view.setModel(&model);
    view.resize(1200, 800);
    QElapsedTimer timer;
    timer.start();
    model.setSnapshot(snapshot);
    const double refreshMs = timer.nsecsElapsed() / 1e6;
    QCOMPARE(model.lanes().size(), 20000);
    QCOMPARE(model.lanes().last().bars.size(), 5);

    TargetRowsModel rows;
    timer.restart();
    rows.setSnapshot(snapshot);
    const double rowsMs = timer.nsecsElapsed() / 1e6;
    QCOMPARE(rows.totalRows(), 100000);

    QImage image(view.viewport()->size(), QImage::Format_ARGB32_Premultiplied);
    timer.restart();
    view.viewport()->render(&image);
    const double paintTopMs = timer.nsecsElapsed() / 1e6;

    view.verticalScrollBar()->setValue(view.verticalScrollBar()->maximum() / 2);
    view.setZoom(3.0);
    timer.restart();
    view.viewport()->render(&image);
    const double paintMiddleMs = timer.nsecsElapsed() / 1e6;
    const auto [first, last] = view.visibleLanes();
    QVERIFY(first > 9000 && last < 11000);
    QVERIFY(last - first < 60);
    // Something was painted in the middle lanes: the image is not just the background.
    const QColor background = view.palette().color(QPalette::Base);
    bool painted = false;
    for (int x = view.gutterWidth() + 1; x < image.width() && !painted; x += 3)
        painted = image.pixelColor(x, view.laneRect(first + 1).center().y()) != background;
    QVERIFY(painted);

    qInfo("timeline 100000 rows / 20000 keys: model refresh %.1f ms, table model %.1f ms, paint top %.1f ms, "
          "paint middle (zoomed) %.1f ms",
          refreshMs, rowsMs, paintTopMs, paintMiddleMs);
}

QTEST_MAIN(TestTimelineBench)
#include "tst_timelinebench.moc"
