// The incremental refresh after an update: snapshots patched from the previous update's snapshot must
// equal a full read of the targets, and the models patched with them must equal models built afresh —
// over real engine runs with deletes, late (out-of-order) events, SCD1, SCD2 and TRACK HISTORY.
#include "../../engine/EngineTestUtil.h"
#include "ResultFixtures.h"

#include "ui/model/results/Scd2TimelineModel.h"
#include "ui/model/results/TargetRowsModel.h"
#include "ui/model/results/TargetSnapshot.h"

#include <QAbstractItemModelTester>
#include <QtTest>

#include <map>
#include <memory>

using namespace enginetest;
using cdc::ui::RowChange;
using cdc::ui::SharedSnapshot;
using cdc::ui::TargetSnapshot;

class TestSnapshotPatch : public QObject {
    Q_OBJECT
private slots:
    void patchedEqualsFullLoad_data();
    void patchedEqualsFullLoad();
    void rewindReadsInFull();
    void reloadWithoutAnUpdateKeepsEverything();
};

namespace {

/// A deterministic stream of user events: keys 1..keys, some deletes, some events sequenced below the
/// key's latest one (arriving late), sequences otherwise rising by 1..3.
class Events {
public:
    Events(quint64 seed, int keys, int deletePercent, int latePercent)
        : m_state(seed), m_keys(keys), m_deletePercent(deletePercent), m_latePercent(latePercent) {}

