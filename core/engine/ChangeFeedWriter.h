#pragma once
/// Appends a target's change-feed rows for the current update, many rows per INSERT: run once per row, a
/// prepared statement cost more in statement overhead (reset, binds, a seek from the root) than in B-tree
/// work. Rows keep the order they are added in (their `__pos`).

#include "core/engine/FlowPlan.h"
#include "core/engine/TargetStore.h"

#include <optional>
#include <vector>

namespace cdc::engine {

class ChangeFeedWriter {
public:
    ChangeFeedWriter(UpdateContext& ctx, const TargetPlan& t);

    /// Queues one row: the target's public columns in order, and its change type (a string literal).
    Status add(Row publicValues, const char* changeType);
    /// Writes what is queued; call before the update moves on to another target or ends.
    Status flush();

private:
    struct Pending {
        Row values;
        const char* changeType;
        std::int64_t position;
    };
    Result<storage::Statement*> statementFor(std::size_t rows);

    UpdateContext& m_ctx;
    std::string m_table;
    std::size_t m_width;     ///< public columns
    std::size_t m_batchRows; ///< rows per full INSERT
    std::vector<Pending> m_pending;
    std::optional<storage::Statement> m_batch, m_single;
};

} // namespace cdc::engine
