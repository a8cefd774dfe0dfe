#pragma once
/// Plans the datasets that AUTO CDC does not write: streaming tables fed by append flows and materialized
/// views. Each is added to the plan with its columns; append flows with the SQL of their rows.

#include "core/common/Diagnostic.h"
#include "core/engine/DatasetOrder.h"
#include "core/engine/FlowPlan.h"
#include "core/storage/Database.h"

namespace cdc::engine {

/// An append target: its columns are those its flows produce, by name (the declared schema when there is
/// one); a column one flow lacks is NULL in its rows. Two flows giving one column different types is
/// DELTA_FAILED_TO_MERGE_FIELDS at the second flow's query.
Status planAppendTarget(const storage::Database& db, const pipeline::Pipeline& pipeline, PipelinePlan& plan,
                        const DeclaredDataset& dataset);

/// A materialized view: its query over tables, read as a batch (a STREAM read in it is an error).
Status planMaterializedView(const storage::Database& db, const pipeline::Pipeline& pipeline,
                            PipelinePlan& plan, const DeclaredDataset& dataset);

} // namespace cdc::engine
