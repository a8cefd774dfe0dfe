// The result views' item models against hand-made snapshots of the Databricks doc example.
#include "ResultFixtures.h"

#include "ui/model/results/ChangeFeedModel.h"
#include "ui/model/results/ResultText.h"
#include "ui/model/results/Scd2TimelineModel.h"
#include "ui/model/results/SequenceAxis.h"
#include "ui/model/results/TargetRowsModel.h"
#include "ui/model/results/TombstoneModel.h"

#include <QAbstractItemModelTester>
#include <QFont>
#include <QtTest>

using namespace cdc::ui;
using namespace cdc::test;

Q_DECLARE_METATYPE(cdc::ui::RowChange)

namespace {
QString cell(const QAbstractItemModel& m, int row, int column) {
    return m.index(row, column).data().toString();
}
RowChange changeOf(const QAbstractItemModel& m, int row) {
    return static_cast<RowChange>(m.index(row, 0).data(RowChangeRole).toInt());
}
} // namespace

class TestResultModels : public QObject {
    Q_OBJECT
private slots:
    void scd1RowsHighlightTheUpdate();
    void scd1DeletedRowIsAStruckGhost();
    void scd2RowsHighlightClosedAndInserted_data();
    void scd2RowsHighlightClosedAndInserted();
    void scd2StartMovedEarlierShowsGhostVersion();
    void rowsFetchLazily();
    void changeFeedModel();
    void tombstonesBeforeAndAfterGc();
    void tombstoneDueOnSimulatedClock();
    void timelineLanesAndBars();
    void timelineGhostBarAndLocate();
    void timelineTreeUnderTester();
    void axisTimestamps();
    void axisStructOrdersFieldByField();
    void axisIntegerTicks_data();
    void axisIntegerTicks();
    void timestampParsing_data();
    void timestampParsing();
};

void TestResultModels::scd1RowsHighlightTheUpdate() {
    TargetRowsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSnapshot(scd1AfterDeletes());
    QCOMPARE(model.rowCount(), 5); // 4 rows + the ghost of 123
    QCOMPARE(model.columnCount(), 3);
    QCOMPARE(model.headerData(0, Qt::Horizontal).toString(), QStringLiteral("userId"));
    QCOMPARE(cell(model, 1, 2), QStringLiteral("Guadalajara"));
    QCOMPARE(changeOf(model, 0), RowChange::None);
    QCOMPARE(changeOf(model, 1), RowChange::Updated);
    QCOMPARE(changeOf(model, 2), RowChange::None);
    QCOMPARE(changeOf(model, 3), RowChange::Inserted);
    QVERIFY(!model.index(0, 0).data(Qt::BackgroundRole).isValid());
    QVERIFY(model.index(1, 0).data(Qt::BackgroundRole).value<QColor>().isValid());
    QVERIFY(model.index(1, 0).data(Qt::BackgroundRole) != model.index(3, 0).data(Qt::BackgroundRole));
    QCOMPARE(model.index(3, 1).data(Qt::ToolTipRole).toString(), QStringLiteral("Inserted by update 2"));
    QCOMPARE(model.count(RowChange::Updated), 1);
    QCOMPARE(model.count(RowChange::Inserted), 1);
    QCOMPARE(model.count(RowChange::Deleted), 1);
    QVERIFY(!model.headerData(3, Qt::Vertical, Qt::DecorationRole).value<QIcon>().isNull());
}

void TestResultModels::scd1DeletedRowIsAStruckGhost() {
    TargetRowsModel model;
    model.setSnapshot(scd1AfterDeletes());
    const int ghost = 4;
    QCOMPARE(changeOf(model, ghost), RowChange::Deleted);
    QVERIFY(model.index(ghost, 0).data(GhostRole).toBool());
    QCOMPARE(cell(model, ghost, 0), QStringLiteral("123"));
    QCOMPARE(cell(model, ghost, 2), QStringLiteral("Monterrey"));
    QVERIFY(model.index(ghost, 1).data(Qt::FontRole).value<QFont>().strikeOut());
    QVERIFY(model.index(ghost, 1).data(Qt::ForegroundRole).value<QColor>().isValid());
    QCOMPARE(model.headerData(ghost, Qt::Vertical).toString(), QStringLiteral("\u2013"));

    // The next update touched nothing: no highlight, no ghost.
    model.setSnapshot(scd1AfterGc());
    QCOMPARE(model.rowCount(), 4);
    for (int r = 0; r < 4; ++r)
        QCOMPARE(changeOf(model, r), RowChange::None);
}

