// The parse is validated against the working copy's catalog, so unknown sources and columns show up
// while typing, and the outdated-target check reads the stored target definitions: both need the
// project's database, which is why the document belongs to the project.
#include "ui/model/PipelineDocument.h"

#include "core/engine/Engine.h"
#include "core/python/PythonPipelineReader.h"
#include "core/python/PythonRunner.h"
#include "core/sql/SqlApi.h"
#include "ui/model/PipelineTextCommand.h"
#include "ui/model/Project.h"

#include <QFutureWatcher>
#include <QTimer>
#include <QUndoStack>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <optional>

namespace cdc::ui {

const char* const PipelineDocument::kFileName = "pipeline.sql";
const char* const PipelineDocument::kPythonFileName = "pipeline.py";

/// The runs of a trusted Python file: the one in flight (applied only if the text is still the one that
/// ran, otherwise the current text runs next — one run at a time, each is a process of its own) and what the
/// last applied one declared, so a re-parse of the same text (before every update, after a change of the
/// data) re-validates that instead of running the file again.
struct PipelineDocument::PythonRun {
    QFutureWatcher<python::PipelineRun> watcher;
    std::string running;
    std::optional<std::string> declaredText;
    sql::PipelineParse declared;
};

namespace {
/// Appends `d` unless the list already says the same thing (the parser, the planner and every update of a
/// run may each report one warning).
void appendNew(std::vector<Diagnostic>& list, const Diagnostic& d) {
    if (std::none_of(list.begin(), list.end(), [&](const Diagnostic& e) { return e.format() == d.format(); }))
        list.push_back(d);
}
} // namespace

TextSplice TextSplice::between(const QString& before, const QString& after) {
    const qsizetype shorter = std::min(before.size(), after.size());
    qsizetype prefix = 0;
    while (prefix < shorter && before[prefix] == after[prefix])
        ++prefix;
    qsizetype suffix = 0;
    while (suffix < shorter - prefix &&
           before[before.size() - 1 - suffix] == after[after.size() - 1 - suffix])
        ++suffix;
    return {prefix, before.mid(prefix, before.size() - prefix - suffix),
            after.mid(prefix, after.size() - prefix - suffix)};
}

PipelineDocument::PipelineDocument(Project* project, QUndoStack* undoStack, QObject* parent)
    : QObject(parent), m_project(project), m_undo(undoStack), m_debounce(new QTimer(this)) {
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(kDebounceMs);
    connect(m_debounce, &QTimer::timeout, this, &PipelineDocument::reparseNow);
    // Runs, rewinds and undo change what is stored, and with it which targets are out of date.
    connect(project, &Project::dataChanged, this, &PipelineDocument::refreshOutdated);
}

PipelineDocument::~PipelineDocument() = default;

void PipelineDocument::type(const QString& newText) {
    if (newText == m_text)
        return;
    const QString before = m_text;
    m_text = newText;
    m_runtimeDiagnostics.clear();
    m_debounce->start();
    m_undo->push(
        new PipelineTextCommand(this, before, newText, PipelineTextCommand::Kind::Typing, tr("Edit SQL")));
    emit textChanged();
}

void PipelineDocument::replace(const QString& newText, const QString& description) {
    if (newText == m_text)
        return;
    m_undo->push(
        new PipelineTextCommand(this, m_text, newText, PipelineTextCommand::Kind::Edit, description));
}

void PipelineDocument::reset(const QString& text, PipelineLanguage language) {
    m_text = text;
    m_language = language;
    if (m_run)
        m_run->declaredText.reset(); // another project: its file runs afresh
    m_runtimeDiagnostics.clear();
    emit textChanged();
    reparseNow();
}

void PipelineDocument::applyCommandText(const QString& text) {
    if (text == m_text)
        return;
    m_text = text;
    m_runtimeDiagnostics.clear();
    emit textChanged();
    reparseNow();
}

bool PipelineDocument::parsePending() const {
    return m_debounce->isActive();
}

bool PipelineDocument::runPending() const {
    // Running, or finished with a result the (queued) finished signal has not applied yet.
    return m_run && (m_run->watcher.isRunning() || m_run->watcher.future().resultCount() > 0);
}

void PipelineDocument::waitForRun() {
    // A stale result starts the next run when it is applied: wait until none is left.
    while (runPending()) {
        m_run->watcher.waitForFinished();
        takePythonRun();
    }
}

bool PipelineDocument::hasErrors() const {
    return std::any_of(m_parseDiagnostics.begin(), m_parseDiagnostics.end(),
                       [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

void PipelineDocument::reparseNow() {
    m_debounce->stop();
    const std::string text = m_text.toStdString();
    if (!isPython()) {
        applyParse(sql::parsePipeline(text, kFileName));
        return;
    }
    if (!m_project->isPythonTrusted() || text.empty()) {
        applyParse(previewPython(text));
        return;
    }
    if (m_run && m_run->declaredText == text) {
        applyParse(m_run->declared);
        return;
    }
    // Until the run answers, the last run's graph stays (no flicker to the preview while typing); the first
    // time there is none, and the preview stands in.
    if (!m_run || !m_run->declaredText)
        applyParse(previewPython(text));
    startPythonRun(text);
}

void PipelineDocument::applyParse(sql::PipelineParse parse) {
    m_pipeline = std::move(parse.pipeline);
    m_parseDiagnostics = std::move(parse.diagnostics);
    for (const auto& w : m_pipeline.warnings)
        appendNew(m_parseDiagnostics, w);
    if (!hasErrors() && !m_text.isEmpty())
        if (auto st = engine::validate(m_project->db(), m_pipeline); !st)
            m_parseDiagnostics.push_back(st.error());
    if (recheckOutdated())
        emit outdatedChanged();
    emit parsed();
}

sql::PipelineParse PipelineDocument::previewPython(const std::string& text) const {
    auto parse = python::parsePythonPipeline(text, kPythonFileName);
    // The static reader knows only declarative Python: what it cannot read may well run (a loop, a helper
    // function). That is for the run to say, so here it is a warning that says how to find out.
    for (Diagnostic& d : parse.diagnostics)
        if (d.severity == Severity::Error) {
            d.severity = Severity::Warning;
            d.message = "not run yet, so the graph is a preview read without running the file: " + d.message +
                        " (trust the file to run it)";
            d.code = "PYTHON_PREVIEW";
        }
    return parse;
}

void PipelineDocument::startPythonRun(const std::string& text) {
    if (!m_run) {
        m_run = std::make_unique<PythonRun>();
        connect(&m_run->watcher, &QFutureWatcher<python::PipelineRun>::finished, this,
                &PipelineDocument::takePythonRun);
    }
    if (m_run->watcher.isRunning())
        return; // takePythonRun starts the current text when this one ends
    python::RunOptions options;
    options.volumesRoot = m_project->volumesFolder().toStdString();
    options.tables = python::catalogColumns(m_project->db());
    m_run->running = text;

    m_run->watcher.setFuture(QtConcurrent::run(
        [text, options] { return python::runPipelineFile(text, kPythonFileName, options); }));
    emit runningChanged(true);
}

void PipelineDocument::takePythonRun() {
    if (!m_run || m_run->watcher.isRunning() || m_run->watcher.future().resultCount() == 0)
        return;
    python::PipelineRun run = m_run->watcher.result();
    m_run->watcher.setFuture(QFuture<python::PipelineRun>()); // taken: a second call finds nothing
    const std::string current = m_text.toStdString();
    if (!isPython() || !m_project->isPythonTrusted()) {
        emit runningChanged(false);
        return;
    }
    if (m_run->running != current) {
        startPythonRun(current);
        return;
    }
    m_run->declaredText = current;
    m_run->declared = run.parse;
    applyParse(std::move(run.parse));
    emit runningChanged(false);
}

bool PipelineDocument::recheckOutdated() {
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
    return changed;
}

void PipelineDocument::refreshOutdated() {
    if (recheckOutdated()) {
        emit outdatedChanged();
        emit parsed();
    }
}

void PipelineDocument::setRuntimeDiagnostics(const std::vector<Diagnostic>& diagnostics) {
    m_runtimeDiagnostics.clear();
    for (const Diagnostic& d : diagnostics)
        appendNew(m_runtimeDiagnostics, d);
    emit parsed();
}

int PipelineDocument::runtimeWarningCount() const {
    return static_cast<int>(
        std::count_if(m_runtimeDiagnostics.begin(), m_runtimeDiagnostics.end(),
                      [](const Diagnostic& d) { return d.severity == Severity::Warning; }));
}

std::vector<Diagnostic> PipelineDocument::issues() const {
    std::vector<Diagnostic> all = m_parseDiagnostics;
    for (const engine::OutdatedTarget& t : m_outdated)
        appendNew(all, Diagnostic::warning("TARGET_OUT_OF_DATE", t.message, t.location));
    for (const Diagnostic& d : m_runtimeDiagnostics)
        appendNew(all, d);
    return all;
}

} // namespace cdc::ui
