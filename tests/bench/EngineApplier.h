#pragma once
/// The CDC Studio engine as an applier: the benchmark pipeline run with engine::runUpdate, one call per
/// update, on a simulated clock that advances a minute per update.

#include "UpdateApplier.h"

#include "core/pipeline/Pipeline.h"

#include <string>

namespace cdc::bench {

/// The pipeline the engine runs, as a user would type it.
std::string benchmarkPipelineSql(Scd scd);

class EngineApplier final : public UpdateApplier {
public:
    static constexpr const char* kTarget = "target";

    explicit EngineApplier(Scd scd) : m_scd(scd) {}
    Status setUp(storage::Database& db) override;
    Status apply(storage::Database& db) override;
    Result<std::int64_t> visibleRows(storage::Database& db) override;
    /// The parsed pipeline (after setUp()).
    const pipeline::Pipeline& pipeline() const { return m_pipeline; }

private:
    Scd m_scd;
    pipeline::Pipeline m_pipeline;
    std::int64_t m_now = 1'767'225'600; // 2026-01-01T00:00:00Z
};

} // namespace cdc::bench
