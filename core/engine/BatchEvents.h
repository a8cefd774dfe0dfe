#pragma once
/// A flow's batch read into memory once, and the key-row hashing both appliers group it by.
/// Grouping in C++ replaced a `GROUP BY` into a temp table and several scans of it: SQLite sorted the whole
/// batch and wrote it again before a single target row was touched.

#include "core/engine/FlowPlan.h"
#include "core/engine/TargetStore.h"
#include "core/engine/UpdateTypes.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace cdc::engine {

struct BatchEvent {
    std::int64_t rid = 0;       ///< arrival order
    int op = 0;                 ///< 0 upsert, 1 delete (truncates are not read)
    Value s, shown;             ///< comparable sequence key, displayed sequence value
    Row values;                 ///< every target column
    Value ctu;                  ///< COLUMNS TO UPDATE value (NULL without the clause)
    std::vector<bool> supplied; ///< per column, partial updates only (see supplySql)

    bool isDelete() const { return op == 1; }
};

/// Calls onEvent for every upsert and delete of the batch with a sequence key >= `floor`'s (none: all); the
/// ones below it are traced (TraceOutcome::BelowTruncate) when the update traces their key.
/// `partial` tells whether the flow has IGNORE NULL UPDATES or COLUMNS TO UPDATE (events carry `supplied`).
/// The same pass validates the batch (AUTOCDC_MICROBATCH_VALIDATION: no NULL sequence, no NULL key but in
/// truncates; then the update fails and its transaction rolls back) and counts it: `m.rowsRead`,
/// `ctx.batchTruncates`. A separate validating scan cost about 6 % of an SCD1 update.
Status readBatchEvents(UpdateContext& ctx, const TargetPlan& t, const FlowPlan& f,
                       const std::optional<store::Watermark>& floor, FlowMetrics& m, bool& partial,
                       const std::function<void(BatchEvent&&)>& onEvent);

/// The key columns of a target row.
Row keyOf(const TargetPlan& t, const Row& values);

/// Hash and equality of key rows consistent with compareValues (an integral REAL hashes as the integer).
struct KeyHash {
    std::size_t operator()(const Row& key) const;
};
struct KeyEqual {
    bool operator()(const Row& a, const Row& b) const;
};
/// Key order as the backing tables' indexes sort keys.
bool keyLess(const Row& a, const Row& b);

/// The entries of a by-key map in keyLess order of their keys, the order the appliers visit keys in (B-tree
/// locality). Single integer keys, the common case, are sorted as plain integers: comparing variant rows
/// cost about a tenth of an SCD1 update.
template <class Map> std::vector<std::pair<const Row*, typename Map::mapped_type*>> keysInOrder(Map& byKey) {
    std::vector<std::pair<const Row*, typename Map::mapped_type*>> order;
    order.reserve(byKey.size());
    bool integers = true;
    for (auto& [key, entry] : byKey) {
        order.emplace_back(&key, &entry);
        integers = integers && key.size() == 1 && std::holds_alternative<std::int64_t>(key[0]);
    }
    if (integers)
        std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
            return std::get<std::int64_t>((*a.first)[0]) < std::get<std::int64_t>((*b.first)[0]);
        });
    else
        std::sort(order.begin(), order.end(),
                  [](const auto& a, const auto& b) { return keyLess(*a.first, *b.first); });
    return order;
}

} // namespace cdc::engine
