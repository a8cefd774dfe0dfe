#include "core/engine/DatasetOrder.h"

#include "core/common/Text.h"

#include <algorithm>
#include <map>
#include <set>

namespace cdc::engine {

using pipeline::Pipeline;
using pipeline::RelationRef;

namespace {

struct Declaration {
    std::string name;
    SourceLocation location;
    std::string what;
};

/// Every table and view a pipeline declares, in text order. Spark's pipelines refuse two graph elements of
/// one name, tables and views alike (DataflowGraph.mapUnique: DUPLICATE_GRAPH_ELEMENT).
Status checkDeclarations(const Pipeline& p) {
    std::vector<Declaration> all;
    for (const auto& t : p.streamingTables)
        all.push_back(
            {t.name.name, t.name.location.valid() ? t.name.location : t.location, "streaming table"});
    for (const auto& v : p.views)
        all.push_back({v.name.name, v.name.location.valid() ? v.name.location : v.location,
                       v.materialized ? "materialized view" : "view"});
    std::stable_sort(all.begin(), all.end(), [](const Declaration& a, const Declaration& b) {
        return a.location.offset < b.location.offset;
    });
    std::map<std::string, const Declaration*> seen;
    for (const Declaration& d : all) {
        auto [it, added] = seen.emplace(toLower(d.name), &d);
        if (!added)
            return Diagnostic::error("DUPLICATE_GRAPH_ELEMENT",
                                     "'" + d.name + "' is declared twice: as a " + it->second->what +
                                         " on line " + std::to_string(it->second->location.line) +
                                         " and as a " + d.what +
                                         " here; every table and view needs a name "
                                         "of its own",
                                     d.location);
    }
    return Status::success();
}

struct FlowName {
    std::string name, target;
    SourceLocation location;
};

/// Flow names are unique in a pipeline (Spark: PIPELINE_DUPLICATE_IDENTIFIERS.FLOW; semantics.md §10.2), and
/// a flow not named after its own target may not take another table's name (FLOW_NAME_CONFLICTS_WITH_TABLE).
Status checkFlowNames(const Pipeline& p) {
    std::vector<FlowName> flows;
    for (const auto& f : p.cdcFlows)
        flows.push_back({f.name.name.empty() ? f.target.name : f.name.name, f.target.name,
                         f.name.location.valid() ? f.name.location : f.location});
    for (const auto& f : p.appendFlows)
        flows.push_back({f.name.name, f.target.name, f.name.location.valid() ? f.name.location : f.location});
    std::stable_sort(flows.begin(), flows.end(), [](const FlowName& a, const FlowName& b) {
        return a.location.offset < b.location.offset;
    });
    std::set<std::string> seen;
    for (const FlowName& f : flows) {
        if (!seen.insert(toLower(f.name)).second)
            return Diagnostic::error("DUPLICATE_FLOW",
                                     "flow name '" + f.name + "' is used twice in the pipeline", f.location);
        if (!equalsIgnoreCase(f.name, f.target) && (p.findTable(f.name) || p.findView(f.name)))
            return Diagnostic::error("FLOW_NAME_CONFLICTS_WITH_TABLE",
                                     "flow '" + f.name + "' into '" + f.target +
                                         "' has the name of another table or view of the pipeline; "
                                         "rename the flow",
                                     f.location);
    }
    return Status::success();
}

/// Relations a dataset's definition reads, views expanded: the datasets it depends on, each with the
/// reference's position.
class Dependencies {
public:
    explicit Dependencies(const Pipeline& p) : m_pipeline(p) {}

    Status collect(const std::vector<RelationRef>& refs,
                   std::vector<std::pair<std::string, SourceLocation>>& out) {
        for (const RelationRef& r : refs) {
            const pipeline::View* v = m_pipeline.findView(r.name);
            if (v && !v->materialized) {
                const std::string key = toLower(v->name.name);
                if (std::find(m_viewStack.begin(), m_viewStack.end(), key) != m_viewStack.end())
                    return Diagnostic::error("CIRCULAR_DEPENDENCY",
                                             "view '" + v->name.name + "' reads itself through " + chain(key),
                                             r.location);
                m_viewStack.push_back(key);
                CDC_TRY(collect(v->query.relations, out));
                m_viewStack.pop_back();
            } else if ((v && v->materialized) || m_pipeline.findTable(r.name)) {
                out.emplace_back(toLower(r.name), r.location);
            }
        }
        return Status::success();
    }

private:
    std::string chain(const std::string& from) const {
        std::string s;
        for (auto it = std::find(m_viewStack.begin(), m_viewStack.end(), from); it != m_viewStack.end(); ++it)
            s += "'" + *it + "' -> ";
        return s + "'" + from + "'";
    }

    const Pipeline& m_pipeline;
    std::vector<std::string> m_viewStack;
};

class Sorter {
public:
    Sorter(std::vector<DeclaredDataset> datasets,
           std::map<std::string, std::vector<std::pair<std::string, SourceLocation>>> deps)
        : m_datasets(std::move(datasets)), m_deps(std::move(deps)) {}

