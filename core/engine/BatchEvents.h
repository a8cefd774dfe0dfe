#pragma once
/// A flow's batch read into memory once, and the key-row hashing both appliers group it by.
/// Grouping in C++ replaced a `GROUP BY` into a temp table and several scans of it: SQLite sorted the whole
/// batch and wrote it again before a single target row was touched.

#include "core/engine/FlowPlan.h"
#include "core/engine/TargetStore.h"

#include <functional>
#include <string>
#include <vector>

namespace cdc::engine {

struct BatchEvent {
    std::int64_t rid = 0; ///< arrival order
    int op = 0;           ///< 0 upsert, 1 delete (truncates are not read)
    Value s, shown;       ///< comparable sequence key, displayed sequence value
    Row values;           ///< every target column
    Value ctu;            ///< COLUMNS TO UPDATE value (NULL without the clause)
    std::vector<bool> supplied; ///< per column, partial updates only (see supplySql)

    bool isDelete() const { return op == 1; }
};

/// Calls onEvent for every upsert and delete of the batch with a sequence key >= `floor` (NULL: all).
/// `partial` tells whether the flow has IGNORE NULL UPDATES or COLUMNS TO UPDATE (events carry `supplied`).
Status readBatchEvents(UpdateContext& ctx, const TargetPlan& t, const FlowPlan& f, const Value& floor, bool& partial,
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

} // namespace cdc::engine
