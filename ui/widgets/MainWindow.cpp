// The wiring between parts that do not know each other (timeline to results, runner to log, parse to
// queue columns) lives here, as do the window-wide Undo / Redo that pick the editor's history or the
// project's by focus, and the dock layout: the default is kept before the saved one is restored.
#include "ui/widgets/MainWindow.h"

#include "core/pipeline/PipelineGraph.h"
#include "ui/designer/DesignerController.h"
#include "ui/designer/DesignerPanel.h"
#include "ui/designer/DesignerScene.h"
#include "ui/model/AppInfo.h"
#include "ui/model/Autosave.h"
#include "ui/model/EventQueueModel.h"
#include "ui/model/IssueListModel.h"
#include "ui/model/PipelineDocument.h"
#include "ui/model/Project.h"
#include "ui/model/SampleLibrary.h"
#include "ui/model/SimulationRunner.h"
#include "ui/model/SourceRowsModel.h"
#include "ui/model/UpdateLogModel.h"
#include "ui/model/UpdateTimelineModel.h"
#include "ui/widgets/ArrivalOrderDialog.h"
#include "ui/widgets/CodeEditor.h"
#include "ui/widgets/EditorController.h"
#include "ui/widgets/EventQueuePanel.h"
#include "ui/widgets/ExportDialog.h"
#include "ui/widgets/GridFilterBox.h"
#include "ui/widgets/GridTools.h"
#include "ui/widgets/HelpController.h"
#include "ui/widgets/MergeCompareDialog.h"
#include "ui/widgets/OutdatedBanner.h"
#include "ui/widgets/PredictionPanel.h"
#include "ui/widgets/ProjectController.h"
#include "ui/widgets/ProjectInfoPanel.h"
#include "ui/widgets/PythonTrustController.h"
#include "ui/widgets/QueryProgress.h"
#include "ui/widgets/RecoveryDialog.h"
#include "ui/widgets/ResultsController.h"
#include "ui/widgets/SimulationController.h"
#include "ui/widgets/SourceSqlDialog.h"
#include "ui/widgets/SourcesPanel.h"
#include "ui/widgets/ThemeManager.h"
#include "ui/widgets/TimelinePanel.h"
#include "ui/widgets/WorkbenchPanel.h"
#include "ui/widgets/inspector/InspectorPanel.h"
#include "ui/widgets/results/ProvenancePanel.h"
#include "ui/widgets/results/Scd2TimelinePanel.h"
#include "ui/widgets/results/TargetTablePanel.h"
#include "ui/widgets/results/TombstonePanel.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>
#include <QVBoxLayout>