    Result<std::vector<DeclaredDataset>> sort() {
        for (std::size_t i = 0; i < m_datasets.size(); ++i)
            CDC_TRY(visit(i));
        return std::move(m_out);
    }

private:
    Status visit(std::size_t i) {
        const std::string key = toLower(m_datasets[i].name);
        if (m_done.count(key))
            return Status::success();
        m_path.push_back(key);
        for (const auto& [dep, where] : m_deps[key]) {
            auto on = std::find(m_path.begin(), m_path.end(), dep);
            if (on != m_path.end()) {
                // Spark's pipelines: CircularDependencyException
                // (GraphValidations.validateSuccessfulFlowAnalysis).
                std::string cycle;
                for (auto it = on; it != m_path.end(); ++it)
                    cycle += "'" + *it + "' -> ";
                return Diagnostic::error(
                    "CIRCULAR_DEPENDENCY",
                    "the pipeline's datasets read each other in a cycle: " + cycle + "'" + dep + "'", where);
            }
            for (std::size_t j = 0; j < m_datasets.size(); ++j)
                if (toLower(m_datasets[j].name) == dep)
                    CDC_TRY(visit(j));
        }
        m_path.pop_back();
        m_done.insert(key);
        m_out.push_back(m_datasets[i]);
        return Status::success();
    }

    std::vector<DeclaredDataset> m_datasets;
    std::map<std::string, std::vector<std::pair<std::string, SourceLocation>>> m_deps;
    std::vector<std::string> m_path;
    std::set<std::string> m_done;
    std::vector<DeclaredDataset> m_out;
};

} // namespace

Result<std::vector<DeclaredDataset>> orderDatasets(const Pipeline& p) {
    CDC_TRY(checkDeclarations(p));
    CDC_TRY(checkFlowNames(p));
    std::vector<DeclaredDataset> datasets;
    for (const auto& t : p.streamingTables) {
        DeclaredDataset d;
        d.name = t.name.name;
        d.location = t.location;
        d.table = &t;
        datasets.push_back(d);
    }
    const auto findTable = [&](const pipeline::Identifier& target) -> DeclaredDataset* {
        for (DeclaredDataset& d : datasets)
            if (equalsIgnoreCase(d.name, target.name))
                return &d;
        return nullptr;
    };
    for (const auto& f : p.cdcFlows)
        if (DeclaredDataset* d = findTable(f.target))
            d->cdcFlows.push_back(&f);
    // An AUTO CDC flow into an undeclared table is reported where it is planned (UNKNOWN_TARGET); so is
    // an append flow's.
    for (const auto& f : p.appendFlows) {
        DeclaredDataset* d = findTable(f.target);
        if (!d)
            return Diagnostic::error("UNKNOWN_TARGET",
                                     "append flow '" + f.name.name + "' writes '" + f.target.name +
                                         "', which is not a streaming table of the pipeline; declare it with "
                                         "CREATE OR REFRESH STREAMING TABLE " +
                                         f.target.name,
                                     f.target.location.valid() ? f.target.location : f.location);
        if (!d->cdcFlows.empty())
            return Diagnostic::error("INCOMPATIBLE_FLOWS",
                                     "append flow '" + f.name.name + "' writes '" + f.target.name +
                                         "', which AUTO CDC flows write; a table takes either AUTO CDC flows "
                                         "or append flows",
                                     f.location);
        d->kind = DatasetKind::Append;
        d->appendFlows.push_back(&f);
    }
    std::erase_if(datasets,
                  [](const DeclaredDataset& d) { return d.cdcFlows.empty() && d.appendFlows.empty(); });
    for (const auto& v : p.views) {
        if (!v.materialized)
            continue;
        DeclaredDataset d;
        d.name = v.name.name;
        d.kind = DatasetKind::MaterializedView;
        d.location = v.location;
        d.view = &v;
        datasets.push_back(d);
    }
    std::stable_sort(datasets.begin(), datasets.end(),
                     [](const DeclaredDataset& a, const DeclaredDataset& b) {
                         return a.location.offset < b.location.offset;
                     });

    Dependencies walk(p);
    std::map<std::string, std::vector<std::pair<std::string, SourceLocation>>> deps;
    for (const DeclaredDataset& d : datasets) {
        auto& out = deps[toLower(d.name)];
        for (const auto* f : d.cdcFlows) {
            CDC_TRY(walk.collect({f->source}, out));
            for (const auto* q : {f->snapshotQuery ? &*f->snapshotQuery : nullptr,
                                  f->versionQuery ? &*f->versionQuery : nullptr})
                if (q)
                    CDC_TRY(walk.collect(q->relations, out));
        }
        for (const auto* f : d.appendFlows)
            CDC_TRY(walk.collect(f->query.relations, out));
        if (d.view)
            CDC_TRY(walk.collect(d.view->query.relations, out));
    }
    return Sorter(std::move(datasets), std::move(deps)).sort();
}

} // namespace cdc::engine
