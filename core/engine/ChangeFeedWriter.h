#pragma once
/// Appends a target's change-feed rows for the current update, many rows per INSERT (MultiRowInsert).
/// Rows keep the order they are added in (their `__pos`).
///
/// A stored row is (public columns, _change_type as a ChangeType number, _commit_version, __pos); the
/// Databricks columns _change_type (text) and _commit_timestamp come from changeFeedMetadataSql().

#include "core/engine/FlowPlan.h"
#include "core/engine/MultiRowInsert.h"
#include "core/engine/TargetStore.h"

#include <initializer_list>
#include <span>
#include <vector>

namespace cdc::engine {

/// Stored values of _change_type.
enum class ChangeType { Insert = 0, UpdatePreimage = 1, UpdatePostimage = 2, Delete = 3 };

/// `_change_type, _commit_version, _commit_timestamp` as Databricks shows them, computed from a stored
/// change-feed row's _change_type and _commit_version.
std::string changeFeedMetadataSql();

class ChangeFeedWriter {
public:
    ChangeFeedWriter(UpdateContext& ctx, const TargetPlan& t);

    /// Queues one row: the target's public columns in order (`extra` appended: SCD2's __START_AT and
    /// __END_AT), and its change type. The values are copied into buffers reused from row to row.
    Status add(std::span<const Value> publicValues, ChangeType changeType,
               std::initializer_list<const Value*> extra = {});
    /// Writes what is queued; call before the update moves on to another target or ends.
    Status flush();

private:
    struct Pending {
        Row values;
        ChangeType changeType;
        std::int64_t position;
    };
    UpdateContext& m_ctx;
    std::size_t m_width; ///< public columns
    MultiRowInsert m_insert;
    std::vector<Pending> m_pending; ///< rowsPerStatement() slots; the first m_queued are queued
    std::size_t m_queued = 0;
};

} // namespace cdc::engine