namespace cdc::ui {

namespace {
/// The layout is written this long after the last move, resize or dock change.
constexpr int kLayoutSaveDelayMs = 800;
} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_project(new Project(this)),
      m_projectController(new ProjectController(m_project, this)), m_autosave(new Autosave(m_project, this)),
      m_workbench(new WorkbenchPanel(this)), m_sources(new SourcesPanel(m_project, this)),
      m_queueModel(new EventQueueModel(m_project, this)),
      m_queuePanel(new EventQueuePanel(m_queueModel, this)), m_issuesModel(new IssueListModel(this)),
      m_issuesView(new QTableView(this)), m_info(new ProjectInfoPanel(m_project, this)),
      m_editorController(new EditorController(m_project, m_workbench->editor(), m_issuesModel, this)),
      m_simulation(new SimulationController(m_project, this)),
      m_timelineModel(new UpdateTimelineModel(m_project, this)),
      m_timeline(new TimelinePanel(m_project, m_timelineModel, this)),
      m_logModel(new UpdateLogModel(m_project, this)), m_logView(new QTableView(this)),
      m_results(new ResultsController(m_project, this)), m_targetTable(new TargetTablePanel(this)),
      m_scd2Timeline(new Scd2TimelinePanel(this)), m_tombstones(new TombstonePanel(this)),
      m_provenance(new ProvenancePanel(m_project, this)),
      m_prediction(new PredictionPanel(m_project, m_results, this)), m_designer(new DesignerPanel(this)),
      m_inspector(new InspectorPanel(m_project, this)) {
    setObjectName(QStringLiteral("MainWindow"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/cdcstudio.svg")));
    setCentralWidget(m_workbench);
    setDockOptions(AnimatedDocks | AllowTabbedDocks | AllowNestedDocks);
    setDocumentMode(false);

    m_outdatedBanner = new OutdatedBanner(m_simulation->fullRefreshAction(), this);
    m_pythonTrust = new PythonTrustController(m_project, this);
    m_workbench->addBanner(m_pythonTrust->banner());
    m_simulation->setRunGuard([this] { return m_pythonTrust->ensureTrusted(); });
    createDocks();
    createActions();
    createMenus();

    connect(m_project, &Project::projectReplaced, this, &MainWindow::updateTitle);
    connect(m_project, &Project::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_project, &Project::filePathChanged, this, &MainWindow::updateTitle);
    connect(m_projectController, &ProjectController::statusMessage, this, &MainWindow::showStatus);
    connect(m_pythonTrust, &PythonTrustController::statusMessage, this, &MainWindow::showStatus);
    connect(m_autosave, &Autosave::failed, this,
            [this](const QString& m) { showStatus(tr("Autosave failed: %1").arg(m), 8000); });
    connect(m_sources, &SourcesPanel::statusMessage, this, [this](const QString& m) { showStatus(m); });
    connect(m_queuePanel, &EventQueuePanel::statusMessage, this, [this](const QString& m) { showStatus(m); });
    connect(m_timeline, &TimelinePanel::statusMessage, this, [this](const QString& m) { showStatus(m); });
    connect(m_editorController, &EditorController::statusMessage, this,
            [this](const QString& m) { showStatus(m); });
    connect(m_simulation, &SimulationController::statusMessage, this, &MainWindow::showStatus);
    connect(m_simulation->runner(), &SimulationRunner::finished, this,
            [this](int updates, const std::optional<Diagnostic>& error) {
                // An update is the work most worth keeping: copied at once, not at the next interval.
                m_autosave->saveNow();
                // New updates: show their result, whatever older update was being looked at.
                if (updates > 0)
                    m_timeline->selectUpdate(-1);
                if (error && error->code != "CANCELLED") {
                    m_logModel->addFailure(*error);
                    if (error->location.valid())
                        raiseDock(QStringLiteral("issuesDock"));
                }
            });
    connect(m_timeline, &TimelinePanel::updateSelected, m_results, &ResultsController::showUpdate);
    PipelineDocument* document = m_project->document();
    connect(document, &PipelineDocument::outdatedChanged, this, [this] {
        const auto& outdated = m_project->document()->outdatedTargets();
        m_outdatedBanner->setTargets(outdated);
        if (!outdated.empty())
            showStatus(
                tr("%1 is out of date with the pipeline: Run Full Refresh (Ctrl+Shift+R) recomputes it")
                    .arg(QString::fromStdString(outdated.front().target)),
                8000);
    });
    m_outdatedBanner->setTargets(document->outdatedTargets());
    // A parse with errors leaves the queue's columns as they were (the designer does the same with its
    // graph).
    connect(document, &PipelineDocument::parsed, this, [this] {
        if (!m_project->document()->hasErrors())
            m_queueModel->setPipeline(m_project->document()->pipeline());
    });
    m_queueModel->setPipeline(document->pipeline());
    m_designerController = new DesignerController(m_project, m_designer, this);
    connect(m_designerController, &DesignerController::statusMessage, this,
            [this](const QString& m) { showStatus(m); });
    connectInspector();
    connect(m_designer, &DesignerPanel::statusMessage, this, [this](const QString& m) { showStatus(m); });
    // Double-clicking a streaming table shows its rows.
    connect(m_designer->scene(), &DesignerScene::nodeActivated, this, [this](const QString& id) {
        const auto* node = m_designer->scene()->graph().find(id.toStdString());
        if (node && node->kind == pipeline::NodeKind::StreamingTable &&
            m_targetTable->selectTarget(QString::fromStdString(node->name)))
            raiseDock(QStringLiteral("targetsDock"));
    });
    for (auto* panel : std::initializer_list<ResultPanel*>{m_targetTable, m_scd2Timeline, m_tombstones}) {
        connect(m_results, &ResultsController::snapshotsChanged, panel, &ResultPanel::setSnapshots);
        connect(m_results, &ResultsController::loadStopped, panel, &ResultPanel::showNotice);
        // What the panel showed is of before the change being read: it says so instead.
        connect(m_results, &ResultsController::loadingChanged, panel, [panel](bool loading) {
            if (loading)
                panel->showNotice(
                    tr("Reading the target tables… Cancel in the status bar (or Esc) stops it."));
        });
    }
    connect(m_results, &ResultsController::descriptionChanged, this, [this](const QString& text) {
        for (auto* d : {dock(QStringLiteral("targetsDock")), dock(QStringLiteral("scd2Dock")),
                        dock(QStringLiteral("tombstonesDock"))})
            d->setToolTip(text);
        const qint64 shown = m_results->shownUpdate();
        dock(QStringLiteral("targetsDock"))
            ->setWindowTitle(shown < 0 ? tr("Target Tables")
                                       : tr("Target Tables · as of update %1").arg(shown));
    });
    connect(m_scd2Timeline, &Scd2TimelinePanel::versionActivated, this,
            [this](const QString& target, int row) {
                m_targetTable->selectRow(target, row);
                raiseDock(QStringLiteral("targetsDock"));
            });
    // Explain Row: the key's events, each linked to its source row and to its update.
    connect(m_targetTable, &TargetTablePanel::explainRequested, this,
            [this](const QString& target, const Row& key) {
                if (m_provenance->explain(target, key))
                    raiseDock(QStringLiteral("provenanceDock"));
            });
    connect(m_provenance, &ProvenancePanel::statusMessage, this, [this](const QString& m) { showStatus(m); });
    connect(m_prediction, &PredictionPanel::statusMessage, this, [this](const QString& m) { showStatus(m); });
    connect(m_prediction, &PredictionPanel::shown, this,
            [this] { raiseDock(QStringLiteral("predictionDock")); });
    connect(m_provenance, &ProvenancePanel::sourceRowRequested, this,
            [this](const QString& table, qint64 rowid) {
                if (m_sources->selectDeliveredRow(table, rowid))
                    raiseDock(QStringLiteral("sourcesDock"));
                else
                    showStatus(tr("The Sources grid does not show that row of %1: it shows the latest %L2 "
                                  "delivered rows, and its filter may hide it")
                                   .arg(table)
                                   .arg(SourceRowsModel::kDeliveredShown));
            });
    connect(m_provenance, &ProvenancePanel::updateRequested, this, [this](qint64 update) {
        m_timeline->selectUpdate(update);
        raiseDock(QStringLiteral("timelineDock"));
    });
    const auto updateClock = [this] { m_tombstones->setSimulatedNow(m_project->clock()); };
    connect(m_project, &Project::dataChanged, this, updateClock);
    updateClock();
    for (auto* panel : std::initializer_list<ResultPanel*>{m_targetTable, m_scd2Timeline, m_tombstones})
        panel->setSnapshots(m_results->snapshots());
    connect(m_logView, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        if (auto error = m_logModel->errorAt(GridTools::of(m_logView)->toSource(index).row()))
            m_workbench->editor()->goToLocation(error->location);
    });
    connect(m_issuesView, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        if (const Diagnostic* d = m_issuesModel->at(index.row()))
            m_workbench->editor()->goToLocation(d->location);
    });
    // Selecting an issue selects the node it is about in the Designer.
    connect(m_issuesView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (const Diagnostic* d = m_issuesModel->at(current.row()))
                    m_designerController->selectNodeAt(d->location);
            });

