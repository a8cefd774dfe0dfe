// The issues come from three places (parse and validation, outdated targets, the last run) and are
// merged with repeats dropped. Completion is re-read from the catalog on every data change, as source SQL
// may have added tables.
#include "ui/widgets/EditorController.h"

#include "core/engine/Engine.h"
#include "core/sql/SqlApi.h"
#include "core/storage/Catalog.h"
#include "ui/model/IssueListModel.h"
#include "ui/model/Project.h"
#include "ui/widgets/CodeEditor.h"
#include "ui/widgets/SqlLexer.h"

#include <QAction>
#include <QIcon>
#include <QSet>
#include <QTimer>

#include <algorithm>

namespace cdc::ui {

namespace {
const std::string kFileName = "pipeline.sql";

QStringList toQStringList(const std::vector<std::string>& words) {
    QStringList out;
    for (const auto& w : words)
        out << QString::fromStdString(w);
    return out;
}

/// Appends `d` unless the list already says the same thing (the parser, the planner and every update of a
/// run may each report one warning).
void appendNew(std::vector<Diagnostic>& list, const Diagnostic& d) {
    if (std::none_of(list.begin(), list.end(), [&](const Diagnostic& e) { return e.format() == d.format(); }))
        list.push_back(d);
}
} // namespace

EditorController::EditorController(Project* project, CodeEditor* editor, IssueListModel* issues,
                                   QObject* parent)
    : QObject(parent), m_project(project), m_editor(editor), m_issues(issues), m_debounce(new QTimer(this)),
      m_format(new QAction(QIcon(QStringLiteral(":/icons/format.svg")), tr("&Format SQL"), this)) {
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(kDebounceMs);
    m_format->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    m_format->setToolTip(tr("Rewrite the pipeline as canonical Databricks SQL (Ctrl+Shift+F)"));
    connect(m_format, &QAction::triggered, this, &EditorController::formatSql);
    connect(m_debounce, &QTimer::timeout, this, &EditorController::reparseNow);
    connect(editor, &QsciScintilla::textChanged, this, [this] {
        m_project->setPipelineText(m_editor->text());
        m_runtimeDiagnostics.clear();
        m_debounce->start();
    });
    connect(project, &Project::projectReplaced, this, [this] {
        // A new project: its text, a fresh editor history, and the parse right away.
        {
            const QSignalBlocker block(m_editor);
            m_editor->setText(m_project->pipelineText());
            m_editor->SendScintilla(QsciScintilla::SCI_EMPTYUNDOBUFFER);
            m_editor->setModified(false);
        }
        m_runtimeDiagnostics.clear();
        reparseNow();
    });
    connect(project, &Project::dataChanged, this, &EditorController::refreshCompletion);
    connect(project, &Project::dataChanged, this, [this] { refreshOutdated(false); });
    refreshCompletion();
    reparseNow();
}

bool EditorController::hasErrors() const {
    for (const auto& d : m_parseDiagnostics)
        if (d.severity == Severity::Error)
            return true;
    return false;
}

void EditorController::reparseNow() {
    m_debounce->stop();
    const std::string text = m_editor->text().toStdString();
    auto parse = sql::parsePipeline(text, kFileName);
    m_pipeline = std::move(parse.pipeline);
    m_parseDiagnostics = std::move(parse.diagnostics);
    for (const auto& w : m_pipeline.warnings)
        appendNew(m_parseDiagnostics, w);
    // Validation needs the catalog: unknown sources and columns show up while typing too.
    if (!hasErrors() && !text.empty())
        if (auto st = engine::validate(m_project->db(), m_pipeline); !st)
            m_parseDiagnostics.push_back(st.error());
    refreshOutdated(true);
}

void EditorController::refreshOutdated(bool publishAlways) {
    std::vector<engine::OutdatedTarget> outdated;
    if (!hasErrors() && !m_pipeline.cdcFlows.empty())
        if (auto found = engine::outdatedTargets(m_project->db(), m_pipeline))
            outdated = std::move(found).value();
    const auto same = [](const engine::OutdatedTarget& a, const engine::OutdatedTarget& b) {
        return a.target == b.target && a.code == b.code;
    };
    const bool changed =
        !std::equal(outdated.begin(), outdated.end(), m_outdated.begin(), m_outdated.end(), same);
    m_outdated = std::move(outdated);
    if (changed || publishAlways)
        publish();
    if (changed)
        emit outdatedChanged();
}

void EditorController::setRuntimeDiagnostics(const std::vector<Diagnostic>& diagnostics) {
    m_runtimeDiagnostics.clear();
    for (const Diagnostic& d : diagnostics)
        appendNew(m_runtimeDiagnostics, d);
    publish();
}

int EditorController::runtimeWarningCount() const {
    return static_cast<int>(
        std::count_if(m_runtimeDiagnostics.begin(), m_runtimeDiagnostics.end(),
                      [](const Diagnostic& d) { return d.severity == Severity::Warning; }));
}

void EditorController::publish() {
    std::vector<Diagnostic> all = m_parseDiagnostics;
    for (const engine::OutdatedTarget& t : m_outdated)
        appendNew(all, Diagnostic::warning("TARGET_OUT_OF_DATE", t.message, t.location));
    for (const Diagnostic& d : m_runtimeDiagnostics)
        appendNew(all, d);
    m_editor->setDiagnostics(all);
    m_issues->setDiagnostics(all);
    emit parsed(m_issues->errorCount(), m_issues->warningCount());
}

void EditorController::refreshCompletion() {
    QSet<QString> names;
    if (auto tables = storage::Catalog::list(m_project->db()))
        for (const auto& t : *tables) {
            const QString full = QString::fromStdString(t.name);
            names << full << full.section(QLatin1Char('.'), -1);
            for (const auto& c : t.columns)
                names << QString::fromStdString(c.name);
        }
    for (const auto& t : m_pipeline.streamingTables)
        names << QString::fromStdString(t.name.name);
    QStringList keywords = toQStringList(sql::keywords());
    keywords << SqlLexer::pipelineKeywords() << SqlLexer::sqlKeywords();
    keywords.removeDuplicates();
    QStringList schema(names.begin(), names.end());
    schema.sort(Qt::CaseInsensitive);
    m_editor->setCompletionWords(keywords, toQStringList(sql::functionNames()), schema);
}

void EditorController::formatSql() {
    auto formatted = sql::formatSql(m_editor->text().toStdString(), kFileName);
    if (!formatted) {
        emit statusMessage(tr("Not formatted: %1").arg(QString::fromStdString(formatted.error().format())));
        m_editor->goToLocation(formatted.error().location);
        return;
    }
    const QString text = QString::fromStdString(*formatted);
    if (text == m_editor->text()) {
        emit statusMessage(tr("Already formatted"));
        return;
    }
    m_editor->replaceAllText(text);
    reparseNow();
    emit statusMessage(tr("Formatted (Ctrl+Z to undo)"));
}

} // namespace cdc::ui
