#pragma once
/// Matches a target's rows with the change feed of the shown update to tell, per row, whether the
/// update inserted, changed, closed or deleted it (row identity as in semantics §9.1: the keys for
/// SCD1, keys + coalesce(__START_AT, __END_AT) for SCD2).

#include "ui/model/results/RowChange.h"
#include "ui/model/results/TargetSnapshot.h"

#include <memory>
#include <vector>

namespace cdc::ui {

struct ChangeClassification {
    /// One entry per row of TargetSnapshot::rows.
    std::vector<RowChange> rowChanges;
    /// Rows of TargetSnapshot::changes with _change_type 'delete' whose row is gone from the target.
    std::vector<int> ghostChangeRows;

    RowChange at(std::size_t row) const {
        return row < rowChanges.size() ? rowChanges[row] : RowChange::Deleted;
    }
};

ChangeClassification classifyChanges(const TargetSnapshot& snapshot);
/// The snapshot's classification: the loader's, or classified now when it has none.
std::shared_ptr<const ChangeClassification> changesOf(const TargetSnapshot& snapshot);

/// Column indices of the row identity within `rs` (-1 for a missing one); the SCD2 part is the
/// coalesce of the last two entries, see identityOf().
std::vector<int> identityColumns(const TargetSnapshot& snapshot, const cdc::ResultSet& rs);
std::string identityOf(const TargetSnapshot& snapshot, const cdc::Row& row, const std::vector<int>& columns);

} // namespace cdc::ui
