// Every read here is a count or the update log's last rows, so recomputing on each change stays cheap;
// the figures come from what the engine stored (not from the pipeline text), matched to nodes by name.
#include "ui/designer/NodeStateFeed.h"

#include "core/common/Text.h"
#include "core/engine/Engine.h"
#include "core/engine/StoredTarget.h"
#include "core/storage/Catalog.h"
#include "ui/designer/DesignerScene.h"
#include "ui/model/PipelineDocument.h"
#include "ui/model/Project.h"

namespace cdc::ui {

using pipeline::GraphNode;
using pipeline::NodeKind;

namespace {

bool isFlow(NodeKind k) {
    return k == NodeKind::AutoCdcFlow || k == NodeKind::AutoCdcSnapshotFlow || k == NodeKind::AppendFlow;
}

qint64 intAt(const cdc::Row& row, int column) {
    if (column < 0 || std::size_t(column) >= row.size())
        return 0;
    const auto* i = std::get_if<std::int64_t>(&row[std::size_t(column)]);
    return i ? *i : 0;
}

std::string textAt(const cdc::Row& row, int column) {
    if (column < 0 || std::size_t(column) >= row.size())
        return {};
    const auto* s = std::get_if<std::string>(&row[std::size_t(column)]);
    return s ? *s : std::string();
}

/// `SELECT count(*)` of a target's catalog view; nullopt when it cannot be read.
std::optional<qint64> rowCount(storage::Database& db, const std::string& target) {
    auto info = storage::Catalog::find(db, target);
    if (!info || !*info)
        return std::nullopt;
    auto st = db.prepare("SELECT count(*) FROM " + storage::quoteIdentifier((*info)->sqliteName));
    if (!st)
        return std::nullopt;
    auto has = st->step();
    if (!has || !*has)
        return std::nullopt;
    return st->int64(0);
}

/// Each flow's counts in the last update, by lower-cased flow name.
QHash<QString, FlowCounts> lastUpdateCounts(storage::Database& db) {
    QHash<QString, FlowCounts> out;
    auto log = engine::updateLog(db);
    if (!log || log->rows.empty())
        return out;
    const auto col = [&](const char* name) {
        for (std::size_t i = 0; i < log->columns.size(); ++i)
            if (log->columns[i] == name)
                return int(i);
        return -1;
    };
    const int cId = col("update_id"), cFlow = col("flow"), cRead = col("rows_read"), cUp = col("upserted"),
              cDel = col("deleted"), cStale = col("stale_dropped");
    // The log is ordered by update: the last update's rows are the tail.
    const qint64 last = intAt(log->rows.back(), cId);
    for (auto it = log->rows.rbegin(); it != log->rows.rend() && intAt(*it, cId) == last; ++it) {
        FlowCounts& c = out[QString::fromStdString(toLower(textAt(*it, cFlow)))];
        c.read += intAt(*it, cRead);
        c.upserted += intAt(*it, cUp);
        c.deleted += intAt(*it, cDel);
        c.stale += intAt(*it, cStale);
    }
    return out;
}

} // namespace

NodeStateFeed::NodeStateFeed(Project* project, DesignerScene* scene, QObject* parent)
    : QObject(parent), m_project(project), m_scene(scene) {
    connect(project, &Project::dataChanged, this, &NodeStateFeed::reloadFigures);
    connect(project->document(), &PipelineDocument::parsed, this, &NodeStateFeed::refresh);
    reloadFigures();
}

void NodeStateFeed::reloadFigures() {
    storage::Database& db = m_project->db();
    // A target's view in a project someone sent may never end: the figures are left out instead.
    const auto guard = m_project->guardQuickRead("counting the rows");
    m_flowCounts = lastUpdateCounts(db);
    m_targets.clear();
    // Only a target an update has built has rows to count; a declared but never-run table shows none.
    if (auto stored = engine::storedTargets(db))
        for (const engine::StoredTarget& target : *stored) {
            TargetFigures& figures = m_targets[QString::fromStdString(toLower(target.name))];
            figures.rows = rowCount(db, target.name);
            if (auto tombstones = engine::tombstones(db, target.name))
                figures.tombstones = qint64(tombstones->rows.size());
        }
    refresh();
}

void NodeStateFeed::refresh() {
    m_scene->setNodeStates(compute());
}

QHash<QString, NodeState> NodeStateFeed::compute() const {
    QHash<QString, NodeState> states;
    addFigures(states);
    addIssues(states);
    return states;
}

void NodeStateFeed::addFigures(QHash<QString, NodeState>& states) const {
    for (const GraphNode& node : m_scene->graph().nodes) {
        const QString name = QString::fromStdString(toLower(node.name));
        NodeState state;
        if (isFlow(node.kind)) {
            const auto it = m_flowCounts.constFind(name);
            if (it == m_flowCounts.constEnd())
                continue;
            state.counts = *it;
        } else if (node.kind == NodeKind::StreamingTable || node.kind == NodeKind::MaterializedView) {
            const auto it = m_targets.constFind(name);
            if (it == m_targets.constEnd())
                continue;
            state.rows = it->rows;
            state.tombstones = it->tombstones;
        } else {
            continue;
        }
        states[QString::fromStdString(node.id)] = state;
    }
}

void NodeStateFeed::addIssues(QHash<QString, NodeState>& states) const {
    for (const Diagnostic& issue : m_project->document()->issues()) {
        if (issue.severity == Severity::Note)
            continue;
        const GraphNode* node = nodeAtLocation(m_scene->graph(), issue.location);
        if (!node)
            continue;
        NodeState& state = states[QString::fromStdString(node->id)];
        const bool error = issue.severity == Severity::Error;
        ++(error ? state.errors : state.warnings);
        state.messages
            << (error ? tr("error: %1") : tr("warning: %1")).arg(QString::fromStdString(issue.message));
    }
}

} // namespace cdc::ui