    statusBar()->addPermanentWidget(m_simulation->progressBar());
    statusBar()->addPermanentWidget(new QueryProgress(m_results, this));
    statusBar()->showMessage(tr("Ready"));
    resize(1440, 900);
    m_defaultState = saveState();
    restoreLayout();
    updateTitle();

    m_layoutSaver = new QTimer(this);
    m_layoutSaver->setSingleShot(true);
    m_layoutSaver->setInterval(kLayoutSaveDelayMs);
    connect(m_layoutSaver, &QTimer::timeout, this, &MainWindow::saveLayout);
    for (QDockWidget* d : std::as_const(m_docks)) {
        connect(d, &QDockWidget::visibilityChanged, m_layoutSaver, qOverload<>(&QTimer::start));
        connect(d, &QDockWidget::dockLocationChanged, m_layoutSaver, qOverload<>(&QTimer::start));
        connect(d, &QDockWidget::topLevelChanged, m_layoutSaver, qOverload<>(&QTimer::start));
    }
}

MainWindow::~MainWindow() {
    // The project is one of the window's children, destroyed after this body has run: its undo stack then
    // announces that it was cleared, and no slot of this (by then no longer a MainWindow) may hear it
    // (UndefinedBehaviorSanitizer: member access within an object of type QWidget).
    m_project->undoStack()->disconnect(this);
    m_project->disconnect(this);
}

