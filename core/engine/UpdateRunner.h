#pragma once
/// One pipeline update: plans the pipeline, prepares every target, collects due tombstones, then runs
/// each flow over the source rows appended since its checkpoint — all inside the caller's transaction.

#include "core/engine/FlowPlan.h"
#include "core/engine/TargetStore.h"
#include "core/engine/UpdateTypes.h"

namespace cdc::engine {

class UpdateRunner {
public:
    UpdateRunner(UpdateContext& ctx, const PipelinePlan& plan, const UpdateOptions& options)
        : m_ctx(ctx), m_plan(plan), m_options(options) {}

    Result<UpdateReport> run();

private:
    Status runFlow(const FlowPlan& f, FlowMetrics& m);
    Status loadBatch(const FlowPlan& f, const std::vector<std::pair<std::int64_t, std::int64_t>>& ranges);
    /// COLUMNS TO UPDATE values of the batch (keys and sequences: the appliers' batch read).
    Status validateColumnsToUpdate(const FlowPlan& f, const TargetPlan& t);
    Status checkSourceChanges(const FlowPlan& f, const TargetPlan& t, const StreamInput& in,
                              const store::Checkpoint& cp);

    UpdateContext& m_ctx;
    const PipelinePlan& m_plan;
    const UpdateOptions& m_options;
    std::int64_t m_sourceChangeSeq = 0;
    bool m_hasSourceChanges = false;
};

} // namespace cdc::engine
