// Order independence (semantics.md Part 1 #1): for random CDC streams, every shuffle of arrival order
// and every split into updates gives the SCD1 and SCD2 result of applying the events sorted in one
// update; the SCD2 invariants hold after every update; rewinding to 0 and re-running reproduces it.
// Rewind exactness: rewinding to any earlier update gives back that update's database, byte for byte in
// every table (targets' bookkeeping, event logs, change feeds, GC logs, checkpoints), also for partial
// updates (IGNORE NULL UPDATES) and tombstone GC.

#include "EngineTestUtil.h"

#include <random>
#include <set>

using namespace enginetest;

namespace {

struct Event {
    std::int64_t key, seq;
    bool del;
    std::string name, city;
};

std::vector<Event> randomStream(std::mt19937& rng, bool withNulls = false) {
    std::uniform_int_distribution<int> keyCount(1, 4), eventCount(1, 14), seqGap(1, 4), pick(0, 99), value(0, 2);
    const int keys = keyCount(rng), n = eventCount(rng);
    std::vector<std::int64_t> nextSeq(static_cast<std::size_t>(keys), 0);
    std::vector<Event> out;
    const char* names[] = {"ann", "bob", "cid"};
    const char* cities[] = {"Lima", "Oslo", "Rome"};
    for (int e = 0; e < n; ++e) {
        const auto k = static_cast<std::size_t>(std::uniform_int_distribution<int>(0, keys - 1)(rng));
        nextSeq[k] += seqGap(rng); // distinct (key, seq) pairs, random gaps
        out.push_back({static_cast<std::int64_t>(k + 1), nextSeq[k], pick(rng) < 25, names[value(rng)], cities[value(rng)]});
        if (withNulls && pick(rng) < 30)
            (pick(rng) < 50 ? out.back().name : out.back().city).clear(); // a NULL column
    }
    return out;
}

Value textOrNull(const std::string& v) { return v.empty() ? null() : s(v); }

Row toRowWithNulls(const Event& e) {
    return {i(e.key), e.del ? null() : textOrNull(e.name), e.del ? null() : textOrNull(e.city),
            s(e.del ? "DELETE" : "UPSERT"), i(e.seq)};
}

/// Every table of the file but the source, each row as text, sorted: the whole state rewind must restore.
QStringList databaseDump(storage::Database& db) {
    QStringList out;
    for (const QString& table : rows(db, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE "
                                         "'sqlite%' AND name NOT IN ('events', '__cdc_updates')"))
        for (const QString& row : rows(db, "SELECT * FROM " + storage::quoteIdentifier(table.toStdString())))
            out << table + ": " + row;
    // __cdc_updates holds each update's measured duration; its ids are what must come back.
    if (db.tableExists("__cdc_updates"))
        out << rows(db, "SELECT update_id, now, full_refresh FROM __cdc_updates");
    return out;
}

Row toRow(const Event& e) {
    return {i(e.key), e.del ? null() : s(e.name), e.del ? null() : s(e.city), s(e.del ? "DELETE" : "UPSERT"), i(e.seq)};
}

pipeline::Pipeline bothScdTypes() {
    return pipelineOf({seedFlow("t1", "events", 1), seedFlow("t2", "events", 2)});
}

struct Outcome {
    QStringList scd1, scd2, tombstones;
    bool operator==(const Outcome&) const = default;
};

Outcome outcomeOf(storage::Database& db) {
    Outcome o{target(db, "t1"), target(db, "t2"), {}};
    auto tomb = engine::tombstones(db, "t1");
    if (tomb)
        for (const Row& r : tomb->rows)
            o.tombstones << QString::fromStdString(displayText(r[0]) + "@" + displayText(r[1]));
    return o;
}

QString scd2Violations(storage::Database& db) {
    QStringList v;
    v << rows(db, "SELECT 'two open versions', userId FROM t2 WHERE __END_AT IS NULL GROUP BY userId HAVING count(*) > 1");
    v << rows(db, "SELECT 'empty interval', userId, __START_AT FROM t2 WHERE __END_AT IS NOT NULL AND NOT (__START_AT < __END_AT)");
    v << rows(db, "SELECT 'overlap', a.userId, a.__START_AT, b.__START_AT FROM t2 a JOIN t2 b ON a.userId = b.userId AND "
                  "a.__START_AT < b.__START_AT AND (a.__END_AT IS NULL OR a.__END_AT > b.__START_AT)");
    return v.join("; ");
}

QString describe(const std::vector<Event>& evs) {
    QStringList out;
    for (const Event& e : evs)
        out << QString("%1@%2%3").arg(e.key).arg(e.seq).arg(e.del ? "D" : QString::fromStdString(":" + e.name + "/" + e.city));
    return out.join(' ');
}

} // namespace

class TestEngineProperty : public QObject {
    Q_OBJECT

private slots:
    void orderIndependence_data();
    void orderIndependence();
    void rewindRestoresEveryUpdate_data();
    void rewindRestoresEveryUpdate();
};

void TestEngineProperty::orderIndependence_data() {
    QTest::addColumn<int>("seed");
    for (int seed = 1; seed <= 300; ++seed)
        QTest::addRow("seed %d", seed) << seed;
}

