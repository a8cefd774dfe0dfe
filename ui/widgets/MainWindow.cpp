#include "ui/widgets/MainWindow.h"

#include "ui/model/AppInfo.h"
#include "ui/model/EventQueueModel.h"
#include "ui/model/IssueListModel.h"
#include "ui/model/Project.h"
#include "ui/widgets/CodeEditor.h"
#include "ui/widgets/EventQueuePanel.h"
#include "ui/widgets/ProjectController.h"
#include "ui/widgets/ProjectInfoPanel.h"
#include "ui/widgets/SourcesPanel.h"
#include "ui/widgets/WorkbenchPanel.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QHeaderView>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QTableView>
#include <QToolBar>
#include <QUndoStack>

namespace cdc::ui {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_project(new Project(this)), m_projectController(new ProjectController(m_project, this)),
      m_workbench(new WorkbenchPanel(this)), m_sources(new SourcesPanel(m_project, this)),
      m_queueModel(new EventQueueModel(m_project, this)), m_queuePanel(new EventQueuePanel(m_queueModel, this)),
      m_issuesModel(new IssueListModel(this)), m_issuesView(new QTableView(this)), m_info(new ProjectInfoPanel(m_project, this)) {
    setObjectName(QStringLiteral("MainWindow"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/cdcstudio.svg")));
    setCentralWidget(m_workbench);
    setDockOptions(AnimatedDocks | AllowTabbedDocks | AllowNestedDocks);
    setDocumentMode(false);

    createDocks();
    createActions();
    createMenus();

    auto* editor = m_workbench->editor();
    connect(m_project, &Project::projectReplaced, this, [this, editor] {
        const QSignalBlocker block(editor);
        editor->setText(m_project->pipelineText());
        editor->SendScintilla(QsciScintilla::SCI_EMPTYUNDOBUFFER);
        editor->setModified(false);
        updateTitle();
    });
    connect(editor, &QsciScintilla::textChanged, this, [this, editor] { m_project->setPipelineText(editor->text()); });
    connect(m_project, &Project::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_project, &Project::filePathChanged, this, &MainWindow::updateTitle);
    connect(m_projectController, &ProjectController::statusMessage, this, &MainWindow::showStatus);
    connect(m_sources, &SourcesPanel::statusMessage, this, [this](const QString& m) { showStatus(m); });
    connect(m_queuePanel, &EventQueuePanel::statusMessage, this, [this](const QString& m) { showStatus(m); });
    connect(m_issuesView, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        if (const Diagnostic* d = m_issuesModel->at(index.row()))
            m_workbench->editor()->goToLocation(d->location);
    });

    statusBar()->showMessage(tr("Ready"));
    resize(1440, 900);
    m_defaultState = saveState();
    restoreLayout();
    updateTitle();
}

MainWindow::~MainWindow() = default;

QDockWidget* MainWindow::addDock(const QString& objectName, const QString& title, QWidget* widget, Qt::DockWidgetArea area) {
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(objectName);
    dock->setWidget(widget);
    dock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
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
    m_issuesView->horizontalHeader()->setSectionResizeMode(IssueListModel::SeverityColumn, QHeaderView::ResizeToContents);
    m_issuesView->horizontalHeader()->setSectionResizeMode(IssueListModel::LocationColumn, QHeaderView::ResizeToContents);
    m_issuesView->setToolTip(tr("Errors and warnings of the pipeline SQL. Double-click to jump to the position."));
    m_issuesView->setWordWrap(false);

    auto* info = addDock(QStringLiteral("infoDock"), tr("About This Project"), m_info, Qt::LeftDockWidgetArea);
    auto* queue = addDock(QStringLiteral("queueDock"), tr("Event Queue"), m_queuePanel, Qt::RightDockWidgetArea);
    auto* sources = addDock(QStringLiteral("sourcesDock"), tr("Sources"), m_sources, Qt::BottomDockWidgetArea);
    auto* issues = addDock(QStringLiteral("issuesDock"), tr("Issues"), m_issuesView, Qt::BottomDockWidgetArea);
    tabifyDockWidget(sources, issues);
    sources->raise();
    resizeDocks({info}, {300}, Qt::Horizontal);
    resizeDocks({queue}, {380}, Qt::Horizontal);
    resizeDocks({sources}, {300}, Qt::Vertical);
}

void MainWindow::createActions() {
    m_undo = new QAction(QIcon::fromTheme(QStringLiteral("edit-undo"), style()->standardIcon(QStyle::SP_ArrowBack)), tr("&Undo"), this);
    m_undo->setShortcut(QKeySequence::Undo);
    m_redo = new QAction(QIcon::fromTheme(QStringLiteral("edit-redo"), style()->standardIcon(QStyle::SP_ArrowForward)), tr("&Redo"), this);
    m_redo->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence::Redo});
    // One Undo for the whole window: the editor's own history while it has focus, otherwise the
    // project's (queue edits, updates, rewinds).
    connect(m_undo, &QAction::triggered, this, [this] {
        auto* editor = m_workbench->editor();
        if (editor->hasFocus())
            editor->undo();
        else
            m_project->undoStack()->undo();
    });
    connect(m_redo, &QAction::triggered, this, [this] {
        auto* editor = m_workbench->editor();
        if (editor->hasFocus())
            editor->redo();
        else
            m_project->undoStack()->redo();
    });
    const auto updateUndoText = [this] {
        auto* stack = m_project->undoStack();
        m_undo->setToolTip(stack->canUndo() ? tr("Undo %1 (Ctrl+Z; in the editor: undo typing)").arg(stack->undoText())
                                            : tr("Undo (Ctrl+Z)"));
        m_redo->setToolTip(stack->canRedo() ? tr("Redo %1 (Ctrl+Shift+Z)").arg(stack->redoText()) : tr("Redo (Ctrl+Shift+Z)"));
    };
    connect(m_project->undoStack(), &QUndoStack::indexChanged, this, updateUndoText);
    updateUndoText();