QDockWidget* MainWindow::addDock(const QString& objectName, const QString& title, QWidget* widget,
                                 Qt::DockWidgetArea area) {
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(objectName);
    dock->setWidget(widget);
    dock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable |
                      QDockWidget::DockWidgetFloatable);
    addDockWidget(area, dock);
    m_docks << dock;
    return dock;
}

QDockWidget* MainWindow::dock(const QString& objectName) const {
    for (auto* d : m_docks)
        if (d->objectName() == objectName)
            return d;
    return nullptr;
}

QStringList MainWindow::dockNames() const {
    QStringList names;
    for (auto* d : m_docks)
        names << d->objectName();
    return names;
}

void MainWindow::raiseDock(const QString& objectName) {
    if (auto* d = dock(objectName)) {
        d->show();
        d->raise();
    }
}

void MainWindow::createDocks() {
    m_issuesView->setModel(m_issuesModel);
    m_issuesView->setObjectName(QStringLiteral("issuesView"));
    m_issuesView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_issuesView->verticalHeader()->hide();
    m_issuesView->horizontalHeader()->setStretchLastSection(true);
    m_issuesView->horizontalHeader()->setSectionResizeMode(IssueListModel::SeverityColumn,
                                                           QHeaderView::ResizeToContents);
    m_issuesView->horizontalHeader()->setSectionResizeMode(IssueListModel::LocationColumn,
                                                           QHeaderView::ResizeToContents);
    m_issuesView->setToolTip(
        tr("Errors and warnings of the pipeline SQL. Double-click to jump to the position."));
    m_issuesView->setWordWrap(false);

    auto* logGrid = new GridTools(m_logView, m_logModel);
    logGrid->setExportName(QStringLiteral("update_log"));
    m_logView->setObjectName(QStringLiteral("updateLogView"));
    m_logView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_logView->verticalHeader()->hide();
    m_logView->horizontalHeader()->setStretchLastSection(true);
    m_logView->setAlternatingRowColors(true);
    m_logView->setWordWrap(false);
    m_logView->setToolTip(
        tr("Per update and flow: every metric and any error. Double-click an error to see its position."));
    connect(m_logModel, &QAbstractItemModel::modelReset, m_logView, &QTableView::resizeColumnsToContents);

    auto* info =
        addDock(QStringLiteral("infoDock"), tr("About This Project"), m_info, Qt::LeftDockWidgetArea);
    // The inspector shares the project's place: it comes forward when a node is selected in the Designer.
    auto* inspector =
        addDock(QStringLiteral("inspectorDock"), tr("Inspector"), m_inspector, Qt::LeftDockWidgetArea);
    auto* timeline =
        addDock(QStringLiteral("timelineDock"), tr("Update Timeline"), m_timeline, Qt::LeftDockWidgetArea);
    splitDockWidget(info, timeline, Qt::Vertical);
    // The graph sits beside the SQL it is drawn from, above the events that will flow through it.
    auto* designer =
        addDock(QStringLiteral("designerDock"), tr("Designer"), m_designer, Qt::RightDockWidgetArea);
    auto* queue =
        addDock(QStringLiteral("queueDock"), tr("Event Queue"), m_queuePanel, Qt::RightDockWidgetArea);
    splitDockWidget(designer, queue, Qt::Vertical);
    // The target tables sit under the banner that says when they are out of date with the pipeline.
    auto* targetsPage = new QWidget(this);
    auto* targetsLayout = new QVBoxLayout(targetsPage);
    targetsLayout->setContentsMargins(0, 0, 0, 0);
    targetsLayout->setSpacing(0);
    targetsLayout->addWidget(m_outdatedBanner);
    targetsLayout->addWidget(m_targetTable, 1);
    auto* targets =
        addDock(QStringLiteral("targetsDock"), tr("Target Tables"), targetsPage, Qt::BottomDockWidgetArea);
    auto* scd2 =
        addDock(QStringLiteral("scd2Dock"), tr("SCD2 Timeline"), m_scd2Timeline, Qt::BottomDockWidgetArea);
    auto* tombstones =
        addDock(QStringLiteral("tombstonesDock"), tr("Tombstones"), m_tombstones, Qt::BottomDockWidgetArea);
    auto* provenance = addDock(QStringLiteral("provenanceDock"), tr("Why This Row?"), m_provenance,
                               Qt::BottomDockWidgetArea);
    auto* prediction =
        addDock(QStringLiteral("predictionDock"), tr("Predict"), m_prediction, Qt::BottomDockWidgetArea);
    auto* sources =
        addDock(QStringLiteral("sourcesDock"), tr("Sources"), m_sources, Qt::BottomDockWidgetArea);
    auto* issues =
        addDock(QStringLiteral("issuesDock"), tr("Issues"), m_issuesView, Qt::BottomDockWidgetArea);
    auto* log = addDock(QStringLiteral("logDock"), tr("Update Log"), GridFilterBox::wrap(logGrid, this),
                        Qt::BottomDockWidgetArea);
    splitDockWidget(targets, sources, Qt::Horizontal);
    tabifyDockWidget(targets, scd2);
    tabifyDockWidget(scd2, tombstones);
    tabifyDockWidget(tombstones, provenance);
    tabifyDockWidget(provenance, prediction);
    tabifyDockWidget(sources, issues);
    tabifyDockWidget(issues, log);
    targets->raise();
    sources->raise();
    resizeDocks({info, designer}, {400, 600}, Qt::Horizontal);
    resizeDocks({designer, queue}, {290, 230}, Qt::Vertical);
    resizeDocks({info, timeline}, {250, 350}, Qt::Vertical);
    resizeDocks({targets, sources}, {760, 520}, Qt::Horizontal);
    resizeDocks({targets}, {330}, Qt::Vertical);
    // Tabifying re-forms the left column, so its width is given again afterwards.
    tabifyDockWidget(info, inspector);
    info->raise();
    resizeDocks({info, designer}, {400, 600}, Qt::Horizontal);
}

