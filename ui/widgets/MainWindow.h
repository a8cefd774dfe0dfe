#pragma once
#include <QMainWindow>

class QDockWidget;
class QAction;
class QLabel;
class QMenu;
class QTableView;

namespace cdc::ui {

class Project;
class ProjectController;
class WorkbenchPanel;
class SourcesPanel;
class EventQueuePanel;
class EventQueueModel;
class IssueListModel;
class ProjectInfoPanel;

/// Assembles the docks, menus and toolbars and wires the per-feature controllers together.
/// Features live in the panels and controllers, not here.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    Project* project() const { return m_project; }
    ProjectController* projectController() const { return m_projectController; }
    WorkbenchPanel* workbench() const { return m_workbench; }
    SourcesPanel* sourcesPanel() const { return m_sources; }
    EventQueuePanel* eventQueuePanel() const { return m_queuePanel; }
    EventQueueModel* eventQueueModel() const { return m_queueModel; }
    IssueListModel* issuesModel() const { return m_issuesModel; }
    QTableView* issuesView() const { return m_issuesView; }
    QDockWidget* dock(const QString& objectName) const;

    /// Shows a dock and brings its tab to the front.
    void raiseDock(const QString& objectName);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void createDocks();
    void createActions();
    void createMenus();
    void restoreLayout();
    void updateTitle();
    QDockWidget* addDock(const QString& objectName, const QString& title, QWidget* widget, Qt::DockWidgetArea area);
    void showStatus(const QString& message, int timeoutMs = 4000);

    Project* m_project;
    ProjectController* m_projectController;
    WorkbenchPanel* m_workbench;
    SourcesPanel* m_sources;
    EventQueueModel* m_queueModel;
    EventQueuePanel* m_queuePanel;
    IssueListModel* m_issuesModel;
    QTableView* m_issuesView;
    ProjectInfoPanel* m_info;
    QList<QDockWidget*> m_docks;
    QAction* m_undo = nullptr;
    QAction* m_redo = nullptr;
    QAction* m_quit = nullptr;
    QAction* m_about = nullptr;
    QAction* m_resetLayout = nullptr;
    QMenu* m_viewMenu = nullptr;
    QByteArray m_defaultState;
};

} // namespace cdc::ui
