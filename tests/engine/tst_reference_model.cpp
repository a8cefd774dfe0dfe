// The reference model against ground truth that does not come from the engine: the seed examples'
// tables (seeds 001, conformance fixtures typed from them) and the worked cases of the rule book
// (semantics.md: O1/O2 observations, §5.1.3, decisions 2, 4, 5, 12). If the model were wrong here,
// the property tests would check the engine against a wrong oracle.

#include "ReferenceModel.h"

#include <QtTest/QtTest>

#include <functional>

using namespace enginetest;

namespace {

Sequence at(std::int64_t v) {
    return {{v}, std::to_string(v)};
}

ModelEvent up(std::string key, std::int64_t seq, std::vector<Cell> values, int flow = 0) {
    return {{std::move(key)}, at(seq), EventKind::Upsert, std::move(values), {}, flow};
}

/// An upsert of a flow with COLUMNS TO UPDATE: `listed` names which values it writes.
ModelEvent partial(std::string key, std::int64_t seq, std::vector<Cell> values, std::vector<bool> listed) {
    ModelEvent e = up(std::move(key), seq, std::move(values));
    e.listed = std::move(listed);
    return e;
}

ModelEvent del(std::string key, std::int64_t seq, int flow = 0) {
    return {{std::move(key)}, at(seq), EventKind::Delete, {}, {}, flow};
}

ModelEvent truncateAt(std::int64_t seq) {
    return {{}, at(seq), EventKind::Truncate, {}, {}, 0};
}

TargetRules target(int scd, int values, std::vector<bool> tracked = {}) {
    TargetRules t;
    t.scdType = scd;
    t.valueCount = values;
    t.tracked = std::move(tracked);
    t.layout.push_back({true, 0});
    for (int v = 0; v < values; ++v)
        t.layout.push_back({false, v});
    return t;
}

/// Seed 001's users_cdf rows in the seed's order (name, city).
std::vector<ModelEvent> seedUsers() {
    return {up("124", 1, {"Raul", "Oaxaca"}),
            up("123", 1, {"Isabel", "Monterrey"}),
            up("125", 2, {"Mercedes", "Tijuana"}),
            up("126", 2, {"Lily", "Cancun"}),
            del("123", 6),
            up("125", 6, {"Mercedes", "Guadalajara"}),
            up("125", 5, {"Mercedes", "Mexicali"}),
            up("123", 5, {"Isabel", "Chihuahua"})};
}

struct Case {
    TargetRules target;
    std::vector<FlowRules> flows;
    std::vector<ModelUpdate> updates;
    std::vector<std::string> rows;
    std::vector<std::string> tombstones; ///< "key@seq", checked when not empty
};

using Cases = std::map<QString, std::function<Case()>>;

const Cases& cases() {
    static const Cases all = {
        {"seed 001 SCD1",
         [] {
             return Case{target(1, 2),
                         {{}},
                         {{1, false, seedUsers()}},
                         {"124\tRaul\tOaxaca", "125\tMercedes\tGuadalajara", "126\tLily\tCancun"},
                         {"123@6"}};
         }},
        {"seed 001 SCD1 with TRUNCATE at 3",
         [] {
             auto events = seedUsers();
             events.push_back(truncateAt(3));
             return Case{target(1, 2), {{}}, {{1, false, events}}, {"125\tMercedes\tGuadalajara"}, {}};
         }},
        {"seed 001 SCD2",
         [] {
             return Case{target(2, 2),
                         {{}},
                         {{1, false, seedUsers()}},
                         {"123\tIsabel\tChihuahua\t5\t6", "123\tIsabel\tMonterrey\t1\t5",
                          "124\tRaul\tOaxaca\t1\tnull", "125\tMercedes\tGuadalajara\t6\tnull",
                          "125\tMercedes\tMexicali\t5\t6", "125\tMercedes\tTijuana\t2\t5",
                          "126\tLily\tCancun\t2\tnull"},
                         {}};
         }},
        {"seed 001 SCD2 TRACK HISTORY ON * EXCEPT (city)",
         [] {
             return Case{target(2, 2, {true, false}),
                         {{}},
                         {{1, false, seedUsers()}},
                         {"123\tIsabel\tChihuahua\t1\t6", "124\tRaul\tOaxaca\t1\tnull",
                          "125\tMercedes\tGuadalajara\t2\tnull", "126\tLily\tCancun\t2\tnull"},
                         {}};
         }},
        {"O1 2A: SCD1 late older update ignored",
         [] {
             return Case{target(1, 1),
                         {{}},
                         {{1, false, {up("1", 12, {"ACTIVE"})}}, {2, false, {up("1", 10, {"PENDING"})}}},
                         {"1\tACTIVE"},
                         {}};
         }},
        {"O1 2B: SCD2 late event becomes the first version",
         [] {
             return Case{target(2, 1),
                         {{}},
                         {{1, false, {up("1", 12, {"ACTIVE"})}}, {2, false, {up("1", 10, {"PENDING"})}}},
                         {"1\tACTIVE\t12\tnull", "1\tPENDING\t10\t12"},
                         {}};
         }},
        {"O1 6A: SCD1 late update before the delete stays deleted",
         [] {
             return Case{target(1, 1),
                         {{}},
                         {{1, false, {up("1", 17, {"ACTIVE"}), del("1", 20)}},
                          {2, false, {up("1", 18, {"SUSPENDED"})}}},
                         {},
                         {"1@20"}};
         }},
        {"O1 6B: SCD2 late update splits the closed version",
         [] {
             return Case{target(2, 1),
                         {{}},
                         {{1, false, {up("1", 17, {"ACTIVE"}), del("1", 20)}},
                          {2, false, {up("1", 18, {"SUSPENDED"})}}},
                         {"1\tACTIVE\t17\t18", "1\tSUSPENDED\t18\t20"},
                         {}};
         }},
        {"O2 customers 3 and 4: late deletes, SCD1",
         [] {
             return Case{
                 target(1, 1),
                 {{}},
                 {{1, false, {up("3", 10, {"Denver"}), up("3", 30, {"Miami"}), up("4", 10, {"Austin"})}},
                  {2, false, {del("3", 25), del("4", 25)}}},
                 {"3\tMiami"},
                 {"4@25"}};
         }},
        {"O2 customer 4: late delete closes the current version, SCD2",
         [] {
             return Case{target(2, 1),
                         {{}},
                         {{1, false, {up("4", 10, {"Austin"})}}, {2, false, {del("4", 25)}}},
                         {"4\tAustin\t10\t25"},
                         {}};
         }},
        {"O1 5A: NULLs overwrite by default",
         [] {
             return Case{
                 target(1, 2),
                 {{}},
                 {{1, false, {up("1", 10, {"x@example.com", "Antalya"}), up("1", 20, {{}, "Istanbul"})}}},
                 {"1\tnull\tIstanbul"},
                 {}};
         }},
        {"O1 5B: IGNORE NULL UPDATES keeps the value, one batch",
         [] {
             return Case{
                 target(1, 2),
                 {{{true, true}, false}},
                 {{1, false, {up("1", 20, {{}, "Istanbul"}), up("1", 10, {"x@example.com", "Antalya"})}}},
                 {"1\tx@example.com\tIstanbul"},
                 {}};
         }},
        {"5.1.3: SCD1 IGNORE NULL UPDATES, late event across updates is dropped whole",
         [] {
             return Case{target(1, 1),
                         {{{true}, false}},
                         {{1, false, {up("1", 10, {"x"})}},
                          {2, false, {up("1", 12, {{}})}},
                          {3, false, {up("1", 11, {"y"})}}},
                         {"1\tx"},
                         {}};
         }},
        {"5.1.3: SCD1 IGNORE NULL UPDATES, the same events in one batch",
         [] {
             return Case{target(1, 1),
                         {{{true}, false}},
                         {{1, false, {up("1", 10, {"x"}), up("1", 12, {{}}), up("1", 11, {"y"})}}},
                         {"1\ty"},
                         {}};
         }},
        {"5.1.2: SCD2 IGNORE NULL UPDATES inherits the previous version, not across a delete",
         [] {
             return Case{target(2, 2),
                         {{{true, true}, false}},
                         {{1,
                           false,
                           {up("1", 1, {"a@x", "Oslo"}), up("1", 2, {{}, "Rome"}), up("1", 3, {{}, {}}),
                            del("1", 4), up("1", 5, {{}, "Lima"})}}},
                         {"1\ta@x\tOslo\t1\t2", "1\ta@x\tRome\t2\t4", "1\tnull\tLima\t5\tnull"},
                         {}};
         }},
        {"5.2: COLUMNS TO UPDATE writes listed columns, NULLs included",
         [] {
             return Case{target(1, 2),
                         {{{}, true}},
                         {{1,
                           false,
                           {partial("1", 1, {"a@x", "Oslo"}, {true, true}),
                            partial("1", 2, {{}, "Rome"}, {false, true})}},
                          {2, false, {partial("1", 3, {{}, "Lima"}, {true, false})}},
                          {3, false, {partial("2", 1, {"b@x", "Bern"}, {false, true})}}},
                         {"1\tnull\tRome", "2\tnull\tBern"},
                         {}};
         }},
        {"O1 8B: untracked changes update the version in place, newest wins",
         [] {
             std::vector<ModelEvent> events;
             for (int i = 50; i >= 1; --i)
                 events.push_back(up("1", i, {"ACTIVE", "10:" + std::to_string(i)}));
             return Case{
                 target(2, 2, {true, false}), {{}}, {{1, false, events}}, {"1\tACTIVE\t10:50\t1\tnull"}, {}};
         }},
        {"3.3: a late copy of the next version moves its start earlier",
         [] {
             return Case{
                 target(2, 1),
                 {{}},
                 {{1, false, {up("1", 1, {"a"}), up("1", 5, {"b"})}}, {2, false, {up("1", 3, {"b"})}}},
                 {"1\ta\t1\t3", "1\tb\t3\tnull"},
                 {}};
         }},
        {"decision 2: SCD1 ties, later upsert wins and an upsert beats a delete",
         [] {
             return Case{
                 target(1, 1),
                 {{}},
                 {{1,
                   false,
                   {up("1", 10, {"first"}), up("1", 10, {"second"}), up("2", 5, {"kept"}), del("2", 5)}},
                  {2, false, {del("3", 7)}},
                  {3, false, {up("3", 7, {"back"})}}},
                 {"1\tsecond", "2\tkept", "3\tback"},
                 {}};
         }},
        {"decision 2: SCD2 ties, the delete wins in any order",
         [] {
             return Case{
                 target(2, 1),
                 {{}},
                 {{1,
                   false,
                   {up("1", 10, {"first"}), up("1", 10, {"second"}), up("2", 5, {"gone"}), del("2", 5)}},
                  {2, false, {del("3", 7)}},
                  {3, false, {up("3", 7, {"never"}), up("1", 10, {"third"})}}},
                 {"1\tthird\t10\tnull"},
                 {}};
         }},
        {"decision 4: SCD1 early delete stops an older insert until collected",
         [] {
             TargetRules t = target(1, 1);
             t.gcThresholdSeconds = 60;
             return Case{t,
                         {{}},
                         {{1000, false, {del("7", 10)}},
                          {1059, false, {up("7", 9, {"old"})}},
                          {1060, false, {up("7", 8, {"older"})}}},
                         {"7\tolder"},
                         {}};
         }},
        {"decision 4: SCD2 early delete closes a late insert until collected",
         [] {
             TargetRules t = target(2, 1);
             t.gcThresholdSeconds = 60;
             return Case{t,
                         {{}},
                         {{1000, false, {del("7", 10), del("8", 10)}},
                          {1059, false, {up("7", 9, {"old"})}},
                          {1060, false, {up("8", 9, {"resurrected"})}}},
                         {"7\told\t9\t10", "8\tresurrected\t9\tnull"},
                         {}};
         }},
        {"decision 5: a truncate leaves a watermark for later updates",
         [] {
             return Case{target(1, 1),
                         {{}},
                         {{1, false, {up("1", 1, {"a"}), up("2", 6, {"b"})}},
                          {2, false, {truncateAt(5), up("3", 3, {"below"})}},
                          {3, false, {up("3", 4, {"late"}), up("4", 5, {"tie"})}}},
                         {"2\tb", "4\ttie"},
                         {}};
         }},
        {"decision 5: a truncate takes the tombstones below it, the watermark the deletes",
         [] {
             return Case{target(1, 1),
                         {{}},
                         {{1, false, {up("1", 1, {"a"}), del("2", 3)}},
                          {2, false, {truncateAt(5), del("3", 4)}},
                          {3, false, {del("4", 2), del("5", 6)}}},
                         {},
                         {"5@6"}};
         }},
        {"10.4: full refresh forgets the collected tombstone's resurrection",
         [] {
             TargetRules t = target(1, 1);
             t.gcThresholdSeconds = 60;
             return Case{t,
                         {{}},
                         {{1000, false, {up("1", 1, {"a"}), del("1", 5)}},
                          {2000, false, {up("1", 3, {"zombie"})}},
                          {3000, true, {}}},
                         {},
                         {"1@5"}};
         }},
        {"10.1: two flows share the per-key state, highest sequence wins",
         [] {
             FlowRules partialFlow{{true}, false};
             return Case{target(1, 1),
                         {{}, partialFlow},
                         {{1,
                           false,
                           {up("1", 5, {"a-new"}), up("1", 3, {"b-old"}, 1), up("2", 1, {"b"}, 1),
                            up("2", 2, {{}}, 1)}}},
                         {"1\ta-new", "2\tb"},
                         {}};
         }},
    };
    return all;
}

} // namespace

class TestReferenceModel : public QObject {
    Q_OBJECT

private slots:
    void groundTruth_data();
    void groundTruth();
};

void TestReferenceModel::groundTruth_data() {
    QTest::addColumn<QString>("name");
    for (const auto& [name, make] : cases())
        QTest::newRow(qPrintable(name)) << name;
}

void TestReferenceModel::groundTruth() {
    QFETCH(QString, name);
    const Case c = cases().at(name)();
    ReferenceModel model(c.target, c.flows);
    for (const ModelUpdate& u : c.updates)
        model.apply(u);
    QStringList got, want;
    for (const auto& r : model.rows())
        got << QString::fromStdString(r);
    for (const auto& r : c.rows)
        want << QString::fromStdString(r);
    want.sort();
    QCOMPARE(got, want);
    if (!c.tombstones.empty()) {
        QStringList tomb, wantTomb;
        for (const ModelTombstone& t : model.tombstones())
            tomb << QString::fromStdString(t.key[0] + "@" + t.sequence);
        for (const auto& t : c.tombstones)
            wantTomb << QString::fromStdString(t);
        QCOMPARE(tomb, wantTomb);
    }
}

QTEST_GUILESS_MAIN(TestReferenceModel)
#include "tst_reference_model.moc"
