#pragma once
/// The open project: a temporary working copy of the `.cdcstudio` SQLite file that every edit and
/// update goes to, so the file on disk changes only on Save (through the backup API). Every change of
/// the working copy is a SnapshotCommand on the undo stack and every change of the pipeline text a
/// PipelineTextCommand on the same stack: one history, and "modified" is its clean state.

#include "core/common/Diagnostic.h"
#include "core/engine/ArrivalExplorer.h"
#include "core/storage/Database.h"
#include "core/storage/QueryGuard.h"
#include "ui/model/NodePositions.h"
#include "ui/model/PipelineDocument.h"
#include "ui/model/ProjectStore.h"
#include "ui/model/RunCommand.h"

#include <QObject>
#include <QUndoStack>

#include <chrono>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string_view>

namespace cdc::ui {

class WorkingCopyFolder;

class Project : public QObject {
    Q_OBJECT
public:
    explicit Project(QObject* parent = nullptr);
    ~Project() override;

    /// The largest project file open() accepts, by its apparent size: the working copy is a full copy of the
    /// file, and a sparse file is refused before a page of it is read (a 3 GiB sparse file wrote 1.5 GB).
    static constexpr qint64 kMaxProjectBytes = qint64(2) << 30;
    /// The time limit of the reads that fill the result views (off the GUI thread, cancellable): a view in a
    /// project someone sent may never end.
    static constexpr std::chrono::milliseconds kDefaultQueryTimeout{30000};
    /// The time limit of the small reads the GUI thread makes itself (row counts, source rows, the update
    /// log): the window would freeze for as long.
    static constexpr std::chrono::milliseconds kQuickReadTimeout{1000};
    /// The time limit of one update the app runs (the CLI's `update` default).
    static constexpr std::chrono::milliseconds kUpdateTimeout{300000};
    /// How open() copies the file into the working copy (the widgets copy off the GUI thread, with progress
    /// and Cancel); an error leaves the open project as it was.
    using CopyPages = std::function<Status(storage::Database& from, storage::Database& to)>;

    /// Starts an empty, untitled project.
    Status newProject();
    /// Opens a project (or any database made by `cdcstudio-cli --db`) into a fresh working copy.
    /// The file itself is only read. It is checked first (engine::verifyProject): triggers or views CDC
    /// Studio did not make are FOREIGN_OBJECTS, naming them, unless `removeForeignObjects`, which opens the
    /// project without them (an unsaved change); damaged bookkeeping is PROJECT_DAMAGED; a damaged target
    /// opens, with the error in the issues until a full refresh rebuilds it. A file larger than
    /// kMaxProjectBytes is PROJECT_TOO_LARGE, before anything is read. `copy` copies the pages (default: all
    /// at once, here).
    Status open(const QString& filePath, bool removeForeignObjects = false, const CopyPages& copy = {});
    /// Opens a pipeline file (pipeline SQL, or a Python pipeline file: `.py`) as a new untitled project whose
    /// pipeline is the file's text; its `/Volumes/...` paths lead into the file's folder (Project Settings).
    /// A Python file is not run: it is trusted only if the user said so before (`isPythonTrusted`).
    Status openPipelineFile(const QString& filePath);
    /// Opens an autosaved working copy (see Autosave) as unsaved changes to `originalPath` (empty: untitled),
    /// so Save writes to the original file. The autosave file itself is only read.
    Status openRecovered(const QString& autosavePath, const QString& originalPath);
    /// Writes the working copy (with the current pipeline text) to `filePath` and makes it the project file.
    /// Atomic (atomicsave::writeCopy): a failed save leaves the file as it was.
    Status saveAs(const QString& filePath);
    Status save() { return saveAs(m_filePath); }
    /// Re-reads the working copy after it was filled outside the undo stack (a sample being
    /// installed): new pipeline text, empty undo history, clean.
    void reloadWorkingCopy();
    /// The time limit of the result views' reads: the project's setting (Project Settings, whole seconds
    /// from 1 to kMaxQueryTimeoutSeconds; a file cannot lift it), else kDefaultQueryTimeout.
    std::chrono::milliseconds queryTimeout() const;
    static constexpr int kMaxQueryTimeoutSeconds = 600;
    /// Sets it, in seconds (clamped as above). One undoable step.
    Status setQueryTimeoutSetting(int seconds);
    /// While an update runs on another connection, edits are refused (they would race with it).
    void setBusy(bool busy) { m_busy = busy; }
    bool isBusy() const { return m_busy; }

    QString filePath() const { return m_filePath; }
    QString displayName() const;
    QString workingPath() const;
    /// The working copy lives in a RAM-backed folder (storage/MemoryFolder.h), not in the temporary folder
    /// on disk.
    bool workingCopyInMemory() const;
    storage::Database& db() { return *m_db; }
    /// Watches a read the GUI thread makes on the working copy itself (row counts, source rows, the update
    /// log): stopped after kQuickReadTimeout, as the window does not respond meanwhile. Hold it around the
    /// read.
    storage::QueryGuard guardQuickRead(std::string what) {
        return storage::QueryGuard(*m_db, std::move(what), {kQuickReadTimeout, nullptr});
    }
    QUndoStack* undoStack() { return &m_undo; }

    bool isModified() const { return !m_undo.isClean(); }
    /// Marks the current state as the saved one (also used after loading a sample).
    void markClean();

