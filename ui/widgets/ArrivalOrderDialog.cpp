// The explorer runs on a copy of the working database taken when Run is pressed, so edits and updates made
// meanwhile change nothing of the run (and the run changes nothing of them); its progress comes back from the
// worker threads as queued calls.
#include "ui/widgets/ArrivalOrderDialog.h"

#include "ui/model/Project.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QStyle>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <climits>

namespace cdc::ui {

ArrivalOrderDialog::ArrivalOrderDialog(Project* project, QWidget* parent)
    : QDialog(parent), m_project(project), m_orders(new QSpinBox(this)), m_seed(new QSpinBox(this)),
      m_maxUpdates(new QSpinBox(this)), m_run(new QPushButton(tr("&Run"), this)),
      m_cancel(new QPushButton(tr("&Cancel"), this)), m_load(new QPushButton(tr("&Load into Queue"), this)),
      m_progress(new QProgressBar(this)), m_summary(new QLabel(this)), m_report(new QPlainTextEdit(this)) {
    setWindowTitle(tr("Test Arrival Orders"));
    setObjectName(QStringLiteral("arrivalOrderDialog"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("Replays the project's delivered and queued events in random arrival orders, "
                                "split into updates at the project's clock, and compares every target with "
                                "the in-order run. The project itself is not changed."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    m_orders->setRange(1, 100000);
    m_orders->setValue(200);
    m_orders->setAccelerated(true);
    m_orders->setObjectName(QStringLiteral("ordersBox"));
    m_seed->setRange(0, INT_MAX);
    m_seed->setValue(1);
    m_seed->setObjectName(QStringLiteral("seedBox"));
    m_seed->setToolTip(tr("The same seed draws the same arrival orders"));
    m_maxUpdates->setRange(1, 100);
    m_maxUpdates->setValue(4);
    m_maxUpdates->setObjectName(QStringLiteral("maxUpdatesBox"));
    m_maxUpdates->setToolTip(tr("Each arrival order is split into 1 to this many updates"));
    auto* form = new QFormLayout;
    form->addRow(tr("Arrival &orders:"), m_orders);
    form->addRow(tr("&Seed:"), m_seed);
    form->addRow(tr("&Updates per replay, at most:"), m_maxUpdates);
    layout->addLayout(form);

    m_progress->setObjectName(QStringLiteral("progressBar"));
    m_progress->setTextVisible(true);
    m_progress->setFormat(tr("%v of %m orders"));
    m_progress->setValue(0);
    layout->addWidget(m_progress);

    m_summary->setObjectName(QStringLiteral("summaryLabel"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::PlainText);
    layout->addWidget(m_summary);
    m_report->setObjectName(QStringLiteral("reportView"));
    m_report->setReadOnly(true);
    m_report->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_report->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_report->setPlaceholderText(tr("Press Run to replay the events in shuffled orders."));
    layout->addWidget(m_report, 1);

    m_run->setObjectName(QStringLiteral("runButton"));
    m_run->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    m_run->setDefault(true);
    m_cancel->setObjectName(QStringLiteral("cancelButton"));
    m_cancel->setIcon(style()->standardIcon(QStyle::SP_BrowserStop));
    m_cancel->setEnabled(false);
    m_load->setObjectName(QStringLiteral("loadButton"));
    m_load->setIcon(style()->standardIcon(QStyle::SP_ArrowDown));
    m_load->setToolTip(tr("Rewind the project to the start and queue only the counterexample's events, in "
                          "the order they arrived, to step through them (Undo restores the project)"));
    m_load->setEnabled(false);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_run, QDialogButtonBox::ActionRole);
    buttons->addButton(m_cancel, QDialogButtonBox::ActionRole);
    buttons->addButton(m_load, QDialogButtonBox::ActionRole);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_run, &QPushButton::clicked, this, &ArrivalOrderDialog::run);
    connect(m_cancel, &QPushButton::clicked, this, &ArrivalOrderDialog::cancel);
    connect(m_load, &QPushButton::clicked, this, &ArrivalOrderDialog::loadCounterexample);
    connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this, &ArrivalOrderDialog::takeOutcome);
    resize(640, 520);
}

ArrivalOrderDialog::~ArrivalOrderDialog() {
    cancel();
    m_watcher.waitForFinished();
}

bool ArrivalOrderDialog::run() {
    if (isRunning())
        return false;
    const auto refuse = [this](const QString& why) {
        m_summary->setText(why);
        emit statusMessage(why);
        return false;
    };
    if (m_project->isBusy())
        return refuse(tr("An update is running: test the arrival orders when it has finished."));
    if (m_project->document()->hasErrors())
        return refuse(tr("The pipeline has errors (see Issues): fix them to test its arrival orders."));
    auto copy = m_project->snapshot();
    if (!copy)
        return refuse(QString::fromStdString(copy.error().format()));
    auto queued = projectstore::events(m_project->db());
    if (!queued)
        return refuse(QString::fromStdString(queued.error().format()));

    m_options = {};
    m_options.orders = m_orders->value();
    m_options.seed = static_cast<std::uint64_t>(m_seed->value());
    m_options.maxUpdates = m_maxUpdates->value();
    m_options.start =
        projectstore::intValue(m_project->db(), projectstore::kClockStartKey, projectstore::kDefaultClock);
    m_options.tick = m_project->clockTick();
    for (const QueuedEvent& e : *queued)
        if (!e.isStep()) // a step is a script: only rows are events to reorder
            m_options.pending.push_back({e.source.toStdString(), 0, e.values});
    m_cancelFlag = std::make_shared<std::atomic<bool>>(false);
    m_options.cancel = m_cancelFlag.get();
    QPointer<ArrivalOrderDialog> self(this);
    m_options.progress = [self](int done, int total) {
        QMetaObject::invokeMethod(
            self.data(),
            [self, done, total] {
                if (self && self->isRunning()) {
                    self->m_progress->setMaximum(total);
                    self->m_progress->setValue(std::max(self->m_progress->value(), done));
                }
            },
            Qt::QueuedConnection);
    };
    m_counterexample.reset();
    m_report->clear();
    m_summary->setText(tr("Replaying %n arrival order(s)…", nullptr, m_options.orders));
    m_progress->setRange(0, m_options.orders);
    m_progress->setValue(0);
    m_progress->setFormat(tr("%v of %m orders"));
    setRunning(true);
    pipeline::Pipeline declared = m_project->document()->pipeline();
    m_watcher.setFuture(QtConcurrent::run([db = std::move(copy).value(), declared = std::move(declared),
                                           options = m_options, flag = m_cancelFlag]() -> Outcome {
        Outcome out;
        out.report = engine::exploreArrivalOrders(*db, declared, options);
        if (auto tables = engine::streamSourceTables(*db, declared))
            out.streamTables = std::move(tables).value();
        return out;
    }));
    return true;
}

void ArrivalOrderDialog::cancel() {
    if (m_cancelFlag)
        m_cancelFlag->store(true);
}

void ArrivalOrderDialog::reject() {
    cancel(); // closing stops the run; its result is dropped when it ends
    QDialog::reject();
}

void ArrivalOrderDialog::takeOutcome() {
    if (m_watcher.future().resultCount() == 0)
        return;
    Outcome out = m_watcher.result();
    setRunning(false);
    if (!out.report) {
        const bool cancelled = out.report.error().code == "CANCELLED";
        m_summary->setText(
            cancelled ? tr("Cancelled.")
                      : tr("The replay failed: %1").arg(QString::fromStdString(out.report.error().format())));
        emit statusMessage(cancelled ? tr("Arrival-order test cancelled") : tr("Arrival-order test failed"));
        emit finished();
        return;
    }
    const engine::ExplorerReport& report = out.report.value();
    const QString text = QString::fromStdString(engine::reportText(report, m_options));
    m_report->setPlainText(text);
    // A divergence ends the run at the first order that differs.
    m_progress->setValue(report.ordersRun);
    if (report.counterexample)
        m_progress->setFormat(tr("order %v of %m differs"));
    m_streamTables = std::move(out.streamTables);
    m_counterexample = report.counterexample;
    m_load->setEnabled(m_counterexample.has_value());
    if (m_counterexample)
        m_summary->setText(tr("Arrival order matters: %1 event(s) in %2 update(s) give a different table. "
                              "Load into Queue to step through them.")
                               .arg(m_counterexample->events.size())
                               .arg(m_counterexample->arrival.updates));
    else
        m_summary->setText(tr("Arrival order does not matter: identical in %1 of %2 arrival orders.")
                               .arg(report.identical)
                               .arg(report.ordersRun));
    emit statusMessage(text.section(QLatin1Char('\n'), 0, 0));
    emit finished();
}

bool ArrivalOrderDialog::loadCounterexample() {
    if (!m_counterexample || isRunning())
        return false;
    if (auto st = m_project->loadCounterexample(*m_counterexample, m_streamTables); !st) {
        m_summary->setText(QString::fromStdString(st.error().format()));
        return false;
    }
    m_load->setEnabled(false);
    emit statusMessage(
        tr("Loaded the counterexample: %n event(s) queued in arrival order. Step replays them; "
           "Undo restores the project.",
           nullptr, int(m_counterexample->arrival.events.size())),
        10000);
    return true;
}

void ArrivalOrderDialog::setRunning(bool running) {
    m_run->setEnabled(!running);
    m_cancel->setEnabled(running);
    m_orders->setEnabled(!running);
    m_seed->setEnabled(!running);
    m_maxUpdates->setEnabled(!running);
    if (running)
        m_load->setEnabled(false);
}

} // namespace cdc::ui