    std::vector<Row> next(int count) {
        static const char* names[] = {"Isabel", "Raul", "Mercedes"};
        static const char* cities[] = {"Monterrey", "Oaxaca", "Tijuana", "Cancun", "Puebla"};
        std::vector<Row> out;
        for (int e = 0; e < count; ++e) {
            const std::int64_t key = 1 + static_cast<std::int64_t>(below(static_cast<quint64>(m_keys)));
            std::int64_t& last = m_lastSeq[key];
            const bool late = last > 0 && static_cast<int>(below(100)) < m_latePercent;
            const std::int64_t seq = late ? last - 1 - static_cast<std::int64_t>(below(3))
                                          : (last += 1 + static_cast<std::int64_t>(below(3)));
            if (static_cast<int>(below(100)) < m_deletePercent)
                out.push_back({i(key), null(), null(), s("DELETE"), i(seq)});
            else
                out.push_back({i(key), s(names[below(3)]), s(cities[below(5)]), s("UPDATE"), i(seq)});
        }
        return out;
    }

private:
    quint64 below(quint64 bound) {
        m_state = m_state * 6364136223846793005ULL + 1442695040888963407ULL;
        return (m_state >> 33) % bound;
    }
    quint64 m_state;
    int m_keys, m_deletePercent, m_latePercent;
    std::map<std::int64_t, std::int64_t> m_lastSeq;
};

cdc::pipeline::Pipeline usersPipeline() {
    auto tracked = seedFlow("users_tracked", "users_cdf", 2);
    tracked.trackHistory = selection(cdc::pipeline::ColumnSelection::Mode::Only, {"city"});
    return pipelineOf({seedFlow("users", "users_cdf", 1), seedFlow("users_scd2", "users_cdf", 2), tracked});
}

QList<TargetSnapshot> load(cdc::storage::Database& db, const cdc::pipeline::Pipeline& p,
                           const QList<TargetSnapshot>& previous = {}) {
    auto loaded = cdc::ui::loadTargetSnapshots(db, cdc::ui::targetOrder(p), previous);
    if (!loaded)
        qFatal("load failed: %s", loaded.error().format().c_str());
    return loaded.value();
}

/// Everything a view reads from a rows model, row by row (fetched or not).
QStringList rowsModelText(cdc::ui::TargetRowsModel& m) {
    QStringList out;
    for (int r = 0; r < m.totalRows(); ++r) {
        QStringList cells;
        for (int c = 0; c < m.columnCount(); ++c)
            cells << (r < m.rowCount() ? m.index(r, c).data().toString() : QStringLiteral("?"));
        out << QStringLiteral("%1 change=%2 ghost=%3 header=%4")
                   .arg(cells.join(QLatin1Char(' ')))
                   .arg(static_cast<int>(m.rowChange(r)))
                   .arg(m.isGhost(r))
                   .arg(r < m.rowCount() ? m.headerData(r, Qt::Vertical).toString() : QStringLiteral("?"));
    }
    for (RowChange c : cdc::ui::ChangePalette::changes())
        out << QStringLiteral("count %1 = %2").arg(static_cast<int>(c)).arg(m.count(c));
    return out;
}

/// Every lane and bar of a timeline model, with the axis and the row locations.
QStringList timelineText(const cdc::ui::Scd2TimelineModel& m) {
    QStringList out;
    out << QStringLiteral("axis %1..%2 res %3")
               .arg(m.axis().minimum())
               .arg(m.axis().maximum())
               .arg(m.axis().resolution());
    for (int l = 0; l < m.lanes().size(); ++l) {
        const cdc::ui::TimelineLane& lane = m.lanes()[l];
        out << QStringLiteral("lane %1 [%2] keyRow %3 change %4")
                   .arg(l)
                   .arg(m.laneLabel(l))
                   .arg(lane.keyRow)
                   .arg(int(lane.change));
        for (const cdc::ui::TimelineBar& b : lane.bars) {
            out << QStringLiteral(
                       "  bar row %1 %2..%3 open %4 unknown %5 closedByDelete %6 ghost %7 change %8 '%9'")
                       .arg(b.row)
                       .arg(b.start)
                       .arg(b.end)
                       .arg(b.open)
                       .arg(b.startUnknown)
                       .arg(b.closedByDelete)
                       .arg(b.ghost)
                       .arg(int(b.change))
                       .arg(m.barLabel(b));
            const auto [ll, bb] = m.locate(b.row);
            if (ll != l || m.lanes()[ll].bars[bb].row != b.row)
                out << QStringLiteral("  locate(%1) wrong").arg(b.row);
        }
    }
    return out;
}

/// The models of one target that follow the updates, patched whenever the loader patched.
struct FollowingModels {
    cdc::ui::TargetRowsModel rows;
    cdc::ui::Scd2TimelineModel timeline;
    QAbstractItemModelTester rowsTester{&rows, QAbstractItemModelTester::FailureReportingMode::QtTest};
    QAbstractItemModelTester timelineTester{&timeline,
                                            QAbstractItemModelTester::FailureReportingMode::QtTest};
};

} // namespace

void TestSnapshotPatch::patchedEqualsFullLoad_data() {
    QTest::addColumn<quint64>("seed");
    QTest::addColumn<int>("keys");
    QTest::addColumn<int>("eventsPerUpdate");
    QTest::addColumn<int>("updates");
    QTest::addColumn<int>("deletePercent");
    QTest::addColumn<int>("latePercent");
    QTest::addColumn<int>("gcAtUpdate"); ///< this update runs two days later: tombstones are collected

    QTest::newRow("in order, no deletes") << quint64(1) << 20 << 15 << 6 << 0 << 0 << 0;
    QTest::newRow("deletes") << quint64(2) << 15 << 20 << 8 << 20 << 0 << 0;
    QTest::newRow("late events") << quint64(3) << 15 << 20 << 8 << 0 << 30 << 0;
    QTest::newRow("deletes, late events and GC") << quint64(4) << 25 << 30 << 10 << 15 << 25 << 6;
    QTest::newRow("few keys, many events") << quint64(5) << 4 << 25 << 8 << 10 << 20 << 0;
    QTest::newRow("more rows than one fetch") << quint64(6) << 600 << 400 << 5 << 5 << 20 << 0;
}