    m_quit = new QAction(tr("&Quit"), this);
    m_quit->setShortcut(QKeySequence::Quit);
    connect(m_quit, &QAction::triggered, this, &QWidget::close);
    m_about = new QAction(tr("&About CDC Studio"), this);
    connect(m_about, &QAction::triggered, this, [this] {
        QMessageBox::about(this, tr("About %1").arg(AppInfo::name()),
                           tr("<h3>%1 %2</h3><p>Design and simulate Databricks Lakeflow AUTO CDC pipelines offline: "
                              "write pipeline SQL, feed change events in any arrival order, and see after every "
                              "simulated update what the SCD type 1 and type 2 targets hold and which tombstones exist.</p>"
                              "<p>Built with Qt %3, QScintilla and SQLite.</p>")
                               .arg(AppInfo::name(), AppInfo::version(), QString::fromLatin1(qVersion())));
    });
    m_resetLayout = new QAction(tr("&Reset Layout"), this);
    connect(m_resetLayout, &QAction::triggered, this, [this] { restoreState(m_defaultState); });
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
    file->addAction(m_quit);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(m_undo);
    edit->addAction(m_redo);
    edit->addSeparator();
    edit->addAction(m_workbench->findAction());
    edit->addAction(m_workbench->findNextAction());
    edit->addAction(m_workbench->replaceAction());
    edit->addAction(m_workbench->toggleCommentAction());

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    for (auto* d : std::as_const(m_docks))
        m_viewMenu->addAction(d->toggleViewAction());
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(m_resetLayout);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
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

void MainWindow::showStatus(const QString& message, int timeoutMs) { statusBar()->showMessage(message, timeoutMs); }

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!m_projectController->maybeSave()) {
        event->ignore();
        return;
    }
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    event->accept();
}

} // namespace cdc::ui
