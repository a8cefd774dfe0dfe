#pragma once
/// Turns the snapshot of a target after update U-1 into the one after update U without re-reading the
/// target: the rows of the keys that U's change feed names are patched (preimages and deletes leave,
/// postimages and inserts arrive, row identity as in semantics §9.1) and everything else is copied.

#include "ui/model/results/TargetSnapshot.h"

namespace cdc::ui {

/// Fills `next.rows` and `next.patch` from `base.rows` and `next.changes` (the change feed of the update
/// after `base`'s, in commit order). `next` carries the target, keys and SCD type. Returns false when
/// the feed does not apply cleanly — a column of the target is missing from the feed, a change type is
/// unknown, or a removed row is not in `base` — and leaves `next.rows` to be read in full.
bool patchSnapshotRows(const TargetSnapshot& base, TargetSnapshot& next);

} // namespace cdc::ui
