#include "ui/widgets/results/ProvenancePanel.h"

#include "core/engine/StoredTarget.h"
#include "ui/model/PipelineDocument.h"
#include "ui/model/Project.h"
#include "ui/model/ThemeColors.h"
#include "ui/model/results/ProvenanceModels.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace cdc::ui {

namespace {

QTableView* makeView(QAbstractItemModel* model, const QString& name, QWidget* parent) {
    auto* view = new QTableView(parent);
    view->setObjectName(name);
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setStretchLastSection(true);
    view->setWordWrap(false);
    return view;
}

/// `userId = 123, region = EU` as (column, value) pairs; a piece without `=` is an error.
std::optional<std::vector<std::pair<std::string, std::string>>> keyPairs(const QString& text) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const QString& piece : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const auto eq = piece.indexOf(QLatin1Char('='));
        if (eq <= 0)
            return std::nullopt;
        out.emplace_back(piece.left(eq).trimmed().toStdString(), piece.mid(eq + 1).trimmed().toStdString());
    }
    return out;
}

} // namespace

ProvenancePanel::ProvenancePanel(Project* project, QWidget* parent)
    : QWidget(parent), m_project(project), m_target(new QComboBox(this)), m_key(new QLineEdit(this)),
      m_explain(new QPushButton(QIcon(QStringLiteral(":/icons/explain.svg")), tr("Explain"), this)),
      m_summary(new QLabel(this)), m_notes(new QLabel(this)), m_events(new ProvenanceEventsModel(this)),
      m_origins(new ColumnOriginModel(this)) {
    setObjectName(QStringLiteral("provenancePanel"));
    m_target->setObjectName(QStringLiteral("provenanceTarget"));
    m_target->setToolTip(tr("The AUTO CDC target whose key to explain"));
    m_target->setMinimumContentsLength(14);
    m_key->setObjectName(QStringLiteral("provenanceKey"));
    m_key->setPlaceholderText(tr("key, e.g. userId = 123"));
    m_key->setClearButtonEnabled(true);
    m_key->setToolTip(tr("The key's columns and values: column = value, separated by commas. Selecting a row "
                         "in Target Tables and pressing Ctrl+Shift+Y fills it in."));
    m_explain->setObjectName(QStringLiteral("provenanceExplain"));
    m_explain->setToolTip(tr("Replay the project's updates and tell what became of every event of the key"));
    m_summary->setObjectName(QStringLiteral("provenanceSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setText(
        tr("Select a row in Target Tables and choose Explain Row (Ctrl+Shift+Y), or type a key "
           "above: every event of that key is listed with what became of it and why."));
    m_notes->setObjectName(QStringLiteral("provenanceNotes"));
    m_notes->setWordWrap(true);
    m_notes->hide();
    m_eventsView = makeView(m_events, QStringLiteral("provenanceEvents"), this);
    m_eventsView->setWordWrap(true);
    m_eventsView->setToolTip(
        tr("Click an event to show its source row; click its update to select that update in "
           "the Update Timeline."));
    m_originsView = makeView(m_origins, QStringLiteral("provenanceOrigins"), this);
    m_originsView->setToolTip(
        tr("Which event set each current value; click one to find it among the events."));

    auto* bar = new QHBoxLayout;
    bar->setSpacing(6);
    bar->addWidget(new QLabel(tr("Target:"), this));
    bar->addWidget(m_target);
    bar->addWidget(new QLabel(tr("Key:"), this));
    bar->addWidget(m_key, 1);
    bar->addWidget(m_explain);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_eventsView);
    split->addWidget(m_originsView);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(6);
    layout->addLayout(bar);
    layout->addWidget(m_summary);
    layout->addWidget(m_notes);
    layout->addWidget(split, 1);

    connect(m_explain, &QPushButton::clicked, this, [this] {
        if (isRunning())
            cancel();
        else
            explainTyped();
    });
    connect(m_key, &QLineEdit::returnPressed, this, &ProvenancePanel::explainTyped);
    connect(m_eventsView, &QTableView::clicked, this, &ProvenancePanel::eventClicked);
    connect(m_originsView, &QTableView::clicked, this, [this](const QModelIndex& index) {
        const int row = m_origins->eventRow(index.row());
        if (row >= 0)
            m_eventsView->selectRow(row);
    });
    connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this, &ProvenancePanel::takeResult);
    connect(m_project, &Project::projectReplaced, this, [this] {
        cancel();
        m_events->clear();
        m_origins->clear();
        if (isVisible())
            refreshTargets();
    });
    // The target list is read when the dock is on show (showEvent), not at every change of a hidden one.
    connect(m_project, &Project::dataChanged, this, [this] {
        if (isVisible())
            refreshTargets();
    });
}

void ProvenancePanel::showEvent(QShowEvent* event) {
    refreshTargets();
    QWidget::showEvent(event);
}

ProvenancePanel::~ProvenancePanel() {
    cancel();
    m_watcher.waitForFinished();
}

bool ProvenancePanel::isRunning() const {
    return m_watcher.isRunning();
}

void ProvenancePanel::cancel() {
    if (m_cancelFlag)
        m_cancelFlag->store(true);
}

void ProvenancePanel::refreshTargets() {
    const QString current = m_target->currentText();
    QStringList names;
    {
        const auto guard = m_project->guardQuickRead("listing the targets");
        if (auto targets = engine::storedTargets(m_project->db()))
            for (const engine::StoredTarget& t : *targets)
                if (t.autoCdc())
                    names << QString::fromStdString(t.name);
    }
    QStringList shown;
    for (int i = 0; i < m_target->count(); ++i)
        shown << m_target->itemText(i);
    if (shown == names)
        return;
    m_target->clear();
    m_target->addItems(names);
    if (const int at = m_target->findText(current); at >= 0)
        m_target->setCurrentIndex(at);
}