void TestEngineProperty::orderIndependence() {
    QFETCH(int, seed);
    std::mt19937 rng(static_cast<unsigned>(seed));
    const std::vector<Event> stream = randomStream(rng);
    const auto p = bothScdTypes();

    // Reference: sorted by sequence, one update.
    Outcome expected;
    {
        auto db = openDb();
        createUsers(db, "events");
        std::vector<Event> sorted = stream;
        std::stable_sort(sorted.begin(), sorted.end(), [](const Event& a, const Event& b) { return a.seq < b.seq; });
        std::vector<Row> rs;
        for (const Event& e : sorted)
            rs.push_back(toRow(e));
        insert(db, "events", rs);
        QVERIFY(update(db, p).updateId == 1);
        QVERIFY2(scd2Violations(db).isEmpty(), qPrintable(scd2Violations(db)));
        expected = outcomeOf(db);
    }

    for (int trial = 0; trial < 3; ++trial) {
        std::vector<Event> shuffled = stream;
        std::shuffle(shuffled.begin(), shuffled.end(), rng);
        const int parts = std::uniform_int_distribution<int>(1, 4)(rng);
        std::set<std::size_t> cuts;
        for (int c = 1; c < parts; ++c)
            cuts.insert(std::uniform_int_distribution<std::size_t>(0, shuffled.size())(rng));
        auto db = openDb();
        createUsers(db, "events");
        std::size_t from = 0;
        std::vector<std::size_t> bounds(cuts.begin(), cuts.end());
        bounds.push_back(shuffled.size());
        for (std::size_t b : bounds) {
            std::vector<Row> rs;
            for (; from < b; ++from)
                rs.push_back(toRow(shuffled[from]));
            insert(db, "events", rs);
            QVERIFY(update(db, p).updateId > 0);
            const QString bad = scd2Violations(db);
            QVERIFY2(bad.isEmpty(), qPrintable(bad + " in " + describe(shuffled)));
        }
        const Outcome got = outcomeOf(db);
        const QString context = "arrival order " + describe(shuffled);
        QVERIFY2(got.scd1 == expected.scd1, qPrintable(context + "\nSCD1 got " + got.scd1.join(" | ") + "\nexpected " + expected.scd1.join(" | ")));
        QVERIFY2(got.scd2 == expected.scd2, qPrintable(context + "\nSCD2 got " + got.scd2.join(" | ") + "\nexpected " + expected.scd2.join(" | ")));
        QVERIFY2(got.tombstones == expected.tombstones, qPrintable(context + "\ntombstones got " + got.tombstones.join(" ") + " expected " + expected.tombstones.join(" ")));

        if (trial == 0) {
            // Rewind exactness: back to nothing, then one update over everything gives the same result.
            QVERIFY(engine::rewindTo(db, 0).ok());
            QVERIFY(!db.tableExists("t1")); // created by update 1, so rewinding to 0 removes it
            QCOMPARE(engine::lastUpdateId(db).value(), 0);
            QVERIFY(update(db, p).updateId == 1);
            QVERIFY2(outcomeOf(db) == expected, qPrintable(context + " after rewindTo(0)"));
        }
    }
}

void TestEngineProperty::rewindRestoresEveryUpdate_data() {
    QTest::addColumn<int>("seed");
    for (int seed = 1; seed <= 120; ++seed)
        QTest::addRow("seed %d", seed) << seed;
}

void TestEngineProperty::rewindRestoresEveryUpdate() {
    QFETCH(int, seed);
    std::mt19937 rng(static_cast<unsigned>(seed) * 7919u);
    std::vector<Event> stream = randomStream(rng, true);
    std::shuffle(stream.begin(), stream.end(), rng);
    auto partial1 = seedFlow("p1", "events", 1);
    partial1.ignoreNullUpdates = selection(pipeline::ColumnSelection::Mode::All, {});
    auto partial2 = seedFlow("p2", "events", 2);
    partial2.ignoreNullUpdates = selection(pipeline::ColumnSelection::Mode::All, {});
    // A 5-second GC threshold with the clock advancing 4 s per update: tombstones are collected mid-stream.
    const auto p = pipelineOf({seedFlow("t1", "events", 1), seedFlow("t2", "events", 2), partial1, partial2},
                              {{"pipelines.cdc.tombstoneGCThresholdInSeconds", "5"}});

    auto db = openDb();
    createUsers(db, "events");
    std::vector<QStringList> after{databaseDump(db)};
    const int updates = std::uniform_int_distribution<int>(2, 5)(rng);
    std::size_t from = 0;
    for (int u = 1; u <= updates; ++u) {
        const std::size_t to = u == updates ? stream.size() : std::min(stream.size(), from + stream.size() / updates + 1);
        std::vector<Row> rs;
        for (; from < to; ++from)
            rs.push_back(toRowWithNulls(stream[from]));
        insert(db, "events", rs);
        QCOMPARE(update(db, p, 1000 + 4 * u).updateId, static_cast<std::int64_t>(u));
        after.push_back(databaseDump(db));
    }
    for (int k = updates - 1; k >= 0; --k) {
        QVERIFY(engine::rewindTo(db, k).ok());
        const QStringList got = databaseDump(db);
        if (got != after[static_cast<std::size_t>(k)]) {
            QStringList missing, extra;
            for (const QString& r : after[static_cast<std::size_t>(k)])
                if (!got.contains(r))
                    missing << r;
            for (const QString& r : got)
                if (!after[static_cast<std::size_t>(k)].contains(r))
                    extra << r;
            QFAIL(qPrintable(QString("rewind to %1 of %2 in %3\nmissing: %4\nextra: %5")
                                 .arg(k)
                                 .arg(updates)
                                 .arg(describe(stream), missing.join(" | "), extra.join(" | "))));
        }
    }
}

QTEST_GUILESS_MAIN(TestEngineProperty)
#include "tst_engine_property.moc"
