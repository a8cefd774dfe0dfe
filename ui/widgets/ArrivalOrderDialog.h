#pragma once
/// Run › Test Arrival Orders…: does the pipeline's result depend on the order events arrive in? The project's
/// delivered and queued events are replayed in many seeded random arrival orders and splits into updates
/// (engine::exploreArrivalOrders, in scratch copies: the project is not touched), off the GUI thread with a
/// progress bar and Cancel. A divergence shows as its minimal counterexample, which Load into Queue sets up
/// to step through (one undoable change).

#include "core/engine/ArrivalExplorer.h"

#include <QDialog>
#include <QFutureWatcher>

#include <atomic>
#include <memory>
#include <optional>

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace cdc::ui {

class Project;

class ArrivalOrderDialog : public QDialog {
    Q_OBJECT
public:
    ArrivalOrderDialog(Project* project, QWidget* parent = nullptr);
    ~ArrivalOrderDialog() override;

    QSpinBox* ordersBox() const { return m_orders; }
    QSpinBox* seedBox() const { return m_seed; }
    QSpinBox* maxUpdatesBox() const { return m_maxUpdates; }
    QPushButton* runButton() const { return m_run; }
    QPushButton* cancelButton() const { return m_cancel; }
    QPushButton* loadButton() const { return m_load; }
    QProgressBar* progressBar() const { return m_progress; }
    QPlainTextEdit* reportView() const { return m_report; }
    bool isRunning() const { return m_watcher.isRunning(); }

    /// Starts a run with the boxes' settings; false (reason in the report) when nothing started.
    bool run();
    void cancel();
    /// Sets the project up to step through the counterexample of the last run.
    bool loadCounterexample();

signals:
    void statusMessage(const QString& message, int timeoutMs = 5000);
    /// A run ended (finished, failed or cancelled).
    void finished();

protected:
    void reject() override;

private:
    struct Outcome {
        Result<engine::ExplorerReport> report = engine::ExplorerReport{};
        std::vector<std::string> streamTables;
    };
    void takeOutcome();
    void setRunning(bool running);

    Project* m_project;
    QSpinBox* m_orders;
    QSpinBox* m_seed;
    QSpinBox* m_maxUpdates;
    QPushButton* m_run;
    QPushButton* m_cancel;
    QPushButton* m_load;
    QProgressBar* m_progress;
    QLabel* m_summary;
    QPlainTextEdit* m_report;
    QFutureWatcher<Outcome> m_watcher;
    std::shared_ptr<std::atomic<bool>> m_cancelFlag;
    engine::ExplorerOptions m_options;
    std::optional<engine::Counterexample> m_counterexample;
    std::vector<std::string> m_streamTables;
};

} // namespace cdc::ui
