#pragma once
/// What both appliers (and the batch reader) share: which columns an event supplies, and the
/// SEQUENCE_TIE warnings.

#include "core/engine/BatchEvents.h"
#include "core/engine/FlowPlan.h"
#include "core/engine/SqlText.h"
#include "core/engine/TargetStore.h"
#include "core/engine/UpdateTypes.h"

#include <functional>
#include <string>
#include <vector>

namespace cdc::engine {

/// SQL per target column telling whether an event supplies that column (IGNORE NULL UPDATES: the value
/// is not NULL; COLUMNS TO UPDATE: the column is listed). Empty when every event supplies every column.
/// `valueSql(i)`: the SQL of the event's value of column i.
std::vector<std::string> supplySql(const TargetPlan& t, const FlowPlan& f, const std::string& ctuColumn,
                                   const std::function<std::string(std::size_t)>& valueSql = sqltext::col);

/// Whether the update traces events of `key` in target `t` (UpdateOptions::trace).
bool tracing(const UpdateContext& ctx, const TargetPlan& t, const Row& key);

/// A trace record of event `e` of flow `f` into `t`, decided as `outcome` in the current update.
TraceRecord traceRecord(const UpdateContext& ctx, const TargetPlan& t, const FlowPlan& f, const BatchEvent& e,
                        TraceOutcome outcome);

/// A key whose winning sequence value several events share.
struct TieSample {
    Row key;
    Value shown;
    std::int64_t events = 0;
};

/// Adds SEQUENCE_TIE warnings to `ctx` for the first 5 samples (and a count of the rest, from m.ties).
void reportTies(UpdateContext& ctx, const TargetPlan& t, const FlowPlan& f, const FlowMetrics& m,
                const std::vector<TieSample>& samples);

} // namespace cdc::engine
