#pragma once
/// Runs a scenario's deliveries through the real engine (source SQL through sql::executeSourceScript,
/// pipeline SQL through sql::parsePipeline, engine::runUpdate per update) next to the reference model,
/// compares the public rows and tombstones after every update, and shrinks a failing delivery to a
/// small reproducer printed as pipeline + source SQL.

#include "CdcScenario.h"
#include "core/pipeline/Pipeline.h"

#include <optional>
#include <string>
#include <vector>

namespace enginetest {

struct RunResult {
    std::string failure;                ///< empty when the engine agreed with the model throughout
    std::vector<std::string> finalRows; ///< the engine's public rows after the last update
};

/// What a delivery is checked for.
enum class Property {
    MatchesModel,      ///< rows and tombstones equal the reference model's after every update
    RewindRestoresAll, ///< rewinding to any earlier update gives back that update's database exactly
};

class ScenarioCheck {
public:
    /// Reads the events' display cells back from a scratch database; `error()` says if that failed.
    ScenarioCheck(const Scenario& scenario, Scd2Deletes scd2Deletes);

    const std::string& error() const { return m_error; }
    RunResult run(const Delivery& delivery) const;
    /// Runs the delivery, then rewinds to every earlier update in turn (engine::rewindTo) and compares
    /// every table but the sources with the dump taken after that update. Empty when all match.
    std::string rewindFailure(const Delivery& delivery) const;
    /// The failure of `property` over the delivery, empty when it holds.
    std::string failure(Property property, const Delivery& delivery) const;
    /// Delta debugging (events, then updates, full refreshes and clock steps) down to a delivery
    /// that still fails; returns it with its failure.
    std::pair<Delivery, std::string> shrink(Property property, Delivery failing) const;
    /// The delivery as SQL to paste: pipeline, source tables, then each update's INSERTs with the
    /// CLI command that runs it.
    std::string reproducer(const Delivery& delivery, const std::string& failure) const;

private:
    ModelEvent modelEvent(int id) const;
    TargetRules targetRules() const;
    std::vector<FlowRules> flowRules() const;

    const Scenario& m_scenario;
    Scd2Deletes m_scd2Deletes;
    cdc::pipeline::Pipeline m_pipeline;
    /// Per event id: the display text of each source column, then of the sequence.
    std::vector<std::vector<std::string>> m_cells;
    std::string m_error;
};

/// The failure of `property` over the delivery made small and printed as ScenarioCheck::reproducer does:
/// the delivery shrunk first (ScenarioCheck::shrink), then the scenario, which loses the events and
/// flows the delivery no longer uses and each option, value column, second key column or GC property
/// whose removal keeps a failure; repeated while anything goes.
std::string smallestReproducer(Property property, const Scenario& scenario, const Delivery& delivery,
                               Scd2Deletes scd2Deletes);

} // namespace enginetest