bool ProvenancePanel::explainTyped() {
    const auto pairs = keyPairs(m_key->text());
    const auto refuse = [this](const QString& why) {
        m_summary->setText(why);
        emit statusMessage(why);
        return false;
    };
    if (m_target->currentText().isEmpty())
        return refuse(tr("No AUTO CDC target has been updated yet: run an update first."));
    if (!pairs || pairs->empty())
        return refuse(tr("Type the key as column = value (for example userId = 123)."));
    auto key = engine::keyFromText(m_project->db(), m_target->currentText().toStdString(), *pairs);
    if (!key)
        return refuse(QString::fromStdString(key.error().message));
    return explain(m_target->currentText(), *key);
}

bool ProvenancePanel::explain(const QString& target, const cdc::Row& key) {
    const auto refuse = [this](const QString& why) {
        m_summary->setText(why);
        emit statusMessage(why);
        return false;
    };
    if (isRunning())
        return false;
    if (m_project->isBusy())
        return refuse(tr("An update is running: explain the row when it has finished."));
    if (m_project->document()->hasErrors())
        return refuse(tr("The pipeline has errors (see Issues): fix them to explain a row."));
    auto copy = m_project->snapshot();
    if (!copy)
        return refuse(QString::fromStdString(copy.error().format()));
    refreshTargets();
    if (const int at = m_target->findText(target, Qt::MatchFixedString); at >= 0)
        m_target->setCurrentIndex(at);
    // Fill in the key as it would be typed, so what is explained is always on show.
    {
        const auto guard = m_project->guardQuickRead("reading the target's key");
        if (auto stored = engine::findStoredTarget(m_project->db(), target.toStdString());
            stored && *stored) {
            QStringList parts;
            const auto names = (*stored)->keyNames();
            for (std::size_t k = 0; k < names.size() && k < key.size(); ++k)
                parts << QStringLiteral("%1 = %2").arg(QString::fromStdString(names[k]),
                                                       QString::fromStdString(displayText(key[k])));
            m_key->setText(parts.join(QStringLiteral(", ")));
        }
    }
    m_cancelFlag = std::make_shared<std::atomic<bool>>(false);
    m_summary->setText(tr("Replaying the project's updates to explain %1 of %2…").arg(m_key->text(), target));
    setRunning(true);
    m_watcher.setFuture(
        QtConcurrent::run([db = std::move(copy).value(), pipeline = m_project->document()->pipeline(),
                           target = target.toStdString(), key, flag = m_cancelFlag]() {
            return Outcome{engine::explainKey(*db, pipeline, target, key, flag.get())};
        }));
    return true;
}

void ProvenancePanel::setRunning(bool running) {
    m_explain->setText(running ? tr("Cancel") : tr("Explain"));
    m_explain->setIcon(
        QIcon(running ? QStringLiteral(":/icons/cancel.svg") : QStringLiteral(":/icons/explain.svg")));
    m_target->setEnabled(!running);
    m_key->setEnabled(!running);
    if (running)
        setCursor(Qt::BusyCursor);
    else
        unsetCursor();
}

void ProvenancePanel::takeResult() {
    setRunning(false);
    if (m_watcher.future().resultCount() == 0)
        return;
    const Outcome out = m_watcher.result();
    if (!out.explanation) {
        const bool cancelled = out.explanation.error().code == "CANCELLED";
        m_summary->setText(cancelled ? tr("Cancelled.")
                                     : tr("Could not explain it: %1")
                                           .arg(QString::fromStdString(out.explanation.error().format())));
        emit statusMessage(cancelled ? tr("Explanation cancelled") : tr("Explaining the row failed"));
        emit finished();
        return;
    }
    const engine::Explanation& e = out.explanation.value();
    m_events->setExplanation(e);
    m_origins->setExplanation(e);
    m_summary->setText(QStringLiteral("<b>%1</b>: %2")
                           .arg(QString::fromStdString(e.target).toHtmlEscaped(),
                                QString::fromStdString(e.summary).toHtmlEscaped()));
    QStringList notes;
    for (const std::string& n : e.notes)
        notes << QString::fromStdString(n);
    m_notes->setText(notes.join(QLatin1Char('\n')));
    m_notes->setStyleSheet(QStringLiteral("color: %1").arg(themecolors::warning(palette()).name()));
    m_notes->setVisible(!notes.isEmpty());
    m_originsView->setVisible(!e.current.empty());
    // The reason, last, takes the width left and wraps; the other columns fit their contents.
    for (int c = 0; c < m_events->whyColumn(); ++c)
        m_eventsView->resizeColumnToContents(c);
    m_eventsView->resizeRowsToContents();
    m_originsView->resizeColumnsToContents();
    emit statusMessage(tr("%n event(s) of the key explained", nullptr, static_cast<int>(e.events.size())));
    emit finished();
}

void ProvenancePanel::eventClicked(const QModelIndex& index) {
    const engine::ExplainedEvent* e = m_events->eventAt(index.row());
    if (!e)
        return;
    if (index.column() == ProvenanceEventsModel::UpdateColumn)
        emit updateRequested(e->update);
    else if (!e->source.empty())
        emit sourceRowRequested(QString::fromStdString(e->source), e->rowid);
}

} // namespace cdc::ui
