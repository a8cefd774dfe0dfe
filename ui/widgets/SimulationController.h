#pragma once
/// Every replay button is a list of batch sizes for SimulationRunner (Step {1}, Deliver N {N}, Run to
/// End one per event, Update {0}), so all of them share one path, one progress bar and one undo step.

#include "core/common/Diagnostic.h"
#include "core/engine/Engine.h"

#include <QObject>

#include <functional>
#include <optional>

class QAction;
class QLabel;
class QProgressBar;
class QToolButton;
class QWidget;

namespace cdc::ui {

class Project;
class SimulationRunner;

/// Replay controls: Update, Full Refresh, Step, Deliver N, Deliver All, Run to End, Cancel, the simulated
/// clock and Advance Clock. Runs go through SimulationRunner (off the GUI thread); errors land in the issues
/// list with their position.
class SimulationController : public QObject {
    Q_OBJECT
public:
    SimulationController(Project* project, QWidget* window);

    QAction* updateAction() const { return m_update; }
    QAction* fullRefreshAction() const { return m_fullRefresh; }
    QAction* stepAction() const { return m_step; }
    QAction* deliverNAction() const { return m_deliverN; }
    QAction* deliverAllAction() const { return m_deliverAll; }
    QAction* runToEndAction() const { return m_runToEnd; }
    QAction* cancelAction() const { return m_cancel; }
    QAction* advanceClockAction() const { return m_advanceClock; }
    QLabel* clockLabel() const { return m_clockLabel; }
    QProgressBar* progressBar() const { return m_progress; }
    SimulationRunner* runner() const { return m_runner; }

    /// Each delivers events and runs updates; false when nothing started (reason in the status bar).
    bool runUpdate();
    /// One update that rebuilds every target from all the rows delivered so far (Databricks' "full
    /// refresh"): the way on after a target's keys, columns, sequence type or SCD type changed.
    bool fullRefresh();
    bool step();
    bool deliver(int count);
    bool deliverAll();
    bool runToEnd();
    bool advanceClock(qint64 seconds);
    /// Blocks until the running update finished (tests, --step).
    void waitForFinished();
    /// Asked before every run starts (the Python trust question); false: nothing starts.
    void setRunGuard(std::function<bool()> guard) { m_runGuard = std::move(guard); }

signals:
    void statusMessage(const QString& message, int timeoutMs = 5000);
    void runFinished(int updates, bool ok);

private:
    bool start(const QList<int>& batches, const QString& text, bool fullRefresh = false);
    int queuedCount() const;
    void refreshClock();
    void setRunning(bool running);

    Project* m_project;
    QWidget* m_window;
    SimulationRunner* m_runner;
    QAction* m_update;
    QAction* m_fullRefresh;
    QAction* m_step;
    QAction* m_deliverN;
    QAction* m_deliverAll;
    QAction* m_runToEnd;
    QAction* m_cancel;
    QAction* m_advanceClock;
    QLabel* m_clockLabel;
    QProgressBar* m_progress;
    std::function<bool()> m_runGuard;
};

} // namespace cdc::ui
