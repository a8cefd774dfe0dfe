#pragma once
/// What an update writes into the datasets AUTO CDC does not: the rows an append flow appends, and a
/// materialized view recomputed. Both write the change feed and leave what rewind needs (rows carry the
/// update's id; replaced rows go to the undo journal).

#include "core/engine/FlowPlan.h"
#include "core/engine/TargetStore.h"
#include "core/engine/UpdateTypes.h"

namespace cdc::engine {

/// Appends the rows of `from` (a FROM item), each target column from `columnSql`, as inserts.
Status appendRows(UpdateContext& ctx, const TargetPlan& t, const std::string& from,
                  const std::vector<std::string>& columnSql, FlowMetrics& m);

/// Recomputes a materialized view; writes nothing when its rows are the same as stored.
Status refreshMaterializedView(UpdateContext& ctx, const TargetPlan& t, FlowMetrics& m);

} // namespace cdc::engine