void TestResultModels::scd2RowsHighlightClosedAndInserted_data() {
    QTest::addColumn<int>("row");
    QTest::addColumn<QString>("city");
    QTest::addColumn<QString>("start");
    QTest::addColumn<QString>("end");
    QTest::addColumn<RowChange>("change");
    QTest::newRow("123 Monterrey closed") << 0 << "Monterrey"
                                          << "1"
                                          << "5" << RowChange::Closed;
    QTest::newRow("123 Chihuahua inserted") << 1 << "Chihuahua"
                                            << "5"
                                            << "6" << RowChange::Inserted;
    QTest::newRow("124 untouched") << 2 << "Oaxaca"
                                   << "1"
                                   << "null" << RowChange::None;
    QTest::newRow("125 Tijuana closed") << 3 << "Tijuana"
                                        << "2"
                                        << "5" << RowChange::Closed;
    QTest::newRow("125 Mexicali inserted") << 4 << "Mexicali"
                                           << "5"
                                           << "6" << RowChange::Inserted;
    QTest::newRow("125 Guadalajara inserted") << 5 << "Guadalajara"
                                              << "6"
                                              << "null" << RowChange::Inserted;
    QTest::newRow("126 untouched") << 6 << "Cancun"
                                   << "2"
                                   << "null" << RowChange::None;
}

void TestResultModels::scd2RowsHighlightClosedAndInserted() {
    QFETCH(int, row);
    QFETCH(QString, city);
    QFETCH(QString, start);
    QFETCH(QString, end);
    QFETCH(RowChange, change);
    TargetRowsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSnapshot(scd2AfterUpdate2());
    QCOMPARE(model.rowCount(), 7);
    QCOMPARE(cell(model, row, 2), city);
    QCOMPARE(cell(model, row, 3), start);
    QCOMPARE(cell(model, row, 4), end);
    QCOMPARE(changeOf(model, row), change);
}

void TestResultModels::scd2StartMovedEarlierShowsGhostVersion() {
    TargetRowsModel model;
    model.setSnapshot(scd2StartMovedEarlier());
    QCOMPARE(model.rowCount(), 8);
    QCOMPARE(changeOf(model, 6), RowChange::Inserted); // 126 Cancun [1, null)
    QCOMPARE(cell(model, 6, 3), QStringLiteral("1"));
    QCOMPARE(changeOf(model, 7), RowChange::Deleted); // the version that started at 2
    QCOMPARE(cell(model, 7, 3), QStringLiteral("2"));
    QCOMPARE(cell(model, 7, 4), QStringLiteral("null"));
    for (int r = 0; r < 6; ++r)
        QCOMPARE(changeOf(model, r), RowChange::None);
}

void TestResultModels::rowsFetchLazily() {
    TargetRowsModel model;
    model.setSnapshot(scd2Large(500, 5));
    QCOMPARE(model.totalRows(), 2500);
    QCOMPARE(model.rowCount(), TargetRowsModel::FetchBatch);
    QVERIFY(model.canFetchMore({}));
    model.fetchUpTo(1500);
    QCOMPARE(model.rowCount(), 1501);
    // The tester fetches by itself when attached (it cannot watch a reset that fetches).
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(model.rowCount() > 1501);
    model.fetchUpTo(2499);
    QCOMPARE(model.rowCount(), 2500);
    QVERIFY(!model.canFetchMore({}));
    QCOMPARE(cell(model, 2499, 0), QStringLiteral("499"));
}

void TestResultModels::changeFeedModel() {
    ChangeFeedModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSnapshot(scd1AfterDeletes());
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(model.columnCount(), 6);
    QCOMPARE(model.headerData(3, Qt::Horizontal).toString(), QStringLiteral("_change_type"));
    QCOMPARE(model.changeType(0), QStringLiteral("delete"));
    QCOMPARE(changeOf(model, 0), RowChange::Deleted);
    QVERIFY(model.index(0, 1).data(Qt::FontRole).value<QFont>().strikeOut());
    QCOMPARE(model.index(1, 0).data(ChangeTypeRole).toString(), QStringLiteral("update_preimage"));
    QCOMPARE(changeOf(model, 2), RowChange::Updated);
    QCOMPARE(changeOf(model, 3), RowChange::Inserted);
    QCOMPARE(cell(model, 2, 2), QStringLiteral("Guadalajara"));
    QCOMPARE(cell(model, 2, 4), QStringLiteral("2"));
    QCOMPARE(model.count(QStringLiteral("update_postimage")), 1);
    QCOMPARE(model.index(0, 0).data(Qt::TextAlignmentRole).value<Qt::Alignment>() & Qt::AlignHorizontal_Mask,
             Qt::AlignRight);

    // SCD2: a postimage that sets __END_AT is a close.
    model.setSnapshot(scd2AfterUpdate2());
    QCOMPARE(model.rowCount(), 7);
    QCOMPARE(changeOf(model, 1), RowChange::Closed);
    QCOMPARE(changeOf(model, 2), RowChange::Inserted);
    QCOMPARE(changeOf(model, 0), RowChange::None); // the preimage
}