void TestSnapshotPatch::patchedEqualsFullLoad() {
    QFETCH(quint64, seed);
    QFETCH(int, keys);
    QFETCH(int, eventsPerUpdate);
    QFETCH(int, updates);
    QFETCH(int, deletePercent);
    QFETCH(int, latePercent);
    QFETCH(int, gcAtUpdate);

    auto db = openDb();
    createUsers(db);
    const auto p = usersPipeline();
    Events events(seed, keys, deletePercent, latePercent);
    std::map<QString, std::unique_ptr<FollowingModels>> models;
    QList<TargetSnapshot> previous;
    std::int64_t now = 1000;
    int patchedTimelines = 0; ///< a timeline resets when its axis must shrink: most updates patch it
    for (int u = 1; u <= updates; ++u) {
        insert(db, "users_cdf", events.next(eventsPerUpdate));
        now += u == gcAtUpdate ? 3 * 86400 : 100;
        QCOMPARE(update(db, p, now).updateId, u);

        const QList<TargetSnapshot> full = load(db, p);
        const QList<TargetSnapshot> patched = load(db, p, previous);
        QCOMPARE(patched.size(), full.size());
        for (const TargetSnapshot& f : full) {
            const TargetSnapshot* s = cdc::ui::findSnapshot(patched, f.target);
            QVERIFY(s);
            const QString where = QStringLiteral("%1 after update %2").arg(f.target).arg(u);
            // From the second update on the rows come from the patch, never from a full read.
            QVERIFY2((s->patch.baseSerial != 0) == (u > 1), qPrintable(where));
            QVERIFY2(cdc::test::rowTexts(s->rows) == cdc::test::rowTexts(f.rows), qPrintable(where));
            QCOMPARE(s->rows.columns, f.rows.columns);
            QVERIFY(s->rows.types == f.rows.types);
            QCOMPARE(cdc::test::rowTexts(s->changes), cdc::test::rowTexts(f.changes));
            QCOMPARE(cdc::test::rowTexts(s->tombstones), cdc::test::rowTexts(f.tombstones));
            QCOMPARE(cdc::test::rowTexts(s->collected), cdc::test::rowTexts(f.collected));
            QCOMPARE(s->trackedColumns, f.trackedColumns);
            QCOMPARE(s->sequenceType, f.sequenceType);

            // Models fed the patched snapshots = models built from the full read.
            auto& m = models[f.target];
            if (!m)
                m = std::make_unique<FollowingModels>();
            QSignalSpy rowsReset(&m->rows, &QAbstractItemModel::modelReset);
            QSignalSpy timelineReset(&m->timeline, &QAbstractItemModel::modelReset);
            const SharedSnapshot shared = std::make_shared<const TargetSnapshot>(*s);
            m->rows.setSnapshot(shared);
            m->timeline.setSnapshot(shared);
            QCOMPARE(rowsReset.count(), u > 1 ? 0 : 1); // patched: rows moved, no reset
            patchedTimelines += u > 1 && f.scd2 && timelineReset.isEmpty();

            cdc::ui::TargetRowsModel freshRows;
            freshRows.setSnapshot(f);
            QVERIFY(m->rows.rowCount() >= freshRows.rowCount()); // patching never hides fetched rows
            freshRows.fetchUpTo(m->rows.rowCount() - 1);
            cdc::ui::Scd2TimelineModel freshTimeline;
            freshTimeline.setSnapshot(f);
            QCOMPARE(rowsModelText(m->rows), rowsModelText(freshRows));
            if (f.scd2)
                QCOMPARE(timelineText(m->timeline), timelineText(freshTimeline));
        }
        previous = patched;
    }
    QVERIFY(patchedTimelines >= updates - 1); // two SCD2 targets, so at least half of their refreshes
}

