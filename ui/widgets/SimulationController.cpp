// The run itself is the model's (SimulationRunner: parse now, refuse a pipeline with errors, record the
// run's issues in the document); this controller gives it actions, progress and status messages.
#include "ui/widgets/SimulationController.h"

#include "ui/model/PipelineDocument.h"
#include "ui/model/Project.h"
#include "ui/model/ProjectStore.h"
#include "ui/model/SimulationRunner.h"
#include "ui/widgets/AdvanceClockDialog.h"

#include <QAction>
#include <QDateTime>
#include <QInputDialog>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QTimeZone>
#include <QWidget>

namespace cdc::ui {

namespace {
QAction* makeAction(QObject* parent, const QString& icon, const QString& text, const QKeySequence& key,
                    const QString& tip) {
    auto* a = new QAction(QIcon(icon), text, parent);
    a->setShortcut(key);
    a->setToolTip(QStringLiteral("%1 (%2)").arg(tip, key.toString(QKeySequence::NativeText)));
    a->setStatusTip(tip);
    return a;
}
} // namespace

SimulationController::SimulationController(Project* project, QWidget* window)
    : QObject(window), m_project(project), m_window(window), m_runner(new SimulationRunner(project, this)),
      m_clockLabel(new QLabel(window)), m_progress(new QProgressBar(window)) {
    m_update = makeAction(this, QStringLiteral(":/icons/update.svg"), tr("Run &Update"),
                          QKeySequence(Qt::CTRL | Qt::Key_Return),
                          tr("Run one pipeline update over the rows already delivered"));
    m_fullRefresh = makeAction(this, QStringLiteral(":/icons/full-refresh.svg"), tr("Run &Full Refresh"),
                               QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R),
                               tr("Rebuild every target from all the rows delivered so far (after changing a "
                                  "target's keys, columns, sequence or SCD type)"));
    m_step = makeAction(this, QStringLiteral(":/icons/step.svg"), tr("&Step"), QKeySequence(Qt::Key_F10),
                        tr("Deliver the next event and run one update"));
    m_deliverN =
        makeAction(this, QStringLiteral(":/icons/deliver-all.svg"), tr("Deliver &N Events…"),
                   QKeySequence(Qt::SHIFT | Qt::Key_F10), tr("Deliver the next N events in one update"));
    m_deliverAll = makeAction(
        this, QStringLiteral(":/icons/deliver-all.svg"), tr("Deliver &All as One Update"),
        QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Return), tr("Deliver every queued event in one update"));
    m_runToEnd =
        makeAction(this, QStringLiteral(":/icons/run-all.svg"), tr("Run to &End"), QKeySequence(Qt::Key_F5),
                   tr("Deliver the queued events one per update until the queue is empty"));
    m_cancel =
        makeAction(this, QStringLiteral(":/icons/cancel.svg"), tr("&Cancel Update"),
                   QKeySequence(Qt::Key_Escape), tr("Stop the running updates; the current one rolls back"));
    m_advanceClock = makeAction(this, QStringLiteral(":/icons/clock.svg"), tr("Advance &Clock…"),
                                QKeySequence(Qt::CTRL | Qt::Key_T),
                                tr("Move the simulated clock forward (drives tombstone GC)"));
    m_cancel->setEnabled(false);

    connect(m_update, &QAction::triggered, this, &SimulationController::runUpdate);
    connect(m_fullRefresh, &QAction::triggered, this, &SimulationController::fullRefresh);
    connect(m_step, &QAction::triggered, this, &SimulationController::step);
    connect(m_deliverAll, &QAction::triggered, this, &SimulationController::deliverAll);
    connect(m_runToEnd, &QAction::triggered, this, &SimulationController::runToEnd);
    connect(m_cancel, &QAction::triggered, m_runner, &SimulationRunner::cancel);
    connect(m_deliverN, &QAction::triggered, this, [this] {
        const int queued = queuedCount();
        if (queued == 0) {
            emit statusMessage(tr("The event queue is empty"));
            return;
        }
        bool ok = false;
        const int n =
            QInputDialog::getInt(m_window, tr("Deliver Events"), tr("Events to deliver in one update:"),
                                 std::min(2, queued), 1, queued, 1, &ok);
        if (ok)
            deliver(n);
    });
    connect(m_advanceClock, &QAction::triggered, this, [this] {
        AdvanceClockDialog dialog(m_project->clock(), m_window);
        if (dialog.exec() == QDialog::Accepted)
            advanceClock(dialog.seconds());
    });

    m_progress->setMaximumWidth(220);
    m_progress->setTextVisible(true);
    m_progress->hide();
    m_clockLabel->setToolTip(tr("The simulated clock: each update advances it by one tick; "
                                "Advance Clock (Ctrl+T) jumps ahead"));
    m_clockLabel->setContentsMargins(8, 0, 8, 0);

    connect(m_runner, &SimulationRunner::started, this, [this] { setRunning(true); });
    connect(m_runner, &SimulationRunner::progress, this,
            [this](const QString& flow, qint64 done, qint64 total, int batch, int batches) {
                m_progress->setRange(0, int(std::max<qint64>(total, 1)));
                m_progress->setValue(int(std::min(done, std::max<qint64>(total, 1))));
                m_progress->setFormat(
                    batches > 1 ? tr("Update %1/%2: %3").arg(batch + 1).arg(batches).arg(flow) : flow);
            });
    connect(m_runner, &SimulationRunner::finished, this,
            [this](int updates, const std::optional<Diagnostic>& error) {
                setRunning(false);
                const auto& reports = m_runner->lastReports();
                const int warnings = m_project->document()->runtimeWarningCount();
                if (error) {
                    emit statusMessage(updates > 0 ? tr("%n update(s) done, then: %1", nullptr, updates)
                                                         .arg(QString::fromStdString(error->format()))
                                                   : tr("Update failed, nothing changed: %1")
                                                         .arg(QString::fromStdString(error->format())),
                                       10000);
                } else {
                    const QString done = updates == 1 && !reports.empty()
                                             ? tr("Update %1 done").arg(reports.back().updateId)
                                             : tr("%n update(s) done", nullptr, updates);
                    emit statusMessage(warnings == 0 ? done
                                       : warnings == 1
                                           ? tr("%1, 1 warning: see Issues").arg(done)
                                           : tr("%1, %2 warnings: see Issues").arg(done).arg(warnings));
                }
                emit runFinished(updates, !error);
            });
    connect(project, &Project::dataChanged, this, &SimulationController::refreshClock);
    refreshClock();
}

