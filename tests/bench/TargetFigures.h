#pragma once
/// The arrival-order explorer and the source-script load, measured for the issue-18 targets 3 and 4.

#include "BenchResults.h"

#include "core/common/Diagnostic.h"

#include <string>

namespace cdc::bench {

/// `orders` shuffled replays (ArrivalExplorer, one thread per core) of a project holding `events`
/// workload events over `keys` keys, read by one SCD1 and one SCD2 target.
Result<ExplorerFigures> measureExplorer(int orders, std::int64_t events, std::int64_t keys);

/// A `rows`-row source script (`CREATE TABLE` then one `INSERT INTO … VALUES` of workload events, as a
/// user would paste a feed) run by the ScriptExecutor, as `cdcstudio-cli sql FILE` and the GUI run it,
/// into a fresh project file in `workDir`; then the same rows as a CSV file imported by feeds::importFile
/// (`cdcstudio-cli import`) into the same table in another fresh file. The text and the file are written
/// before the clock starts.
Result<LoadFigures> measureScriptLoad(const std::string& workDir, std::int64_t rows);

} // namespace cdc::bench
