// Reloads on every data change and every clean parse; when the loaded snapshots are the very ones
// shown, nothing is emitted, so the views keep selection and scroll through edits that touch no target.
#include "ui/widgets/ResultsController.h"

#include "core/engine/Engine.h"
#include "core/storage/QueryGuard.h"
#include "ui/model/PipelineDocument.h"
#include "ui/model/Project.h"
#include "ui/model/TargetHistory.h"

#include <QtConcurrent/QtConcurrentRun>

namespace cdc::ui {

namespace {
constexpr const char* kWhat = "reading the target tables";
} // namespace

ResultsController::ResultsController(Project* project, QObject* parent)
    : QObject(parent), m_project(project), m_watcher(new QFutureWatcher<Loaded>(this)) {
    connect(m_watcher, &QFutureWatcher<Loaded>::finished, this, &ResultsController::backgroundDone);
    connect(project, &Project::dataChanged, this, &ResultsController::reload);
    // The read's connection is on the working file, which goes with its project. (Not at projectReplaced:
    // the new document's first parse reads the new working copy before that.)
    connect(project, &Project::workingCopyClosing, this, [this] {
        stopBackground();
        m_slowProject = false;
    });
    connect(project, &Project::projectReplaced, this, [this] {
        m_updateId = -1;
        m_latestShown = false; // another database: nothing to patch from
    });
    connect(project->document(), &PipelineDocument::parsed, this, [this] {
        // A new valid pipeline may list its targets in another order; the views show what is stored
        // whatever the text says.
        if (!m_project->document()->hasErrors())
            reload();
    });
    reload();
}

ResultsController::~ResultsController() {
    stopBackground();
}

void ResultsController::showUpdate(qint64 updateId) {
    if (updateId == m_updateId)
        return;
    m_updateId = updateId;
    reload();
}

void ResultsController::reload() {
    if (m_loading) {
        // What it reads is out of date: stop it and read again once it has ended — unless the user stopped
        // it, whose Cancel must not be undone by a parse that happens to arrive meanwhile.
        if (!m_userCancelled) {
            m_reloadAgain = true;
            m_cancel->store(true);
        }
        return;
    }
    storage::Database& db = m_project->db();
    Loaded loaded;
    auto last = engine::lastUpdateId(db);
    loaded.lastId = last ? *last : 0;
    loaded.shown = m_updateId < 0 || m_updateId > loaded.lastId ? loaded.lastId : m_updateId;
    const QStringList order = targetOrder(m_project->document()->pipeline());
    // Right after an update the shown snapshots are of the update before: the loader patches them
    // with the new update's changes instead of re-reading every target.
    const QList<TargetSnapshot> previous = m_latestShown ? m_snapshots : QList<TargetSnapshot>();
    if (m_slowProject) {
        startBackground(loaded.shown, loaded.lastId, order, previous);
        return;
    }
    auto result = [&] {
        const storage::QueryGuard guard(db, kWhat, {kQuickRead, nullptr});
        return guard.explain(targethistory::snapshotsAt(db, order, loaded.shown, previous));
    }();
    if (!result && result.error().code == "TIMEOUT") {
        m_slowProject = true;
        startBackground(loaded.shown, loaded.lastId, order, previous);
        return;
    }
    if (result)
        loaded.snapshots = std::move(result).value();
    else
        loaded.error = result.error();
    apply(loaded);
}

void ResultsController::startBackground(qint64 shown, qint64 lastId, const QStringList& order,
                                        const QList<TargetSnapshot>& previous) {
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_reloadAgain = false;
    m_userCancelled = false;
    const std::string path = m_project->workingPath().toStdString();
    const std::chrono::milliseconds timeout = m_project->queryTimeout();
    auto cancel = m_cancel;
    // Read-write: an earlier update is read by rewinding inside a savepoint that is rolled back.
    m_watcher->setFuture(QtConcurrent::run([=]() -> Loaded {
        Loaded out;
        out.shown = shown;
        out.lastId = lastId;
        auto db = storage::Database::open(path, storage::Database::Mode::ReadWrite);
        if (!db) {
            out.error = db.error();
            return out;
        }
        const storage::QueryGuard guard(*db, kWhat, {timeout, cancel.get()});
        auto result = guard.explain(targethistory::snapshotsAt(*db, order, shown, previous));
        if (result)
            out.snapshots = std::move(result).value();
        else
            out.error = result.error();
        return out;
    }));
    m_loading = true;
    emit loadingChanged(true);
}

void ResultsController::backgroundDone() {
    if (!m_loading)
        return;
    m_loading = false;
    emit loadingChanged(false);
    if (m_reloadAgain) {
        m_reloadAgain = false;
        reload();
        return;
    }
    apply(m_watcher->result());
}

void ResultsController::cancelLoading() {
    if (!m_loading)
        return;
    m_userCancelled = true;
    m_reloadAgain = false;
    m_cancel->store(true);
}

void ResultsController::waitForLoaded() {
    while (m_loading) {
        m_watcher->waitForFinished();
        backgroundDone(); // the watcher's finished signal is queued: apply the result now
    }
}

void ResultsController::stopBackground() {
    if (!m_loading)
        return;
    m_cancel->store(true);
    m_watcher->waitForFinished();
    m_loading = false;
    m_reloadAgain = false;
    emit loadingChanged(false);
}

void ResultsController::apply(const Loaded& loaded) {
    if (!loaded.snapshots) {
        const Diagnostic& error = *loaded.error;
        m_latestShown = false;
        if (error.code == "CANCELLED" || error.code == "TIMEOUT") {
            const double seconds = double(m_project->queryTimeout().count()) / 1000.0;
            m_stopMessage =
                error.code == "CANCELLED"
                    ? tr("Query cancelled: the target tables were not read. They are read again at the next "
                         "change.")
                    : tr("Query stopped after %1 s (the time limit): the target tables were not read — a "
                         "view "
                         "in this project may never end. They are read again at the next change.")
                          .arg(seconds);
            m_snapshots.clear();
            emit snapshotsChanged(m_snapshots);
            emit loadStopped(m_stopMessage);
        }
        m_description = tr("Cannot show the targets: %1").arg(QString::fromStdString(error.message));
        emit descriptionChanged(m_description);
        return;
    }
    const bool same = m_latestShown && loaded.snapshots->isSharedWith(m_snapshots) && m_stopMessage.isEmpty();
    m_latestShown = loaded.shown == loaded.lastId;
    m_stopMessage.clear();
    m_snapshots = *loaded.snapshots;
    if (loaded.lastId == 0)
        m_description = tr("No update yet: press Step (F10) to deliver the first event");
    else if (loaded.shown == loaded.lastId)
        m_description = tr("After update %1 (the latest)").arg(loaded.lastId);
    else
        m_description = tr("After update %1 of %2 — as it was then; \"Rewind Here\" in the timeline discards "
                           "the later ones")
                            .arg(loaded.shown)
                            .arg(loaded.lastId);
    if (!same) // an edit that left every target as it was: the views keep their state
        emit snapshotsChanged(m_snapshots);
    emit descriptionChanged(m_description);
}

} // namespace cdc::ui