int SimulationController::queuedCount() const {
    auto count = projectstore::queuedCount(m_project->db());
    return count ? int(*count) : 0;
}

void SimulationController::refreshClock() {
    const QDateTime t = QDateTime::fromSecsSinceEpoch(m_project->clock(), Qt::UTC);
    m_clockLabel->setText(tr("Clock: %1").arg(t.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'"))));
    const bool any = queuedCount() > 0;
    if (!m_runner->isRunning()) {
        m_step->setEnabled(any);
        m_deliverN->setEnabled(any);
        m_deliverAll->setEnabled(any);
        m_runToEnd->setEnabled(any);
    }
}

void SimulationController::setRunning(bool running) {
    for (auto* a : {m_update, m_fullRefresh, m_step, m_deliverN, m_deliverAll, m_runToEnd, m_advanceClock})
        a->setEnabled(!running);
    m_cancel->setEnabled(running);
    m_progress->setVisible(running);
    if (running) {
        m_progress->setRange(0, 0);
        m_progress->setFormat(tr("Updating…"));
    } else {
        refreshClock();
    }
}

bool SimulationController::start(const QList<int>& batches, const QString& text, bool fullRefresh) {
    if (!m_runner->isRunning() && m_runGuard && !m_runGuard())
        return false;
    Diagnostic error;
    if (!m_runner->start(batches, text, &error, fullRefresh)) {
        if (error.code == "PIPELINE_HAS_ERRORS")
            emit statusMessage(tr("The pipeline has errors: fix them first (see Issues)"), 8000);
        else
            emit statusMessage(QString::fromStdString(error.message));
        return false;
    }
    emit statusMessage(tr("%1…").arg(text), 0);
    return true;
}

bool SimulationController::runUpdate() {
    return start({0}, tr("Run update"));
}

bool SimulationController::fullRefresh() {
    return start({0}, tr("Full refresh"), true);
}

bool SimulationController::step() {
    if (queuedCount() == 0) {
        emit statusMessage(tr("The event queue is empty: nothing to step"));
        return false;
    }
    return start({1}, tr("Step"));
}

bool SimulationController::deliver(int count) {
    count = std::min(count, queuedCount());
    if (count <= 0) {
        emit statusMessage(tr("The event queue is empty"));
        return false;
    }
    return start({count}, tr("Deliver %n event(s)", nullptr, count));
}

bool SimulationController::deliverAll() {
    return deliver(queuedCount());
}

bool SimulationController::runToEnd() {
    const int queued = queuedCount();
    if (queued == 0) {
        emit statusMessage(tr("The event queue is empty"));
        return false;
    }
    return start(QList<int>(queued, 1), tr("Run to end (%n update(s))", nullptr, queued));
}

bool SimulationController::advanceClock(qint64 seconds) {
    if (auto st = m_project->advanceClock(seconds); !st) {
        emit statusMessage(QString::fromStdString(st.error().message));
        return false;
    }
    emit statusMessage(tr("Clock advanced by %1 to %2")
                           .arg(QLocale().toString(seconds) + tr(" s"),
                                QDateTime::fromSecsSinceEpoch(m_project->clock(), Qt::UTC)
                                    .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'"))));
    return true;
}

void SimulationController::waitForFinished() {
    m_runner->waitForFinished();
}

} // namespace cdc::ui
