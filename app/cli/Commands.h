// The commands of cdcstudio-cli, each registered with the options it takes (docs/cli.md is the contract).

#pragma once

#include "CommandLine.h"

namespace cdc::cli {

/// sql, query, tombstones, repair: the project's source tables and what can be read of it.
void addSourceCommands(CommandLine& cli);

/// update: one triggered pipeline update.
void addUpdateCommand(CommandLine& cli);

/// shuffle-test, compare-merge, explain: the project's updates replayed in scratch copies.
void addReplayCommands(CommandLine& cli);

/// export, import: the pipeline out to Databricks or Apache Spark, a change feed file into a source table.
void addBridgeCommands(CommandLine& cli);

} // namespace cdc::cli
