#pragma once
/// The SQLite objects behind the engine: global bookkeeping (updates, update log, checkpoints, target
/// registry, truncate watermarks) and, per AUTO CDC target, the backing table, the public view, the
/// change feed (an SCD2 backing table holds the event log and the versions), the undo journal that makes
/// rewind exact, and the GC log.
///
/// Undo model: every unit of work in an update ("phase") saves the pre-images of the rows it changes
/// or removes in the target's undo journal (UndoJournal.h, one blob per phase); rows it creates carry
/// the update's id in __cdc_upd. Rewinding an update restores its phases newest first, then deletes
/// the rows it created.

#include "core/common/Diagnostic.h"
#include "core/engine/FlowPlan.h"
#include "core/engine/StoredTarget.h"
#include "core/storage/Database.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>

namespace cdc::engine {

class UpdateTrace;

struct UpdateContext {
    explicit UpdateContext(storage::Database& database) : db(database) {}
    storage::Database& db;
    std::int64_t updateId = 0;
    std::int64_t now = 0;
    int phase = 0;
    std::int64_t feedPosition = 0; ///< `__pos` of the next change-feed row of this update
    std::vector<Diagnostic> warnings;
    /// The current flow's batch as a FROM item with columns (rid, op, s, sv, c0.., ctu): a subquery over
    /// the source rows since the checkpoint.
    std::string batch;
    std::int64_t batchTruncates = 0;
    /// Targets (lower-cased) whose stored state a full refresh rebuilds from nothing because the file's copy
    /// of it is damaged (engine::damagedTargets), even where their signature still matches.
    std::set<std::string> rebuild;
    UpdateTrace* trace = nullptr; ///< UpdateOptions::trace
    int nextPhase() { return ++phase; }
};

namespace store {

Status ensureGlobalSchema(storage::Database& db);

/// The update's set-up of a target: creates its objects, empty, and registers it when the database does not
/// hold it yet; refuses a changed definition that only a full refresh may rebuild. Never changes stored rows.
Status setUpTarget(UpdateContext& ctx, const TargetPlan& t, bool reset);

/// Checks that the stored objects match the plan. With `reset` (full refresh) the stored state is emptied
/// (undoably) or, when the schema changed, rebuilt; a materialized view is rebuilt whenever its schema
/// changed.
Status prepareTarget(UpdateContext& ctx, const TargetPlan& t, bool reset);

/// The CREATE VIEW statement (no closing `;`) of a stored target's public view and of its change feed view,
/// exactly as the engine writes them: verifyProject compares a file's views with these.
std::string publicViewSql(const StoredTarget& t);
std::string changeFeedViewSql(const StoredTarget& t);

/// Internal column list of the backing table (data columns then bookkeeping) for SCD1 / SCD2.
std::string backingColumns(const TargetPlan& t);

/// The widest row the statements of a target like `t` with `columns` columns read or write: its backing
/// table's, and for an SCD2 target with partial updates (IGNORE NULL UPDATES, COLUMNS TO UPDATE) one more
/// per column. SQLite's limit on a row's columns bounds it.
std::size_t rowWidth(const TargetPlan& t, std::size_t columns, bool partialUpdates);

/// Records which definition of its flows (definitionHash) the update computed the target's rows with, when
/// it differs from the one recorded last.
Status recordDefinition(UpdateContext& ctx, const std::string& target, std::uint64_t definition);

/// Deletes SCD1 tombstones older than the threshold on the simulated clock; returns how many.
Result<std::int64_t> collectTombstones(UpdateContext& ctx, const TargetPlan& t);

struct Watermark {
    Value key;   ///< encoded sequence
    Value value; ///< display value
};
Result<std::optional<Watermark>> truncateWatermark(const storage::Database& db, const std::string& target);
Status setTruncateWatermark(UpdateContext& ctx, const std::string& target, const Watermark& w);

/// Checkpoint of (flow, input): last source rowid consumed and the source-change sequence seen.
struct Checkpoint {
    std::int64_t lastRowId = 0;
    std::int64_t changeSeq = 0;
    bool exists = false;
};
Result<Checkpoint> checkpoint(const storage::Database& db, const std::string& flow, const std::string& input);
Status saveCheckpoint(UpdateContext& ctx, const std::string& flow, const std::string& input,
                      const Checkpoint& c);

/// Undoes every update after `updateId`.
Status rewind(storage::Database& db, std::int64_t updateId);

} // namespace store
} // namespace cdc::engine
