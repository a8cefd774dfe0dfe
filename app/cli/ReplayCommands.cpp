// shuffle-test, compare-merge and explain: the project's updates replayed in scratch copies (the file is not
// changed).

#include "CliSupport.h"
#include "Commands.h"

#include "core/common/ResultSet.h"
#include "core/engine/ArrivalExplorer.h"
#include "core/engine/MergeComparison.h"
#include "core/engine/Provenance.h"
#include "core/storage/ProjectSettings.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <memory>

namespace cdc::cli {

namespace {

/// What every replaying command takes besides its own: the pipeline files (none: the recorded pipeline).
struct ReplayArgs {
    std::vector<std::string> operands;
    std::optional<std::string> format;
    std::optional<std::string> pythonTimeout;
};

void addReplayOptions(CLI::App* command, ReplayArgs& args, const std::string& operands) {
    command->add_option(operands, args.operands,
                        "without PIPELINE files: the pipeline the last update recorded");
    addFormatOption(command, args.format, "text|json");
    addPythonTimeoutOption(command, args.pythonTimeout);
}

struct ShuffleArgs : ReplayArgs {
    std::optional<std::string> orders, seed, maxUpdates;
};

std::string explorerJson(const cdc::engine::ExplorerReport& r, std::int64_t seed) {
    nlohmann::json out{
        {"orders", r.ordersRun}, {"identical", r.identical}, {"events", r.events}, {"seed", seed}};
    if (const auto& ce = r.counterexample) {
        nlohmann::json events = nlohmann::json::array(), updates = nlohmann::json::array(),
                       differences = nlohmann::json::array();
        for (const auto& e : ce->events)
            events.push_back(cdc::engine::eventText(e));
        for (int u = 0; u < ce->arrival.updates; ++u) {
            nlohmann::json arrived = nlohmann::json::array();
            for (std::size_t i = 0; i < ce->arrival.events.size(); ++i)
                if (ce->arrival.update[i] == u)
                    arrived.push_back(ce->arrival.events[i]);
            updates.push_back(arrived);
        }
        for (const auto& d : ce->differences)
            differences.push_back({{"target", d.target}, {"inOrder", d.inOrder}, {"arrived", d.arrived}});
        out["counterexample"] = {
            {"order", ce->order}, {"events", events}, {"updates", updates}, {"differences", differences}};
    }
    return out.dump(2) + "\n";
}

int runShuffleTest(const GlobalOptions& global, const ShuffleArgs& args) {
    const auto orders = parseCount(args.orders, 100, 1);
    const auto seed = parseCount(args.seed, 1, 0);
    const auto maxUpdates = parseCount(args.maxUpdates, 4, 1);
    if (!orders || !seed || !maxUpdates)
        return usageError("--orders and --max-updates take a whole number from 1, --seed one from 0");
    const auto format = chosenFormat(args.format, {"text", "json"}, "shuffle-test");
    if (!format)
        return kExitUsage;
    auto db = openExistingReadOnly(global);
    if (!db)
        return userError(db.error());
    auto pipeline = pipelineToReplay(global, *db, args.operands, "shuffle-test", args.pythonTimeout);
    if (!pipeline)
        return pipeline.exit;
    namespace settings = cdc::storage::projectsettings;
    cdc::engine::ExplorerOptions options;
    options.orders = static_cast<int>(*orders);
    options.seed = static_cast<std::uint64_t>(*seed);
    options.maxUpdates = static_cast<int>(*maxUpdates);
    // The project's clock: tombstone GC between updates depends on the time they are apart.
    const auto clock = [&](const char* key, std::int64_t fallback) {
        const auto text = settings::value(*db, key).value_or("");
        char* end = nullptr;
        const long long v = std::strtoll(text.c_str(), &end, 10);
        return text.empty() || *end != '\0' ? fallback : static_cast<std::int64_t>(v);
    };
    options.start = clock(settings::kClockStartKey, 0);
    options.tick = std::max<std::int64_t>(1, clock(settings::kClockTickKey, 60));
    auto report = cdc::engine::exploreArrivalOrders(*db, *pipeline.pipeline, options);
    if (!report)
        return userError(report.error());
    std::cout << (*format == "json" ? explorerJson(*report, *seed)
                                    : cdc::engine::reportText(*report, options));
    return report->counterexample ? kExitUserError : kExitOk;
}

struct CompareArgs : ReplayArgs {
    bool sqlOnly = false;
};

nlohmann::json comparisonJson(const cdc::engine::MergeComparison& c) {
    const auto table = [&](const std::vector<cdc::Row>& rows) {
        return nlohmann::json::parse(cdc::toJson(cdc::ResultSet{c.columns, c.types, rows}));
    };
    nlohmann::json differences = nlohmann::json::array();
    for (const auto& d : c.differences) {
        nlohmann::json cells = nlohmann::json::array();
        for (std::size_t cell : d.cells)
            cells.push_back(c.columns[cell]);
        differences.push_back(
            {{"text", c.describe(d)},
             {"only", d.mergeRow && d.autoCdcRow ? nlohmann::json()
                      : d.mergeRow               ? nlohmann::json("merge")
                                                 : nlohmann::json("autoCdc")},
             {"mergeRow", d.mergeRow ? nlohmann::json(*d.mergeRow) : nlohmann::json()},
             {"autoCdcRow", d.autoCdcRow ? nlohmann::json(*d.autoCdcRow) : nlohmann::json()},
             {"cells", cells}});
    }
    return {{"target", c.target},
            {"scdType", c.scd2 ? 2 : 1},
            {"identical", c.identical()},
            {"summary", c.summary()},
            {"updates", c.updates},
            {"events", c.events},
            {"sql", c.sql},
            {"autoCdc", table(c.autoCdc)},
            {"merge", table(c.merge)},
            {"differences", differences}};
}

/// The TARGET a command explains or compares, and the pipeline files after it.
struct TargetAndFiles {
    std::string target;
    std::vector<std::string> files;
};

TargetAndFiles targetAndFiles(const std::vector<std::string>& operands) {
    return {operands.front(), std::vector<std::string>(operands.begin() + 1, operands.end())};
}

int runCompareMerge(const GlobalOptions& global, const CompareArgs& args) {
    if (args.operands.empty())
        return usageError("compare-merge needs a TARGET");
    const auto format = chosenFormat(args.format, {"text", "json"}, "compare-merge");
    if (!format)
        return kExitUsage;
    auto db = openExistingReadOnly(global);
    if (!db)
        return userError(db.error());
    const auto [target, files] = targetAndFiles(args.operands);
    auto pipeline = pipelineToReplay(global, *db, files, "compare-merge TARGET", args.pythonTimeout);
    if (!pipeline)
        return pipeline.exit;
    auto c = cdc::engine::compareWithMerge(*db, *pipeline.pipeline, target);
    if (!c)
        return userError(c.error());
    if (args.sqlOnly)
        std::cout << c->sql;
    else if (*format == "json")
        std::cout << comparisonJson(*c).dump(2) << "\n";
    else
        std::cout << cdc::engine::comparisonText(*c);
    return kExitOk;
}

struct ExplainArgs : ReplayArgs {
    std::vector<std::string> keys; ///< COLUMN=VALUE
};

nlohmann::json valueJson(const cdc::Value& v) {
    if (cdc::isNull(v))
        return nullptr;
    if (const auto* i = std::get_if<std::int64_t>(&v))
        return *i;
    if (const auto* d = std::get_if<double>(&v))
        return *d;
    return cdc::displayText(v);
}

std::string explanationJson(const cdc::engine::Explanation& e) {
    nlohmann::json events = nlohmann::json::array(), key = nlohmann::json::object(),
                   current = nlohmann::json::array();
    for (std::size_t k = 0; k < e.keyColumns.size(); ++k)
        key[e.keyColumns[k]] = valueJson(e.key[k]);
    for (const auto& ev : e.events) {
        nlohmann::json values = nlohmann::json::object();
        for (std::size_t c = 0; c < ev.values.size() && c < e.columns.size(); ++c)
            values[e.columns[c]] = valueJson(ev.values[c]);
        events.push_back({{"sequence", valueJson(ev.sequence)},
                          {"operation", ev.isDelete ? "DELETE" : "UPSERT"},
                          {"update", ev.update},
                          {"source", ev.source},
                          {"rowid", ev.rowid},
                          {"values", values},
                          {"fate", cdc::engine::fateName(ev.fate)},
                          {"why", ev.why},
                          {"late", ev.late}});
    }
    for (const auto& c : e.current)
        current.push_back({{"column", c.column},
                           {"value", valueJson(c.value)},
                           {"event", c.event < 0 ? nlohmann::json(nullptr) : nlohmann::json(c.event)}});
    nlohmann::json out = {{"target", e.target},   {"scd", e.scd2 ? 2 : 1}, {"key", key},
                          {"summary", e.summary}, {"notes", e.notes},      {"events", events},
                          {"current", current}};
    return out.dump(2) + "\n";
}

int runExplain(const GlobalOptions& global, const ExplainArgs& args) {
    const auto format = chosenFormat(args.format, {"text", "json"}, "explain");
    if (!format)
        return kExitUsage;
    if (args.operands.empty())
        return usageError("explain needs a TARGET");
    if (args.keys.empty())
        return usageError("explain needs the key: --key COLUMN=VALUE for each key column");
    std::vector<std::pair<std::string, std::string>> keyTexts;
    for (const std::string& k : args.keys) {
        const auto eq = k.find('=');
        if (eq == std::string::npos || eq == 0)
            return usageError("--key takes COLUMN=VALUE, not '" + k + "'");
        keyTexts.emplace_back(k.substr(0, eq), k.substr(eq + 1));
    }
    auto db = openExistingReadOnly(global);
    if (!db)
        return userError(db.error());
    const auto [target, files] = targetAndFiles(args.operands);
    auto pipeline = pipelineToReplay(global, *db, files, "explain TARGET", args.pythonTimeout);
    if (!pipeline)
        return pipeline.exit;
    auto key = cdc::engine::keyFromText(*db, target, keyTexts);
    if (!key)
        return userError(key.error());
    auto explanation = cdc::engine::explainKey(*db, *pipeline.pipeline, target, *key);
    if (!explanation)
        return userError(explanation.error());
    std::cout << (*format == "json" ? explanationJson(*explanation)
                                    : cdc::engine::explanationText(*explanation));
    return kExitOk;
}

} // namespace

void addReplayCommands(CommandLine& cli) {
    auto shuffle = std::make_shared<ShuffleArgs>();
    CLI::App* c = cli.add(
        "shuffle-test", "check that arrival order does not change the targets",
        "Replays the source tables' rows in random arrival orders and splits into updates (scratch "
        "copies; the file is not changed) and compares every target with the in-order run; exit 1 and a "
        "minimal counterexample when one differs.",
        [&cli, shuffle] { return runShuffleTest(cli.global(), *shuffle); });
    addReplayOptions(c, *shuffle, "PIPELINE");
    c->add_option("--orders", shuffle->orders, "arrivals to try (default 100)")->option_text("N");
    c->add_option("--seed", shuffle->seed, "the seed they are drawn with (default 1)")->option_text("S");
    c->add_option("--max-updates", shuffle->maxUpdates,
                  "each arrival is split into 1..M updates at the project's clock (default 4)")
        ->option_text("M");

    auto compare = std::make_shared<CompareArgs>();
    c = cli.add(
        "compare-merge", "compare an AUTO CDC target with a hand-written MERGE INTO",
        "Runs the MERGE INTO a data engineer writes without AUTO CDC on the events the updates delivered, "
        "batch by batch (a scratch copy; the file is not changed), and compares its table with the AUTO "
        "CDC target's; exit 0 whether or not they differ.",
        [&cli, compare] { return runCompareMerge(cli.global(), *compare); });
    addReplayOptions(c, *compare, "TARGET PIPELINE");
    c->add_flag("--sql", compare->sqlOnly, "print only the MERGE, as Databricks SQL");

    auto explain = std::make_shared<ExplainArgs>();
    c = cli.add(
        "explain", "why a key's row (SCD1) or versions (SCD2) are what they are",
        "Lists every event of the key in sequence order with its fate and the update that delivered it, "
        "and which event set each current value (the updates replayed in a scratch copy; the file is not "
        "changed).",
        [&cli, explain] { return runExplain(cli.global(), *explain); });
    addReplayOptions(c, *explain, "TARGET PIPELINE");
    c->add_option("--key", explain->keys, "a key column's value; one per key column")
        ->option_text("COLUMN=VALUE");
}

} // namespace cdc::cli
