#pragma once
/// Keeps a copy of the open project's unsaved work in the recovery folder (recoverystore), so that a crash
/// or a kill loses at most the last interval: written every interval while the project has changed since
/// the last copy, and at once when asked (after every update). Saving, undoing back to the saved state,
/// replacing the project or discard() (a clean close) remove it; destroying this object without discard()
/// (what a crash amounts to) leaves it to be offered on the next start. Never writes to the project file.

#include "core/storage/Backup.h"
#include "ui/model/RecoveryStore.h"

#include <QObject>
#include <QTimer>

#include <memory>
#include <optional>

class QLockFile;

namespace cdc::ui {

class Project;

class Autosave : public QObject {
    Q_OBJECT
public:
    /// How often unsaved changes are copied (milliseconds).
    static constexpr int kDefaultIntervalMs = 60'000;
    /// Pages copied per turn of the event loop (4 MiB with SQLite's default page size).
    static constexpr int kPagesPerStep = 1024;

    explicit Autosave(Project* project, QObject* parent = nullptr);
    /// Abandons a copy being written (the previous complete copy stays); the files stay.
    ~Autosave() override;

    void setInterval(int milliseconds) { m_timer.setInterval(milliseconds); }
    int interval() const { return m_timer.interval(); }
    /// This session's entry in the recovery folder.
    QString id() const { return m_id; }
    QString databasePath() const { return recoverystore::databasePath(m_id); }
    /// A copy is being written.
    bool isWriting() const { return m_job.has_value(); }

    /// Starts a copy of the working copy when the project is modified (a copy already being written is
    /// followed by another one; during an update, the copy waits for its end).
    void saveNow();
    /// Removes this session's copy (clean close, save, project replaced).
    void discard();
    /// Writes the rest of a copy being written without returning to the event loop (tests, shutdown).
    void finishNow();

signals:
    /// A copy was written to the recovery folder.
    void saved(const QString& databasePath);
    void failed(const QString& message);

private:
    void start();
    /// Copies the next pages; completes the copy after the last.
    void step();
    void complete();
    /// Drops a copy being written and its temporary file.
    void stop();

    Project* m_project;
    QString m_id;
    std::unique_ptr<QLockFile> m_lock;
    QTimer m_timer;
    QTimer m_stepper;
    std::unique_ptr<storage::Database> m_copy;
    std::optional<storage::IncrementalCopy> m_job;
    /// Changed since the last copy was started.
    bool m_dirty = false;
    /// saveNow() came while a copy was being written or an update ran.
    bool m_pending = false;
};

} // namespace cdc::ui
