// The worker opens its own connection on the working file (WAL lets the GUI keep reading) and never
// touches Project: progress comes back through queued calls guarded by a QPointer, and the undo step
// (RunCommand, or a whole copy for runs that change the schema) is pushed on the GUI thread, in complete().
#include "ui/model/SimulationRunner.h"

#include "core/python/PythonRunner.h"
#include "core/storage/Database.h"
#include "ui/model/PipelineDocument.h"
#include "ui/model/Project.h"
#include "ui/model/ProjectStore.h"
#include "ui/model/RunCommand.h"

#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

namespace cdc::ui {

using storage::Database;

SimulationRunner::SimulationRunner(Project* project, QObject* parent)
    : QObject(parent), m_project(project), m_watcher(new QFutureWatcher<Outcome>(this)) {
    connect(m_watcher, &QFutureWatcher<Outcome>::finished, this, [this] { complete(m_watcher->result()); });
}

SimulationRunner::~SimulationRunner() {
    if (m_running) {
        cancel();
        m_watcher->waitForFinished();
    }
    m_checkpoint.waitForFinished(); // before the project may remove its working copy
}

void SimulationRunner::cancel() {
    if (m_cancel)
        m_cancel->store(true);
}

void SimulationRunner::waitForFinished() {
    if (!m_running)
        return;
    m_watcher->waitForFinished();
    // The watcher's finished signal is queued: apply the outcome now.
    if (m_running)
        complete(m_watcher->result());
}

bool SimulationRunner::start(const QList<int>& batches, const QString& undoText, Diagnostic* error,
                             bool fullRefresh) {
    const auto fail = [error](Diagnostic d) {
        if (error)
            *error = std::move(d);
        return false;
    };
    if (m_running)
        return fail(Diagnostic::error("BUSY", "an update is already running"));
    if (batches.isEmpty())
        return fail(Diagnostic::error("NO_EVENTS", "there are no events to deliver"));
    PipelineDocument* document = m_project->document();
    document->reparseNow();
    if (document->hasErrors())
        return fail(
            Diagnostic::error("PIPELINE_HAS_ERRORS", "the pipeline has errors: fix them first (see Issues)"));
    // Running a Python pipeline runs its code: only once the user has trusted it.
    if (document->isPython() && !m_project->isPythonTrusted())
        return fail(Diagnostic::error("PYTHON_NOT_TRUSTED",
                                      "the pipeline is a Python program: trust its file before running it"));
    // The worker thread gets its own copy: typing may change the document while it runs.
    const pipeline::Pipeline pipeline = document->pipeline();
    const std::string pythonText = document->isPython() ? document->text().toStdString() : std::string();
    if (auto st = m_project->storeDocument(); !st)
        return fail(st.error());
    int events = 0;
    for (int count : batches)
        events += count;
    auto before = m_project->runUndoPoint(pipeline, events, fullRefresh);
    if (!before)
        return fail(before.error());
    m_before = std::static_pointer_cast<void>(std::make_shared<RunUndoPoint>(std::move(before).value()));
    m_undoText = undoText;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_reports.clear();
    m_running = true;
    m_project->setBusy(true);

    const std::string path = m_project->workingPath().toStdString();
    const std::string volumes = m_project->volumesFolder().toStdString();
    const qint64 clock = m_project->clock();
    const qint64 tick = m_project->clockTick();
    auto cancelFlag = m_cancel;
    QPointer<SimulationRunner> self(this);
    emit started(int(batches.size()));
    m_watcher->setFuture(QtConcurrent::run([=]() -> Outcome {
        Outcome out;
        auto db = Database::open(path, Database::Mode::ReadWrite);
        if (!db) {
            out.error = db.error();
            return out;
        }
        // Checkpoints run between this run's updates and, after its last, once its results are shown
        // (complete()): copying the last update's WAL frames into the file is not what the user waits for.
        if (auto st = db->exec("PRAGMA wal_autocheckpoint = 0"); !st) {
            out.error = st.error();
            return out;
        }
        db->setVolumes(VolumeRoot(volumes)); // the project's, not the working copy's temporary folder
        // A Python pipeline runs once per run, as Databricks runs the definitions at each update's start;
        // its snapshot functions are called by the updates through workers running the file again.
        pipeline::Pipeline runPipeline = pipeline;
        python::RunOptions pythonOptions;
        pythonOptions.volumesRoot = volumes;
        pythonOptions.tables = python::catalogColumns(*db);
        python::SnapshotFunctions snapshotFunctions(pythonOptions);
        if (!pythonText.empty()) {
            auto run = python::runPipelineFile(pythonText, PipelineDocument::kPythonFileName, pythonOptions);
            if (auto err = run.parse.firstError()) {
                out.error = std::move(err);
                return out;
            }
            runPipeline = std::move(run.parse.pipeline);
            snapshotFunctions.add(pythonText, PipelineDocument::kPythonFileName, runPipeline);
        }
        for (int b = 0; b < batches.size(); ++b) {
            if (cancelFlag->load()) {
                out.error =
                    Diagnostic::error("CANCELLED", "cancelled after " + std::to_string(b) + " update(s)");
                break;
            }
            const qint64 now = clock + tick * (b + 1);
            engine::UpdateOptions options;
            options.now = now;
            options.cancel = cancelFlag.get();
            // As the CLI's update: a materialized view that never ends stops by itself too (Cancel stops it
            // sooner).
            options.timeout = Project::kUpdateTimeout;
            options.fullRefresh = fullRefresh && b == 0;
            if (!snapshotFunctions.empty())
                options.snapshotFunction = snapshotFunctions.callback();
            options.progress = [self, b, n = int(batches.size())](const std::string& flow, std::int64_t done,
                                                                  std::int64_t total) {
                QMetaObject::invokeMethod(
                    self.data(),
                    [self, flow = QString::fromStdString(flow), done, total, b, n] {
                        if (self)
                            emit self->progress(flow, done, total, b, n);
                    },
                    Qt::QueuedConnection);
            };
            auto tx = storage::Transaction::begin(*db, "cdc_gui_batch");
            if (!tx) {
                out.error = tx.error();
                break;
            }
            if (b == 0 && !projectstore::value(*db, projectstore::kClockStartKey))
                if (auto st =
                        projectstore::setValue(*db, projectstore::kClockStartKey, QString::number(clock));
                    !st) {
                    out.error = st.error();
                    break;
                }
            // The update will take the id after the last one (engine::runUpdate): its deliveries are written
            // with it at once instead of being rewritten after it (assignDeliveries moves them if not).
            auto last = engine::lastUpdateId(*db);
            if (!last) {
                out.error = last.error();
                break;
            }
            const qint64 expectedUpdate = last.value() + 1;
            if (auto delivered = projectstore::deliverEvents(*db, batches[b], expectedUpdate); !delivered) {
                out.error = delivered.error();
                break;
            }
            if (auto st = projectstore::setValue(*db, projectstore::kClockKey, QString::number(now)); !st) {
                out.error = st.error();
                break;
            }
            auto report = engine::runUpdate(*db, runPipeline, options);
            if (!report) {
                out.error = report.error();
                break; // the batch's transaction rolls back: events stay queued
            }
            if (auto st = projectstore::assignDeliveries(*db, report->updateId, expectedUpdate); !st) {
                out.error = st.error();
                break;
            }
            if (auto st = tx->commit(); !st) {
                out.error = st.error();
                break;
            }
            out.reports.push_back(std::move(report).value());
            if (b + 1 < batches.size())
                if (auto st = db->checkpoint(); !st)
                    qWarning("checkpoint after update %d: %s", b + 1, st.error().message.c_str());
        }
        return out;
    }));
    return true;
}

void SimulationRunner::complete(const Outcome& outcome) {
    if (!m_running)
        return;
    m_running = false;
    m_project->setBusy(false);
    m_reports = outcome.reports;
    // The run's own issues replace the previous run's: its updates' warnings (sequence ties, flows the
    // simulator does not run) and the error it stopped on.
    std::vector<Diagnostic> runtime;
    for (const engine::UpdateReport& report : m_reports)
        runtime.insert(runtime.end(), report.warnings.begin(), report.warnings.end());
    if (outcome.error && outcome.error->code != "CANCELLED")
        runtime.push_back(*outcome.error);
    m_project->document()->setRuntimeDiagnostics(runtime);
    auto before = std::static_pointer_cast<RunUndoPoint>(std::exchange(m_before, nullptr));
    if (!outcome.reports.empty())
        m_project->pushRun(m_undoText, std::move(*before));
    for (const auto& r : outcome.reports)
        emit updateDone(r);
    emit finished(int(outcome.reports.size()), outcome.error);
    // Queued: the views repaint with the results before the checkpoint competes with them for the CPU.
    if (!outcome.reports.empty() && !std::exchange(m_checkpointPending, true))
        QMetaObject::invokeMethod(this, &SimulationRunner::checkpointInBackground, Qt::QueuedConnection);
}

void SimulationRunner::waitForCheckpoint() {
    checkpointInBackground();
    m_checkpoint.waitForFinished();
}

void SimulationRunner::checkpointInBackground() {
    if (!std::exchange(m_checkpointPending, false))
        return;
    // Its own short-lived connection: a PASSIVE checkpoint waits for no reader or writer, so the GUI and a
    // next run go on meanwhile (what it cannot copy yet, the next checkpoint does).
    m_checkpoint = QtConcurrent::run([path = m_project->workingPath().toStdString()] {
        auto db = Database::open(path, Database::Mode::ReadWrite);
        if (!db)
            return;
        if (auto st = db->checkpoint(); !st)
            qWarning("checkpoint after a run: %s", st.error().message.c_str());
    });
}

} // namespace cdc::ui