namespace {
/// The inspector's form for a graph node, and the node id prefix of an inspector subject.
InspectorKind inspectorKindOf(pipeline::NodeKind kind) {
    switch (kind) {
    case pipeline::NodeKind::SourceTable:
        return InspectorKind::SourceTable;
    case pipeline::NodeKind::TemporaryView:
    case pipeline::NodeKind::View:
    case pipeline::NodeKind::MaterializedView:
        return InspectorKind::View;
    case pipeline::NodeKind::StreamingTable:
        return InspectorKind::StreamingTable;
    case pipeline::NodeKind::AutoCdcFlow:
    case pipeline::NodeKind::AutoCdcSnapshotFlow:
        return InspectorKind::AutoCdcFlow;
    case pipeline::NodeKind::AppendFlow:
        return InspectorKind::AppendFlow;
    }
    return InspectorKind::None;
}

QString nodeIdOf(InspectorKind kind, const QString& name) {
    const QString lower = name.toLower();
    switch (kind) {
    case InspectorKind::AutoCdcFlow:
    case InspectorKind::AppendFlow:
        return QStringLiteral("flow:") + lower;
    case InspectorKind::StreamingTable:
        return QStringLiteral("table:") + lower;
    case InspectorKind::View:
        return QStringLiteral("view:") + lower;
    case InspectorKind::SourceTable:
        return QStringLiteral("source:") + lower;
    case InspectorKind::None:
        break;
    }
    return {};
}
} // namespace

void MainWindow::connectInspector() {
    // The canvas's selection is the inspector's subject, and the inspector's requests (a table's flow, a
    // rename) select on the canvas.
    connect(m_designerController, &DesignerController::nodeSelected, this, [this](const QString& id) {
        const pipeline::GraphNode* node = m_designer->scene()->graph().find(id.toStdString());
        if (!node) {
            m_inspector->setSubject(InspectorKind::None, QString());
            return;
        }
        m_inspector->setSubject(inspectorKindOf(node->kind), QString::fromStdString(node->name));
        if (auto* d = dock(QStringLiteral("inspectorDock")); d && d->isVisible())
            d->raise();
    });
    connect(m_inspector, &InspectorPanel::subjectRequested, this,
            [this](InspectorKind kind, const QString& name) {
                m_designerController->selectNode(nodeIdOf(kind, name));
            });
    connect(m_inspector, &InspectorPanel::subjectRenamed, this,
            [this](InspectorKind kind, const QString&, const QString& newName) {
                m_designerController->selectNode(nodeIdOf(kind, newName));
            });
}

