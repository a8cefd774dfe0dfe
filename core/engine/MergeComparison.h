#pragma once
/// "What would a hand-written MERGE have done?" For an AUTO CDC target, the `MERGE INTO` a data engineer
/// writes without AUTO CDC — the textbook upsert by key of each batch's latest row per key, deleting when
/// the delete condition holds; for SCD 2 closing the open version and inserting the new one — as Databricks
/// SQL, run on the events the project's updates delivered, batch by batch in their arrival order, and its
/// table compared with AUTO CDC's. The textbook MERGE compares no stored sequence and keeps no tombstones,
/// so on out-of-order events it applies late updates and brings deleted rows back: the differences are
/// the lesson.
///
/// The MERGE runs in an in-memory scratch database (the project is only read): each update's batch is the
/// one the engine read (its checkpoints say which source rows), through the flow's own planned batch SQL,
/// and the MERGE's semantics are executed with equivalent SQLite statements (DELETE, INSERT ... ON CONFLICT
/// DO UPDATE, UPDATE ... FROM), since SQLite has no MERGE. The SQL shown is what a user runs on Databricks.
///
/// Decisions (docs/cli.md, "compare-merge"): APPLY AS TRUNCATE rows are left out of the MERGE's batch (a
/// MERGE has no clause for them); IGNORE NULL UPDATES, COLUMNS TO UPDATE and TRACK HISTORY are AUTO CDC's
/// and the textbook MERGE does not have them (UPDATE SET overwrites with NULLs; every upsert starts a new
/// SCD 2 version); several rows of one key in one batch are reduced to the one with the highest sequence
/// (the last to arrive among equal ones), because Databricks' MERGE fails when several source rows match
/// one target row; a full refresh empties the MERGE's table and reads every row again.

#include "core/common/DataType.h"
#include "core/common/Diagnostic.h"
#include "core/common/Value.h"
#include "core/pipeline/Pipeline.h"
#include "core/storage/Database.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace cdc::engine {

/// A row that differs: present on one side only, or on both (same key) with the cells listed differing.
struct RowDifference {
    std::optional<std::size_t> mergeRow;   ///< index into MergeComparison::merge
    std::optional<std::size_t> autoCdcRow; ///< index into MergeComparison::autoCdc
    std::vector<std::size_t> cells;        ///< differing columns, when the row is on both sides
};

struct MergeComparison {
    std::string target;
    bool scd2 = false;
    std::string sql; ///< the MERGE statements as Databricks SQL, one per flow into the target
    std::vector<std::string> columns;
    std::vector<std::optional<DataType>> types;
    std::vector<std::size_t> matchColumns; ///< what pairs rows: the keys, and for SCD 2 __START_AT
    std::vector<Row> merge;                ///< the MERGE's table, sorted by the match columns
    std::vector<Row> autoCdc;              ///< AUTO CDC's table as the project holds it, sorted the same
    std::vector<RowDifference> differences;
    int updates = 0;        ///< how many delivered updates were replayed
    std::size_t events = 0; ///< how many source rows their batches held
    bool identical() const { return differences.empty(); }
    /// "MERGE differs from AUTO CDC in 2 rows of orders_current: 1 only in MERGE, 1 with different cells"
    /// or "MERGE gives the same table as AUTO CDC for orders_current (3 rows)".
    std::string summary() const;
    /// One difference as people read it: `orderId=2: only in MERGE (2, created, 25.5)` or
    /// `orderId=1, __START_AT=1: __END_AT is 3 in MERGE, 2 in AUTO CDC`.
    std::string describe(const RowDifference& d) const;
};

/// The AUTO CDC targets of a pipeline fed by at least one stream flow (not FROM SNAPSHOT), in declaration
/// order: what can be compared.
std::vector<std::string> mergeComparableTargets(const pipeline::Pipeline& pipeline);

/// Builds the MERGE of `target`, replays the project's delivered updates through it and compares. Errors:
/// NO_SUCH_TARGET (not an AUTO CDC target of the pipeline), UNSUPPORTED (a FROM SNAPSHOT flow), the plan's
/// own errors. The project's connection must have the Spark functions (sql::installSparkFunctions).
Result<MergeComparison> compareWithMerge(const storage::Database& project, const pipeline::Pipeline& pipeline,
                                         const std::string& target);

/// The report as the CLI prints it: the summary, each difference, then both tables.
std::string comparisonText(const MergeComparison& c);

} // namespace cdc::engine
