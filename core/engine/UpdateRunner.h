#pragma once
/// One pipeline update: plans the pipeline, prepares every target, collects due tombstones, then runs
/// each flow over the source rows appended since its checkpoint — all inside the caller's transaction.

#include "core/engine/FlowPlan.h"
#include "core/engine/TargetStore.h"
#include "core/engine/UpdateTypes.h"

#include <optional>

namespace cdc::engine {

class UpdateRunner {
public:
    UpdateRunner(UpdateContext& ctx, const PipelinePlan& plan, const UpdateOptions& options)
        : m_ctx(ctx), m_plan(plan), m_options(options) {}

    Result<UpdateReport> run();

private:
    /// What a flow reads this time: per input the (exclusive, inclusive] position range, and the
    /// checkpoints to save after it (a ONCE flow's marker first).
    struct Ranges {
        InputRanges ranges;
        std::vector<store::Checkpoint> next;
        bool anyNew = false;
    };
    /// The checkpoint input that records that a ONCE flow has run.
    static constexpr const char* kOnceInput = "__once";

    Status runFlow(const FlowPlan& f, FlowMetrics& m);
    Status runAppendFlow(const AppendFlowPlan& f, FlowMetrics& m);
    /// Nothing when a ONCE flow already ran (and this is no full refresh).
    Result<std::optional<Ranges>> pendingRanges(const std::string& flow, const SourceLocation& where,
                                                const TargetPlan& t, const std::vector<StreamInput>& inputs,
                                                bool once);
    Status saveCheckpoints(const std::string& flow, const std::vector<StreamInput>& inputs, bool once,
                           const Ranges& r);
    /// COLUMNS TO UPDATE values of the batch (keys and sequences: the appliers' batch read).
    Status validateColumnsToUpdate(const FlowPlan& f, const TargetPlan& t);
    Status checkSourceChanges(const std::string& flow, const SourceLocation& where, const TargetPlan& t,
                              const StreamInput& in, const store::Checkpoint& cp);

    UpdateContext& m_ctx;
    const PipelinePlan& m_plan;
    const UpdateOptions& m_options;
    std::int64_t m_sourceChangeSeq = 0;
    bool m_hasSourceChanges = false;
};

} // namespace cdc::engine
