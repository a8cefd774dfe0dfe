#pragma once
/// What the result views show of one AUTO CDC target after one update: an immutable value,
/// loaded once per update (off the views) and handed to every panel.

#include "core/common/Diagnostic.h"
#include "core/common/ResultSet.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace cdc::storage {
class Database;
}
namespace cdc::pipeline {
struct Pipeline;
}

namespace cdc::ui {

struct TargetSnapshot {
    QString target;
    bool scd2 = false;
    QStringList keyColumns;
    QString sequenceType; ///< Spark spelling of the SEQUENCE BY type ("INT", "TIMESTAMP", "STRUCT<...>")
    /// Columns whose change opens a new SCD2 version; empty = every public non-key column.
    QStringList trackedColumns;
    cdc::ResultSet rows;       ///< public rows of the target (SCD2: plus __START_AT, __END_AT)
    cdc::ResultSet changes;    ///< change feed of update `updateId` only: public cols + _change_type
                               ///< (insert / update_preimage / update_postimage / delete),
                               ///< _commit_version, _commit_timestamp
    cdc::ResultSet tombstones; ///< live tombstones: key columns, __SEQUENCE, __DELETED_AT, __GC_DUE_AT
    cdc::ResultSet collected;  ///< tombstones collected by update `updateId` (same columns + __COLLECTED_IN)
    qint64 updateId = 0;
};

/// The snapshot named `target` in `snapshots`, or nullptr.
const TargetSnapshot* findSnapshot(const QList<TargetSnapshot>& snapshots, const QString& target);

/// Loads every AUTO CDC target of the pipeline that an update has created, as of the last update:
/// rows from the target's catalog view (what `SELECT * FROM t` returns, typed from the catalog, sorted
/// by key then __START_AT), changes via engine::changeFeed(t, id, id) (= table_changes('t', id, id)),
/// tombstones via engine::tombstones / collectedTombstones, updateId via engine::lastUpdateId; keys,
/// SCD type and tracked columns from the pipeline's flows. Reads only: call it on the thread that owns `db`.
cdc::Result<QList<TargetSnapshot>> loadTargetSnapshots(cdc::storage::Database& db,
                                                       const cdc::pipeline::Pipeline& p);

} // namespace cdc::ui