    /// The pipeline: its text, parse and issues. Its text is written to `__cdc_project` on save and before
    /// updates.
    PipelineDocument* document() const { return m_document; }
    QString pipelineText() const { return m_document->text(); }
    /// The designer's pinned node positions, stored beside the text.
    NodePositions* nodePositions() const { return m_positions; }
    /// Writes the text and the node positions into the working copy (before saves and updates).
    Status storeDocument();

    /// Whether the pipeline, if it is Python, may run: the user trusted its file (the project file, or the
    /// .py file it was opened from) now or before, or it is a sample shipped with the app. Always false
    /// after opening until then: opening never runs code.
    bool isPythonTrusted() const { return m_pythonTrusted; }
    /// The file the trust decision is about: the project file, else the pipeline file it was opened from;
    /// empty for a new project.
    QString trustFile() const { return m_filePath.isEmpty() ? m_origin : m_filePath; }
    /// The user trusts the pipeline: it may run from now on; with `remember`, also in later sessions (for
    /// trustFile()). A trusted Python pipeline is run at once to show its real graph.
    void trustPython(bool remember);

    qint64 clock() const;
    qint64 clockTick() const;
    QString readme() const;
    QString sampleId() const;

    /// How an edit's undo step redoes it: from a copy of the state after it, or by making it again (for a
    /// change that is exact to repeat and costs what it changes, such as a rewind).
    enum class Redo { FromCopy, ByReplaying };
    /// Runs `change` in one transaction on the working copy and pushes it as an undoable command.
    /// On error nothing changes and nothing is pushed.
    Status change(const QString& text, const std::function<Status(storage::Database&)>& change,
                  Redo redo = Redo::FromCopy);
    /// The same for a change that writes rows of `tables` only (tables with a PRIMARY KEY, no schema
    /// change): its undo step keeps the rows it changed (ChangesetCommand) rather than two copies of the
    /// project. The queue and settings edits below take this path.
    Status changeRows(const QString& text, std::initializer_list<std::string_view> tables,
                      const std::function<Status(storage::Database&)>& change);
    static constexpr std::string_view kQueueTable = "__cdc_event_queue";
    static constexpr std::string_view kSettingsTable = "__cdc_project";

    /// For changes made by another connection (the update thread): snapshot first, then push.
    Result<std::shared_ptr<storage::Database>> snapshot();
    void pushExternalChange(const QString& text, std::shared_ptr<storage::Database> before);
    /// For a simulation run (SimulationRunner) of `events` queued events: what its undo returns to, read
    /// before it starts; pushed when it has run. Undo rewinds the run's updates (RunCommand), so a step
    /// costs what it changes; a run that changes the schema (RunStart::rewindable) keeps a whole copy.
    Result<RunUndoPoint> runUndoPoint(const pipeline::Pipeline& pipeline, int events, bool fullRefresh);
    void pushRun(const QString& text, RunUndoPoint before);

    // Convenience edits (each one undoable command).
    Status appendEvents(const QList<QueuedEvent>& events, const QString& text);
    Status updateEvent(const QueuedEvent& event);
    Status removeEvents(const QList<qint64>& ids);
    Status reorderEvents(const QList<qint64>& orderedIds);
    Status advanceClock(qint64 seconds);
    /// The Volumes folder setting (Project Settings): where `/Volumes/...` paths of read_files and
    /// list_files lead; empty for the default, the project file's folder. One undoable step.
    Status setVolumesSetting(const QString& folder);
    QString volumesSetting() const;
    /// The folder in use: the setting, else the project file's folder; empty for an unsaved project
    /// without a setting (read_files then says so).
    QString volumesFolder() const;
    /// Discards the updates after `updateId` (0: all of them): targets as they were then, the later updates'
    /// events back at the front of the queue, the clock back. One undoable step.
    Status rewindTo(qint64 updateId);
    /// Sets the project up to replay an arrival-order counterexample (engine::exploreArrivalOrders): back to
    /// the start (as Rewind to the start), the `streamTables` emptied and the queue holding only the
    /// counterexample's events, in the order they arrived, so that Step replays them. One undoable step.
    Status loadCounterexample(const engine::Counterexample& counterexample,
                              const std::vector<std::string>& streamTables);

signals:
    /// The working copy changed (edit, update, undo, load): views reload.
    void dataChanged();
    /// The working connection is about to close (a new project replaces it, or the project is destroyed):
    /// whoever still reads it stops now.
    void workingCopyClosing();
    /// A new project (file, sample or empty) replaced the previous one.
    void projectReplaced();
    void modifiedChanged(bool modified);
    void filePathChanged(const QString& path);
    /// isPythonTrusted() changed.
    void pythonTrustChanged(bool trusted);

private:
    /// Replaces the working copy with a copy of `source` (empty when null) that belongs to `filePath`.
    Status resetWorkingCopy(storage::Database* source, const QString& filePath, const QString& origin = {},
                            const CopyPages& copy = {});
    /// Gives the document the working copy's pipeline text and language.
    void resetDocument();
    void notifyModified();
    /// Gives the working connection the current volumes folder (after a load, a save elsewhere, an undo).
    void applyVolumesFolder();

    std::unique_ptr<WorkingCopyFolder> m_dir;
    std::unique_ptr<storage::Database> m_db;
    QUndoStack m_undo;
    /// Every step of a run holds two copies of the database: the history keeps the last kUndoLimit steps.
    static constexpr int kUndoLimit = 100;
    QString m_filePath;
    PipelineDocument* m_document;
    NodePositions* m_positions;
    bool m_lastModified = false;
    bool m_busy = false;
    QString m_origin; ///< the pipeline file this untitled project was opened from
    bool m_pythonTrusted = false;
};

} // namespace cdc::ui
