// Property tests over random CDC streams.
// Reference model: every scenario (ScenarioGenerator: up to ~12 keys and ~80 events, every sequence type,
// NULLs, decided ties, every flow option, two flows into one target, the GC clock, full refreshes) runs
// through the engine sorted by key and sequence in one update, as generated, and shuffled and split into
// updates; after every update the public rows and tombstones must equal the reference model's
// (ReferenceModel, written from the rule book), and where the rule book promises order independence
// (decision 1) every run's final rows must equal the sorted run's. A failure prints the seed and a
// shrunk reproducer as pipeline + source SQL. CDC_PROPERTY_SEED sets the first case's seed and
// CDC_PROPERTY_CASES the number of cases.
// Rewind exactness: rewinding to any earlier update gives back that update's database, byte for byte in
// every table (targets' bookkeeping, event logs, change feeds, GC logs, checkpoints), also for partial
// updates (IGNORE NULL UPDATES) and tombstone GC.

#include "EngineTestUtil.h"
#include "ScenarioCheck.h"

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
    std::uniform_int_distribution<int> keyCount(1, 4), eventCount(1, 14), seqGap(1, 4), pick(0, 99),
        value(0, 2);
    const int keys = keyCount(rng), n = eventCount(rng);
    std::vector<std::int64_t> nextSeq(static_cast<std::size_t>(keys), 0);
    std::vector<Event> out;
    const char* names[] = {"ann", "bob", "cid"};
    const char* cities[] = {"Lima", "Oslo", "Rome"};
    for (int e = 0; e < n; ++e) {
        const auto k = static_cast<std::size_t>(std::uniform_int_distribution<int>(0, keys - 1)(rng));
        nextSeq[k] += seqGap(rng); // distinct (key, seq) pairs, random gaps
        out.push_back({static_cast<std::int64_t>(k + 1), nextSeq[k], pick(rng) < 25, names[value(rng)],
                       cities[value(rng)]});
        if (withNulls && pick(rng) < 30)
            (pick(rng) < 50 ? out.back().name : out.back().city).clear(); // a NULL column
    }
    return out;
}

Value textOrNull(const std::string& v) {
    return v.empty() ? null() : s(v);
}

Row toRowWithNulls(const Event& e) {
    return {i(e.key), e.del ? null() : textOrNull(e.name), e.del ? null() : textOrNull(e.city),
            s(e.del ? "DELETE" : "UPSERT"), i(e.seq)};
}

QString describe(const std::vector<Event>& evs) {
    QStringList out;
    for (const Event& e : evs)
        out << QString("%1@%2%3").arg(e.key).arg(e.seq).arg(
            e.del ? "D" : QString::fromStdString(":" + e.name + "/" + e.city));
    return out.join(' ');
}

/// A scenario written by hand: KEYS (k), a STRING, SEQUENCE BY s (INT), COLUMNS * EXCEPT (op, s).
Scenario handMade(int scd, std::vector<FlowShape> flows, std::optional<std::int64_t> gcThreshold) {
    Scenario sc;
    sc.shape.scdType = scd;
    sc.shape.valueColumns = {"a"};
    sc.shape.columns = {ColumnChoice::Mode::Except, {"op", "s"}};
    sc.shape.gcThresholdSeconds = gcThreshold;
    sc.shape.flows = std::move(flows);
    return sc;
}

/// Adds a row for flow `source` (a NULL `a` when empty) to the scenario's update at `now`.
void add(Scenario& sc, std::int64_t now, int source, std::int64_t k, const std::string& a,
         const std::string& op, std::int64_t seq) {
    SourceEvent e;
    e.id = static_cast<int>(sc.events.size());
    e.source = source;
    e.k = k;
    e.values = {a.empty() ? std::nullopt : std::optional<std::string>("'" + a + "'")};
    e.op = op;
    e.sequence = {seq};
    e.sequenceLiterals = {std::to_string(seq)};
    sc.events.push_back(e);
    if (sc.delivery.empty() || sc.delivery.back().now != now)
        sc.delivery.push_back({now, false, {}});
    sc.delivery.back().events.push_back(e.id);
}

