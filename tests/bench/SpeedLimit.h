#pragma once
/// SQLite's speed limit for writing: a prepared INSERT of output-shaped rows (id, name, city, __START_AT,
/// __END_AT) into a plain table in one transaction, on a connection opened like the engine's.

#include "Workload.h"

#include "core/common/Diagnostic.h"

#include <string>
#include <vector>

namespace cdc::bench {

struct SpeedLimit {
    double rowsPerSecond = 0;
    double rowsPerCpuSecond = 0;
};

/// Rows per second for inserting `spec.events` rows built from the workload's events.
Result<SpeedLimit> measureSpeedLimit(const std::string& dbPath, const WorkloadSpec& spec,
                                     const std::vector<std::string>& pragmas);

} // namespace cdc::bench
