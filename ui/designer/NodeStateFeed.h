#pragma once
/// Computes every node's NodeState from the project and gives it to the designer's scene, again after
/// each change of the data (an update, a rewind, an undo) and each parse (the issues).

#include "ui/designer/NodeState.h"

#include <QHash>
#include <QObject>

#include <optional>

namespace cdc::ui {

class DesignerScene;
class Project;

class NodeStateFeed : public QObject {
    Q_OBJECT
public:
    /// Shows the states on `scene` at once and whenever they may have changed.
    NodeStateFeed(Project* project, DesignerScene* scene, QObject* parent = nullptr);

    /// The states of the scene's current graph, by node id: stored targets' row and tombstone counts, the
    /// last update's counts of each flow, and the document's issues on the nodes they are about.
    QHash<QString, NodeState> compute() const;

public slots:
    /// Shows the states again: the stored figures as last read, the document's issues as they are now.
    void refresh();
    /// Reads the stored figures again (after the data changed), then refreshes.
    void reloadFigures();

private:
    /// A stored target's figures.
    struct TargetFigures {
        std::optional<qint64> rows;
        std::optional<qint64> tombstones;
    };
    void addFigures(QHash<QString, NodeState>& states) const;
    void addIssues(QHash<QString, NodeState>& states) const;

    Project* m_project;
    DesignerScene* m_scene;
    // Read from the database only when the data changes: a parse after each pause in typing must not count a
    // million-row target again. Keyed by lower-cased target / flow name, so a re-parsed graph finds them.
    QHash<QString, TargetFigures> m_targets;
    QHash<QString, FlowCounts> m_flowCounts;
};

} // namespace cdc::ui
