// The panel grades when the target's snapshot of a later update arrives from the ResultsController (the same
// rows Target Tables shows), so it needs no signal from the runner and grades whichever way the update ran.
#include "ui/widgets/PredictionPanel.h"

#include "core/engine/Engine.h"
#include "core/engine/PredictionGrade.h"
#include "core/engine/Provenance.h"
#include "ui/model/PipelineDocument.h"
#include "ui/model/PredictionModel.h"
#include "ui/model/Project.h"
#include "ui/model/SampleLibrary.h"
#include "ui/model/ThemeColors.h"
#include "ui/model/ValueText.h"
#include "ui/model/results/ResultText.h"
#include "ui/widgets/GridTools.h"
#include "ui/widgets/ResultsController.h"

#include <QAction>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QListWidget>
#include <QSplitter>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <map>

namespace cdc::ui {

namespace {

/// "userId = 125" for a key of `rows`' columns.
QString keyText(const TargetSnapshot& s, const cdc::Row& key) {
    QStringList parts;
    for (qsizetype k = 0; k < s.keyColumns.size() && std::size_t(k) < key.size(); ++k)
        parts << QStringLiteral("%1 = %2").arg(s.keyColumns[k],
                                               displayText(key[std::size_t(k)], std::nullopt));
    return parts.join(QStringLiteral(", "));
}

bool isUndoKey(QKeyEvent* key, QKeySequence::StandardKey which) {
    return key->matches(which) ||
           (which == QKeySequence::Redo && key->modifiers() == (Qt::ControlModifier | Qt::ShiftModifier) &&
            key->key() == Qt::Key_Z);
}

} // namespace

PredictionPanel::PredictionPanel(Project* project, ResultsController* results, QWidget* parent)
    : QWidget(parent), m_project(project), m_results(results), m_model(new PredictionModel(this)),
      m_target(new QComboBox(this)), m_lesson(new QLabel(this)), m_view(new QTableView(this)),
      m_summary(new QLabel(this)), m_explanations(new QListWidget(this)) {
    setObjectName(QStringLiteral("predictionPanel"));
    m_target->setObjectName(QStringLiteral("predictionTarget"));
    m_target->setToolTip(tr("The target table to predict"));
    m_target->setMinimumContentsLength(14);

    m_predict = new QAction(QIcon(QStringLiteral(":/icons/explain.svg")), tr("&Predict Next Update"), this);
    m_predict->setObjectName(QStringLiteral("predictAction"));
    m_predict->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    m_predict->setToolTip(
        tr("Copy the target as it is now into the grid below and edit it into what you expect "
           "after the next update; Step (F10) then grades it (Ctrl+Shift+P)"));
    m_addRow = new QAction(tr("Add Row"), this);
    m_addRow->setToolTip(tr("Add an empty row to the prediction (a key you expect to appear)"));
    m_deleteRows = new QAction(tr("Delete Row"), this);
    m_deleteRows->setToolTip(
        tr("Delete the selected rows from the prediction (keys you expect to disappear)"));
    QAction* undo = m_model->undoStack()->createUndoAction(this, tr("Undo"));
    QAction* redo = m_model->undoStack()->createRedoAction(this, tr("Redo"));
    undo->setToolTip(tr("Undo the last edit of the prediction (Ctrl+Z in the grid)"));
    redo->setToolTip(tr("Redo (Ctrl+Shift+Z in the grid)"));

    auto* bar = new QToolBar(this);
    bar->setIconSize(QSize(16, 16));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addWidget(new QLabel(tr("Target:"), this));
    bar->addWidget(m_target);
    bar->addAction(m_predict);
    bar->addSeparator();
    for (QAction* a : {m_addRow, m_deleteRows, undo, redo})
        bar->addAction(a);

    m_lesson->setObjectName(QStringLiteral("predictionLesson"));
    m_lesson->setWordWrap(true);
    m_lesson->setTextFormat(Qt::RichText);
    m_lesson->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_lesson->setFrameShape(QFrame::StyledPanel);
    m_lesson->setMargin(6);
    m_lesson->hide();

    m_view->setObjectName(QStringLiteral("predictionGrid"));
    new GridTools(m_view, m_model);
    GridTools::of(m_view)->setEditable(true);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setWordWrap(false);
    m_view->installEventFilter(this);

    m_summary->setObjectName(QStringLiteral("predictionSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setText(
        tr("Predict Next Update (Ctrl+Shift+P) copies the target into this grid: edit it into what "
           "you expect after the next update, then Step (F10). Each cell is then graded, and every "
           "mistake explained from the events of its key."));
    m_explanations->setObjectName(QStringLiteral("predictionExplanations"));
    m_explanations->setWordWrap(true);
    m_explanations->setToolTip(tr("Why each wrong cell, missing row and extra row is as the table has it"));

    // Side by side: the dock is wide and short, and the grid needs its rows more than the reasons do.
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_view);
    split->addWidget(m_explanations);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(6);
    layout->addWidget(bar);
    layout->addWidget(m_lesson);
    layout->addWidget(m_summary);
    layout->addWidget(split, 1);

    connect(m_predict, &QAction::triggered, this, [this] { predict(); });
    connect(m_addRow, &QAction::triggered, this, [this] {
        const QModelIndex current = GridTools::of(m_view)->toSource(m_view->currentIndex());
        m_model->addRow(current.isValid() ? current.row() + 1 : -1);
    });
    connect(m_deleteRows, &QAction::triggered, this, [this] {
        QList<int> rows;
        for (const QModelIndex& index : m_view->selectionModel()->selectedIndexes())
            rows << GridTools::of(m_view)->toSource(index).row();
        if (rows.isEmpty() && m_view->currentIndex().isValid())
            rows << GridTools::of(m_view)->toSource(m_view->currentIndex()).row();
        m_model->removeRows(rows);
    });
    connect(m_model, &PredictionModel::editRefused, this, &PredictionPanel::statusMessage);
    const auto enableEdits = [this] {
        const bool editable = m_model->isStarted() && !m_model->isGraded();
        m_addRow->setEnabled(editable);
        m_deleteRows->setEnabled(editable);
    };
    connect(m_model, &QAbstractItemModel::modelReset, this, enableEdits);
    enableEdits();
    connect(results, &ResultsController::snapshotsChanged, this, &PredictionPanel::snapshotsChanged);
    connect(m_project, &Project::projectReplaced, this, [this] {
        if (m_cancel)
            m_cancel->store(true);
        m_model->clear();
        m_explanations->clear();
        m_predictedAt = -1;
        loadLesson();
    });
    connect(&m_watcher, &QFutureWatcher<std::vector<std::string>>::finished, this,
            &PredictionPanel::takeExplanations);
    loadLesson();
    snapshotsChanged(results->snapshots());
}

PredictionPanel::~PredictionPanel() {
    if (m_cancel)
        m_cancel->store(true);
    m_watcher.waitForFinished();
}

qint64 PredictionPanel::lastUpdate() const {
    const auto guard = m_project->guardQuickRead("reading the last update");
    const auto last = engine::lastUpdateId(m_project->db());
    return last ? last.value() : 0;
}

void PredictionPanel::refuse(const QString& why) {
    m_summary->setText(why);
    emit statusMessage(why);
}

bool PredictionPanel::predict(const QString& target) {
    emit shown();
    if (m_project->isBusy()) {
        refuse(tr("An update is running: predict the next one when it has finished."));
        return false;
    }
    const QString name = target.isEmpty() ? m_target->currentText() : target;
    const TargetSnapshot* s = findSnapshot(m_results->snapshots(), name);
    const qint64 last = lastUpdate();
    if (!s || name.isEmpty()) {
        refuse(tr("No target table to predict yet: Step (F10) once first — a target exists after its first "
                  "update."));
        return false;
    }
    if (s->updateId != last) {
        refuse(
            tr("The results show an earlier update: select the latest in the Update Timeline to predict the "
               "next one."));
        return false;
    }
    std::vector<std::size_t> identity;
    QStringList identityNames = s->keyColumns;
    if (s->scd2)
        identityNames << resulttext::startAt();
    for (int c : resulttext::columnIndices(s->rows, identityNames))
        if (c >= 0)
            identity.push_back(std::size_t(c));
    if (m_cancel)
        m_cancel->store(true);
    m_model->start(s->rows, identity);
    m_explanations->clear();
    m_predictedTarget = s->target;
    m_predictedAt = last;
    if (const int at = m_target->findText(s->target); at >= 0)
        m_target->setCurrentIndex(at);
    m_summary->setText(
        tr("Predicting <b>%1</b> after update %2: edit the cells (type over them), Add Row or Delete Row, "
           "then Step "
           "(F10).%3")
            .arg(s->target.toHtmlEscaped())
            .arg(last + 1)
            .arg(s->scd2
                     ? tr(" Each version is a row: a new version starts at its __START_AT, and the version "
                          "before it then ends there (__END_AT).")
                     : QString()));
    m_view->resizeColumnsToContents();
    m_view->setFocus();
    m_view->setCurrentIndex(m_view->model()->index(0, 0));
    emit statusMessage(tr("Predict %1 after the next update, then Step (F10)").arg(s->target));
    return true;
}

void PredictionPanel::snapshotsChanged(const QList<TargetSnapshot>& snapshots) {
    const QString current = m_target->currentText();
    QStringList names;
    for (const TargetSnapshot& s : snapshots)
        if (s.kind == engine::DatasetKind::AutoCdc)
            names << s.target;
    QStringList shown;
    for (int i = 0; i < m_target->count(); ++i)
        shown << m_target->itemText(i);
    if (shown != names) {
        m_target->clear();
        m_target->addItems(names);
        if (const int at = m_target->findText(current); at >= 0)
            m_target->setCurrentIndex(at);
    }
    if (m_predictedAt >= 0 && m_model->isStarted() && !m_model->isGraded())
        if (const TargetSnapshot* s = findSnapshot(snapshots, m_predictedTarget);
            s && s->updateId > m_predictedAt)
            grade(*s);
    showLesson();
}

void PredictionPanel::grade(const TargetSnapshot& actual) {
    if (!m_model->grade(actual.rows)) {
        refuse(tr("%1's columns changed with the update: the prediction cannot be graded. Start a new one.")
                   .arg(actual.target));
        m_model->clear();
        return;
    }
    const engine::PredictionGrade& g = *m_model->result();
    QString text = QString::fromStdString(engine::gradeSummary(g));
    if (actual.updateId > m_predictedAt + 1)
        text += tr(" (against update %1, the latest: %2 updates ran)")
                    .arg(actual.updateId)
                    .arg(actual.updateId - m_predictedAt);
    const QColor colour =
        g.perfect() ? themecolors::mix(palette().color(QPalette::Text), QColor(0x2e, 0xa0, 0x43), 0.7)
                    : themecolors::error(palette());
    m_summary->setText(
        QStringLiteral("<b style=\"color:%1\">%2</b>").arg(colour.name(), text.toHtmlEscaped()));
    emit statusMessage(text);

    // The mistakes, by the key whose provenance explains them.
    std::vector<Mistake> mistakes;
    const std::vector<int> keys = resulttext::columnIndices(actual.rows, actual.keyColumns);
    const auto keyOf = [&keys](const cdc::Row& row) {
        cdc::Row key;
        for (int k : keys)
            key.push_back(k >= 0 ? row[std::size_t(k)] : cdc::Value{});
        return key;
    };
    const int start = actual.scd2 ? resulttext::columnIndex(actual.rows, resulttext::startAt()) : -1;
    const auto startOf = [start](const cdc::Row& row) {
        return start >= 0 ? std::optional<cdc::Value>(row[std::size_t(start)]) : std::nullopt;
    };
    const auto& predicted = m_model->predicted().rows;
    for (std::size_t r = 0; r < g.rows.size(); ++r) {
        const engine::GradedRow& row = g.rows[r];
        if (row.extra()) {
            mistakes.push_back({int(r), -1, false, keyOf(predicted[r]), {}, {}, startOf(predicted[r])});
            continue;
        }
        for (std::size_t c = 0; c < row.right.size(); ++c)
            if (!row.right[c])
                mistakes.push_back({int(r), int(c), false, keyOf(predicted[r]), predicted[r][c],
                                    actual.rows.rows[std::size_t(row.actual)][c], startOf(predicted[r])});
    }
    for (std::size_t m = 0; m < g.missing.size(); ++m) {
        const cdc::Row& row = actual.rows.rows[std::size_t(g.missing[m])];
        mistakes.push_back(
            {m_model->predictedRowCount() + int(m), -1, true, keyOf(row), {}, {}, startOf(row)});
    }
    explain(std::move(mistakes));
}

void PredictionPanel::explain(std::vector<Mistake> mistakes) {
    m_explanations->clear();
    if (mistakes.empty()) {
        m_explanations->addItem(tr("Nothing to explain: the table is exactly as you predicted."));
        emit explained();
        return;
    }
    auto copy = m_project->snapshot();
    if (!copy || m_project->document()->hasErrors()) {
        m_explanations->addItem(
            tr("The mistakes cannot be explained: %1")
                .arg(copy ? tr("the pipeline has errors") : QString::fromStdString(copy.error().format())));
        emit explained();
        return;
    }
    m_explanations->addItem(
        tr("Replaying the updates to explain %n mistake(s)…", nullptr, int(mistakes.size())));
    m_mistakes = std::move(mistakes);
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    // Each key is replayed once however many of its cells are wrong.
    struct Job {
        cdc::Row key;
        int column;
        bool missing;
        cdc::Value predicted, actual;
        std::optional<DataType> type;
        std::string columnName;
        std::optional<cdc::Value> versionStart;
    };
    std::vector<Job> jobs;
    for (const Mistake& m : m_mistakes) {
        const std::size_t c = m.column < 0 ? 0 : std::size_t(m.column);
        jobs.push_back({m.key, m.column, m.missing, m.predicted, m.actual, m_model->predicted().typeOf(c),
                        m.column < 0 ? std::string() : m_model->predicted().columns[c], m.versionStart});
    }
    m_watcher.setFuture(QtConcurrent::run([db = std::move(copy).value(),
                                           pipeline = m_project->document()->pipeline(),
                                           target = m_predictedTarget.toStdString(), jobs = std::move(jobs),
                                           cancel = m_cancel]() {
        std::vector<std::string> out;
        std::map<cdc::Row, Result<engine::Explanation>> byKey;
        for (const Job& job : jobs) {
            auto it = byKey.find(job.key);
            if (it == byKey.end())
                it = byKey.emplace(job.key, engine::explainKey(*db, pipeline, target, job.key, cancel.get()))
                         .first;
            if (!it->second) {
                out.push_back("cannot explain it: " + it->second.error().message);
                continue;
            }
            out.push_back(job.column >= 0
                              ? engine::explainWrongCell(*it->second, job.columnName, job.predicted,
                                                         job.actual, job.type, job.versionStart)
                              : engine::explainRow(*it->second, job.missing, job.versionStart));
        }
        return out;
    }));
}

void PredictionPanel::takeExplanations() {
    if (m_watcher.future().resultCount() == 0 || (m_cancel && m_cancel->load()))
        return;
    const std::vector<std::string> texts = m_watcher.result();
    m_explanations->clear();
    const TargetSnapshot* s = findSnapshot(m_results->snapshots(), m_predictedTarget);
    for (std::size_t i = 0; i < texts.size() && i < m_mistakes.size(); ++i) {
        const Mistake& m = m_mistakes[i];
        const QString text = QString::fromStdString(texts[i]);
        m_model->setExplanation(m.row, m.column, text);
        auto* item = new QListWidgetItem(
            QStringLiteral("%1 · %2").arg(s ? keyText(*s, m.key) : QString(), text), m_explanations);
        item->setData(Qt::UserRole, m.row);
        item->setData(Qt::UserRole + 1, m.column);
    }
    emit explained();
}

void PredictionPanel::loadLesson() {
    m_lessonData = {};
    m_lessonError.clear();
    const QString id = m_project->sampleId();
    if (!id.isEmpty()) {
        const SampleInfo sample = samplelibrary::load(id);
        if (!sample.lesson.isEmpty()) {
            auto lesson = parseLesson(sample.lesson, id + QStringLiteral("/lesson.json"));
            if (lesson)
                m_lessonData = std::move(lesson).value();
            else
                m_lessonError = QString::fromStdString(lesson.error().format());
        }
    }
    showLesson();
}

void PredictionPanel::showLesson() {
    if (!m_lessonError.isEmpty()) {
        m_lesson->setText(m_lessonError.toHtmlEscaped());
        m_lesson->setVisible(true);
        return;
    }
    if (m_lessonData.isEmpty()) {
        m_lesson->hide();
        return;
    }
    const qint64 last = lastUpdate();
    QStringList parts{tr("<b>Lesson: %1</b>").arg(m_lessonData.title.toHtmlEscaped())};
    if (const LessonStep* after = m_lessonData.step(last))
        parts << tr("<b>After update %1:</b> %2").arg(last).arg(after->explanation.toHtmlEscaped());
    if (const LessonStep* before = m_lessonData.step(last + 1))
        parts << tr("<b>Before update %1:</b> %2 <i>Predict Next Update (Ctrl+Shift+P), edit the table, then "
                    "Step (F10).</i>")
                     .arg(last + 1)
                     .arg(before->question.toHtmlEscaped());
    if (parts.size() == 1) {
        const LessonStep* next = nullptr;
        for (const LessonStep& s : m_lessonData.steps)
            if (s.update > last && !next)
                next = &s;
        parts << (next ? tr("Step (F10) on: the next question comes before update %1.").arg(next->update)
                       : tr("The lesson is over: Rewind in the Update Timeline to go through it again."));
    }
    m_lesson->setText(parts.join(QStringLiteral("<br>")));
    m_lesson->setVisible(true);
}

bool PredictionPanel::eventFilter(QObject* watched, QEvent* event) {
    // Ctrl+Z in the grid undoes the prediction's last edit, not the project's: the window's Undo shortcut is
    // overridden while the grid has the focus.
    if (watched == m_view &&
        (event->type() == QEvent::ShortcutOverride || event->type() == QEvent::KeyPress)) {
        auto* key = static_cast<QKeyEvent*>(event);
        const bool isUndo = isUndoKey(key, QKeySequence::Undo),
                   isRedo = !isUndo && isUndoKey(key, QKeySequence::Redo);
        if (isUndo || isRedo) {
            if (event->type() == QEvent::ShortcutOverride)
                event->accept();
            else if (isUndo)
                m_model->undoStack()->undo();
            else
                m_model->undoStack()->redo();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace cdc::ui