void TestResultModels::tombstonesBeforeAndAfterGc() {
    TombstoneModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSnapshot(scd1AfterDeletes());
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.columnCount(), 5);
    QStringList headers;
    for (int c = 0; c < model.columnCount(); ++c)
        headers << model.headerData(c, Qt::Horizontal).toString();
    QCOMPARE(headers, (QStringList{"userId", "Delete sequence", "Recorded at", "GC due at", "Status"}));
    QCOMPARE(cell(model, 0, 0), QStringLiteral("123"));
    QCOMPARE(cell(model, 0, 1), QStringLiteral("6"));
    QCOMPARE(cell(model, 0, 2), QStringLiteral("2026-01-01T00:00:00Z"));
    QCOMPARE(cell(model, 0, 3), QStringLiteral("2026-01-03T00:00:00Z"));
    QCOMPARE(cell(model, 0, 4), QStringLiteral("Live"));
    QVERIFY(!model.index(0, 0).data(CollectedRole).toBool());

    model.setSnapshot(scd1AfterGc());
    QCOMPARE(model.liveCount(), 0);
    QCOMPARE(model.collectedCount(), 1);
    QCOMPARE(cell(model, 0, 0), QStringLiteral("123"));
    QCOMPARE(cell(model, 0, 4), QStringLiteral("Collected in update 3"));
    QVERIFY(model.index(0, 0).data(CollectedRole).toBool());
    QVERIFY(model.index(0, 0).data(Qt::FontRole).value<QFont>().italic());
    QVERIFY(model.index(0, 0).data(Qt::ForegroundRole).value<QColor>().isValid());
}

void TestResultModels::tombstoneDueOnSimulatedClock() {
    TombstoneModel model;
    model.setSnapshot(scd1AfterDeletes());
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    const qint64 due = QDateTime(QDate(2026, 1, 3), QTime(0, 0), QTimeZone::utc()).toSecsSinceEpoch();
    model.setSimulatedNow(due - 1);
    QCOMPARE(cell(model, 0, 4), QStringLiteral("Live"));
    model.setSimulatedNow(due);
    QCOMPARE(cell(model, 0, 4), QStringLiteral("Due for GC"));
    QCOMPARE(changed.size(), 2);
}

