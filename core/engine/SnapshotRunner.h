#pragma once
/// AUTO CDC FROM SNAPSHOT in an update (semantics.md §7): each snapshot is compared with the target's
/// current rows, and the difference — an upsert at the snapshot version for every new or changed key, a
/// delete at it for every key the snapshot lacks — goes through the SCD1 / SCD2 applier like any batch, so
/// the change feed, the undo journal and the ordering against AUTO CDC flows on the same target (§7.6) are
/// theirs.

#include "core/engine/FlowPlan.h"
#include "core/engine/TargetStore.h"
#include "core/engine/UpdateTypes.h"

namespace cdc::engine {

/// Processes the flow's pending snapshots in ascending version order: for periodic snapshots the source's
/// content at the update's time; with WITH VERSION every version the version query offers, asked again
/// after each round until it offers none. A version not above the last processed one, a NULL version, a
/// NULL key or a key twice in one snapshot fails the update. ONCE flows run in their first update and
/// after a full refresh only.
Status runSnapshotFlow(UpdateContext& ctx, const TargetPlan& t, const FlowPlan& f,
                       const UpdateOptions& options, FlowMetrics& m);

} // namespace cdc::engine
