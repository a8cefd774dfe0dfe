#pragma once
/// Kept to assembly on purpose (a main window that grows features becomes unreadable); the accessors
/// are for the GUI tests, which drive this real window rather than panels built on their own.

#include <QMainWindow>

class QDockWidget;
class QAction;
class QLabel;
class QMenu;
class QTableView;
class QTimer;

namespace cdc::ui {

class ArrivalOrderDialog;
class MergeCompareDialog;
class ExportDialog;
class Autosave;
class Project;
class ProjectController;
class RecoveryDialog;
class WorkbenchPanel;
class SourcesPanel;
class EventQueuePanel;
class EventQueueModel;
class IssueListModel;
class ProjectInfoPanel;
class EditorController;
class SimulationController;
class UpdateTimelineModel;
class TimelinePanel;
class UpdateLogModel;
class ResultsController;
class TargetTablePanel;
class Scd2TimelinePanel;
class TombstonePanel;
class OutdatedBanner;
class PythonTrustController;
class ProvenancePanel;
class PredictionPanel;
class DesignerController;
class InspectorPanel;
class DesignerPanel;

/// Assembles the docks, menus and toolbars and wires the per-feature controllers together.
/// Features live in the panels and controllers, not here.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    Project* project() const { return m_project; }
    ProjectController* projectController() const { return m_projectController; }
    /// Copies unsaved work to the recovery folder (see Autosave).
    Autosave* autosave() const { return m_autosave; }
    /// Shows the Recover Unsaved Work dialog (window-modal, not blocking) when a session that ended
    /// without closing left autosaved work; returns it, or null when there is nothing to recover.
    RecoveryDialog* offerRecovery();
    /// What a kill, a logout or a shutdown gets (TerminationSignals), where nothing can be asked: a running
    /// update is cancelled (it rolls back whole), the unsaved work is copied to the recovery folder at once
    /// and left there to be offered on the next start, as after a crash but up to date. The working copy
    /// goes when the window does.
    void endSessionKeepingWork();
    WorkbenchPanel* workbench() const { return m_workbench; }
    SourcesPanel* sourcesPanel() const { return m_sources; }
    EventQueuePanel* eventQueuePanel() const { return m_queuePanel; }
    EventQueueModel* eventQueueModel() const { return m_queueModel; }
    IssueListModel* issuesModel() const { return m_issuesModel; }
    QTableView* issuesView() const { return m_issuesView; }
    EditorController* editorController() const { return m_editorController; }
    SimulationController* simulation() const { return m_simulation; }
    UpdateTimelineModel* timelineModel() const { return m_timelineModel; }
    TimelinePanel* timelinePanel() const { return m_timeline; }
    UpdateLogModel* updateLogModel() const { return m_logModel; }
    QTableView* updateLogView() const { return m_logView; }
    ResultsController* results() const { return m_results; }
    TargetTablePanel* targetTablePanel() const { return m_targetTable; }
    Scd2TimelinePanel* scd2TimelinePanel() const { return m_scd2Timeline; }
    TombstonePanel* tombstonePanel() const { return m_tombstones; }
    /// The Why This Row? dock: a key's events with their fates (Explain Row, Ctrl+Shift+Y).
    ProvenancePanel* provenancePanel() const { return m_provenance; }
    /// The Predict dock: a target edited into what the next update will make of it, then graded
    /// (Ctrl+Shift+P).
    PredictionPanel* predictionPanel() const { return m_prediction; }
    OutdatedBanner* outdatedBanner() const { return m_outdatedBanner; }
    PythonTrustController* pythonTrust() const { return m_pythonTrust; }
    /// The Designer dock's content: the graph of the editor's last parse without errors.
    DesignerPanel* designer() const { return m_designer; }
    /// Run › Test Arrival Orders… (Ctrl+Shift+O): shows the dialog, made on first use.
    QAction* arrivalOrdersAction() const { return m_arrivalOrders; }
    ArrivalOrderDialog* arrivalOrderDialog() const { return m_arrivalOrderDialog; }
    QAction* mergeCompareAction() const { return m_mergeCompare; }
    MergeCompareDialog* mergeCompareDialog() const { return m_mergeCompareDialog; }
    ExportDialog* exportDialog() const { return m_exportDialog; }
    QAction* exportPipelineAction() const { return m_exportPipeline; }
    DesignerController* designerController() const { return m_designerController; }
    InspectorPanel* inspector() const { return m_inspector; }
    /// The dock layout the application starts with (also what --screenshot uses).
    void resetLayout();
    QDockWidget* dock(const QString& objectName) const;
    /// Every dock's object name (what --show-dock and dock() take).
    QStringList dockNames() const;

    /// Shows a dock and brings its tab to the front.
    void raiseDock(const QString& objectName);

protected:
    void closeEvent(QCloseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void moveEvent(QMoveEvent* event) override;

private:
    /// What ending the session needs whatever it keeps: a running update stopped, the layout saved.
    void prepareToEnd();
    void createDocks();
    void createActions();
    /// The Designer's selection drives the inspector; its requests select on the canvas.
    void connectInspector();
    void createMenus();
    void restoreLayout();
    /// Writes the window's geometry and dock layout to the settings (also shortly after every change:
    /// a session that ends without closing the window keeps its layout too).
    void saveLayout();
    void updateTitle();
    QDockWidget* addDock(const QString& objectName, const QString& title, QWidget* widget,
                         Qt::DockWidgetArea area);
    void showStatus(const QString& message, int timeoutMs = 4000);

    Project* m_project;
    ProjectController* m_projectController;
    Autosave* m_autosave;
    WorkbenchPanel* m_workbench;
    SourcesPanel* m_sources;
    EventQueueModel* m_queueModel;
    EventQueuePanel* m_queuePanel;
    IssueListModel* m_issuesModel;
    QTableView* m_issuesView;
    ProjectInfoPanel* m_info;
    EditorController* m_editorController;
    SimulationController* m_simulation;
    UpdateTimelineModel* m_timelineModel;
    TimelinePanel* m_timeline;
    UpdateLogModel* m_logModel;
    QTableView* m_logView;
    ResultsController* m_results;
    TargetTablePanel* m_targetTable;
    Scd2TimelinePanel* m_scd2Timeline;
    TombstonePanel* m_tombstones;
    ProvenancePanel* m_provenance;
    PredictionPanel* m_prediction;
    OutdatedBanner* m_outdatedBanner = nullptr;
    PythonTrustController* m_pythonTrust = nullptr;
    DesignerPanel* m_designer;
    DesignerController* m_designerController = nullptr;
    InspectorPanel* m_inspector;
    QAction* m_sourceSql = nullptr;
    QAction* m_arrivalOrders = nullptr;
    ArrivalOrderDialog* m_arrivalOrderDialog = nullptr; ///< made on first use
    QAction* m_mergeCompare = nullptr;
    QAction* m_exportPipeline = nullptr;
    MergeCompareDialog* m_mergeCompareDialog = nullptr; ///< made on first use
    ExportDialog* m_exportDialog = nullptr;             ///< made on first use
    QList<QDockWidget*> m_docks;
    QAction* m_undo = nullptr;
    QAction* m_redo = nullptr;
    QAction* m_quit = nullptr;
    QAction* m_about = nullptr;
    QAction* m_resetLayout = nullptr;
    QMenu* m_viewMenu = nullptr;
    QByteArray m_defaultState;
    QTimer* m_layoutSaver = nullptr;
};

} // namespace cdc::ui
