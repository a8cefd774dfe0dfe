#pragma once
/// What the result views show of one AUTO CDC target after one update: an immutable value,
/// loaded once per update (off the views) and handed to every panel.

#include "core/common/Diagnostic.h"
#include "core/common/ResultSet.h"
#include "core/engine/DatasetKind.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

namespace cdc::storage {
class Database;
}
namespace cdc::pipeline {
struct Pipeline;
}

namespace cdc::ui {

struct ChangeClassification;

/// How a snapshot's rows differ from those of the snapshot it was patched from (the same target after
/// the previous update): one span per key the update touched, giving that key's rows before and after.
/// Rows outside the spans are the same rows, shifted by the spans before them. The result models use
/// it to move only those rows instead of re-indexing the whole target.
struct RowsPatch {
    struct Span {
        int oldBegin = 0, oldEnd = 0; ///< the key's rows in the base snapshot
        int newBegin = 0, newEnd = 0; ///< the key's rows in this snapshot
    };
    quint64 baseSerial = 0;  ///< TargetSnapshot::serial of the base; 0 = not patched (a full load)
    std::vector<Span> spans; ///< in row order
};

struct TargetSnapshot {
    QString target;
    /// An AUTO CDC target, an append table or a materialized view: the panels label them apart.
    cdc::engine::DatasetKind kind = cdc::engine::DatasetKind::AutoCdc;
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
    /// Unique per loaded rows (0 = hand-made): what RowsPatch::baseSerial names. A reload that finds the
    /// target as it was keeps the serial, and models showing that serial keep everything.
    quint64 serial = 0;
    bool rowsInKeyOrder = false; ///< the loader sorted `rows` in TargetRowOrder (hand-made: unknown)
    RowsPatch patch;             ///< set when the rows were patched from the previous update's snapshot
    /// How the update touched each row: classified once by the loader for every model that shows the
    /// snapshot (nullptr for hand-made snapshots; changesOf() classifies those on demand).
    std::shared_ptr<const ChangeClassification> classification;
};

/// Snapshots are shared read-only between the panels and their models: no copy of large targets.
using SharedSnapshot = std::shared_ptr<const TargetSnapshot>;
/// The empty snapshot (no target).
SharedSnapshot emptySnapshot();

/// The snapshot named `target` in `snapshots`, or nullptr.
const TargetSnapshot* findSnapshot(const QList<TargetSnapshot>& snapshots, const QString& target);

/// Loads every AUTO CDC target the database holds (engine::storedTargets), as of the last update — also
/// targets the pipeline no longer names, and whatever the pipeline text: the views show what is stored.
/// Rows from the target's catalog view (what `SELECT * FROM t` returns, typed from the catalog, sorted
/// as TargetRowOrder sorts: by key then __START_AT), changes via engine::changeFeed(t, id, id)
/// (= table_changes('t', id, id)), tombstones via engine::tombstones / collectedTombstones, updateId via
/// engine::lastUpdateId; keys, SCD type and tracked columns as stored. Targets named in `order` (the
/// pipeline's, in flow order) come first, the others after them by name. Reads only: call it on the
/// thread that owns `db`.
///
/// `previous` are the snapshots shown so far. A target whose previous snapshot is of the update just
/// before the last one, with the same keys, SCD type and columns, is not re-read: its rows are that
/// snapshot's rows patched with the last update's change feed (SnapshotPatcher), which is what a full
/// read returns, at the cost of the changed keys only — unless the last update was a full refresh, whose
/// change feed does not list the rows it replaced. Every other target is read in full.
cdc::Result<QList<TargetSnapshot>> loadTargetSnapshots(cdc::storage::Database& db,
                                                       const QStringList& order = {},
                                                       const QList<TargetSnapshot>& previous = {});

/// The targets of `pipeline`'s AUTO CDC flows in flow order: the `order` loadTargetSnapshots takes.
QStringList targetOrder(const cdc::pipeline::Pipeline& pipeline);

/// A new TargetSnapshot::serial.
quint64 nextSnapshotSerial();

} // namespace cdc::ui
