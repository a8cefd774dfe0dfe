#pragma once
/// Runs simulated pipeline updates off the GUI thread, on its own connection to the project's
/// working copy. A run is a list of batches: each batch delivers N queued events (0 = none) and
/// runs one update, in one transaction, so a failed update also leaves its events in the queue.
/// The whole run becomes one undoable step.

#include "core/common/Diagnostic.h"
#include "core/engine/Engine.h"

#include <QFutureWatcher>
#include <QObject>

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

namespace cdc::ui {

class Project;

class SimulationRunner : public QObject {
    Q_OBJECT
public:
    explicit SimulationRunner(Project* project, QObject* parent = nullptr);
    ~SimulationRunner() override;

    /// Starts a run of the project's pipeline as its document has it now (parsed at once, not after the
    /// typing delay); false (with the reason in `error`) when one is running, the pipeline has errors or the
    /// project is not ready. With `fullRefresh` the first update is a full refresh: targets and checkpoints
    /// are cleared and every delivered row is processed again (what a changed target definition needs). When
    /// the run ends, its warnings and the error it stopped on become the document's runtime issues.
    bool start(const QList<int>& batches, const QString& undoText, Diagnostic* error = nullptr,
               bool fullRefresh = false);
    bool isRunning() const { return m_running; }
    void cancel();
    /// Blocks until the current run has finished and its results are applied (tests, shutdown).
    void waitForFinished();
    /// Blocks until the last run's WAL frames are copied into the working file. A run leaves that copy (a
    /// checkpoint) until its results are shown, then does it on a worker thread; this starts it at once if
    /// it has not started yet (tests).
    void waitForCheckpoint();

    const std::vector<engine::UpdateReport>& lastReports() const { return m_reports; }

signals:
    void started(int batches);
    /// Progress inside the current update, and which batch of how many it is.
    void progress(const QString& flow, qint64 done, qint64 total, int batch, int batches);
    void updateDone(const cdc::engine::UpdateReport& report);
    /// The run ended: `updates` updates committed; `error` set when it stopped on an error or cancel.
    void finished(int updates, const std::optional<cdc::Diagnostic>& error);

private:
    struct Outcome {
        std::vector<engine::UpdateReport> reports;
        std::optional<Diagnostic> error;
    };
    void complete(const Outcome& outcome);
    void checkpointInBackground();

    Project* m_project;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    QFutureWatcher<Outcome>* m_watcher;
    QFuture<void> m_checkpoint; ///< the last run's checkpoint, off the GUI thread
    bool m_checkpointPending = false;
    bool m_running = false;
    QString m_undoText;
    std::shared_ptr<void> m_before; // std::shared_ptr<RunUndoPoint>, kept opaque here
    std::vector<engine::UpdateReport> m_reports;
};

} // namespace cdc::ui