/// Where the engine and the rule book part, and the fix is not small: each case is expected to fail
/// until the team decides (see the reason), and then fails loudly (XPASS) once the engine agrees.
struct KnownDisagreement {
    Scenario scenario;
    Scd2Deletes retention;
    const char* reason;
};

std::map<QString, KnownDisagreement> disagreementCases() {
    std::map<QString, KnownDisagreement> out;
    {
        // One update: f1 (IGNORE NULL UPDATES) brings x at 1, f0 (no option) a NULL at 2. Rule book §5.1:
        // f0's NULL overwrites, a second version [2, null) with a NULL. The engine replays the key's log
        // in f1's batch with f1's rules for every stored event and coalesces f0's NULL to x.
        FlowShape plain, partial;
        partial.ignoreNull = ColumnChoice{};
        Scenario sc = handMade(2, {plain, partial}, std::nullopt);
        add(sc, 1'700'000'000, 0, 1, "", "U", 2);
        add(sc, 1'700'000'000, 1, 1, "x", "U", 1);
        out.insert(
            {"SCD2 flows with different IGNORE NULL UPDATES into one target",
             {sc, Scd2Deletes::KeptForever,
              "SCD2 replays stored events with the partial-update rules of the flow being applied (the "
              "supplied flags are computed from the current flow's options, not stored per event)"}});
    }
    {
        // Decision 4: SCD2 keeps early deletes like SCD1 tombstones, collected after the threshold; a late
        // older upsert then opens an unending version. The engine keeps every SCD2 delete for good.
        FlowShape plain;
        Scenario sc = handMade(2, {plain}, 60);
        add(sc, 1'700'000'000, 0, 1, "", "D", 5);
        add(sc, 1'700'000'060, 0, 1, "x", "U", 2);
        out.insert({"SCD2 early delete collected after the GC threshold",
                    {sc, Scd2Deletes::RuleBook,
                     "SCD2 deletes are never collected (engine::tombstones shows no GC due time for them)"}});
    }
    return out;
}

} // namespace

class TestEngineProperty : public QObject {
    Q_OBJECT

private slots:
    void referenceModel_data();
    void referenceModel();
    void knownDisagreements_data();
    void knownDisagreements();
    void rewindRestoresEveryUpdate_data();
    void rewindRestoresEveryUpdate();
    void rewindRestoresGeneratedScenarios_data();
    void rewindRestoresGeneratedScenarios();
};

void TestEngineProperty::referenceModel_data() {
    QTest::addColumn<qulonglong>("seed");
    bool seedSet = false, casesSet = false;
    const qulonglong first = qEnvironmentVariable("CDC_PROPERTY_SEED").toULongLong(&seedSet);
    const int cases = qEnvironmentVariableIntValue("CDC_PROPERTY_CASES", &casesSet);
    for (int c = 0; c < (casesSet ? cases : 1000); ++c) {
        const qulonglong seed = (seedSet ? first : 20261130) + static_cast<qulonglong>(c);
        QTest::addRow("seed %llu", seed) << seed;
    }
}

void TestEngineProperty::referenceModel() {
    QFETCH(qulonglong, seed);
    ScenarioGenerator generator(seed);
    const Scenario scenario = generator.next();
    // The random runs hold the engine to its SCD2 delete retention (every delete kept, none collected);
    // the rule book's collection of SCD2 early deletes is a known disagreement, checked on its own.
    const Scd2Deletes retention = Scd2Deletes::KeptForever;
    const ScenarioCheck check(scenario, retention);
    const std::string rerun = "CDC_PROPERTY_SEED=" + std::to_string(seed) + " CDC_PROPERTY_CASES=1";
    QVERIFY2(check.error().empty(), qPrintable(QString::fromStdString(check.error() + " (" + rerun + ")\n" +
                                                                      scenario.pipelineSql())));

    const std::vector<std::pair<std::string, Delivery>> runs = {
        {"sorted by key and sequence in one update", generator.sorted(scenario)},
        {"in generated arrival order and updates", scenario.delivery},
        {"shuffled and split (1)", generator.shuffled(scenario)},
        {"shuffled and split (2)", generator.shuffled(scenario)},
    };
    std::vector<std::string> sortedRows;
    for (std::size_t r = 0; r < runs.size(); ++r) {
        const auto& [name, delivery] = runs[r];
        const RunResult result = check.run(delivery);
        if (!result.failure.empty()) {
            QFAIL(qPrintable(QString::fromStdString(
                "engine and reference model differ, run " + name + ", " + rerun +
                "; smallest failing input:\n" +
                smallestReproducer(Property::MatchesModel, scenario, delivery, retention))));
        }
        if (r == 0)
            sortedRows = result.finalRows;
        else if (scenario.orderIndependent(delivery, retention) && result.finalRows != sortedRows)
            QFAIL(qPrintable(QString::fromStdString(
                "order independence: run " + name + " ends with other rows than the sorted run, " + rerun +
                "\n" + check.reproducer(delivery, "the final rows differ"))));
    }
}

void TestEngineProperty::knownDisagreements_data() {
    QTest::addColumn<QString>("name");
    for (const auto& [name, known] : disagreementCases())
        QTest::newRow(qPrintable(name)) << name;
}

void TestEngineProperty::knownDisagreements() {
    QFETCH(QString, name);
    const KnownDisagreement known = disagreementCases().at(name);
    const ScenarioCheck check(known.scenario, known.retention);
    QVERIFY2(check.error().empty(), check.error().c_str());
    const RunResult result = check.run(known.scenario.delivery);
    if (!result.failure.empty()) // the reproducer, which QEXPECT_FAIL's message replaces
        qInfo().noquote() << QString::fromStdString(
            check.reproducer(known.scenario.delivery, result.failure));
    QEXPECT_FAIL("", known.reason, Continue);
    QVERIFY(result.failure.empty());
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
    std::vector<QStringList> after{databaseDump(db, {"events"})};
    const int updates = std::uniform_int_distribution<int>(2, 5)(rng);
    std::size_t from = 0;
    for (int u = 1; u <= updates; ++u) {
        const std::size_t to =
            u == updates ? stream.size() : std::min(stream.size(), from + stream.size() / updates + 1);
        std::vector<Row> rs;
        for (; from < to; ++from)
            rs.push_back(toRowWithNulls(stream[from]));
        insert(db, "events", rs);
        QCOMPARE(update(db, p, 1000 + 4 * u).updateId, static_cast<std::int64_t>(u));
        after.push_back(databaseDump(db, {"events"}));
    }
    for (int k = updates - 1; k >= 0; --k) {
        QVERIFY(engine::rewindTo(db, k).ok());
        const QStringList got = databaseDump(db, {"events"});
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

void TestEngineProperty::rewindRestoresGeneratedScenarios_data() {
    QTest::addColumn<qulonglong>("seed");
    for (qulonglong seed = 1; seed <= 400; ++seed)
        QTest::addRow("seed %llu", seed) << seed;
}

void TestEngineProperty::rewindRestoresGeneratedScenarios() {
    // The generator's options (truncates, partial updates, two flows, ONCE, full refreshes, the GC clock)
    // under rewind, in a shuffled delivery.
    QFETCH(qulonglong, seed);
    ScenarioGenerator generator(seed * 7919u);
    const Scenario scenario = generator.next();
    const Delivery delivery = generator.shuffled(scenario);
    const ScenarioCheck check(scenario, Scd2Deletes::KeptForever);
    QVERIFY2(check.error().empty(), check.error().c_str());
    if (check.rewindFailure(delivery).empty())
        return;
    QFAIL(qPrintable(QString::fromStdString(
        "rewind does not restore an update, seed " + std::to_string(seed) + "; smallest failing input:\n" +
        smallestReproducer(Property::RewindRestoresAll, scenario, delivery, Scd2Deletes::KeptForever))));
}

QTEST_GUILESS_MAIN(TestEngineProperty)
#include "tst_engine_property.moc"
