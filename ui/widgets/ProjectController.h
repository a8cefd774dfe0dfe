#pragma once
/// The one place that asks the user about files, so Project (ui/model) never shows a dialog; tests
/// answer the unsaved-changes question through setSavePrompt and drive the rest without dialogs.

#include "core/common/Diagnostic.h"

#include <QMessageBox>
#include <QObject>
#include <QStringList>

#include <functional>

class QAction;
class QMenu;
class QWidget;

namespace cdc::storage {
class Database;
}

namespace cdc::ui {

class Project;
struct RecoveryEntry;

/// File handling: New / Open / Save / Save As / recent files / the unsaved-changes prompt.
/// Dialogs are shown here; the work is Project's.
class ProjectController : public QObject {
    Q_OBJECT
public:
    ProjectController(Project* project, QWidget* window);

    QAction* newAction() const { return m_new; }
    QAction* openAction() const { return m_open; }
    QAction* saveAction() const { return m_save; }
    QAction* saveAsAction() const { return m_saveAs; }
    /// File › Project Settings… (ProjectSettingsDialog).
    QAction* settingsAction() const { return m_settings; }
    QMenu* recentMenu() const { return m_recentMenu; }

    bool openFile(const QString& path);
    /// Replaces the project by an embedded sample (after the unsaved-changes question).
    bool openSample(const QString& id);
    /// Opens an autosaved working copy left by a crashed session as unsaved changes to its original file,
    /// then deletes that autosave (the window's Autosave keeps a new one).
    bool recover(const RecoveryEntry& entry);
    bool saveTo(const QString& path);
    bool save();
    bool saveAs();
    /// Asks what to do with unsaved changes; true when it is fine to go on (saved or discarded).
    bool maybeSave();
    QStringList recentFiles() const;

    /// Replaces the Save / Discard / Cancel question (tests answer it without a dialog).
    void setSavePrompt(std::function<QMessageBox::StandardButton()> prompt) { m_prompt = std::move(prompt); }

signals:
    void statusMessage(const QString& message, int timeoutMs = 4000);

private:
    /// Asks whether to open a project without the triggers and views CDC Studio did not make (`found`). Only
    /// with the window shown: offscreen runs (tests, --screenshot) refuse the file, with the reason.
    bool askToRemoveForeignObjects(const QString& path, const Diagnostic& found);
    void addRecent(const QString& path);
    void rebuildRecentMenu();
    void showError(const QString& what, const Diagnostic& error);
    /// Copies a project file's pages into the working copy off the GUI thread, the window responsive, with a
    /// progress dialog whose Cancel stops the copy (CANCELLED) once the file is large enough to take a while.
    Status copyShowingProgress(const QString& fileName, qint64 fileBytes, storage::Database& from,
                               storage::Database& to);

    Project* m_project;
    QWidget* m_window;
    QAction* m_new;
    QAction* m_open;
    QAction* m_save;
    QAction* m_saveAs;
    QAction* m_settings;
    QMenu* m_recentMenu;
    std::function<QMessageBox::StandardButton()> m_prompt;
};

} // namespace cdc::ui
