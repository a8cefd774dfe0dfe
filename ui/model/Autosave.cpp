// Why the copy is made a few pages per event-loop turn on the GUI thread, from the GUI's own connection,
// rather than on a worker thread with a connection of its own: a second connection holding the working
// copy open keeps the GUI's from leaving WAL mode, which every undo does (storage::copyDatabase), so undo
// would wait for the autosave — and a change made by another connection makes SQLite start the copy over.
// Through the same connection, edits made between steps reach the copy as they happen, and a step of
// kPagesPerStep pages takes a few milliseconds, so a large project never freezes the window.
#include "ui/model/Autosave.h"

#include "ui/model/AtomicSave.h"
#include "ui/model/NodePositions.h"
#include "ui/model/Project.h"
#include "ui/model/ProjectStore.h"

#include <QLockFile>
#include <QUuid>

namespace cdc::ui {

Autosave::Autosave(Project* project, QObject* parent)
    : QObject(parent), m_project(project), m_id(QUuid::createUuid().toString(QUuid::WithoutBraces)),
      m_lock(std::make_unique<QLockFile>(recoverystore::lockPath(m_id))) {
    // Held for the whole session: an entry whose lock is free belongs to an instance that is gone.
    m_lock->setStaleLockTime(0);
    if (!m_lock->tryLock(0))
        qWarning("cannot lock the recovery entry %s", qPrintable(m_id));
    m_timer.setInterval(kDefaultIntervalMs);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        if (m_dirty)
            saveNow();
    });
    m_timer.start();
    m_stepper.setInterval(0);
    connect(&m_stepper, &QTimer::timeout, this, &Autosave::step);

    const auto touched = [this] { m_dirty = true; };
    connect(project->undoStack(), &QUndoStack::indexChanged, this, touched);
    connect(project->document(), &PipelineDocument::textChanged, this, touched);
    connect(project, &Project::dataChanged, this, touched);
    connect(project, &Project::modifiedChanged, this, [this](bool modified) {
        if (!modified)
            discard();
    });
    connect(project, &Project::workingCopyClosing, this, &Autosave::stop);
    connect(project, &Project::projectReplaced, this, &Autosave::discard);
}

Autosave::~Autosave() {
    stop();
}

void Autosave::saveNow() {
    if (!m_project->isModified())
        return;
    // During an update the engine writes through its own connection: the copy would start over at each
    // write, and the update's end asks again.
    if (m_job || m_project->isBusy()) {
        m_pending = true;
        return;
    }
    start();
}

void Autosave::start() {
    m_dirty = false;
    m_pending = false;
    auto copy = atomicsave::begin(databasePath());
    if (!copy) {
        emit failed(QString::fromStdString(copy.error().message));
        return;
    }
    m_copy = std::make_unique<storage::Database>(std::move(copy).value());
    auto job = storage::IncrementalCopy::start(m_project->db(), *m_copy);
    if (!job) {
        stop();
        emit failed(QString::fromStdString(job.error().message));
        return;
    }
    m_job.emplace(std::move(job).value());
    m_stepper.start();
}

void Autosave::step() {
    if (!m_job)
        return;
    if (m_project->isBusy()) {
        stop();
        m_pending = true;
        return;
    }
    auto done = m_job->step(kPagesPerStep);
    if (!done) {
        stop();
        emit failed(QString::fromStdString(done.error().message));
    } else if (done.value()) {
        complete();
    }
}

void Autosave::complete() {
    m_stepper.stop();
    m_job.reset();
    // The editor's text lives in the document until a save or an update stores it: the copy gets it here,
    // leaving the working copy (and its undo history) alone.
    const auto store = [this](const char* key, const QString& value) {
        return projectstore::setValue(*m_copy, key, value);
    };
    Status status = store(projectstore::kPipelineKey, m_project->pipelineText());
    if (status)
        status = store(projectstore::kNodePositionsKey,
                       NodePositions::toJson(m_project->nodePositions()->positions()));
    if (!status)
        stop();
    else
        status = atomicsave::commit(std::move(*m_copy), databasePath());
    m_copy.reset();
    if (!status) {
        emit failed(QString::fromStdString(status.error().message));
    } else if (!recoverystore::writeSidecar({m_id, databasePath(), m_project->filePath(),
                                             m_project->displayName(), QDateTime::currentDateTimeUtc()})) {
        emit failed(tr("cannot write the recovery information for %1").arg(m_project->displayName()));
    } else {
        emit saved(databasePath());
    }
    if (m_pending)
        saveNow();
}

void Autosave::stop() {
    m_stepper.stop();
    // The copy refers to both connections: it goes first.
    m_job.reset();
    if (m_copy) {
        m_copy.reset();
        atomicsave::cancel(databasePath());
    }
}

void Autosave::discard() {
    stop();
    m_dirty = false;
    m_pending = false;
    recoverystore::remove(m_id);
}

void Autosave::finishNow() {
    while (m_job)
        step();
}

} // namespace cdc::ui
