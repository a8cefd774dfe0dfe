// Execute is one undo step (the working copy as it was before the script), run off the GUI thread with
// Cancel. Queue as Events captures rows only of tables that existed before the script ran, so it says so when
// it finds none.
#include "ui/widgets/SourceSqlDialog.h"

#include "core/sql/SqlApi.h"
#include "ui/model/Project.h"
#include "ui/model/SourceScripts.h"
#include "ui/model/ThemeColors.h"
#include "ui/widgets/CodeEditor.h"

#include "core/common/VolumeRoot.h"
#include "core/storage/QueryGuard.h"

#include <QDialogButtonBox>
#include <QEventLoop>
#include <QFutureWatcher>
#include <QLabel>
#include <QProgressDialog>
#include <QPushButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <memory>

namespace cdc::ui {

SourceSqlDialog::SourceSqlDialog(Project* project, QWidget* parent)
    : QDialog(parent), m_project(project), m_editor(new CodeEditor(this)), m_message(new QLabel(this)) {
    setWindowTitle(tr("Source SQL"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(
        tr("Spark SQL for the source side: CREATE SCHEMA, CREATE TABLE, INSERT, UPDATE, DELETE, "
           "TRUNCATE, DROP TABLE. <b>Queue as Events</b> puts the inserted rows in the event queue "
           "instead of the tables; <b>Queue as Step</b> queues the whole script as one event, such as the "
           "next snapshot of a table."),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    layout->addWidget(m_editor, 1);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_message);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto* queue = buttons->addButton(tr("Queue as Events"), QDialogButtonBox::ActionRole);
    auto* step = buttons->addButton(tr("Queue as Step"), QDialogButtonBox::ActionRole);
    step->setObjectName(QStringLiteral("queueAsStepButton"));
    step->setToolTip(
        tr("Deliver this whole script as one event, in queue order (Step runs it, then an update)"));
    auto* run = buttons->addButton(tr("Execute"), QDialogButtonBox::ActionRole);
    run->setObjectName(QStringLiteral("executeButton"));
    run->setDefault(true);
    connect(run, &QPushButton::clicked, this, [this] {
        if (execute())
            accept();
    });
    connect(queue, &QPushButton::clicked, this, [this] {
        if (queueAsEvents())
            accept();
    });
    connect(step, &QPushButton::clicked, this, [this] {
        if (queueAsStep())
            accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    m_editor->setText(
        QStringLiteral("CREATE TABLE my_source (id INT, value STRING, op STRING, seq BIGINT);\n"));
    resize(720, 420);
}

bool SourceSqlDialog::report(const Status& status) {
    if (status) {
        m_message->clear();
        m_editor->setDiagnostics({});
        return true;
    }
    m_message->setText(QStringLiteral("<span style='color:%1'>%2</span>")
                           .arg(themecolors::error(palette()).name(),
                                QString::fromStdString(status.error().format()).toHtmlEscaped()));
    m_editor->setDiagnostics({status.error()});
    m_editor->goToLocation(status.error().location);
    return false;
}

template <class R>
R SourceSqlDialog::runCancellable(const QString& label, std::function<R(storage::Database&)> work) {
    if (m_project->isBusy())
        return Diagnostic::error("BUSY", "an update is running; wait for it or cancel it first");
    const std::string path = m_project->workingPath().toStdString();
    const std::string volumes = m_project->volumesFolder().toStdString();
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    QProgressDialog progress(label, tr("Cancel"), 0, 0, this);
    progress.setObjectName(QStringLiteral("sourceSqlProgress"));
    progress.setWindowTitle(tr("Source SQL"));
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(400);
    progress.setAutoClose(false);
    progress.setAutoReset(false);
    connect(&progress, &QProgressDialog::canceled, &progress, [cancel] { cancel->store(true); });
    QFutureWatcher<R> watcher;
    QEventLoop loop;
    connect(&watcher, &QFutureWatcher<R>::finished, &loop, &QEventLoop::quit);
    m_project->setBusy(true);
    watcher.setFuture(QtConcurrent::run([path, volumes, cancel, work = std::move(work)]() -> R {
        auto db = storage::Database::open(path, storage::Database::Mode::ReadWrite);
        if (!db)
            return db.error();
        db->setVolumes(VolumeRoot(volumes)); // the project's folder, not the working copy's
        // The guard outlives the work's transaction: a stopped script is rolled back whole.
        const storage::QueryGuard guard(*db, "source SQL", {Project::kUpdateTimeout, cancel.get()});
        return guard.explain(work(*db));
    }));
    if (!watcher.isFinished())
        loop.exec();
    m_project->setBusy(false);
    return watcher.result();
}

bool SourceSqlDialog::execute() {
    const std::string text = m_editor->text().toStdString();
    auto before = m_project->snapshot();
    if (!before)
        return report(before.error());
    const Status ran =
        runCancellable<Status>(tr("Running the source SQL…"), [text](storage::Database& db) -> Status {
            auto tx = storage::Transaction::begin(db, "cdc_gui_source_sql");
            if (!tx)
                return tx.error();
            CDC_TRY(sql::executeSourceScript(db, text, "source.sql"));
            return tx->commit();
        });
    if (!ran)
        return report(ran);
    // One undo step: the working copy as it was before the script.
    m_project->pushExternalChange(tr("Run source SQL"), std::move(before).value());
    return report(ran);
}

bool SourceSqlDialog::queueAsEvents() {
    const QString text = m_editor->text();
    auto events = runCancellable<Result<QList<QueuedEvent>>>(
        tr("Reading the rows the SQL inserts…"), [text](storage::Database& db) {
            return sourcescripts::captureEvents(db, text, QStringLiteral("source.sql"));
        });
    if (!events)
        return report(events.error());
    if (events->isEmpty())
        return report(Diagnostic::error("NO_ROWS", "the SQL inserts no rows into existing source tables"));
    return report(m_project->appendEvents(*events, tr("Queue %n event(s)", nullptr, int(events->size()))));
}

bool SourceSqlDialog::queueAsStep() {
    const QString text = m_editor->text();
    auto step = runCancellable<Result<QueuedEvent>>(tr("Checking the step…"), [text](storage::Database& db) {
        return sourcescripts::captureStep(db, text, QStringLiteral("source.sql"));
    });
    if (!step)
        return report(step.error());
    return report(m_project->appendEvents({*step}, tr("Queue step")));
}

} // namespace cdc::ui
