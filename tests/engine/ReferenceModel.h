#pragma once
/// An independent reference model of one AUTO CDC target, written from the rule book
/// (semantics.md, decisions first) and not from the engine: each update folds every touched key's
/// events sorted by sequence value. SCD1 keeps one row or tombstone per key and a truncate watermark
/// (§2.7, decisions 2, 4, 5, 12); SCD2 keeps each key's event log and recomputes its versions from it
/// (§3.7, decision 6). Update boundaries are modelled explicitly because the rule book makes results
/// depend on them: tombstone GC on the simulated clock, SCD1 partial updates whose late events are
/// dropped whole (§5.1.3), ties decided by arrival (decision 2), ONCE flows and full refreshes (§10.4).
/// Where the rule book leaves a choice the model's is commented at the rule (e.g. what a TRUNCATE does
/// to tombstones); Scd2Deletes selects between the rule book and the engine where they differ (see
/// tst_engine_property's knownDisagreements).
///
/// The model knows nothing about SQL or display formats: values are the display texts of source
/// cells, and sequences carry their own typed ordering plus the text to show.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace enginetest {

/// One field of a sequence value, ordered as Spark orders its type: integers (also DATE as days and
/// TIMESTAMP as microseconds), doubles, or strings compared byte by byte. A NULL STRUCT field
/// (monostate) sorts first (§4.2, §6.2).
using SequenceField = std::variant<std::monostate, std::int64_t, double, std::string>;

/// A SEQUENCE BY value: one field, or the fields of a STRUCT compared left to right.
struct Sequence {
    std::vector<SequenceField> fields;
    std::string text; ///< how the target shows it (__START_AT, a tombstone's __SEQUENCE)

    bool operator<(const Sequence& o) const { return fields < o.fields; }
    bool operator==(const Sequence& o) const { return fields == o.fields; }
};

/// A cell's display text; nullopt is NULL.
using Cell = std::optional<std::string>;

enum class EventKind { Upsert, Delete, Truncate };

struct ModelEvent {
    std::vector<std::string> key; ///< the key columns' display texts (unused for a truncate)
    Sequence sequence;
    EventKind kind = EventKind::Upsert;
    std::vector<Cell> values; ///< the target's non-key columns
    /// COLUMNS TO UPDATE: which of `values` this event writes (used when its flow has the clause).
    std::vector<bool> listed;
    int flow = 0; ///< index into the model's flows
};

/// What differs between flows into one target.
struct FlowRules {
    std::vector<bool> ignoreNull; ///< per value column; empty when IGNORE NULL UPDATES is absent
    bool columnsToUpdate = false;
    /// AUTO CDC ONCE (§10.4): reads its source in the first update only, and again after a full refresh.
    bool once = false;
};

/// What SCD2 does with a delete that has no visible effect (no version open before it).
enum class Scd2Deletes {
    /// Decision 4 / §3.6: it is kept as a tombstone and collected after the GC threshold like an
    /// SCD1 tombstone; afterwards it is forgotten (a late older upsert then opens an unending version).
    /// Only such deletes are listed as tombstones.
    RuleBook,
    /// Every delete stays in the key's log for good and is listed as a tombstone (no collection).
    KeptForever,
};

struct TargetRules {
    int scdType = 1;
    int keyCount = 1;
    int valueCount = 0;
    std::vector<bool> tracked; ///< SCD2: per value column (TRACK HISTORY); empty = all tracked
    std::int64_t gcThresholdSeconds = 172800;
    /// The public columns in order: {true, i} is key column i, {false, i} is value column i.
    std::vector<std::pair<bool, int>> layout;
    Scd2Deletes scd2Deletes = Scd2Deletes::RuleBook;
};

/// Events delivered (in arrival order, any flows) and then one update at simulated time `now`.
struct ModelUpdate {
    std::int64_t now = 0;
    bool fullRefresh = false;
    std::vector<ModelEvent> events;
};

struct ModelTombstone {
    std::vector<std::string> key;
    std::string sequence;
    std::int64_t deletedAt = 0; ///< simulated time of the update that wrote it
};

class ReferenceModel {
public:
    ReferenceModel(TargetRules target, std::vector<FlowRules> flows);

    /// Delivers the events and runs the update: tombstone GC first (decision 4), then each flow's
    /// new events as one batch, flows in declaration order.
    void apply(const ModelUpdate& update);

    /// The public rows: display cells joined by tabs, "null" for NULL, SCD2 with __START_AT and
    /// __END_AT last; sorted.
    std::vector<std::string> rows() const;
    /// Live tombstones, ordered by key then sequence.
    std::vector<ModelTombstone> tombstones() const;

private:
    using Key = std::vector<std::string>;

    struct Scd1Entry {
        bool live = true;
        std::vector<Cell> values;
        Sequence upsertSequence;
        Sequence deleteSequence;
        std::int64_t deletedAt = 0;
    };
    struct LogEntry {
        ModelEvent event;
        std::int64_t writtenAt = 0;
    };
    struct Version {
        std::vector<Cell> values;
        Sequence start;
        std::optional<Sequence> end;
    };

    void collectGarbage(std::int64_t now);
    void applyBatch(const std::vector<ModelEvent>& batch, std::int64_t now);
    void applyScd1(const std::vector<ModelEvent>& batch, std::int64_t now);
    void applyScd1Key(const Key& key, std::vector<ModelEvent> events, std::int64_t now);
    void applyScd2(const std::vector<ModelEvent>& batch, std::int64_t now);
    std::vector<Cell> folded(const ModelEvent& e, const std::vector<Cell>* previous) const;
    /// A key's versions; `noOpDeletes` (if given) marks the deletes that closed nothing.
    std::vector<Version> versions(const std::vector<LogEntry>& log,
                                  std::vector<bool>* noOpDeletes = nullptr) const;
    bool sameTracked(const std::vector<Cell>& a, const std::vector<Cell>& b) const;
    std::string rowText(const Key& key, const std::vector<Cell>& values) const;

    TargetRules m_target;
    std::vector<FlowRules> m_flows;
    std::vector<std::vector<ModelEvent>> m_delivered; ///< per flow, every event so far (full refresh)
    bool m_onceFlowsRan = false;
    std::map<Key, Scd1Entry> m_scd1;
    std::optional<Sequence> m_truncateWatermark;
    std::map<Key, std::vector<LogEntry>> m_scd2; ///< each key's log, sorted by sequence, one entry per value
};

} // namespace enginetest
