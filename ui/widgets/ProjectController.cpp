// Errors always reach the status bar and a message box only when the window is shown, so offscreen
// tests and --screenshot never block. Shortcuts Qt leaves empty on some desktops are spelled out.
#include "ui/widgets/ProjectController.h"

#include "ui/model/PageCopy.h"
#include "ui/model/Project.h"
#include "ui/model/RecoveryStore.h"
#include "ui/model/SampleLibrary.h"
#include "ui/model/SourceScripts.h"
#include "ui/widgets/ProjectSettingsDialog.h"

#include <QAction>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QSettings>
#include <QStyle>
#include <QTimer>
#include <QWidget>
#include <QtConcurrent/QtConcurrentRun>

namespace cdc::ui {

namespace {
constexpr int kMaxRecent = 8;
/// Files from this size on show the copy's progress: smaller ones are copied before a dialog could be read.
constexpr qint64 kShowCopyProgressBytes = 16 * 1024 * 1024;
const QString kRecentKey = QStringLiteral("recentFiles");
const QString kFilter = QObject::tr(
    "CDC Studio projects (*.cdcstudio);;SQLite databases (*.db *.sqlite *.sqlite3);;All files (*)");
const QString kOpenFilter =
    QObject::tr("Projects and pipelines (*.cdcstudio *.db *.sqlite *.sqlite3 *.sql *.py);;"
                "CDC Studio projects (*.cdcstudio);;SQLite databases (*.db *.sqlite *.sqlite3);;"
                "Pipeline files (*.sql *.py);;All files (*)");

/// Pipeline files open as a new project with their text; anything else is a project database.
bool isPipelineFile(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == QLatin1String("py") || suffix == QLatin1String("sql");
}
} // namespace

ProjectController::ProjectController(Project* project, QWidget* window)
    : QObject(window), m_project(project), m_window(window),
      m_recentMenu(new QMenu(tr("Open &Recent"), window)) {
    QStyle* style = window->style();
    m_new = new QAction(style->standardIcon(QStyle::SP_FileIcon), tr("&New Project"), this);
    m_new->setShortcut(QKeySequence::New);
    m_new->setToolTip(tr("Start an empty project (Ctrl+N)"));
    m_open = new QAction(style->standardIcon(QStyle::SP_DialogOpenButton), tr("&Open…"), this);
    m_open->setShortcut(QKeySequence::Open);
    m_open->setToolTip(tr("Open a .cdcstudio project, a database made by cdcstudio-cli, or a pipeline file "
                          "(.sql, or .py: opened without running it) (Ctrl+O)"));
    m_save = new QAction(style->standardIcon(QStyle::SP_DialogSaveButton), tr("&Save"), this);
    m_save->setShortcut(QKeySequence::Save);
    m_save->setToolTip(tr("Save the project (Ctrl+S)"));
    m_saveAs = new QAction(tr("Save &As…"), this);
    // QKeySequence::SaveAs is empty outside GNOME (KDE, plain X11): spelled out.
    m_saveAs->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    m_saveAs->setToolTip(tr("Save the project under a new name (Ctrl+Shift+S)"));
    m_settings = new QAction(tr("Project Se&ttings…"), this);
    m_settings->setToolTip(
        tr("Settings kept in the project file: where /Volumes/... paths lead, the query time limit"));

    connect(m_new, &QAction::triggered, this, [this] {
        if (!maybeSave())
            return;
        if (auto st = m_project->newProject(); !st)
            showError(tr("Cannot create a project"), st.error());
        else
            emit statusMessage(tr("New project"));
    });
    connect(m_open, &QAction::triggered, this, [this] {
        if (!maybeSave())
            return;
        const QString path = QFileDialog::getOpenFileName(m_window, tr("Open"), QString(), kOpenFilter);
        if (!path.isEmpty())
            openFile(path);
    });
    connect(m_save, &QAction::triggered, this, &ProjectController::save);
    connect(m_saveAs, &QAction::triggered, this, &ProjectController::saveAs);
    connect(m_settings, &QAction::triggered, this, [this] {
        ProjectSettingsDialog dialog(m_project, m_window);
        dialog.exec();
    });
    rebuildRecentMenu();
}

void ProjectController::showError(const QString& what, const Diagnostic& error) {
    emit statusMessage(QStringLiteral("%1: %2").arg(what, QString::fromStdString(error.message)), 8000);
    if (m_window->isVisible())
        QMessageBox::warning(m_window, what, QString::fromStdString(error.message));
}

bool ProjectController::openFile(const QString& path) {
    const bool pipelineFile = isPipelineFile(path);
    const QFileInfo info(path);
    const Project::CopyPages copy = [&](storage::Database& from, storage::Database& to) {
        return copyShowingProgress(info.fileName(), info.size(), from, to);
    };
    Status st = pipelineFile ? m_project->openPipelineFile(path) : m_project->open(path, false, copy);
    if (!st && st.error().code == "FOREIGN_OBJECTS" && m_window->isVisible()) {
        if (!askToRemoveForeignObjects(path, st.error())) {
            emit statusMessage(tr("Not opened: %1").arg(QString::fromStdString(st.error().message)), 8000);
            return false;
        }
        st = m_project->open(path, true, copy);
    }
    if (!st && st.error().code == "CANCELLED") {
        emit statusMessage(
            tr("Opening %1 cancelled: %2 stays open").arg(info.fileName(), m_project->displayName()), 8000);
        return false;
    }
    if (!st) {
        showError(tr("Cannot open %1").arg(QFileInfo(path).fileName()), st.error());
        return false;
    }
    const QString opened = pipelineFile ? QFileInfo(path).absoluteFilePath() : m_project->filePath();
    addRecent(opened);
    if (!pipelineFile)
        emit statusMessage(tr("Opened %1").arg(opened));
    else if (m_project->document()->isPython() && !m_project->isPythonTrusted())
        emit statusMessage(tr("Opened %1 as a new project, without running it: Trust and Run File… runs it")
                               .arg(QFileInfo(path).fileName()),
                           8000);
    else
        emit statusMessage(tr("Opened %1 as a new project: Save keeps it as a .cdcstudio project")
                               .arg(QFileInfo(path).fileName()),
                           8000);
    return true;
}

Status ProjectController::copyShowingProgress(const QString& fileName, qint64 fileBytes,
                                              storage::Database& from, storage::Database& to) {
    CopyProgress progress;
    QProgressDialog dialog(
        tr("Copying %1 (%2) into a working copy…").arg(fileName, QLocale().formattedDataSize(fileBytes, 1)),
        tr("Cancel"), 0, 1000, m_window);
    dialog.setObjectName(QStringLiteral("openProgress"));
    dialog.setWindowTitle(tr("Opening Project"));
    // Modal: the project that is open stays as it is until the copy is complete.
    dialog.setWindowModality(Qt::WindowModal);
    dialog.setMinimumDuration(0);
    dialog.setAutoClose(false);
    dialog.setAutoReset(false);
    connect(&dialog, &QProgressDialog::canceled, &dialog, [&progress] { progress.cancel = true; });
    QTimer tick;
    tick.setInterval(50);
    connect(&tick, &QTimer::timeout, &dialog, [&] {
        const qint64 total = progress.totalPages.load();
        if (total > 0)
            dialog.setValue(int(progress.donePages.load() * 1000 / total));
    });
    QFutureWatcher<Status> watcher;
    QEventLoop loop;
    connect(&watcher, &QFutureWatcher<Status>::finished, &loop, &QEventLoop::quit);
    // The GUI thread touches neither connection until the copy has returned: it waits in the loop below.
    watcher.setFuture(QtConcurrent::run([&]() -> Status { return copyWithProgress(from, to, progress); }));
    if (fileBytes >= kShowCopyProgressBytes) {
        dialog.setValue(0);
        dialog.show();
        tick.start();
    } else {
        dialog.reset(); // no dialog for a copy this short: the constructor armed one to show after 4 s
    }
    if (!watcher.isFinished())
        loop.exec();
    Status result = watcher.result();
    // A Cancel clicked as the last page was copied still cancels: the user asked for the previous project.
    if (result && progress.cancel.load())
        return copyCancelled();
    return result;
}

bool ProjectController::askToRemoveForeignObjects(const QString& path, const Diagnostic& found) {
    QMessageBox box(QMessageBox::Warning, tr("Open Project"),
                    tr("%1 contains SQL that CDC Studio did not write.").arg(QFileInfo(path).fileName()),
                    QMessageBox::Cancel, m_window);
    box.setObjectName(QStringLiteral("foreignObjectsPrompt"));
    box.setInformativeText(
        tr("Triggers and views in a project run whenever CDC Studio writes or reads the tables they are on, "
           "so they could change your data or hang the app. CDC Studio can open the project without them; "
           "the file itself changes only if you save."));
    box.setDetailedText(QString::fromStdString(found.message));
    QPushButton* remove = box.addButton(tr("Remove Them and Open"), QMessageBox::AcceptRole);
    remove->setObjectName(QStringLiteral("removeForeignButton"));
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    return box.clickedButton() == remove;
}

bool ProjectController::openSample(const QString& id) {
    if (!maybeSave())
        return false;
    const SampleInfo sample = samplelibrary::load(id);
    if (sample.id.isEmpty()) {
        showError(tr("Cannot open the sample"),
                  Diagnostic::error("UNKNOWN_SAMPLE",
                                    "there is no sample called '" + id.toStdString() + "'; try one of: " +
                                        samplelibrary::ids().join(QLatin1String(", ")).toStdString()));
        return false;
    }
    if (auto st = sourcescripts::installSample(*m_project, sample); !st) {
        showError(tr("Cannot open the sample %1").arg(id), st.error());
        return false;
    }
    emit statusMessage(tr("Opened the sample \"%1\": press F10 to deliver the first event").arg(sample.title),
                       8000);
    return true;
}

bool ProjectController::recover(const RecoveryEntry& entry) {
    if (!maybeSave())
        return false;
    if (auto st = m_project->openRecovered(entry.databasePath, entry.originalPath); !st) {
        showError(tr("Cannot recover %1").arg(entry.name), st.error());
        return false;
    }
    recoverystore::remove(entry.id);
    emit statusMessage(tr("Recovered the unsaved changes to %1 (autosaved %2): save to keep them")
                           .arg(m_project->displayName(),
                                QLocale().toString(entry.savedAt.toLocalTime(), QLocale::ShortFormat)),
                       8000);
    return true;
}

bool ProjectController::saveTo(const QString& path) {
    if (auto st = m_project->saveAs(path); !st) {
        showError(tr("Cannot save %1").arg(QFileInfo(path).fileName()), st.error());
        return false;
    }
    addRecent(m_project->filePath());
    emit statusMessage(tr("Saved %1").arg(m_project->filePath()));
    return true;
}

bool ProjectController::save() {
    return m_project->filePath().isEmpty() ? saveAs() : saveTo(m_project->filePath());
}

bool ProjectController::saveAs() {
    QString path =
        QFileDialog::getSaveFileName(m_window, tr("Save Project As"), m_project->filePath(), kFilter);
    if (path.isEmpty())
        return false;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".cdcstudio");
    return saveTo(path);
}