void MainWindow::createActions() {
    m_undo = new QAction(
        QIcon::fromTheme(QStringLiteral("edit-undo"), style()->standardIcon(QStyle::SP_ArrowBack)),
        tr("&Undo"), this);
    m_undo->setShortcut(QKeySequence::Undo);
    m_redo = new QAction(
        QIcon::fromTheme(QStringLiteral("edit-redo"), style()->standardIcon(QStyle::SP_ArrowForward)),
        tr("&Redo"), this);
    // Ctrl+Shift+Z plus the platform's own redo keys, each once: a key listed twice is an ambiguous
    // shortcut, which Qt refuses to trigger at all.
    QList<QKeySequence> redoKeys{QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z)};
    for (const QKeySequence& key : QKeySequence::keyBindings(QKeySequence::Redo))
        if (!redoKeys.contains(key))
            redoKeys << key;
    m_redo->setShortcuts(redoKeys);
    // One history for the whole window, the editor included: typing, graph edits, queue edits, updates
    // and rewinds are steps of the project's undo stack (docs/architecture.md, "One history").
    connect(m_undo, &QAction::triggered, m_project->undoStack(), &QUndoStack::undo);
    connect(m_redo, &QAction::triggered, m_project->undoStack(), &QUndoStack::redo);
    const auto updateUndoText = [this] {
        auto* stack = m_project->undoStack();
        m_undo->setToolTip(stack->canUndo() ? tr("Undo %1 (Ctrl+Z)").arg(stack->undoText())
                                            : tr("Undo (Ctrl+Z)"));
        m_redo->setToolTip(stack->canRedo() ? tr("Redo %1 (Ctrl+Shift+Z)").arg(stack->redoText())
                                            : tr("Redo (Ctrl+Shift+Z)"));
    };
    connect(m_project->undoStack(), &QUndoStack::indexChanged, this, updateUndoText);
    updateUndoText();

    m_quit = new QAction(tr("&Quit"), this);
    m_quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q)); // QKeySequence::Quit is empty on plain X11
    connect(m_quit, &QAction::triggered, this, &QWidget::close);
    m_about = new QAction(tr("&About CDC Studio"), this);
    connect(m_about, &QAction::triggered, this, [this] {
        QMessageBox::about(
            this, tr("About %1").arg(AppInfo::name()),
            tr("<h3>%1 %2</h3><p>Design and simulate Databricks Lakeflow AUTO CDC pipelines offline: "
               "write pipeline SQL, feed change events in any arrival order, and see after every "
               "simulated update what the SCD type 1 and type 2 targets hold and which tombstones exist.</p>"
               "<p>Built with Qt %3, QScintilla and SQLite.</p>")
                .arg(AppInfo::name(), AppInfo::version(), QString::fromLatin1(qVersion())));
    });
    m_sourceSql = new QAction(tr("Source &SQL…"), this);
    m_sourceSql->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_sourceSql->setToolTip(tr("Create source tables or queue rows with Spark SQL (Ctrl+E)"));
    connect(m_sourceSql, &QAction::triggered, this, [this] {
        SourceSqlDialog dialog(m_project, this);
        dialog.exec();
    });
    m_arrivalOrders = new QAction(tr("Test &Arrival Orders…"), this);
    m_arrivalOrders->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    m_arrivalOrders->setToolTip(
        tr("Replay the events in shuffled arrival orders: does any target change? (Ctrl+Shift+O)"));
    connect(m_arrivalOrders, &QAction::triggered, this, [this] {
        if (!m_arrivalOrderDialog) {
            m_arrivalOrderDialog = new ArrivalOrderDialog(m_project, this);
            connect(m_arrivalOrderDialog, &ArrivalOrderDialog::statusMessage, this,
                    [this](const QString& m, int ms) { showStatus(m, ms); });
        }
        m_arrivalOrderDialog->show();
        m_arrivalOrderDialog->raise();
        m_arrivalOrderDialog->activateWindow();
    });
    m_mergeCompare = new QAction(style()->standardIcon(QStyle::SP_FileDialogDetailedView),
                                 tr("Compare with &MERGE…"), this);
    m_mergeCompare->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M));
    m_mergeCompare->setToolTip(
        tr("Run the MERGE a data engineer writes without AUTO CDC on the same events and compare the "
           "tables (Ctrl+Shift+M)"));
    connect(m_mergeCompare, &QAction::triggered, this, [this] {
        if (!m_mergeCompareDialog) {
            m_mergeCompareDialog = new MergeCompareDialog(m_project, this);
            connect(m_mergeCompareDialog, &MergeCompareDialog::statusMessage, this,
                    [this](const QString& m, int ms) { showStatus(m, ms); });
        }
        m_mergeCompareDialog->show();
        m_mergeCompareDialog->raise();
        m_mergeCompareDialog->activateWindow();
        showStatus(tr("Comparing AUTO CDC with a hand-written MERGE…"), 3000);
    });
    m_exportPipeline = new QAction(tr("&Export Pipeline…"), this);
    m_exportPipeline->setToolTip(
        tr("Write the pipeline as a Databricks Asset Bundle or a Spark Declarative Pipelines project"));
    connect(m_exportPipeline, &QAction::triggered, this, [this] {
        if (!m_exportDialog) {
            m_exportDialog = new ExportDialog(m_project, this);
            connect(m_exportDialog, &ExportDialog::statusMessage, this,
                    [this](const QString& m, int ms) { showStatus(m, ms); });
            connect(m_exportDialog, &ExportDialog::locationActivated, this,
                    [this](const SourceLocation& l) { m_workbench->editor()->goToLocation(l); });
        }
        m_exportDialog->refresh(); // the pipeline may have changed since it was last open
        m_exportDialog->show();
        m_exportDialog->raise();
        m_exportDialog->activateWindow();
    });
    m_resetLayout = new QAction(tr("&Reset Layout"), this);
    connect(m_resetLayout, &QAction::triggered, this, &MainWindow::resetLayout);
}

