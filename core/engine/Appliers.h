#pragma once
/// The two appliers. Both read the flow's batch, `UpdateContext::batch`, with columns (rid, op, s, sv,
/// c0.., ctu) (op: 0 upsert, 1 delete, 2 truncate; s: comparable sequence key; sv: displayed sequence value)
/// and write the target's backing table, change feed and undo rows for the current update phase.

#include "core/engine/FlowPlan.h"
#include "core/engine/TargetStore.h"
#include "core/engine/UpdateTypes.h"

namespace cdc::engine {

Status applyScd1(UpdateContext& ctx, const TargetPlan& t, const FlowPlan& f, FlowMetrics& m);
Status applyScd2(UpdateContext& ctx, const TargetPlan& t, const FlowPlan& f, FlowMetrics& m);

} // namespace cdc::engine
