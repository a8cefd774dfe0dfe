// Reloads on every data change and every clean parse; when the loaded snapshots are the very ones
// shown, nothing is emitted, so the views keep selection and scroll through edits that touch no target.
#include "ui/widgets/ResultsController.h"

#include "core/engine/Engine.h"
#include "ui/model/PipelineDocument.h"
#include "ui/model/Project.h"
#include "ui/model/TargetHistory.h"

namespace cdc::ui {

ResultsController::ResultsController(Project* project, QObject* parent)
    : QObject(parent), m_project(project) {
    connect(project, &Project::dataChanged, this, &ResultsController::reload);
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

void ResultsController::showUpdate(qint64 updateId) {
    if (updateId == m_updateId)
        return;
    m_updateId = updateId;
    reload();
}

void ResultsController::reload() {
    auto last = engine::lastUpdateId(m_project->db());
    const qint64 lastId = last ? *last : 0;
    const qint64 shown = m_updateId < 0 || m_updateId > lastId ? lastId : m_updateId;
    // Right after an update the shown snapshots are of the update before: the loader patches them
    // with the new update's changes instead of re-reading every target.
    auto loaded = targethistory::snapshotsAt(m_project->db(), targetOrder(m_project->document()->pipeline()),
                                             shown, m_latestShown ? m_snapshots : QList<TargetSnapshot>());
    const bool same = m_latestShown && loaded.ok() && loaded->isSharedWith(m_snapshots);
    m_latestShown = loaded.ok() && shown == lastId;
    if (!loaded) {
        m_description = tr("Cannot show the targets: %1").arg(QString::fromStdString(loaded.error().message));
        emit descriptionChanged(m_description);
        return;
    }
    m_snapshots = *loaded;
    if (lastId == 0)
        m_description = tr("No update yet: press Step (F10) to deliver the first event");
    else if (shown == lastId)
        m_description = tr("After update %1 (the latest)").arg(lastId);
    else
        m_description = tr("After update %1 of %2 — as it was then; \"Rewind Here\" in the timeline discards "
                           "the later ones")
                            .arg(shown)
                            .arg(lastId);
    if (!same) // an edit that left every target as it was: the views keep their state
        emit snapshotsChanged(m_snapshots);
    emit descriptionChanged(m_description);
}

} // namespace cdc::ui