void MainWindow::createMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_projectController->newAction());
    file->addAction(m_projectController->openAction());
    file->addMenu(m_projectController->recentMenu());
    file->addSeparator();
    file->addAction(m_projectController->saveAction());
    file->addAction(m_projectController->saveAsAction());
    file->addSeparator();
    file->addAction(m_exportPipeline);
    file->addSeparator();
    file->addAction(m_projectController->settingsAction());
    file->addSeparator();
    file->addAction(m_quit);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(m_undo);
    edit->addAction(m_redo);
    edit->addSeparator();
    edit->addAction(m_workbench->findAction());
    edit->addAction(m_workbench->findNextAction());
    edit->addAction(m_workbench->replaceAction());
    edit->addAction(m_workbench->toggleCommentAction());

    edit->addSeparator();
    edit->addAction(m_editorController->formatAction());

    QMenu* sources = menuBar()->addMenu(tr("S&ources"));
    sources->addAction(m_sources->addRowAction());
    sources->addAction(m_sources->pasteAction());
    sources->addSeparator();
    sources->addAction(m_sources->importCsvAction());
    sources->addAction(m_sources->importFeedAction());

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->addAction(m_simulation->stepAction());
    run->addAction(m_simulation->deliverNAction());
    run->addAction(m_simulation->deliverAllAction());
    run->addAction(m_simulation->runToEndAction());
    run->addAction(m_simulation->updateAction());
    run->addAction(m_simulation->fullRefreshAction());
    run->addAction(m_simulation->cancelAction());
    run->addSeparator();
    run->addAction(m_simulation->advanceClockAction());
    run->addAction(m_timeline->rewindAction());
    run->addSeparator();
    run->addAction(m_sourceSql);
    run->addAction(m_arrivalOrders);
    run->addAction(m_targetTable->explainAction());
    run->addAction(m_mergeCompare);
    run->addAction(m_prediction->predictAction());

    QMenu* samples = menuBar()->addMenu(tr("&Samples"));
    for (const QString& id : samplelibrary::ids()) {
        const SampleInfo sample = samplelibrary::load(id);
        QAction* action = samples->addAction(sample.title);
        action->setStatusTip(tr("Open the sample project \"%1\" (%2)").arg(sample.title, id));
        action->setData(id);
        connect(action, &QAction::triggered, this, [this, id] { m_projectController->openSample(id); });
    }

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    for (auto* d : std::as_const(m_docks))
        m_viewMenu->addAction(d->toggleViewAction());
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(m_workbench->zoomInAction());
    m_viewMenu->addAction(m_workbench->zoomOutAction());
    m_viewMenu->addAction(m_workbench->zoomResetAction());
    m_viewMenu->addSeparator();
    m_viewMenu->addMenu(ThemeManager::instance()->createMenu(this));
    m_viewMenu->addAction(m_resetLayout);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction((new HelpController(this))->userGuideAction());
    help->addSeparator();
    help->addAction(m_about);

    auto* toolBar = addToolBar(tr("Main"));
    toolBar->setObjectName(QStringLiteral("mainToolBar"));
    toolBar->setIconSize(QSize(18, 18));
    toolBar->addAction(m_projectController->newAction());
    toolBar->addAction(m_projectController->openAction());
    toolBar->addAction(m_projectController->saveAction());
    toolBar->addSeparator();
    toolBar->addAction(m_undo);
    toolBar->addAction(m_redo);
    for (auto* a : {m_undo, m_redo, m_quit})
        addAction(a);

    auto* simulation = addToolBar(tr("Simulation"));
    simulation->setObjectName(QStringLiteral("simulationToolBar"));
    simulation->setIconSize(QSize(18, 18));
    simulation->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    simulation->addAction(m_simulation->stepAction());
    simulation->addAction(m_simulation->deliverAllAction());
    simulation->addAction(m_simulation->runToEndAction());
    simulation->addAction(m_simulation->cancelAction());
    simulation->addSeparator();
    simulation->addWidget(m_simulation->clockLabel());
    simulation->addAction(m_simulation->advanceClockAction());
    for (auto* a : {m_simulation->updateAction(), m_simulation->stepAction(), m_simulation->deliverNAction(),
                    m_simulation->deliverAllAction(), m_simulation->runToEndAction(),
                    m_simulation->cancelAction(), m_simulation->advanceClockAction(),
                    m_editorController->formatAction(), m_sourceSql, m_prediction->predictAction()})
        addAction(a);

    // Keys the window's actions own are the window's in the editor too (undo and redo included: the editor
    // has no history of its own), except those the editor does the same thing with itself (zoom) and Escape,
    // which closes its completion list.
    const QList<QAction*> sharedWithEditor{m_workbench->zoomInAction(), m_workbench->zoomOutAction(),
                                           m_simulation->cancelAction()};
    QList<QKeySequence> windowKeys;
    for (QAction* action : findChildren<QAction*>())
        if ((action->shortcutContext() == Qt::WindowShortcut ||
             action->shortcutContext() == Qt::ApplicationShortcut) &&
            !sharedWithEditor.contains(action))
            windowKeys << action->shortcuts();
    m_workbench->editor()->yieldKeys(windowKeys);

    // The queue dock's own tool bar gets the delivery buttons too, where the events are.
    m_queuePanel->toolBar()->addAction(m_simulation->stepAction());
    m_queuePanel->toolBar()->addAction(m_simulation->deliverNAction());
    m_queuePanel->toolBar()->addAction(m_simulation->deliverAllAction());
    m_queuePanel->toolBar()->addAction(m_simulation->runToEndAction());
}

