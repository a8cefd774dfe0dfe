// pipeline::forEachLocation visits every position a parsed pipeline holds: a pipeline parsed from a text
// and from the same text moved down and renamed differ only in positions, so once every visited position
// is cleared they must be equal; and the number of positions visited matches a count made by hand.

#include "PipelineTestSupport.h"
#include "core/pipeline/PipelineLocations.h"
#include "core/sql/SqlApi.h"

#include <QTest>

#include <algorithm>

using namespace cdc;

namespace {

// Every kind of located field: a table with a schema and an expectation (a warning), a view reading a
// stream, an AUTO CDC flow with every clause, a FROM SNAPSHOT flow with a version query, and both forms
// of append flow. The comments give the hand count of positions each statement yields.
const char* kRichPipeline = R"sql(
CREATE OR REFRESH STREAMING TABLE users (
  id BIGINT NOT NULL,
  name STRING COMMENT 'display name',
  CONSTRAINT valid_id EXPECT (id IS NOT NULL)
);
-- 5: table, its name, 2 schema columns, the expectation's warning

CREATE TEMPORARY VIEW changes AS SELECT * FROM STREAM(users_cdf) WHERE id > 0;
-- 4: view, name, query, 1 relation

CREATE FLOW users_flow AS AUTO CDC INTO users
  FROM STREAM(changes)
  KEYS (id)
  IGNORE NULL UPDATES ON (name)
  APPLY AS DELETE WHEN operation = 'DELETE'
  APPLY AS TRUNCATE WHEN operation = 'TRUNCATE'
  SEQUENCE BY STRUCT(seq, id)
  COLUMNS * EXCEPT (operation, seq)
  STORED AS SCD TYPE 2
  TRACK HISTORY ON (name)
  COLUMNS TO UPDATE name;
-- 18: flow, name, target, source, 1 key, IGNORE NULL UPDATES ON + 1 column, the delete and truncate
--     conditions, 2 sequence fields, COLUMNS + 2 columns, STORED AS, TRACK HISTORY ON + 1 column,
--     COLUMNS TO UPDATE

CREATE STREAMING TABLE snapshot_target;
-- 2: table, name

CREATE FLOW snapshot_flow AS AUTO CDC INTO snapshot_target
  FROM SNAPSHOT (SELECT * FROM snapshots) WITH VERSION (SELECT max(v) FROM versions)
  KEYS (id);
-- 8: flow, name, target, 1 key, snapshot query + 1 relation, version query + 1 relation (no source
--    name, COLUMNS or STORED AS: their positions stay invalid and are visited all the same)

CREATE FLOW backfill AS INSERT INTO ONCE users BY NAME SELECT * FROM archive;
-- 5: flow, name, target, query, 1 relation

CREATE STREAMING TABLE copies AS SELECT * FROM STREAM(users);
-- 8: table, name; its append flow, name, target, query, 1 relation
)sql";

constexpr int kHandCount = 5 + 4 + 18 + 2 + 8 + 5 + 7;

sql::PipelineParse parse(const std::string& text, const std::string& file) {
    sql::PipelineParse parsed = sql::parsePipeline(text, file);
    for (const auto& d : parsed.diagnostics)
        if (d.severity == Severity::Error)
            qWarning("%s", d.format().c_str());
    return parsed;
}

/// Pipeline's own operator== is deleted by Diagnostic having none: compare the warnings field by field
/// and everything else with the structs' defaulted (member-wise, positions included) comparisons.
using pipelinetest::equal;

} // namespace

class TestPipelineLocations : public QObject {
    Q_OBJECT

private slots:
    void theTextHasEveryLocatedField() {
        auto parsed = parse(kRichPipeline, "a.sql");
        QVERIFY(!parsed.hasErrors());
        const auto& p = parsed.pipeline;
        QCOMPARE(p.streamingTables.size(), std::size_t(3));
        QCOMPARE(p.streamingTables[0].schema.size(), std::size_t(2));
        QCOMPARE(p.views.size(), std::size_t(1));
        QCOMPARE(p.views[0].query.relations.size(), std::size_t(1));
        QCOMPARE(p.warnings.size(), std::size_t(1));
        QCOMPARE(p.cdcFlows.size(), std::size_t(2));
        const auto& flow = p.cdcFlows[0];
        QVERIFY(flow.ignoreNullUpdates && flow.applyAsDelete && flow.applyAsTruncate && flow.trackHistory &&
                flow.columnsToUpdate);
        QCOMPARE(flow.sequenceBy.size(), std::size_t(2));
        QVERIFY(flow.storedAsLocation.valid());
        const auto& snapshot = p.cdcFlows[1];
        QVERIFY(snapshot.snapshotQuery && snapshot.versionQuery);
        QCOMPARE(p.appendFlows.size(), std::size_t(2));
    }

    void everyPositionIsVisited() {
        auto original = parse(kRichPipeline, "a.sql");
        // The same statements three lines further down, indented, in another file: every valid
        // position differs, nothing else does.
        auto moved = parse(std::string("-- moved\n\n\n  ") + kRichPipeline, "b.sql");
        QVERIFY(!equal(original.pipeline, moved.pipeline));

        int visited = 0;
        int valid = 0;
        auto clear = [&](SourceLocation& l) {
            ++visited;
            valid += l.valid() ? 1 : 0;
            l = SourceLocation{};
        };
        pipeline::forEachLocation(original.pipeline, clear);
        QCOMPARE(valid, kHandCount);
        pipeline::forEachLocation(moved.pipeline, clear);
        QCOMPARE(valid, 2 * kHandCount);
        QCOMPARE(visited, 2 * (kHandCount + 3)); // and the snapshot flow's three invalid positions
        // A position the walk missed still differs between the two.
        QVERIFY(equal(original.pipeline, moved.pipeline));
    }
};

QTEST_GUILESS_MAIN(TestPipelineLocations)
#include "tst_pipeline_locations.moc"
