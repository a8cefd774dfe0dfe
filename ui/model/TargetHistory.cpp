// The latest update needs no rewind (and can be patched from `previous`); any earlier one is
// rewound in a savepoint and read before the rollback puts the database back.
#include "ui/model/TargetHistory.h"

#include "core/engine/Engine.h"

namespace cdc::ui::targethistory {

cdc::Result<QList<TargetSnapshot>> snapshotsAt(storage::Database& db, const QStringList& order,
                                               qint64 updateId, const QList<TargetSnapshot>& previous) {
    auto last = engine::lastUpdateId(db);
    if (!last)
        return last.error();
    if (updateId >= *last)
        return loadTargetSnapshots(db, order, previous);
    auto tx = storage::Transaction::begin(db, "cdc_view_history");
    if (!tx)
        return tx.error();
    CDC_TRY(engine::rewindTo(db, updateId));
    auto snapshots = loadTargetSnapshots(db, order);
    tx->rollback();
    return snapshots;
}

} // namespace cdc::ui::targethistory
