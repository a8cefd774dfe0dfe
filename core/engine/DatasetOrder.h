#pragma once
/// The pipeline's datasets — streaming tables and materialized views — with the flows that write them, in
/// the order an update computes them: each after every dataset it reads (through views). Building the order
/// checks the graph's shape, each problem a positioned error: two datasets or flows of one name, a flow
/// named like another table, a flow into something that is not a declared streaming table, append and
/// AUTO CDC flows into one table, and cycles among views, flows and materialized views.

#include "core/common/Diagnostic.h"
#include "core/engine/FlowPlan.h"
#include "core/pipeline/Pipeline.h"

#include <string>
#include <vector>

namespace cdc::engine {

struct DeclaredDataset {
    std::string name;
    DatasetKind kind = DatasetKind::AutoCdc;
    SourceLocation location;
    const pipeline::StreamingTable* table = nullptr; ///< streaming tables
    const pipeline::View* view = nullptr;            ///< materialized views
    std::vector<const pipeline::AutoCdcFlow*> cdcFlows;
    std::vector<const pipeline::AppendFlow*> appendFlows;
};

/// The datasets in dependency order (declaration order where none depends on another). A streaming table no
/// flow writes is left out: it has no columns to create.
Result<std::vector<DeclaredDataset>> orderDatasets(const pipeline::Pipeline& pipeline);

} // namespace cdc::engine
