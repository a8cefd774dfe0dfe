// Differences are reported as engine-only and model-only lines of sorted display rows, written as SQL
// comments (`--`) so a shrunk reproducer can be pasted into a pipeline file as it is.
#include "ScenarioCheck.h"

#include "EngineTestUtil.h"
#include "core/sql/SqlApi.h"

#include <algorithm>
#include <set>

namespace enginetest {

namespace {

std::vector<std::string> displayRows(const ResultSet& rs, std::size_t columns) {
    std::vector<std::string> out;
    for (const Row& r : rs.rows) {
        std::string line;
        for (std::size_t c = 0; c < columns; ++c)
            line += (c ? "\t" : "") + displayValue(r[c], rs.typeOf(c));
        out.push_back(line);
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::string isoTime(std::int64_t epochSeconds) {
    return QDateTime::fromSecsSinceEpoch(epochSeconds, Qt::UTC).toString(Qt::ISODate).toStdString();
}

/// "engine only" / "model only" lines of two sorted lists; empty when equal.
std::string difference(const std::string& what, const std::vector<std::string>& engine,
                       const std::vector<std::string>& model) {
    if (engine == model)
        return {};
    std::vector<std::string> onlyEngine, onlyModel;
    std::set_difference(engine.begin(), engine.end(), model.begin(), model.end(),
                        std::back_inserter(onlyEngine));
    std::set_difference(model.begin(), model.end(), engine.begin(), engine.end(),
                        std::back_inserter(onlyModel));
    std::string out = "\n--   " + what + " differ";
    for (const auto& r : onlyEngine)
        out += "\n--     engine only: " + r;
    for (const auto& r : onlyModel)
        out += "\n--     model only:  " + r;
    out += "\n--     both (" + std::to_string(engine.size() - onlyEngine.size()) + " rows)";
    for (const auto& r : engine)
        if (!std::binary_search(onlyEngine.begin(), onlyEngine.end(), r))
            out += "\n--       " + r;
    return out;
}

std::vector<int> idsOf(const Delivery& d) {
    std::vector<int> out;
    for (const UpdateStep& s : d)
        out.insert(out.end(), s.events.begin(), s.events.end());
    return out;
}

Delivery keepOnly(const Delivery& d, const std::set<int>& keep) {
    Delivery out = d;
    for (UpdateStep& s : out)
        std::erase_if(s.events, [&](int id) { return !keep.count(id); });
    return out;
}

} // namespace

ScenarioCheck::ScenarioCheck(const Scenario& scenario, Scd2Deletes scd2Deletes)
    : m_scenario(scenario), m_scd2Deletes(scd2Deletes) {
    auto parsed = sql::parsePipeline(scenario.pipelineSql(), "pipeline.sql");
    if (parsed.hasErrors()) {
        m_error = "pipeline does not parse: " + parsed.firstError()->format();
        return;
    }
    m_pipeline = std::move(parsed.pipeline);

    // Display texts come from the engine's own query path over the source rows, so the model needs no
    // knowledge of how DOUBLEs, DATEs or TIMESTAMPs print; the order of sequences is the model's own.
    auto db = openDb();
    std::vector<int> all(scenario.events.size());
    for (std::size_t i = 0; i < all.size(); ++i)
        all[i] = static_cast<int>(i);
    auto st =
        sql::executeSourceScript(db, scenario.createSourcesSql() + scenario.insertSql(all), "source.sql");
    if (!st) {
        m_error = "source SQL fails: " + st.error().format();
        return;
    }
    const auto seq = scenario.shape.sequenceColumns();
    const std::string seqExpr = seq.size() > 1 ? "struct(" + seq[0] + ", " + seq[1] + ")" : seq[0];
    m_cells.resize(scenario.events.size());
    for (std::size_t src = 0; src < scenario.shape.flows.size(); ++src) {
        auto rs = sql::runQuery(db, "SELECT *, " + seqExpr + " AS __seq FROM src" + std::to_string(src));
        if (!rs) {
            m_error = "reading the sources back fails: " + rs.error().format();
            return;
        }
        std::size_t row = 0;
        for (const SourceEvent& e : scenario.events) {
            if (e.source != static_cast<int>(src))
                continue;
            for (std::size_t c = 0; c < rs->columns.size(); ++c)
                m_cells[static_cast<std::size_t>(e.id)].push_back(
                    displayValue(rs->rows[row][c], rs->typeOf(c)));
            ++row;
        }
    }
}

TargetRules ScenarioCheck::targetRules() const {
    const ScenarioShape& sh = m_scenario.shape;
    TargetRules t;
    t.scdType = sh.scdType;
    const auto keys = sh.keyColumns();
    t.keyCount = static_cast<int>(keys.size());
    for (const std::string& c : sh.targetColumns()) {
        const auto k = std::find(keys.begin(), keys.end(), c);
        if (k != keys.end()) {
            t.layout.push_back({true, static_cast<int>(k - keys.begin())});
            continue;
        }
        t.layout.push_back({false, t.valueCount++});
        if (sh.trackHistory)
            t.tracked.push_back(sh.trackHistory->chooses(c));
    }
    t.gcThresholdSeconds = sh.gcThreshold();
    t.scd2Deletes = m_scd2Deletes;
    return t;
}

std::vector<FlowRules> ScenarioCheck::flowRules() const {
    std::vector<FlowRules> out;
    const auto keys = m_scenario.shape.keyColumns();
    for (const FlowShape& f : m_scenario.shape.flows) {
        FlowRules r;
        r.columnsToUpdate = f.columnsToUpdate;
        r.once = f.once;
        if (f.ignoreNull)
            for (const std::string& c : m_scenario.shape.targetColumns())
                if (std::find(keys.begin(), keys.end(), c) == keys.end())
                    r.ignoreNull.push_back(f.ignoreNull->chooses(c));
        out.push_back(r);
    }
    return out;
}

ModelEvent ScenarioCheck::modelEvent(int id) const {
    const ScenarioShape& sh = m_scenario.shape;
    const SourceEvent& src = m_scenario.events[static_cast<std::size_t>(id)];
    const auto& cells = m_cells[static_cast<std::size_t>(id)];
    const auto sourceColumns = sh.sourceColumns();
    const auto cellOf = [&](const std::string& name) -> Cell {
        for (std::size_t c = 0; c < sourceColumns.size(); ++c)
            if (sourceColumns[c].name == name)
                return cells[c] == "null" ? std::nullopt : Cell(cells[c]);
        return std::nullopt;
    };
    ModelEvent e;
    for (const std::string& k : sh.keyColumns())
        e.key.push_back(cellOf(k).value_or("null"));
    e.sequence = {src.sequence, cells.back()};
    const FlowShape& f = sh.flows[static_cast<std::size_t>(src.source)];
    e.kind = f.truncates && src.op == "T" ? EventKind::Truncate
             : f.deletes && src.op == "D" ? EventKind::Delete
                                          : EventKind::Upsert;
    const auto keys = sh.keyColumns();
    for (const std::string& c : sh.targetColumns()) {
        if (std::find(keys.begin(), keys.end(), c) != keys.end())
            continue;
        e.values.push_back(cellOf(c));
        const auto& listed = src.columnsToUpdate;
        e.listed.push_back(listed && std::find(listed->begin(), listed->end(), c) != listed->end());
    }
    e.flow = src.source;
    return e;
}

RunResult ScenarioCheck::run(const Delivery& delivery) const {
    RunResult result;
    ReferenceModel model(targetRules(), flowRules());
    auto db = openDb();
    if (auto st = sql::executeSourceScript(db, m_scenario.createSourcesSql(), "source.sql"); !st) {
        result.failure = "source tables: " + st.error().format();
        return result;
    }
    for (std::size_t u = 0; u < delivery.size(); ++u) {
        const UpdateStep& step = delivery[u];
        const std::string at = "after update " + std::to_string(u + 1) + ":";
        ModelUpdate mu{step.now, step.fullRefresh, {}};
        for (int id : step.events)
            mu.events.push_back(modelEvent(id));
        model.apply(mu);
        if (!step.events.empty())
            if (auto st = sql::executeSourceScript(db, m_scenario.insertSql(step.events), "source.sql");
                !st) {
                result.failure = at + " source rows: " + st.error().format();
                return result;
            }
        engine::UpdateOptions options;
        options.now = step.now;
        options.fullRefresh = step.fullRefresh;
        auto report = engine::runUpdate(db, m_pipeline, options);
        if (!report) {
            result.failure = at + " the update failed: " + report.error().format();
            return result;
        }
        auto rs = sql::runQuery(db, "SELECT * FROM t");
        if (!rs) {
            result.failure = at + " reading t: " + rs.error().format();
            return result;
        }
        result.finalRows = displayRows(*rs, rs->columns.size());
        std::string diff = difference("rows of t", result.finalRows, model.rows());

        auto tomb = engine::tombstones(db, "t");
        if (!tomb) {
            result.failure = at + " reading tombstones: " + tomb.error().format();
            return result;
        }
        // Key columns, __SEQUENCE and __DELETED_AT (the GC due time follows from the threshold).
        std::vector<std::string> expected;
        for (const ModelTombstone& t : model.tombstones()) {
            std::string line;
            for (const std::string& k : t.key)
                line += k + "\t";
            expected.push_back(line + t.sequence + "\t" + isoTime(t.deletedAt));
        }
        std::sort(expected.begin(), expected.end());
        diff += difference("tombstones of t", displayRows(*tomb, tomb->columns.size() - 1), expected);
        if (!diff.empty()) {
            result.failure = at + diff;
            return result;
        }
    }
    return result;
}

std::string ScenarioCheck::rewindFailure(const Delivery& delivery) const {
    auto db = openDb();
    if (auto st = sql::executeSourceScript(db, m_scenario.createSourcesSql(), "source.sql"); !st)
        return "source tables: " + st.error().format();
    QStringList sources;
    for (std::size_t i = 0; i < m_scenario.shape.flows.size(); ++i)
        sources << QString("src%1").arg(i);
    std::vector<QStringList> after{databaseDump(db, sources)};
    for (const UpdateStep& step : delivery) {
        if (!step.events.empty())
            if (auto st = sql::executeSourceScript(db, m_scenario.insertSql(step.events), "source.sql"); !st)
                return "source rows: " + st.error().format();
        engine::UpdateOptions options;
        options.now = step.now;
        options.fullRefresh = step.fullRefresh;
        if (auto report = engine::runUpdate(db, m_pipeline, options); !report)
            return "update " + std::to_string(after.size()) + " failed: " + report.error().format();
        after.push_back(databaseDump(db, sources));
    }
    for (std::size_t k = delivery.size(); k-- > 0;) {
        if (auto st = engine::rewindTo(db, static_cast<std::int64_t>(k)); !st)
            return "rewind to " + std::to_string(k) + " failed: " + st.error().format();
        const QStringList got = databaseDump(db, sources);
        if (got == after[k])
            continue;
        std::vector<std::string> engine, expected;
        for (const QString& r : got)
            engine.push_back(r.toStdString());
        for (const QString& r : after[k])
            expected.push_back(r.toStdString());
        std::sort(engine.begin(), engine.end());
        std::sort(expected.begin(), expected.end());
        return "after rewinding to update " + std::to_string(k) + ":" +
               difference("the database (\"model\" = as after that update)", engine, expected);
    }
    return {};
}

std::string ScenarioCheck::failure(Property property, const Delivery& delivery) const {
    return property == Property::MatchesModel ? run(delivery).failure : rewindFailure(delivery);
}

std::pair<Delivery, std::string> ScenarioCheck::shrink(Property property, Delivery failing) const {
    std::string failure = this->failure(property, failing);
    const auto attempt = [&](const Delivery& candidate) {
        std::string f = this->failure(property, candidate);
        if (f.empty())
            return false;
        failing = candidate;
        failure = std::move(f);
        return true;
    };
    for (bool progress = true; progress;) {
        progress = false;
        // ddmin over the events: drop chunks, halving their size when no chunk can go.
        std::vector<int> ids = idsOf(failing);
        for (std::size_t chunks = 2; !ids.empty();) {
            const std::size_t size = (ids.size() + chunks - 1) / chunks;
            bool dropped = false;
            for (std::size_t from = 0; from < ids.size() && !dropped; from += size) {
                std::set<int> keep(ids.begin(), ids.end());
                for (std::size_t i = from; i < std::min(ids.size(), from + size); ++i)
                    keep.erase(ids[i]);
                dropped = attempt(keepOnly(failing, keep));
            }
            if (dropped) {
                ids = idsOf(failing);
                chunks = std::max<std::size_t>(chunks - 1, 2);
                progress = true;
            } else if (chunks >= ids.size()) {
                break;
            } else {
                chunks = std::min(ids.size(), chunks * 2);
            }
        }
        // Fewer updates: merge each into the next, drop empty ones; no full refresh; a slower clock.
        for (std::size_t u = failing.size(); u-- > 0;) {
            if (failing.size() > 1) {
                Delivery merged = failing;
                if (u + 1 < merged.size()) {
                    auto& next = merged[u + 1].events;
                    next.insert(next.begin(), merged[u].events.begin(), merged[u].events.end());
                    merged.erase(merged.begin() + static_cast<std::ptrdiff_t>(u));
                    if (attempt(merged)) {
                        progress = true;
                        continue;
                    }
                } else if (merged[u].events.empty() && !merged[u].fullRefresh) {
                    merged.erase(merged.begin() + static_cast<std::ptrdiff_t>(u));
                    if (attempt(merged)) {
                        progress = true;
                        continue;
                    }
                }
            }
            if (failing[u].fullRefresh) {
                Delivery plain = failing;
                plain[u].fullRefresh = false;
                progress |= attempt(plain);
            }
            if (u > 0 && failing[u].now != failing[u - 1].now) {
                Delivery still = failing;
                for (std::size_t later = u; later < still.size(); ++later)
                    still[later].now -= failing[u].now - failing[u - 1].now;
                progress |= attempt(still);
            }
        }
    }
    return {failing, failure};
}

std::string ScenarioCheck::reproducer(const Delivery& delivery, const std::string& failure) const {
    std::string out = "-- ===== pipeline.sql =====\n" + m_scenario.pipelineSql();
    out += "-- ===== source.sql: cdcstudio-cli --db repro.db sql source.sql =====\n" +
           m_scenario.createSourcesSql();
    for (std::size_t u = 0; u < delivery.size(); ++u) {
        const UpdateStep& s = delivery[u];
        const std::string n = std::to_string(u + 1);
        out += "-- ===== update " + n + ": cdcstudio-cli --db repro.db sql update" + n +
               ".sql && cdcstudio-cli --db repro.db update pipeline.sql --now " + isoTime(s.now) +
               (s.fullRefresh ? " --full-refresh" : "") + " =====\n";
        out += s.events.empty() ? "-- (no new rows)\n" : m_scenario.insertSql(s.events);
    }
    return out + "-- ===== " + failure + "\n";
}

namespace {

struct SmallFailure {
    Scenario scenario;
    Delivery delivery;
    std::string failure;
};

/// Only the delivered events, renumbered in delivery order.
SmallFailure compacted(const Scenario& scenario, const Delivery& delivery, std::string failure) {
    SmallFailure out{scenario, delivery, std::move(failure)};
    out.scenario.events.clear();
    for (UpdateStep& step : out.delivery)
        for (int& id : step.events) {
            SourceEvent e = scenario.events[static_cast<std::size_t>(id)];
            id = e.id = static_cast<int>(out.scenario.events.size());
            out.scenario.events.push_back(std::move(e));
        }
    return out;
}

void eraseName(std::vector<std::string>& names, const std::string& name) {
    std::erase(names, name);
}

/// An emptied `(...)` list means nothing left to choose: drop the clause (`* EXCEPT ()` chooses all).
void eraseFromChoice(std::optional<ColumnChoice>& choice, const std::string& name) {
    if (!choice)
        return;
    eraseName(choice->names, name);
    if (choice->names.empty() && choice->mode == ColumnChoice::Mode::Only)
        choice.reset();
    else if (choice->names.empty())
        choice->mode = ColumnChoice::Mode::All;
}

/// The scenarios one simplification away from `s`.
std::vector<Scenario> simpler(const Scenario& s) {
    std::vector<Scenario> out;
    const auto usesOp = [&](std::size_t flow, const char* op) {
        return std::any_of(s.events.begin(), s.events.end(), [&](const SourceEvent& e) {
            return e.source == static_cast<int>(flow) && e.op == op;
        });
    };
    for (std::size_t f = 0; f < s.shape.flows.size(); ++f) {
        const FlowShape& flow = s.shape.flows[f];
        const bool unused = std::none_of(s.events.begin(), s.events.end(), [&](const SourceEvent& e) {
            return e.source == static_cast<int>(f);
        });
        if (unused && s.shape.flows.size() > 1) {
            Scenario c = s;
            c.shape.flows.erase(c.shape.flows.begin() + static_cast<std::ptrdiff_t>(f));
            for (SourceEvent& e : c.events)
                e.source -= e.source > static_cast<int>(f);
            out.push_back(std::move(c));
        }
        const auto variant = [&](auto change) {
            Scenario c = s;
            change(c.shape.flows[f]);
            out.push_back(std::move(c));
        };
        if (flow.ignoreNull)
            variant([](FlowShape& x) { x.ignoreNull.reset(); });
        if (flow.columnsToUpdate)
            variant([](FlowShape& x) { x.columnsToUpdate = false; });
        if (flow.once)
            variant([](FlowShape& x) { x.once = false; });
        // Only when no row would change its kind (a truncate row may have a NULL key).
        if (flow.truncates && !usesOp(f, "T"))
            variant([](FlowShape& x) { x.truncates = false; });
        if (flow.deletes && !usesOp(f, "D"))
            variant([](FlowShape& x) { x.deletes = false; });
    }
    if (s.shape.trackHistory) {
        out.push_back(s);
        out.back().shape.trackHistory.reset();
    }
    if (s.shape.gcThresholdSeconds) {
        out.push_back(s);
        out.back().shape.gcThresholdSeconds.reset();
    }
    const bool anyColumnsToUpdate = std::any_of(s.shape.flows.begin(), s.shape.flows.end(),
                                                [](const FlowShape& f) { return f.columnsToUpdate; });
    if (s.shape.hasColumnsToUpdateColumn && !anyColumnsToUpdate) {
        Scenario c = s;
        c.shape.hasColumnsToUpdateColumn = false;
        eraseName(c.shape.columns.names, "cu");
        for (SourceEvent& e : c.events)
            e.columnsToUpdate.reset();
        out.push_back(std::move(c));
    }
    if (s.shape.compositeKey) {
        Scenario c = s;
        c.shape.compositeKey = false;
        eraseName(c.shape.columns.names, "r");
        out.push_back(std::move(c));
    }
    for (std::size_t v = 0; v < s.shape.valueColumns.size(); ++v) {
        Scenario c = s;
        const std::string name = s.shape.valueColumns[v];
        c.shape.valueColumns.erase(c.shape.valueColumns.begin() + static_cast<std::ptrdiff_t>(v));
        eraseName(c.shape.columns.names, name);
        eraseFromChoice(c.shape.trackHistory, name);
        for (FlowShape& f : c.shape.flows)
            eraseFromChoice(f.ignoreNull, name);
        for (SourceEvent& e : c.events) {
            e.values.erase(e.values.begin() + static_cast<std::ptrdiff_t>(v));
            if (e.columnsToUpdate)
                eraseName(*e.columnsToUpdate, name);
        }
        out.push_back(std::move(c));
    }
    return out;
}

SmallFailure shrinkFailure(Property property, const Scenario& scenario, const Delivery& delivery,
                           Scd2Deletes scd2Deletes) {
    SmallFailure best;
    {
        const ScenarioCheck check(scenario, scd2Deletes);
        auto [d, failure] = check.shrink(property, delivery);
        best = compacted(scenario, d, std::move(failure));
    }
    for (bool progress = true; progress;) {
        progress = false;
        for (const Scenario& candidate : simpler(best.scenario)) {
            const ScenarioCheck check(candidate, scd2Deletes);
            if (!check.error().empty() || check.failure(property, best.delivery).empty())
                continue;
            auto [d, failure] = check.shrink(property, best.delivery);
            best = compacted(candidate, d, std::move(failure));
            progress = true;
            break;
        }
    }
    return best;
}

} // namespace

std::string smallestReproducer(Property property, const Scenario& scenario, const Delivery& delivery,
                               Scd2Deletes scd2Deletes) {
    const SmallFailure small = shrinkFailure(property, scenario, delivery, scd2Deletes);
    return ScenarioCheck(small.scenario, scd2Deletes).reproducer(small.delivery, small.failure);
}

} // namespace enginetest