void TestResultModels::timelineLanesAndBars() {
    Scd2TimelineModel model;
    model.setSnapshot(scd2AfterUpdate2());
    const auto& lanes = model.lanes();
    QCOMPARE(lanes.size(), 4);
    QStringList keys;
    for (int l = 0; l < lanes.size(); ++l)
        keys << model.laneLabel(l);
    QCOMPARE(keys, (QStringList{"123", "124", "125", "126"}));
    QCOMPARE(model.axis().scale(), SequenceAxis::Scale::Numeric);
    QCOMPARE(model.axis().minimum(), 1.0);
    QCOMPARE(model.axis().maximum(), 6.0);

    const TimelineLane& isabel = lanes[0];
    QCOMPARE(isabel.bars.size(), 2);
    QCOMPARE(isabel.bars[0].start, 1.0);
    QCOMPARE(isabel.bars[0].end, 5.0);
    QCOMPARE(isabel.bars[0].change, RowChange::Closed);
    QVERIFY(!isabel.bars[0].closedByDelete);
    QCOMPARE(model.barLabel(isabel.bars[0]), QStringLiteral("Isabel \u00b7 Monterrey"));
    QCOMPARE(isabel.bars[1].start, 5.0);
    QCOMPARE(isabel.bars[1].end, 6.0);
    QCOMPARE(isabel.bars[1].change, RowChange::Inserted);
    QVERIFY(isabel.bars[1].closedByDelete);
    QVERIFY(!isabel.current());
    QCOMPARE(isabel.change, RowChange::Inserted);

    const TimelineLane& raul = lanes[1];
    QCOMPARE(raul.bars.size(), 1);
    QVERIFY(raul.bars[0].open);
    QVERIFY(raul.current());
    QCOMPARE(raul.change, RowChange::None);
    QCOMPARE(model.endText(raul.bars[0]), QStringLiteral("current"));

    const TimelineLane& mercedes = lanes[2];
    QCOMPARE(mercedes.bars.size(), 3);
    QCOMPARE(model.barLabel(mercedes.bars[1]), QStringLiteral("Mercedes \u00b7 Mexicali"));
    QVERIFY(!mercedes.bars[0].closedByDelete);
    QVERIFY(!mercedes.bars[1].closedByDelete);
    QVERIFY(mercedes.bars[2].open);

    const QString tip = model.barToolTip(isabel.bars[1]);
    QVERIFY2(tip.contains(QStringLiteral("[5, 6)")), qPrintable(tip));
    QVERIFY(tip.contains(QStringLiteral("city: Chihuahua")));
    QVERIFY(tip.contains(QStringLiteral("Closed by a delete")));
    QVERIFY(tip.contains(QStringLiteral("Inserted by update 2")));

    // Tracked columns narrow the label (TRACK HISTORY ON (city)).
    TargetSnapshot tracked = scd2AfterUpdate2();
    tracked.trackedColumns = {QStringLiteral("city")};
    model.setSnapshot(tracked);
    QCOMPARE(model.barLabel(model.lanes()[0].bars[0]), QStringLiteral("Monterrey"));
}

void TestResultModels::timelineGhostBarAndLocate() {
    Scd2TimelineModel model;
    model.setSnapshot(scd2StartMovedEarlier());
    const TimelineLane& lily = model.lanes()[3];
    QCOMPARE(lily.bars.size(), 2);
    QCOMPARE(lily.bars[0].start, 1.0);
    QVERIFY(!lily.bars[0].ghost);
    QCOMPARE(lily.bars[0].change, RowChange::Inserted);
    QVERIFY(lily.bars[1].ghost);
    QCOMPARE(lily.bars[1].start, 2.0);
    QCOMPARE(lily.bars[1].change, RowChange::Deleted);
    QVERIFY(lily.current());
    // Row numbers are the table's: 6 = 126's row, 7 = the ghost row after the target's rows.
    QCOMPARE(model.locate(6), std::make_pair(3, 0));
    QCOMPARE(model.locate(7), std::make_pair(3, 1));
    QCOMPARE(model.locate(3), std::make_pair(2, 0));
    QCOMPARE(model.locate(99), std::make_pair(-1, -1));
}

void TestResultModels::timelineTreeUnderTester() {
    Scd2TimelineModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSnapshot(scd2AfterUpdate2());
    QCOMPARE(model.rowCount(), 4);
    const QModelIndex mercedes = model.index(2, 0);
    QCOMPARE(model.rowCount(mercedes), 3);
    QCOMPARE(model.index(1, Scd2TimelineModel::StartColumn, mercedes).data().toString(), QStringLiteral("5"));
    QCOMPARE(model.index(2, Scd2TimelineModel::EndColumn, mercedes).data().toString(),
             QStringLiteral("current"));
    QCOMPARE(model.index(2, Scd2TimelineModel::ChangeColumn, mercedes).data().toString(),
             QStringLiteral("Inserted"));
    QCOMPARE(model.index(0, 0, mercedes).data(SourceRowRole).toInt(), 3);
    QCOMPARE(model.parent(model.index(0, 0, mercedes)), mercedes);
    model.setSnapshot(scd2StartMovedEarlier());
    QCOMPARE(model.rowCount(model.index(3, 0)), 2);
}

