// PipelineEdits has no operation for an append flow's query, so that query shows read-only here and is
// edited in the SQL editor; everything else on the form writes through PipelineEdits.
#include "ui/widgets/inspector/QueryForm.h"

#include "core/common/Text.h"
#include "ui/model/Project.h"
#include "ui/widgets/CodeEditor.h"
#include "ui/widgets/inspector/FieldNote.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace cdc::ui {

using sql::PipelineEdits;

namespace {
constexpr int kQueryLines = 8;
}

QueryForm::QueryForm(Subject subject, Project* project, QWidget* parent)
    : InspectorForm(project, parent), m_subject(subject), m_name(new QLineEdit(this)),
      m_query(new CodeEditor(this)) {
    const bool view = subject == Subject::View;
    addSection(view ? tr("View") : tr("Append flow"));
    m_name->setObjectName(QStringLiteral("name"));
    m_nameNote =
        addField(tr("Name"), m_name,
                 view ? tr("CREATE … VIEW name AS … (renaming also renames the queries and flows that "
                           "read it)")
                      : tr("CREATE FLOW name AS INSERT INTO …"));
    connect(m_name, &QLineEdit::editingFinished, this, &QueryForm::applyName);
    if (view) {
        m_kind = new QLabel(this);
        m_kind->setObjectName(QStringLiteral("kind"));
        addField(tr("Kind"), m_kind,
                 tr("CREATE TEMPORARY VIEW (computed when read) or CREATE MATERIALIZED VIEW (stored, "
                    "recomputed by each update)"));
    } else {
        addTargetField(tr("INSERT INTO target BY NAME"));
        addOnceField(tr("INSERT INTO ONCE: the query runs on the next update only"));
    }

    addSection(tr("Query"));
    m_query->setObjectName(QStringLiteral("query"));
    // Small: no folding, no completion popups over the dock, long lines wrapped instead of scrolled.
    m_query->setFolding(QsciScintilla::NoFoldStyle);
    m_query->setWrapMode(QsciScintilla::WrapWord);
    m_query->setCaretLineVisible(false);
    m_query->setFixedHeight(m_query->fontMetrics().height() * kQueryLines);
    // Scintilla asks for a wide editor; in a narrow dock it wraps instead.
    m_query->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    m_query->setMinimumWidth(0);
    m_query->installEventFilter(this);
    auto* box = new QWidget(this);
    auto* column = new QVBoxLayout(box);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(4);
    column->addWidget(m_query);
    m_queryNote = new FieldNote(box);
    m_queryNote->setObjectName(QStringLiteral("queryNote"));
    column->addWidget(m_queryNote);
    if (view) {
        m_query->setToolTip(tr("AS query: Ctrl+Enter applies it"));
        m_apply = new QPushButton(tr("Apply"), box);
        m_apply->setObjectName(QStringLiteral("applyQuery"));
        m_apply->setToolTip(tr("Write this query into the view's AS clause (Ctrl+Enter)"));
        auto* buttons = new QHBoxLayout;
        buttons->addStretch();
        buttons->addWidget(m_apply);
        column->addLayout(buttons);
        connect(m_apply, &QPushButton::clicked, this, &QueryForm::applyQuery);
    } else {
        m_query->setReadOnly(true);
        m_query->setToolTip(tr("INSERT INTO … BY NAME query: edit it in the SQL editor"));
    }
    formLayout()->addRow(box);
}

bool QueryForm::load(const QString& name) {
    const pipeline::Pipeline& pipeline = project()->document()->pipeline();
    if (m_subject == Subject::View) {
        const pipeline::View* view = pipeline.findView(name.toStdString());
        if (!view)
            return false;
        setSubjectName(QString::fromStdString(view->name.name));
        m_kind->setText(view->materialized ? tr("Materialized view")
                        : view->temporary  ? tr("Temporary view")
                                           : tr("View"));
        syncQuery(QString::fromStdString(view->query.sparkText));
    } else {
        const pipeline::AppendFlow* found = nullptr;
        for (const auto& flow : pipeline.appendFlows)
            if (equalsIgnoreCase(flow.name.name, name.toStdString()))
                found = &flow;
        if (!found)
            return false;
        setSubjectName(QString::fromStdString(found->name.name));
        syncFlowFields(found->target.name, found->once);
        syncQuery(QString::fromStdString(found->query.sparkText));
    }
    syncLine(m_name, subjectName(), m_nameNote);
    return true;
}

void QueryForm::syncQuery(const QString& query) {
    if (m_query->hasFocus() && m_query->isModified())
        return;
    if (m_query->text() != query)
        m_query->setText(query);
    m_query->setModified(false);
    m_query->setDiagnostics({});
    m_queryNote->setError({});
}

bool QueryForm::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_query && event->type() == QEvent::KeyPress && m_subject == Subject::View) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) &&
            key->modifiers().testFlag(Qt::ControlModifier)) {
            applyQuery();
            return true;
        }
    }
    return InspectorForm::eventFilter(watched, event);
}

void QueryForm::applyName() {
    const QString newName = m_name->text().trimmed();
    const std::string text = pipelineText();
    const std::string oldName = subjectName().toStdString();
    applyLine(m_name, [&] {
        return applyRename(m_subject == Subject::View
                               ? PipelineEdits::renameDataset(text, oldName, newName.toStdString())
                               : PipelineEdits::renameFlow(text, oldName, newName.toStdString()),
                           newName, m_nameNote);
    });
}

void QueryForm::applyQuery() {
    const std::string query = m_query->text().toStdString();
    const auto edit = PipelineEdits::setViewQuery(pipelineText(), subjectName().toStdString(), query);
    // The error is positioned in the query's own text, which is the editor's: it squiggles in place.
    m_query->setDiagnostics(edit.ok() ? std::vector<Diagnostic>{} : std::vector<Diagnostic>{edit.error()});
    m_query->setModified(false);
    if (!apply(edit, m_queryNote))
        m_query->setModified(true);
}

} // namespace cdc::ui
