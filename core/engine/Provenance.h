#pragma once
/// "Why is this row like this?" Every event of one key of an AUTO CDC target, in sequence order, with its
/// fate — applied, superseded, stale, blocked by a tombstone, resurrected after GC, removed by a TRUNCATE,
/// a tie decided by arrival — the update that delivered it, and which event set each current value.
///
/// The answer is the engine's own: the project's updates are replayed in a scratch copy (the project is only
/// read), each with the events it delivered, its simulated time and its full-refresh flag, and the appliers
/// report every decision they take for the key (UpdateOptions::trace). Which versions an SCD2 event opened or
/// closed, and which tombstones GC collected, are read from the replayed target itself. Nothing here decides
/// an event's fate a second time.

#include "core/common/Diagnostic.h"
#include "core/common/Value.h"
#include "core/pipeline/Pipeline.h"
#include "core/storage/Database.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cdc::engine {

enum class EventFate {
    Current,            ///< SCD1: the live row holds (some of) its values
    Superseded,         ///< applied, then replaced or deleted by a higher sequence in a later update
    LostInBatch,        ///< a higher sequence of the key arrived in the same update
    TieLost,            ///< the same sequence value as another event, which won
    Stale,              ///< arrived after a higher sequence had been applied
    BlockedByTombstone, ///< older than the key's delete, whose tombstone was still kept
    Resurrected,        ///< older than a delete whose tombstone GC had collected: the key lives again
    RemovedByTruncate,  ///< applied, then removed by a TRUNCATE
    BelowTruncate,      ///< sequenced before a TRUNCATE already applied
    Tombstone,          ///< SCD1: a delete whose tombstone is kept (blocks older events until GC)
    TombstoneCollected, ///< SCD1: a delete whose tombstone GC collected
    DeleteIgnored,      ///< a delete older than the key's tombstone, or with nothing to close
    OpenedVersion,      ///< SCD2: a version starts at it
    FoldedIntoVersion,  ///< SCD2: no tracked column changed; part of the version before it
    ClosedVersion,      ///< SCD2: a delete that ends a version
};

/// The label of a fate as the CLI's JSON and the app show it: "current", "superseded", ...
std::string fateName(EventFate fate);

struct ExplainedEvent {
    std::int64_t update = 0; ///< the update that delivered it
    std::string source;      ///< the source table it is a row of, when the flow reads one by rowid
    std::int64_t rowid = 0;  ///< its row in `source` (else its arrival position)
    bool isDelete = false;
    Value sequence;
    std::vector<Value> values; ///< the target's columns as the flow computed them
    EventFate fate = EventFate::Stale;
    std::string why; ///< one sentence
    /// Delivered in a later update than an event of the key with a higher sequence.
    bool late = false;
};

/// Which event set a column's current value (SCD1: the live row; SCD2: the open version).
struct ColumnOrigin {
    std::string column;
    Value value;
    int event = -1; ///< index into Explanation::events; -1: no event supplies it (NULL)
};

struct Explanation {
    std::string target;
    bool scd2 = false;
    std::vector<std::string> columns; ///< the target's data columns
    std::vector<std::string> keyColumns;
    std::vector<Value> key;
    std::vector<ExplainedEvent> events; ///< in sequence order; equal sequences in arrival order
    std::vector<ColumnOrigin> current;  ///< empty: no live row / open version
    std::string summary;
    /// Further remarks: e.g. a replay that does not give the project's table (its definition changed since).
    std::vector<std::string> notes;
};

/// The key of `target` from `column=value` texts (each key column once), typed as the column is.
/// Errors: UNKNOWN_TARGET, INVALID_KEY.
Result<std::vector<Value>> keyFromText(const storage::Database& project, const std::string& target,
                                       const std::vector<std::pair<std::string, std::string>>& columnValues);

/// Explains one key of an AUTO CDC target from the project's delivered updates. Errors: UNKNOWN_TARGET,
/// NOT_EXPLAINABLE (not an AUTO CDC target, or one the engine holds no state of), an update of the replay
/// that fails (its own error), CANCELLED.
Result<Explanation> explainKey(storage::Database& project, const pipeline::Pipeline& pipeline,
                               const std::string& target, const std::vector<Value>& key,
                               const std::atomic<bool>* cancel = nullptr);

/// The explanation as people read it (the CLI's text output).
std::string explanationText(const Explanation& e);

} // namespace cdc::engine
