// Canvas edits never touch the scene directly: they change the document (or the positions), whose signals
// bring the scene up to date, so undo and typing in the SQL editor take the very same path.
#include "ui/designer/DesignerController.h"

#include "core/common/Text.h"
#include "core/sql/PipelineEdits.h"
#include "core/sql/PipelineScript.h"
#include "core/storage/Catalog.h"
#include "ui/designer/DesignerPanel.h"
#include "ui/designer/DesignerScene.h"
#include "ui/designer/NodeItem.h"
#include "ui/designer/NodeStateFeed.h"
#include "ui/model/NodePositions.h"
#include "ui/model/PipelineDocument.h"
#include "ui/model/Project.h"

#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QIcon>
#include <QToolBar>

#include <algorithm>
#include <set>

namespace cdc::ui {

using pipeline::GraphNode;
using pipeline::NodeKind;

namespace {
bool isRelation(NodeKind kind) {
    return kind == NodeKind::SourceTable || kind == NodeKind::TemporaryView || kind == NodeKind::View ||
           kind == NodeKind::MaterializedView || kind == NodeKind::StreamingTable;
}

/// The column a change feed is most likely sequenced by: one whose name says so, else the last one.
QString sequenceLike(const QStringList& columns) {
    for (const char* hint : {"sequence", "seq", "version", "timestamp", "ts", "time"})
        for (const QString& c : columns)
            if (c.contains(QLatin1String(hint), Qt::CaseInsensitive))
                return c;
    return columns.isEmpty() ? QString() : columns.last();
}
} // namespace

DesignerController::DesignerController(Project* project, DesignerPanel* panel, QObject* parent)
    : QObject(parent), m_project(project), m_panel(panel),
      m_addTable(new QAction(QIcon(QStringLiteral(":/icons/add-table.svg")), tr("Add &Table"), this)),
      m_addView(new QAction(QIcon(QStringLiteral(":/icons/add-view.svg")), tr("Add &View"), this)),
      m_addFlow(new QAction(QIcon(QStringLiteral(":/icons/add-flow.svg")), tr("Add &Flow"), this)),
      m_delete(new QAction(QIcon(QStringLiteral(":/icons/delete.svg")), tr("&Delete"), this)),
      m_copy(new QAction(tr("&Copy"), this)), m_paste(new QAction(tr("&Paste"), this)),
      m_duplicate(new QAction(tr("D&uplicate"), this)) {
    m_addTable->setToolTip(tr("Add a streaming table (CREATE OR REFRESH STREAMING TABLE)"));
    m_addView->setToolTip(
        tr("Add a temporary view over the selected source, view or table (CREATE TEMPORARY VIEW)"));
    m_addFlow->setToolTip(
        tr("Add an AUTO CDC flow from the selected source or view into the selected streaming "
           "table, or a new one (CREATE FLOW … AS AUTO CDC INTO)"));
    m_delete->setToolTip(tr("Remove the selected nodes' statements from the pipeline (Delete)"));
    // The keys belong to the canvas: Delete in the SQL editor or a grid keeps its own meaning.
    m_delete->setShortcuts({QKeySequence::Delete, QKeySequence(Qt::Key_Backspace)});
    m_delete->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    panel->addAction(m_delete);
    m_copy->setShortcut(QKeySequence::Copy);
    m_paste->setShortcut(QKeySequence::Paste);
    m_duplicate->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
    m_copy->setToolTip(tr("Copy the selected nodes' statements as pipeline SQL (Ctrl+C)"));
    m_paste->setToolTip(tr("Add the pipeline SQL on the clipboard, renaming what is taken (Ctrl+V)"));
    m_duplicate->setToolTip(tr("Add the selected nodes again under new names (Ctrl+D)"));
    for (QAction* a : {m_copy, m_paste, m_duplicate}) {
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        panel->addAction(a);
    }
    connect(m_copy, &QAction::triggered, this, &DesignerController::copySelected);
    connect(m_paste, &QAction::triggered, this, &DesignerController::paste);
    connect(m_duplicate, &QAction::triggered, this, &DesignerController::duplicateSelected);
    connect(m_addTable, &QAction::triggered, this, &DesignerController::addTable);
    connect(m_addView, &QAction::triggered, this, &DesignerController::addView);
    connect(m_addFlow, &QAction::triggered, this, &DesignerController::addFlow);
    connect(m_delete, &QAction::triggered, this, &DesignerController::deleteSelected);
    QToolBar* bar = panel->toolBar();
    QAction* first = bar->actions().value(0);
    bar->insertActions(first, {m_addTable, m_addView, m_addFlow, m_delete});
    bar->insertSeparator(first);

    DesignerScene* scene = panel->scene();
    NodePositions* positions = project->nodePositions();
    connect(positions, &NodePositions::changed, scene,
            [scene, positions] { scene->setPins(positions->positions()); });
    connect(scene, &DesignerScene::nodesMoved, positions, &NodePositions::move);
    connect(scene, &DesignerScene::connectRequested, this, &DesignerController::connectNodes);
    // A parse with errors leaves the graph as it was: half-typed SQL should not make nodes vanish.
    connect(project->document(), &PipelineDocument::parsed, this, &DesignerController::showParse);
    connect(scene, &QGraphicsScene::selectionChanged, this, [this] {
        updateActions();
        // Nodes going because the text changed are no choice of the user's: whoever shows the old selection
        // (the inspector) follows the text itself, renames included.
        if (m_showingParse)
            return;
        const auto selected = selectedNodes();
        emit nodeSelected(selected.size() == 1 ? QString::fromStdString(selected.front()->id) : QString());
    });
    scene->setPins(positions->positions());
    showParse();
    // Connected after showParse's own hook, so a parse's issues are placed on the graph it just showed.
    new NodeStateFeed(project, scene, this);
}

void DesignerController::showParse() {
    const PipelineDocument* doc = m_project->document();
    if (!doc->hasErrors()) {
        m_showingParse = true;
        m_panel->setGraph(pipeline::buildGraph(doc->pipeline()));
        m_showingParse = false;
    }
    updateActions();
}

void DesignerController::updateActions() {
    // The graph edits pipeline SQL: a Python pipeline's graph is shown, and edited in its code.
    const bool editable = !m_project->document()->hasErrors() && !m_project->document()->isPython();
    const auto selected = selectedNodes();
    m_addTable->setEnabled(editable);
    m_addView->setEnabled(editable);
    m_addFlow->setEnabled(editable);
    const bool anyStatement = std::any_of(selected.begin(), selected.end(), [](const GraphNode* n) {
        return n->kind != NodeKind::SourceTable;
    });
    m_copy->setEnabled(anyStatement);
    m_duplicate->setEnabled(editable && anyStatement);
    m_paste->setEnabled(editable);
    m_delete->setEnabled(editable && std::any_of(selected.begin(), selected.end(), [](const GraphNode* n) {
                             return n->kind != NodeKind::SourceTable;
                         }));
}

QList<const GraphNode*> DesignerController::selectedNodes() const {
    QList<const GraphNode*> out;
    const pipeline::PipelineGraph& graph = m_panel->scene()->graph();
    for (const GraphNode& node : graph.nodes)
        if (NodeItem* item = m_panel->scene()->node(QString::fromStdString(node.id));
            item && item->isSelected())
            out << &node;
    return out;
}

bool DesignerController::selectNode(const QString& id) {
    NodeItem* item = m_panel->scene()->node(id);
    if (!item)
        return false;
    m_panel->scene()->clearSelection();
    item->setSelected(true);
    return true;
}

bool DesignerController::selectNodeAt(const SourceLocation& location) {
    const GraphNode* node = nodeAtLocation(m_panel->scene()->graph(), location);
    return node && selectNode(QString::fromStdString(node->id));
}

bool DesignerController::apply(const QString& newText, const QString& description, const QString& selectId) {
    if (m_project->document()->isPython()) {
        emit statusMessage(tr("Not changed: a Python pipeline is edited in its Python code, in the editor"));
        return false;
    }
    m_project->document()->replace(newText, description);
    if (!selectId.isEmpty())
        selectNode(selectId);
    emit statusMessage(description);
    return true;
}

std::set<std::string> DesignerController::takenNames() const {
    const pipeline::Pipeline& p = m_project->document()->pipeline();
    std::set<std::string> taken;
    const auto add = [&](const auto& items) {
        for (const auto& item : items)
            taken.insert(toLower(item.name.name));
    };
    add(p.streamingTables);
    add(p.views);
    add(p.cdcFlows);
    add(p.appendFlows);
    return taken;
}

QString DesignerController::freeName(const QString& prefix) const {
    const std::set<std::string> taken = takenNames();
    for (int n = 1;; ++n) {
        const QString name = QStringLiteral("%1_%2").arg(prefix).arg(n);
        if (!taken.count(name.toLower().toStdString()))
            return name;
    }
}

QStringList DesignerController::columnsOf(const GraphNode& node) const {
    QStringList out;
    if (node.kind == NodeKind::TemporaryView || node.kind == NodeKind::View ||
        node.kind == NodeKind::MaterializedView) {
        if (const pipeline::View* view = m_project->document()->pipeline().findView(node.name))
            for (const std::string& c : view->query.outputColumns)
                if (c != "*")
                    out << QString::fromStdString(c);
        if (!out.isEmpty())
            return out;
    }
    if (auto table = storage::Catalog::find(m_project->db(), node.name); table && *table)
        for (const storage::ColumnInfo& c : (*table)->columns)
            out << QString::fromStdString(c.name);
    return out;
}

std::string DesignerController::firstSourceTable() const {
    if (auto tables = storage::Catalog::list(m_project->db()); tables)
        for (const storage::TableInfo& t : *tables)
            if (t.kind == storage::TableKind::Source)
                return t.name;
    return {};
}

bool DesignerController::addTable() {
    const QString name = freeName(QStringLiteral("table"));
    auto edit = sql::PipelineEdits::addStreamingTable(m_project->document()->text().toStdString(),
                                                      name.toStdString());
    if (!edit) {
        emit statusMessage(tr("Cannot add a table: %1").arg(QString::fromStdString(edit.error().message)));
        return false;
    }
    return apply(QString::fromStdString(edit->text), QString::fromStdString(edit->description),
                 QStringLiteral("table:") + name.toLower());
}

bool DesignerController::addView() {
    const auto selected = selectedNodes();
    std::string from;
    for (const GraphNode* n : selected)
        if (isRelation(n->kind)) {
            from = n->name;
            break;
        }
    if (from.empty())
        from = firstSourceTable();
    if (from.empty()) {
        emit statusMessage(tr("Cannot add a view: there is no source table to read (add one in Sources)"));
        return false;
    }
    const QString name = freeName(QStringLiteral("view"));
    auto edit = sql::PipelineEdits::addView(m_project->document()->text().toStdString(), name.toStdString(),
                                            "SELECT * FROM " + from, false);
    if (!edit) {
        emit statusMessage(tr("Cannot add a view: %1").arg(QString::fromStdString(edit.error().message)));
        return false;
    }
    return apply(QString::fromStdString(edit->text), QString::fromStdString(edit->description),
                 QStringLiteral("view:") + name.toLower());
}

bool DesignerController::addFlow() {
    const GraphNode* source = nullptr;
    const GraphNode* target = nullptr;
    for (const GraphNode* n : selectedNodes()) {
        if (n->kind == NodeKind::StreamingTable && !target)
            target = n;
        else if (isRelation(n->kind) && n->kind != NodeKind::StreamingTable && !source)
            source = n;
    }
    // Nothing selected to read: the project's first source table, as a new pipeline's first flow would.
    GraphNode firstSource;
    if (!source) {
        firstSource.kind = NodeKind::SourceTable;
        firstSource.name = firstSourceTable();
        if (firstSource.name.empty()) {
            emit statusMessage(
                tr("Cannot add a flow: there is no source table to read (add one in Sources)"));
            return false;
        }
        source = &firstSource;
    }
    return addFlowBetween(*source, target);
}

bool DesignerController::addFlowBetween(const GraphNode& from, const GraphNode* target) {
    const GraphNode* source = &from;
    const QStringList columns = columnsOf(*source);
    if (columns.isEmpty()) {
        emit statusMessage(tr("Cannot add a flow: the columns of %1 are not known")
                               .arg(QString::fromStdString(source->name)));
        return false;
    }
    std::string text = m_project->document()->text().toStdString();
    QString description;
    sql::NewAutoCdcFlow flow;
    flow.name = freeName(QStringLiteral("flow")).toStdString();
    flow.source = source->name;
    flow.sourceStream = true;
    flow.keys = {columns.first().toStdString()};
    flow.sequence = {sequenceLike(columns).toStdString()};
    if (target) {
        flow.target = target->name;
    } else {
        flow.target = freeName(QStringLiteral("table")).toStdString();
        auto table = sql::PipelineEdits::addStreamingTable(text, flow.target);
        if (!table) {
            emit statusMessage(
                tr("Cannot add a flow: %1").arg(QString::fromStdString(table.error().message)));
            return false;
        }
        text = table->text;
    }
    auto edit = sql::PipelineEdits::addAutoCdcFlow(text, flow);
    if (!edit) {
        emit statusMessage(tr("Cannot add a flow: %1").arg(QString::fromStdString(edit.error().message)));
        return false;
    }
    description = QString::fromStdString(edit->description);
    if (!target)
        description = tr("%1 into new table %2").arg(description, QString::fromStdString(flow.target));
    apply(QString::fromStdString(edit->text), description,
          QStringLiteral("flow:") + QString::fromStdString(toLower(flow.name)));
    emit statusMessage(tr("%1: keyed on %2, sequenced by %3 — check both in the Inspector")
                           .arg(description, QString::fromStdString(flow.keys.front()),
                                QString::fromStdString(flow.sequence.front())));
    return true;
}

bool DesignerController::deleteSelected() {
    std::string text = m_project->document()->text().toStdString();
    QStringList removed;
    QString single;
    for (const GraphNode* n : selectedNodes()) {
        if (n->kind == NodeKind::SourceTable)
            continue;
        // A table removed earlier in this loop may have taken its FLOW clause (this node) with it.
        auto edit = sql::PipelineEdits::removeEntity(text, n->name);
        if (!edit)
            continue;
        text = edit->text;
        single = QString::fromStdString(edit->description);
        removed << QString::fromStdString(n->name);
    }
    if (removed.isEmpty()) {
        emit statusMessage(tr("Nothing to delete: source tables belong to Sources, not to the pipeline"));
        return false;
    }
    return apply(
        QString::fromStdString(text),
        removed.size() == 1
            ? single
            : tr("Remove %1 nodes (%2)").arg(removed.size()).arg(removed.join(QStringLiteral(", "))));
}

std::string DesignerController::selectedStatements() const {
    auto script = sql::PipelineScript::parse(m_project->document()->text().toStdString());
    if (!script)
        return {};
    std::set<std::size_t> indexes; // a table and the flow its FLOW clause defines share one statement
    for (const GraphNode* n : selectedNodes()) {
        std::optional<std::size_t> index;
        if (n->kind == NodeKind::AutoCdcFlow || n->kind == NodeKind::AutoCdcSnapshotFlow ||
            n->kind == NodeKind::AppendFlow)
            index = script->findFlow(n->name);
        else if (n->kind != NodeKind::SourceTable)
            index = script->findDataset(n->name);
        if (index)
            indexes.insert(*index);
    }
    std::string out;
    for (std::size_t i : indexes) {
        const sql::ScriptStatement& st = script->statements()[i];
        out += script->text().substr(st.begin, st.end - st.begin);
        out += "\n\n";
    }
    return out;
}

bool DesignerController::copySelected() {
    const std::string sqlText = selectedStatements();
    if (sqlText.empty()) {
        emit statusMessage(tr("Nothing to copy: select tables, views or flows (sources belong to Sources)"));
        return false;
    }
    QGuiApplication::clipboard()->setText(QString::fromStdString(sqlText));
    emit statusMessage(tr("Copied %n node(s) as pipeline SQL", nullptr, int(selectedNodes().size())));
    return true;
}

bool DesignerController::paste() {
    return appendRenamed(QGuiApplication::clipboard()->text().toStdString(), tr("Paste"));
}

bool DesignerController::duplicateSelected() {
    return appendRenamed(selectedStatements(), tr("Duplicate"));
}

bool DesignerController::appendRenamed(const std::string& sqlText, const QString& verb) {
    auto pasted = sql::PipelineScript::parse(sqlText, "clipboard.sql");
    if (!pasted || pasted->statements().empty()) {
        emit statusMessage(pasted ? tr("%1: no pipeline statements to add").arg(verb)
                                  : tr("%1: the clipboard is not pipeline SQL: %2")
                                        .arg(verb, QString::fromStdString(pasted.error().format())));
        return false;
    }
    // Names the pipeline or an earlier pasted statement already uses get the first free `name_N`.
    std::string text = pasted->text();
    QStringList added;
    std::set<std::string> taken = takenNames();
    const auto freeFrom = [&](const std::string& name) {
        std::string candidate = name;
        for (int n = 2; taken.count(toLower(candidate)); ++n)
            candidate = name + "_" + std::to_string(n);
        taken.insert(toLower(candidate));
        return candidate;
    };
    for (const sql::ScriptStatement& st : pasted->statements()) {
        // A table's FLOW clause is named after the table: renaming the table renames it.
        if (auto dataset = sql::definedDataset(st.statement)) {
            const std::string renamed = freeFrom(*dataset);
            if (renamed != *dataset)
                if (auto edit = sql::PipelineEdits::renameDataset(text, *dataset, renamed); edit)
                    text = edit->text;
            added << QString::fromStdString(renamed);
        } else if (auto flow = sql::definedFlow(st.statement)) {
            const std::string renamed = freeFrom(*flow);
            if (renamed != *flow)
                if (auto edit = sql::PipelineEdits::renameFlow(text, *flow, renamed); edit)
                    text = edit->text;
            added << QString::fromStdString(renamed);
        }
    }
    QString existing = m_project->document()->text();
    while (existing.endsWith(QLatin1Char('\n')))
        existing.chop(1);
    const QString joined = existing.isEmpty()
                               ? QString::fromStdString(text)
                               : existing + QStringLiteral("\n\n") + QString::fromStdString(text);
    return apply(joined.trimmed() + QLatin1Char('\n'),
                 tr("%1 %2").arg(verb, added.join(QStringLiteral(", "))));
}

bool DesignerController::connectNodes(const QString& fromId, const QString& toId) {
    const pipeline::PipelineGraph& graph = m_panel->scene()->graph();
    const GraphNode* from = graph.find(fromId.toStdString());
    const GraphNode* to = graph.find(toId.toStdString());
    const auto refuse = [this](const QString& why) {
        emit statusMessage(tr("Not connected: %1").arg(why));
        return false;
    };
    if (!from || !to || from == to)
        return refuse(tr("drop the connection on another node"));
    const QString toName = QString::fromStdString(to->name);
    const bool fromFlow = !isRelation(from->kind);
    if (to->kind == NodeKind::SourceTable)
        return refuse(tr("%1 is a source table: the pipeline reads it, nothing writes it").arg(toName));
    const std::string text = m_project->document()->text().toStdString();
    if (fromFlow) {
        if (to->kind != NodeKind::StreamingTable)
            return refuse(tr("a flow writes a streaming table; %1 is not one").arg(toName));
        auto edit = sql::PipelineEdits::setTarget(text, from->name, to->name);
        if (!edit)
            return refuse(QString::fromStdString(edit.error().message));
        return apply(QString::fromStdString(edit->text), QString::fromStdString(edit->description), toId);
    }
    switch (to->kind) {
    case NodeKind::StreamingTable:
        return addFlowBetween(*from, to);
    case NodeKind::AutoCdcFlow: {
        auto edit = sql::PipelineEdits::setSource(text, to->name, from->name, true);
        if (!edit)
            return refuse(QString::fromStdString(edit.error().message));
        return apply(QString::fromStdString(edit->text), QString::fromStdString(edit->description), toId);
    }
    case NodeKind::AutoCdcSnapshotFlow:
    case NodeKind::AppendFlow:
    case NodeKind::TemporaryView:
    case NodeKind::View:
    case NodeKind::MaterializedView:
        return refuse(tr("what %1 reads is its query: edit it in the Inspector or the SQL").arg(toName));
    case NodeKind::SourceTable:
        break;
    }
    return refuse(tr("%1 cannot read %2").arg(toName, QString::fromStdString(from->name)));
}

} // namespace cdc::ui