void MainWindow::resetLayout() {
    restoreState(m_defaultState);
    for (auto* d : std::as_const(m_docks))
        d->show();
    raiseDock(QStringLiteral("targetsDock"));
    raiseDock(QStringLiteral("sourcesDock"));
}

void MainWindow::restoreLayout() {
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
}

void MainWindow::updateTitle() {
    setWindowTitle(QStringLiteral("%1[*] — %2").arg(m_project->displayName(), AppInfo::name()));
    setWindowModified(m_project->isModified());
}

void MainWindow::showStatus(const QString& message, int timeoutMs) {
    statusBar()->showMessage(message, timeoutMs);
}

void MainWindow::resizeEvent(QResizeEvent* event) {
    QMainWindow::resizeEvent(event);
    if (m_layoutSaver && isVisible())
        m_layoutSaver->start();
}

void MainWindow::moveEvent(QMoveEvent* event) {
    QMainWindow::moveEvent(event);
    if (m_layoutSaver && isVisible())
        m_layoutSaver->start();
}

void MainWindow::saveLayout() {
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
}

RecoveryDialog* MainWindow::offerRecovery() {
    const QList<RecoveryEntry> entries = recoverystore::recoverable();
    if (entries.isEmpty())
        return nullptr;
    auto* dialog = new RecoveryDialog(entries, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &RecoveryDialog::recoverRequested, this, [this](const RecoveryEntry& entry) {
        // Protected again at once, under this session's entry, before the next interval.
        if (m_projectController->recover(entry))
            m_autosave->saveNow();
    });
    dialog->open();
    return dialog;
}

void MainWindow::prepareToEnd() {
    // A running update finishes (or rolls back) before the working copy goes away.
    if (m_simulation->runner()->isRunning()) {
        m_simulation->runner()->cancel();
        m_simulation->waitForFinished();
    }
    m_layoutSaver->stop();
    saveLayout();
}

void MainWindow::endSessionKeepingWork() {
    prepareToEnd();
    m_autosave->saveNow();
    m_autosave->finishNow();
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!m_projectController->maybeSave()) {
        event->ignore();
        return;
    }
    prepareToEnd();
    // Closed on purpose (saved or discarded): nothing is left to recover.
    m_autosave->discard();
    event->accept();
}

} // namespace cdc::ui