bool ProjectController::maybeSave() {
    if (!m_project->isModified())
        return true;
    const auto answer =
        m_prompt
            ? m_prompt()
            : QMessageBox::question(m_window, tr("Unsaved Changes"),
                                    tr("%1 has unsaved changes. Save them?").arg(m_project->displayName()),
                                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel,
                                    QMessageBox::Save);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

QStringList ProjectController::recentFiles() const {
    return QSettings().value(kRecentKey).toStringList();
}

void ProjectController::addRecent(const QString& path) {
    QStringList files = recentFiles();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > kMaxRecent)
        files.removeLast();
    QSettings().setValue(kRecentKey, files);
    rebuildRecentMenu();
}

void ProjectController::rebuildRecentMenu() {
    m_recentMenu->clear();
    const QStringList files = recentFiles();
    for (int i = 0; i < files.size(); ++i) {
        const QString path = files[i];
        auto* action =
            m_recentMenu->addAction(QStringLiteral("&%1 %2").arg(i + 1).arg(QFileInfo(path).fileName()));
        action->setToolTip(path);
        action->setStatusTip(path);
        connect(action, &QAction::triggered, this, [this, path] {
            if (maybeSave())
                openFile(path);
        });
    }
    if (files.isEmpty())
        m_recentMenu->addAction(tr("No recent projects"))->setEnabled(false);
    else {
        m_recentMenu->addSeparator();
        connect(m_recentMenu->addAction(tr("Clear Menu")), &QAction::triggered, this, [this] {
            QSettings().remove(kRecentKey);
            rebuildRecentMenu();
        });
    }
}

} // namespace cdc::ui
