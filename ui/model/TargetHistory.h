#pragma once
/// Looking at an earlier update without undoing anything: selecting update N in the Timeline shows the
/// targets as they were after it, read by rewinding inside a savepoint that is then rolled back.

#include "core/common/Diagnostic.h"
#include "core/storage/Database.h"
#include "ui/model/results/TargetSnapshot.h"

namespace cdc::ui::targethistory {

/// The stored targets (`order` first, see loadTargetSnapshots) as they were right after update `updateId`
/// (0 = before the first update): the later updates are rewound inside a savepoint that is then rolled
/// back, so nothing changes.
/// For the latest update, `previous` (the snapshots of the update before, when the caller has them)
/// lets unchanged targets be patched instead of re-read (see loadTargetSnapshots).
cdc::Result<QList<TargetSnapshot>> snapshotsAt(storage::Database& db, const QStringList& order,
                                               qint64 updateId, const QList<TargetSnapshot>& previous = {});

} // namespace cdc::ui::targethistory
