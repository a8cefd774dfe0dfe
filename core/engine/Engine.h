#pragma once
/// The AUTO CDC engine's public entry points (contract between core/engine and the CLI, the GUI and
/// the benchmark). One call to runUpdate() is one simulated triggered pipeline update: every flow, in
/// dependency order, in ONE SQLite transaction.

#include "core/common/Diagnostic.h"
#include "core/common/ResultSet.h"
#include "core/engine/StoredTarget.h"
#include "core/engine/UpdateTypes.h"
#include "core/pipeline/Pipeline.h"
#include "core/storage/Database.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cdc::engine {

/// Checks the pipeline against the catalog (sources exist, columns exist, option combinations).
/// Errors carry the offending clause's position.
Status validate(storage::Database& db, const pipeline::Pipeline& pipeline);

/// Checks a project file before it is used: a file someone sent is untrusted. FOREIGN_OBJECTS: triggers or
/// views CDC Studio did not make (storage::ForeignObjects; storage::dropForeignObjects removes them);
/// PROJECT_DAMAGED: a bookkeeping table whose columns are not CDC Studio's; TARGET_DAMAGED: a target whose
/// registry row or objects break the engine's invariants (a full refresh rebuilds it). Reads only the schema
/// and the registry, so it is cheap; runUpdate runs the same checks itself.
Status verifyProject(const storage::Database& db);

/// Runs one update. On any error nothing is changed (the database is as before the call). The file is
/// checked first (verifyProject; a full refresh rebuilds damaged targets instead of refusing them), and the
/// update stops at UpdateOptions::timeout or ::cancel (TIMEOUT, CANCELLED) wherever it is.
///
/// Sources are append-only streams: when the SQL front end's change log (`__cdc_source_changes`) shows
/// an UPDATE, DELETE or TRUNCATE of rows a flow has already consumed, the update fails with
/// SOURCE_CHANGED naming the source — unless the target sets
/// `TBLPROPERTIES ('pipelines.cdc.skipChangeCommits' = 'true')` (or `'skipChangeCommits' = 'true'`),
/// Databricks' skipChangeCommits, in which case such changes are ignored and only appended rows are read.
/// Tombstone GC uses `pipelines.cdc.tombstoneGCThresholdInSeconds` (default 172800) on `now`.
Result<UpdateReport> runUpdate(storage::Database& db, const pipeline::Pipeline& pipeline,
                               const UpdateOptions& options = {});

/// Live tombstones of a target: its key columns, __SEQUENCE, __DELETED_AT and __GC_DUE_AT (epoch seconds in
/// TIMESTAMP columns, as the simulated clock counts; displayValue shows them as ISO-8601 UTC; SCD2 has no
/// due time: NULL).
Result<ResultSet> tombstones(storage::Database& db, const std::string& target);

/// Tombstones that update `updateId` garbage-collected (same columns as tombstones(), plus __COLLECTED_IN).
Result<ResultSet> collectedTombstones(storage::Database& db, const std::string& target,
                                      std::int64_t updateId);

/// The update log: one row per update and flow with every metric, the error if any, and the time (epoch
/// seconds in a TIMESTAMP column).
Result<ResultSet> updateLog(storage::Database& db);

/// Undoes every update after `updateId` exactly (targets, tombstones, checkpoints, change feed, log).
/// `rewindTo(db, 0)` returns to the state before the first update.
Status rewindTo(storage::Database& db, std::int64_t updateId);

/// The highest update id recorded, 0 when none.
Result<std::int64_t> lastUpdateId(storage::Database& db);

/// The pipeline's targets that a full refresh would change (see OutdatedTarget); targets no update has
/// built yet are not listed. Fails like validate() when the pipeline does not plan.
Result<std::vector<OutdatedTarget>> outdatedTargets(storage::Database& db,
                                                    const pipeline::Pipeline& pipeline);

/// Whether update `updateId` was a full refresh. Its change feed lists the rebuilt rows as inserts and not
/// the rows the refresh replaced, so a reader cannot patch an earlier state with it.
Result<bool> wasFullRefresh(storage::Database& db, std::int64_t updateId);

/// The change data feed of a target, as `table_changes('target', from[, to])` shows it: the public
/// columns plus _change_type (insert, update_preimage, update_postimage, delete), _commit_version
/// (the update id) and _commit_timestamp. Rows are in commit order. The SQLite view of it is
/// storage::TargetTables::changeFeed.
Result<ResultSet> changeFeed(storage::Database& db, const std::string& target, std::int64_t fromUpdate,
                             std::optional<std::int64_t> toUpdate = std::nullopt);

} // namespace cdc::engine
