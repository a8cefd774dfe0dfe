#pragma once
/// The designer as a view and editor of the project's pipeline: the graph follows the document's parse and
/// the pinned positions, and every edit made on the canvas (add, delete, move) becomes one undo step on the
/// project's stack — a text edit through core/sql's PipelineEdits, or a NodePositions move.

#include "core/pipeline/PipelineGraph.h"

#include <QObject>
#include <QStringList>

#include <set>
#include <string>

class QAction;

namespace cdc::ui {

class DesignerPanel;
class Project;

/// Keeps a DesignerPanel in step with a Project and owns the canvas's edit actions.
class DesignerController : public QObject {
    Q_OBJECT
public:
    DesignerController(Project* project, DesignerPanel* panel, QObject* parent = nullptr);

    QAction* addTableAction() const { return m_addTable; }
    QAction* addViewAction() const { return m_addView; }
    QAction* addFlowAction() const { return m_addFlow; }
    QAction* deleteAction() const { return m_delete; }
    QAction* copyAction() const { return m_copy; }
    QAction* pasteAction() const { return m_paste; }
    QAction* duplicateAction() const { return m_duplicate; }

    /// Adds a streaming table named after the first free `table_N`; true when it was added.
    bool addTable();
    /// Adds a temporary view reading the selected source, view or table (else the first source table).
    bool addView();
    /// Adds an AUTO CDC flow from the selected source or view (else the first source table) into the selected
    /// streaming table (a new one when none is selected), keyed on the source's first column and sequenced by
    /// its sequence-like column, for the user to correct in the inspector.
    bool addFlow();
    /// What dragging from one node's output port onto another means: a source, view or table dropped on a
    /// streaming table adds an AUTO CDC flow between them, on an AUTO CDC flow becomes its source; a flow
    /// dropped on a streaming table writes it. Anything else is refused with the reason in the status bar.
    bool connectNodes(const QString& fromId, const QString& toId);
    /// Removes the selected nodes' statements as one step; source tables are not the pipeline's to remove.
    bool deleteSelected();
    /// Puts the selected nodes' statements on the clipboard as pipeline SQL (sources have none).
    bool copySelected();
    /// Appends the clipboard's pipeline statements as one step, renaming tables, views and flows whose names
    /// are taken (`name_2`, …; references inside the pasted text follow).
    bool paste();
    /// Copy and paste in one step: the selected nodes again, under new names.
    bool duplicateSelected();
    /// The selected nodes, in graph order.
    QList<const pipeline::GraphNode*> selectedNodes() const;
    /// Selects the node with this id (and nothing else); false when there is none.
    bool selectNode(const QString& id);
    /// Selects the node whose statement holds `location` (an issue's place in the text): the last node
    /// defined at or before it. Source tables, which the text only reads, are not candidates.
    bool selectNodeAt(const SourceLocation& location);

signals:
    void statusMessage(const QString& message);
    /// One node is selected (or none: an empty id).
    void nodeSelected(const QString& id);

private:
    void showParse();
    /// An AUTO CDC flow from `source` into `target` (a new streaming table when null), one step.
    bool addFlowBetween(const pipeline::GraphNode& source, const pipeline::GraphNode* target);
    void updateActions();
    /// Applies a text edit as one undo step, or says why it was refused; selects `selectId` after it.
    bool apply(const QString& newText, const QString& description, const QString& selectId = {});
    /// The lower-cased names of the pipeline's tables, views and flows.
    std::set<std::string> takenNames() const;
    /// The first `prefix_N` no dataset or flow of the pipeline is called.
    QString freeName(const QString& prefix) const;
    /// The selected nodes' statements, each once, in the order of the text.
    std::string selectedStatements() const;
    /// Appends `sql` (pipeline statements) with taken names renamed, as one step named `verb` ("Paste").
    bool appendRenamed(const std::string& sql, const QString& verb);
    /// The catalog's first source table ("" when there is none): what a new view or flow reads by default.
    std::string firstSourceTable() const;
    /// Column names of a source table (catalog), view (its output columns) or streaming table (stored).
    QStringList columnsOf(const pipeline::GraphNode& node) const;

    Project* m_project;
    DesignerPanel* m_panel;
    QAction* m_addTable;
    QAction* m_addView;
    QAction* m_addFlow;
    QAction* m_delete;
    QAction* m_copy;
    QAction* m_paste;
    QAction* m_duplicate;
    bool m_showingParse = false; ///< the graph is being replaced by a new parse
};

} // namespace cdc::ui
