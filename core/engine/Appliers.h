#pragma once
/// The two appliers. Both read the flow's batch, `UpdateContext::batch`, with columns (rid, op, s, sv,
/// c0.., ctu) (op: 0 upsert, 1 delete, 2 truncate; s: comparable sequence key; sv: displayed sequence value)
/// and write the target's backing table, change feed and undo rows for the current update phase.

#include "core/engine/Engine.h"
#include "core/engine/FlowPlan.h"
#include "core/engine/SqlText.h"
#include "core/engine/TargetStore.h"

#include <functional>
#include <string>
#include <vector>

namespace cdc::engine {

/// SQL per target column telling whether an event supplies that column (IGNORE NULL UPDATES: the value
/// is not NULL; COLUMNS TO UPDATE: the column is listed). Empty when every event supplies every column.
/// `valueSql(i)`: the SQL of the event's value of column i.
std::vector<std::string> supplySql(const TargetPlan& t, const FlowPlan& f, const std::string& ctuColumn,
                                   const std::function<std::string(std::size_t)>& valueSql = sqltext::col);

Status applyScd1(UpdateContext& ctx, const TargetPlan& t, const FlowPlan& f, FlowMetrics& m);
Status applyScd2(UpdateContext& ctx, const TargetPlan& t, const FlowPlan& f, FlowMetrics& m);

/// A key whose winning sequence value several events share.
struct TieSample {
    Row key;
    Value shown;
    std::int64_t events = 0;
};

/// Adds SEQUENCE_TIE warnings for the first 5 samples (and a count of the rest, from m.ties).
Status reportTies(UpdateContext& ctx, const TargetPlan& t, const FlowPlan& f, const FlowMetrics& m,
                  const std::vector<TieSample>& samples);
/// The same from a query returning (keys..., shown sequence, event count).
Status reportTies(UpdateContext& ctx, const TargetPlan& t, const FlowPlan& f, const FlowMetrics& m,
                  const std::string& sql);

/// Human-readable `k1=v1, k2=v2` for diagnostics.
std::string describeKey(const TargetPlan& t, const Row& keyValues);

} // namespace cdc::engine
