#pragma once
/// "Why is this row like this?": every event of one key of an AUTO CDC target in sequence order with its
/// fate and the update that delivered it, and which event set each current value (engine/Provenance.h).
/// The project's updates are replayed on a worker thread over a copy of the project, so the window stays
/// responsive and the project is not touched.

#include "core/common/Value.h"
#include "core/engine/Provenance.h"

#include <QFutureWatcher>
#include <QWidget>

#include <atomic>
#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace cdc::ui {

class ColumnOriginModel;
class Project;
class ProvenanceEventsModel;

class ProvenancePanel : public QWidget {
    Q_OBJECT
public:
    explicit ProvenancePanel(Project* project, QWidget* parent = nullptr);
    ~ProvenancePanel() override;

    /// Explains `key` (the target's key columns, in order) of `target`; false (with a status message) when
    /// it cannot start.
    bool explain(const QString& target, const cdc::Row& key);
    /// Explains the target and key typed in the panel (`userId = 123, region = EU`).
    bool explainTyped();
    void cancel();
    bool isRunning() const;

    QComboBox* targetBox() const { return m_target; }
    QLineEdit* keyEdit() const { return m_key; }
    QPushButton* explainButton() const { return m_explain; }
    QLabel* summaryLabel() const { return m_summary; }
    QLabel* notesLabel() const { return m_notes; }
    QTableView* eventsView() const { return m_eventsView; }
    QTableView* originsView() const { return m_originsView; }
    ProvenanceEventsModel* eventsModel() const { return m_events; }
    ColumnOriginModel* originsModel() const { return m_origins; }

public slots:
    /// Lists the project's AUTO CDC targets (after an update, or another project).
    void refreshTargets();

signals:
    void statusMessage(const QString& message);
    /// The user picked an event: show its row in the sources.
    void sourceRowRequested(const QString& table, qint64 rowid);
    /// The user picked an event's update: select it in the update timeline.
    void updateRequested(qint64 updateId);
    /// An explanation finished (shown, failed or cancelled).
    void finished();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void takeResult();
    void setRunning(bool running);
    void eventClicked(const QModelIndex& index);

    Project* m_project;
    QComboBox* m_target;
    QLineEdit* m_key;
    QPushButton* m_explain;
    QLabel* m_summary;
    QLabel* m_notes;
    QTableView* m_eventsView;
    QTableView* m_originsView;
    ProvenanceEventsModel* m_events;
    ColumnOriginModel* m_origins;
    struct Outcome {
        Result<engine::Explanation> explanation = engine::Explanation{};
    };
    QFutureWatcher<Outcome> m_watcher;
    std::shared_ptr<std::atomic<bool>> m_cancelFlag;
};

} // namespace cdc::ui
