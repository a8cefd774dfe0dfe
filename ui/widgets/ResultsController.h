#pragma once
/// One loader outside the panels, so the target table, the SCD2 timeline and the tombstones can never
/// show different updates: it follows the Timeline's selection and the project's data changes.

#include "ui/model/results/TargetSnapshot.h"

#include <QFutureWatcher>
#include <QObject>

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>

namespace cdc::ui {

class Project;

/// Decides what the result views show: the targets after the latest update, or — when an older
/// update is selected in the timeline — exactly as they were after that one. Loads the snapshots
/// once and hands them to every view.
///
/// A project is untrusted input: a target's view may never end. A read first runs on the GUI thread for at
/// most kQuickRead; one that needs longer runs again on a thread of its own, on its own connection, under
/// the project's queryTimeout() and a Cancel (cancelLoading), the window responsive meanwhile.
class ResultsController : public QObject {
    Q_OBJECT
public:
    ResultsController(Project* project, QObject* parent = nullptr);
    ~ResultsController() override;

    /// -1 = follow the latest update.
    void showUpdate(qint64 updateId);
    qint64 shownUpdate() const { return m_updateId; }
    const QList<TargetSnapshot>& snapshots() const { return m_snapshots; }
    /// A line for the banner over the result views ("after update 3 of 5").
    QString description() const { return m_description; }

    /// Whether a read runs off the GUI thread now.
    bool isLoading() const { return m_loading; }
    /// Stops the read running off the GUI thread; the views then say it was cancelled.
    void cancelLoading();
    /// Blocks until no read runs off the GUI thread and the last one's result is applied (tests, shutdown).
    void waitForLoaded();
    /// Why the views show no targets after a read was stopped ("Query cancelled ..."), empty otherwise.
    QString stopMessage() const { return m_stopMessage; }

public slots:
    void reload();

signals:
    void snapshotsChanged(const QList<cdc::ui::TargetSnapshot>& snapshots);
    void descriptionChanged(const QString& text);
    /// A read started or ended off the GUI thread.
    void loadingChanged(bool loading);
    /// A read was cancelled or ran past its time limit: what the views say instead of the targets.
    void loadStopped(const QString& message);

private:
    /// What one read gives, on whichever thread it ran.
    struct Loaded {
        std::optional<QList<TargetSnapshot>> snapshots;
        std::optional<Diagnostic> error;
        qint64 shown = 0;
        qint64 lastId = 0;
    };
    void startBackground(qint64 shown, qint64 lastId, const QStringList& order,
                         const QList<TargetSnapshot>& previous);
    void backgroundDone();
    void apply(const Loaded& loaded);
    void stopBackground();

    /// How long a read may hold the GUI thread before it moves off it.
    static constexpr std::chrono::milliseconds kQuickRead{500};

    Project* m_project;
    qint64 m_updateId = -1;
    QList<TargetSnapshot> m_snapshots;
    bool m_latestShown = false; ///< m_snapshots are of the latest update, loaded at its dataChanged
    QString m_description;
    QString m_stopMessage;
    QFutureWatcher<Loaded>* m_watcher;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    bool m_loading = false;
    bool m_reloadAgain = false;   ///< the data changed while a read ran: read again when it ends
    bool m_userCancelled = false; ///< the running read was cancelled by the user
    bool m_slowProject =
        false; ///< a read of this project needed more than kQuickRead: go off the thread at once
};

} // namespace cdc::ui