void TestResultModels::axisTimestamps() {
    Scd2TimelineModel model;
    model.setSnapshot(scd2Timestamps());
    const SequenceAxis& axis = model.axis();
    QCOMPARE(axis.scale(), SequenceAxis::Scale::Temporal);
    const double t0 = QDateTime(QDate(2026, 3, 1), QTime(10, 0), QTimeZone::utc()).toSecsSinceEpoch();
    QCOMPARE(axis.minimum(), t0);
    QCOMPARE(axis.maximum(), t0 + 2.5 * 3600);
    QCOMPARE(model.lanes()[1].bars[0].start, t0 + 3600 + 15 * 60 + 30.25);
    QCOMPARE(model.startText(model.lanes()[1].bars[0]), QStringLiteral("2026-03-01T11:15:30.250Z"));
    QCOMPARE(model.startText(model.lanes()[0].bars[1]), QStringLiteral("2026-03-01T12:30:00Z"));
    // 100 px per hour and labels 80 px apart: one tick per hour, the first one dated.
    const auto ticks = axis.ticks(axis.minimum(), axis.maximum(), 100.0 / 3600, 80);
    QCOMPARE(ticks.size(), 3);
    QCOMPARE(ticks[0].label, QStringLiteral("2026-03-01 10:00"));
    QCOMPARE(ticks[1].label, QStringLiteral("11:00"));
    QCOMPARE(ticks[2].position, t0 + 7200);
}

void TestResultModels::axisStructOrdersFieldByField() {
    Scd2TimelineModel model;
    model.setSnapshot(scd2Struct());
    const SequenceAxis& axis = model.axis();
    QCOMPARE(axis.scale(), SequenceAxis::Scale::Ordinal);
    const auto& bars = model.lanes()[0].bars;
    QCOMPARE(bars.size(), 3);
    QCOMPARE(bars[0].start, 0.0); // (9, 5) sorts before (10, 1) although "{\"ts\":9" > "{\"ts\":10" as text
    QCOMPARE(bars[0].end, 1.0);
    QCOMPARE(bars[1].end, 2.0);
    QCOMPARE(model.barLabel(bars[0]), QStringLiteral("placed"));
    QCOMPARE(model.startText(bars[1]), QStringLiteral("(10, 1)"));
    const auto ticks = axis.ticks(0, 2, 100, 40);
    QCOMPARE(ticks.size(), 3);
    QCOMPARE(ticks[0].label, QStringLiteral("(9, 5)"));
    QCOMPARE(ticks[2].label, QStringLiteral("(10, 2)"));
    QCOMPARE(SequenceAxis::structFieldTexts(QStringLiteral("{\"b\": \"x\", \"a\": null}")),
             (QStringList{"x", "null"}));
}

void TestResultModels::axisIntegerTicks_data() {
    QTest::addColumn<double>("from");
    QTest::addColumn<double>("to");
    QTest::addColumn<double>("pixelsPerUnit");
    QTest::addColumn<QStringList>("labels");
    QTest::newRow("every unit") << 1.0 << 6.0 << 100.0 << QStringList{"1", "2", "3", "4", "5", "6"};
    QTest::newRow("every other") << 1.0 << 6.0 << 30.0 << QStringList{"2", "4", "6"};
    QTest::newRow("fives") << 0.0 << 20.0 << 12.0 << QStringList{"0", "5", "10", "15", "20"};
    QTest::newRow("never fractional") << 1.0 << 3.0 << 1000.0 << QStringList{"1", "2", "3"};
}

void TestResultModels::axisIntegerTicks() {
    QFETCH(double, from);
    QFETCH(double, to);
    QFETCH(double, pixelsPerUnit);
    QFETCH(QStringList, labels);
    SequenceAxis axis;
    const cdc::Value a = I(1), b = I(6);
    axis.build(cdc::DataType::of(cdc::DataType::Kind::BigInt), {&a, &b});
    QStringList got;
    for (const auto& t : axis.ticks(from, to, pixelsPerUnit, 50))
        got << t.label;
    QCOMPARE(got, labels);
}

void TestResultModels::timestampParsing_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<double>("seconds");
    QTest::addColumn<bool>("valid");
    QTest::newRow("stored") << "1970-01-02 00:00:01" << 86401.0 << true;
    QTest::newRow("iso") << "1970-01-01T00:01:00Z" << 60.0 << true;
    QTest::newRow("micros") << "1970-01-01 00:00:00.500000" << 0.5 << true;
    QTest::newRow("date") << "1970-01-03" << 172800.0 << true;
    QTest::newRow("text") << "Monterrey" << 0.0 << false;
    QTest::newRow("trailing") << "1970-01-01 00:00:00 junk" << 0.0 << false;
}

void TestResultModels::timestampParsing() {
    QFETCH(QString, text);
    QFETCH(double, seconds);
    QFETCH(bool, valid);
    const auto got = resulttext::parseTimestampSeconds(text);
    QCOMPARE(got.has_value(), valid);
    if (valid)
        QCOMPARE(*got, seconds);
}

QTEST_MAIN(TestResultModels)
#include "tst_resultmodels.moc"