void TestSnapshotPatch::rewindReadsInFull() {
    auto db = openDb();
    createUsers(db);
    const auto p = usersPipeline();
    Events events(7, 10, 10, 10);
    insert(db, "users_cdf", events.next(20));
    QCOMPARE(update(db, p, 1000).updateId, 1);
    insert(db, "users_cdf", events.next(20));
    QCOMPARE(update(db, p, 1100).updateId, 2);
    const QList<TargetSnapshot> second = load(db, p);

    // Back to update 1 and on with other events: the snapshots of the old update 2 are no base.
    QVERIFY(cdc::engine::rewindTo(db, 1).ok());
    const QList<TargetSnapshot> first = load(db, p, second);
    for (const TargetSnapshot& s : first)
        QCOMPARE(s.patch.baseSerial, quint64(0));
    insert(db, "users_cdf", events.next(20));
    QCOMPARE(update(db, p, 1200).updateId, 2);
    const QList<TargetSnapshot> full = load(db, p);
    const QList<TargetSnapshot> patched = load(db, p, first);
    for (const TargetSnapshot& f : full) {
        const TargetSnapshot* s = cdc::ui::findSnapshot(patched, f.target);
        QVERIFY(s && s->patch.baseSerial != 0);
        QCOMPARE(cdc::test::rowTexts(s->rows), cdc::test::rowTexts(f.rows));
    }
}

void TestSnapshotPatch::reloadWithoutAnUpdateKeepsEverything() {
    // The views reload after every edit of the project, most of which run no update.
    auto db = openDb();
    createUsers(db);
    const auto p = usersPipeline();
    Events events(8, 10, 10, 10);
    insert(db, "users_cdf", events.next(30));
    QCOMPARE(update(db, p, 1000).updateId, 1);
    const QList<TargetSnapshot> first = load(db, p);
    insert(db, "users_cdf", events.next(5)); // queued, not yet applied
    const QList<TargetSnapshot> again = load(db, p, first);
    QVERIFY(again.isSharedWith(first));

    // Models shown the same snapshot again keep everything: no reset, no layout change.
    cdc::ui::TargetRowsModel rows;
    cdc::ui::Scd2TimelineModel timeline;
    const TargetSnapshot* scd2 = cdc::ui::findSnapshot(first, QStringLiteral("users_scd2"));
    QVERIFY(scd2);
    rows.setSnapshot(*scd2);
    timeline.setSnapshot(*scd2);
    QSignalSpy rowsReset(&rows, &QAbstractItemModel::modelReset);
    QSignalSpy timelineReset(&timeline, &QAbstractItemModel::modelReset);
    QSignalSpy timelineLayout(&timeline, &QAbstractItemModel::layoutChanged);
    rows.setSnapshot(*cdc::ui::findSnapshot(again, QStringLiteral("users_scd2")));
    timeline.setSnapshot(*cdc::ui::findSnapshot(again, QStringLiteral("users_scd2")));
    QCOMPARE(rowsReset.count() + timelineReset.count() + timelineLayout.count(), 0);

    // A pipeline that names the targets in another order (and one of them no longer) lists them in that
    // order, the stored target it leaves out last: a new list that reuses every target's rows.
    const auto fewer =
        pipelineOf({seedFlow("users_scd2", "users_cdf", 2), seedFlow("users", "users_cdf", 1)});
    const QList<TargetSnapshot> shaped = load(db, fewer, first);
    QVERIFY(!shaped.isSharedWith(first));
    QStringList order;
    for (const TargetSnapshot& s : shaped)
        order << s.target;
    QCOMPARE(order, (QStringList{"users_scd2", "users", "users_tracked"}));
    for (const TargetSnapshot& s : shaped) {
        const TargetSnapshot* before = cdc::ui::findSnapshot(first, s.target);
        QVERIFY(before);
        QCOMPARE(s.serial, before->serial);
        QCOMPARE(cdc::test::rowTexts(s.rows), cdc::test::rowTexts(before->rows));
        QCOMPARE(cdc::test::rowTexts(s.tombstones), cdc::test::rowTexts(before->tombstones));
    }
}

QTEST_MAIN(TestSnapshotPatch)
#include "tst_snapshotpatch.moc"
