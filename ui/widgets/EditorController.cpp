// Replacing only the bytes that differ (rather than setText) keeps the caret, the selection and the scroll
// position where they were when undo or a graph edit changes a statement elsewhere in the text.
#include "ui/widgets/EditorController.h"

#include "core/sql/SqlApi.h"
#include "core/storage/Catalog.h"
#include "ui/model/IssueListModel.h"
#include "ui/model/PipelineDocument.h"
#include "ui/model/Project.h"
#include "ui/widgets/CodeEditor.h"
#include "ui/widgets/SqlLexer.h"

#include <QAction>
#include <QIcon>
#include <QSet>

namespace cdc::ui {

namespace {
QStringList toQStringList(const std::vector<std::string>& words) {
    QStringList out;
    for (const auto& w : words)
        out << QString::fromStdString(w);
    return out;
}
} // namespace

EditorController::EditorController(Project* project, CodeEditor* editor, IssueListModel* issues,
                                   QObject* parent)
    : QObject(parent), m_project(project), m_editor(editor), m_issues(issues),
      m_format(new QAction(QIcon(QStringLiteral(":/icons/format.svg")), tr("&Format SQL"), this)) {
    m_format->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    m_format->setToolTip(tr("Rewrite the pipeline as canonical Databricks SQL (Ctrl+Shift+F)"));
    connect(m_format, &QAction::triggered, this, &EditorController::formatSql);
    m_editor->useExternalHistory();
    connect(editor, &QsciScintilla::textChanged, this, [this] {
        if (!m_showing)
            document()->type(m_editor->text());
    });
    connect(document(), &PipelineDocument::textChanged, this, &EditorController::showDocumentText);
    connect(document(), &PipelineDocument::parsed, this, &EditorController::publish);
    connect(project, &Project::projectReplaced, this, [this] {
        showLanguage();
        // A new project opens at its first line.
        showDocumentText();
        m_editor->setCursorPosition(0, 0);
        m_editor->ensureLineVisible(0);
    });
    connect(project, &Project::dataChanged, this, &EditorController::refreshCompletion);
    showLanguage();
    showDocumentText();
    refreshCompletion();
    publish();
}

PipelineDocument* EditorController::document() const {
    return m_project->document();
}

void EditorController::showDocumentText() {
    const QByteArray now = m_editor->text().toUtf8();
    const QByteArray wanted = document()->text().toUtf8();
    if (now == wanted)
        return;
    // Scintilla counts UTF-8 bytes: the replaced range is found in bytes too.
    const qsizetype shorter = std::min(now.size(), wanted.size());
    qsizetype prefix = 0;
    while (prefix < shorter && now[prefix] == wanted[prefix])
        ++prefix;
    while (prefix > 0 && (static_cast<unsigned char>(now[prefix]) & 0xC0) == 0x80)
        --prefix; // never split a character
    qsizetype suffix = 0;
    while (suffix < shorter - prefix && now[now.size() - 1 - suffix] == wanted[wanted.size() - 1 - suffix])
        ++suffix;
    while (suffix > 0 && (static_cast<unsigned char>(now[now.size() - suffix]) & 0xC0) == 0x80)
        --suffix;
    const QByteArray inserted = wanted.mid(prefix, wanted.size() - prefix - suffix);
    m_showing = true;
    m_editor->SendScintilla(QsciScintilla::SCI_SETTARGETRANGE, static_cast<unsigned long>(prefix),
                            static_cast<long>(now.size() - suffix));
    m_editor->SendScintilla(QsciScintilla::SCI_REPLACETARGET, static_cast<unsigned long>(inserted.size()),
                            inserted.constData());
    m_showing = false;
}

void EditorController::showLanguage() {
    const bool python = document()->isPython();
    m_editor->setPython(python);
    // Format SQL rewrites pipeline SQL; a Python file is the user's program and stays as written.
    m_format->setEnabled(!python);
}

void EditorController::publish() {
    const std::vector<Diagnostic> all = document()->issues();
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
    for (const auto& t : document()->pipeline().streamingTables)
        names << QString::fromStdString(t.name.name);
    QStringList keywords = toQStringList(sql::keywords());
    keywords << SqlLexer::pipelineKeywords() << SqlLexer::sqlKeywords();
    keywords.removeDuplicates();
    QStringList schema(names.begin(), names.end());
    schema.sort(Qt::CaseInsensitive);
    m_editor->setCompletionWords(keywords, toQStringList(sql::functionNames()), schema);
}

void EditorController::formatSql() {
    auto formatted = sql::formatSql(document()->text().toStdString(), document()->fileName());
    if (!formatted) {
        emit statusMessage(tr("Not formatted: %1").arg(QString::fromStdString(formatted.error().format())));
        m_editor->goToLocation(formatted.error().location);
        return;
    }
    const QString text = QString::fromStdString(*formatted);
    if (text == document()->text()) {
        emit statusMessage(tr("Already formatted"));
        return;
    }
    document()->replace(text, tr("Format SQL"));
    emit statusMessage(tr("Formatted (Ctrl+Z to undo)"));
}

} // namespace cdc::ui
