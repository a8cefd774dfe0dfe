#pragma once
/// The GUI's own tables inside a project database: `__cdc_project` (key/value settings such as the
/// pipeline text and the simulated clock) and `__cdc_event_queue` (source rows written but not yet
/// delivered to the pipeline). Plain functions over a storage::Database so any connection can use them.

#include "core/common/Diagnostic.h"
#include "core/common/Value.h"
#include "core/storage/Database.h"
#include "core/storage/ProjectSettings.h"

#include <QList>
#include <QString>

#include <optional>

namespace cdc::ui {

/// One event waiting in the queue. Usually a row: which source table it goes to and its values in catalog
/// column order (SQLite storage form, see DataType.h). Or a step: a source script (INSERT, UPDATE, DELETE,
/// TRUNCATE) delivered whole as one event — the next snapshot of a table a FROM SNAPSHOT flow reads, say —
/// with `source` empty.
struct QueuedEvent {
    qint64 id = 0;
    QString source;
    cdc::Row values;
    QString script; ///< a step's source SQL; empty for a row
    QString label;  ///< a step's one-line description (the script's first comment)
    bool isStep() const { return !script.isEmpty(); }
    static QueuedEvent row(qint64 id, const QString& source, cdc::Row values) {
        QueuedEvent e;
        e.id = id;
        e.source = source;
        e.values = std::move(values);
        return e;
    }
    static QueuedEvent step(qint64 id, const QString& script, const QString& label) {
        QueuedEvent e;
        e.id = id;
        e.script = script;
        e.label = label;
        return e;
    }
    bool operator==(const QueuedEvent&) const = default;
};

namespace projectstore {

// The settings' keys have one home, in core, since the CLI writes the pipeline text too.
using storage::projectsettings::kClockKey;
using storage::projectsettings::kClockStartKey;
using storage::projectsettings::kClockTickKey;
using storage::projectsettings::kPipelineKey;
using storage::projectsettings::kPipelineLanguageKey;
using storage::projectsettings::kReadmeKey;
using storage::projectsettings::kSampleKey;
using storage::projectsettings::kVolumesKey;
/// The designer's pinned node positions (NodePositions::toJson); the GUI's own, so not in core.
inline constexpr const char* kNodePositionsKey = "designer.positions";
/// The time limit of the result views' reads, in seconds (Project Settings); the GUI's own.
inline constexpr const char* kQueryTimeoutKey = "results.query_timeout_s";
inline constexpr qint64 kDefaultClock = 1767225600; // 2026-01-01T00:00:00Z
inline constexpr qint64 kDefaultTick = 60;

/// Creates the GUI tables when missing (idempotent); a database made by the CLI gains them on open.
Status ensureSchema(storage::Database& db);

std::optional<QString> value(const storage::Database& db, const char* key);
QString value(const storage::Database& db, const char* key, const QString& fallback);
qint64 intValue(const storage::Database& db, const char* key, qint64 fallback);
Status setValue(storage::Database& db, const char* key, const QString& value);

Result<QList<QueuedEvent>> events(const storage::Database& db);
/// Whether the first `count` queued events include a step (a source script).
Result<bool> headHasSteps(const storage::Database& db, int count);
/// The last `last` (all: -1) queued rows for source `source` (compared ignoring case), in queue order,
/// without decoding the others.
Result<QList<QueuedEvent>> eventsOf(const storage::Database& db, const QString& source, int last = -1);
/// How many rows for source `source` wait in the queue.
Result<qint64> queuedCountOf(const storage::Database& db, const QString& source);
/// How many events wait in the queue (without reading them: an imported feed may queue millions).
Result<qint64> queuedCount(const storage::Database& db);
/// The first `count` queued events (all: -1) with their positions, in queue order (an index seek: what a
/// step delivers costs what it delivers, whatever waits behind it).
Result<QList<std::pair<QueuedEvent, qint64>>> queueHead(const storage::Database& db, int count);
/// Appends at the end of the queue; returns the new ids.
Result<QList<qint64>> appendEvents(storage::Database& db, const QList<QueuedEvent>& events);
/// Rewrites the queue order: `orderedIds` is the new order of the queue's head (the whole queue, or its first
/// events as EventQueueModel shows them); the events not listed keep their order behind them.
Status reorderEvents(storage::Database& db, const QList<qint64>& orderedIds);
Status updateEvent(storage::Database& db, const QueuedEvent& event);
Status removeEvents(storage::Database& db, const QList<qint64>& ids);
/// Writes the first `count` queued events into their source tables and removes them from the queue: a
/// row is inserted, a step's script runs (after its written tables' rows are kept for undeliverAfter).
/// Returns how many were delivered. `updateId`: the update they are delivered to, when the caller knows it
/// (the engine's next id); else they wait for assignDeliveries.
Result<int> deliverEvents(storage::Database& db, int count, std::optional<qint64> updateId = std::nullopt);

/// Where a delivered event stood in the queue, so that undeliverAfter puts it back as it was.
struct QueueOrigin {
    qint64 id = 0;
    qint64 position = 0;
};

/// Records that a delivered row (SQLite rowid in its source table) waits for the next update.
Status recordDelivery(storage::Database& db, const QString& source, qint64 rowid, const cdc::Row& values,
                      const std::optional<QueueOrigin>& origin = std::nullopt);
/// Attributes to update `updateId` the rows delivered since the last call without an update, and those
/// delivered to `deliveredTo` (deliverEvents' guess) when that is another id.
Status assignDeliveries(storage::Database& db, qint64 updateId,
                        std::optional<qint64> deliveredTo = std::nullopt);
/// Undoes the deliveries of updates after `updateId`, newest first: their rows leave the source tables, a
/// step's tables get their rows back as they were before it (rowids included), and the events go back to
/// the front of the queue, in their original order (with the ids and positions they had when nothing
/// since moved the queue ahead of them). Costs what those updates delivered, not what the queue or the
/// history hold. Call together with engine::rewindTo.
Status undeliverAfter(storage::Database& db, qint64 updateId);

/// Sets the clock back to the time of update `updateId` (the project's start time for 0).
Status rewindClock(storage::Database& db, qint64 updateId);

/// JSON text for a row of values, and back (ints stay exact, blobs travel as base64).
QString encodeRow(const cdc::Row& row);
cdc::Row decodeRow(const QString& json);

} // namespace projectstore
} // namespace cdc::ui
