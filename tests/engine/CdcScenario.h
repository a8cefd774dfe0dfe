#pragma once
/// Random AUTO CDC scenarios for the property tests: a target (SCD type, keys, sequence type, column
/// selection, TRACK HISTORY, GC threshold), one or two flows into it with their options, and the
/// events with the updates that deliver them (simulated clock, full refreshes). A scenario renders
/// itself as the pipeline SQL and source SQL a user would paste into CDC Studio, and as the
/// reference model's input.

#include "ReferenceModel.h"

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace enginetest {

enum class SequenceKind { Int, BigInt, Double, String, Date, Timestamp, StructBigIntString, StructDateInt };

/// `(a, b)`, `* EXCEPT (a, b)` or absent, as in COLUMNS / TRACK HISTORY ON / IGNORE NULL UPDATES ON.
struct ColumnChoice {
    enum class Mode { All, Only, Except };
    Mode mode = Mode::All;
    std::vector<std::string> names;
    /// Whether `name` is chosen (Only: listed; Except: not listed; All: always).
    bool chooses(const std::string& name) const;
    std::string sql() const; ///< "(a, b)" / "* EXCEPT (a, b)" / "" for All
};

struct FlowShape {
    bool deletes = true;                    ///< APPLY AS DELETE WHEN op = 'D'
    bool truncates = false;                 ///< APPLY AS TRUNCATE WHEN op = 'T' (SCD1)
    std::optional<ColumnChoice> ignoreNull; ///< IGNORE NULL UPDATES [ON ...]
    bool columnsToUpdate = false;           ///< COLUMNS TO UPDATE cu
    bool once = false;                      ///< AUTO CDC ONCE ... FROM src<i> (a batch read)
};

struct ScenarioColumn {
    std::string name;
    std::string type; ///< Spark type as declared in CREATE TABLE
};

/// What stays fixed in a scenario: schema, pipeline and options.
struct ScenarioShape {
    int scdType = 1;
    bool compositeKey = false; ///< KEYS (k, r) instead of KEYS (k)
    SequenceKind sequence = SequenceKind::Int;
    std::vector<std::string> valueColumns; ///< of a STRING, b BIGINT, c DOUBLE
    bool hasColumnsToUpdateColumn = false; ///< sources carry `cu ARRAY<STRING>`
    ColumnChoice columns;                  ///< COLUMNS clause (Except always drops op and cu)
    std::optional<ColumnChoice> trackHistory;
    std::optional<std::int64_t> gcThresholdSeconds; ///< TBLPROPERTIES; nullopt = the default two days
    std::vector<FlowShape> flows;                   ///< flow i reads source src<i>
    int syntax = 0; ///< one flow: 0 CREATE FLOW, 1 FLOW AUTO CDC clause, 2 APPLY CHANGES INTO

    std::vector<ScenarioColumn> sourceColumns() const;
    std::vector<std::string> keyColumns() const;
    std::vector<std::string> sequenceColumns() const;
    /// The target's public columns (SCD2's __START_AT/__END_AT not included), in order.
    std::vector<std::string> targetColumns() const;
    std::int64_t gcThreshold() const { return gcThresholdSeconds.value_or(172800); }
};

/// One source row. Literals are Spark SQL text; nullopt is NULL.
struct SourceEvent {
    int id = 0; ///< unique in the scenario: index of its display cells
    int source = 0;
    std::optional<std::int64_t> k;                  ///< NULL only on truncate rows
    std::string r;                                  ///< second key column when compositeKey
    std::vector<std::optional<std::string>> values; ///< per value column
    std::optional<std::string> op;
    std::vector<SequenceField> sequence; ///< typed, as the model orders it
    std::vector<std::string> sequenceLiterals;
    std::optional<std::vector<std::string>> columnsToUpdate;
};

struct UpdateStep {
    std::int64_t now = 0;
    bool fullRefresh = false;
    std::vector<int> events; ///< ids, in arrival order
};

/// One way of delivering the events: arrival order, update boundaries, clock, full refreshes.
using Delivery = std::vector<UpdateStep>;

struct Scenario {
    ScenarioShape shape;
    std::vector<SourceEvent> events; ///< indexed by id
    Delivery delivery;               ///< as generated
    /// Decided ties of two upserts with different values, resolved by arrival (decision 2).
    bool arrivalDecidesTies = false;

    std::string pipelineSql() const;
    std::string createSourcesSql() const;
    /// INSERT statements delivering `ids` (in that order) to their sources.
    std::string insertSql(const std::vector<int>& ids) const;
    /// True when the rule book promises the same final rows for every arrival order and split
    /// (decision 1): no collectable tombstone, no SCD1 partial update, no tie decided by arrival, no ONCE
    /// flow.
    bool orderIndependent(const Delivery& d, Scd2Deletes scd2Deletes) const;
};

/// Draws scenarios: sizes per case (up to ~12 keys and ~80 events), every sequence type, NULLs,
/// decided ties, every flow option, several flows, clock advances across the GC threshold and full
/// refreshes.
class ScenarioGenerator {
public:
    explicit ScenarioGenerator(std::uint64_t seed) : m_rng(seed) {}
    Scenario next();
    /// The same events sorted by key and sequence, in one update.
    Delivery sorted(const Scenario& s);
    /// The same events in a random arrival order, split at random into updates on a random clock.
    Delivery shuffled(const Scenario& s);

private:
    ScenarioShape shape();
    std::vector<SourceEvent> events(const ScenarioShape& shape, bool& arrivalDecidesTies);
    Delivery deliver(const ScenarioShape& shape, std::vector<int> order, bool withRefresh);
    std::vector<std::vector<SequenceField>> sequences(SequenceKind kind, int count);
    std::vector<std::string> literals(SequenceKind kind, const std::vector<SequenceField>& fields);
    int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(m_rng); }
    bool chance(int percent) { return pick(0, 99) < percent; }

    std::mt19937_64 m_rng;
};

} // namespace enginetest
