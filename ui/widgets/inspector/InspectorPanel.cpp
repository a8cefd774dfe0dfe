// One form per kind, built once and reloaded on every parse: reloading in place (rather than building a
// new form) is what lets the field with the focus keep it while the SQL editor or an undo changes the text.
#include "ui/widgets/inspector/InspectorPanel.h"

#include "ui/model/Project.h"
#include "ui/model/ThemeColors.h"
#include "ui/widgets/inspector/AutoCdcFlowForm.h"
#include "ui/widgets/inspector/QueryForm.h"
#include "ui/widgets/inspector/SourceTableForm.h"
#include "ui/widgets/inspector/StreamingTableForm.h"

#include <QLabel>
#include <QScrollArea>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace cdc::ui {

namespace {
QString kindName(InspectorKind kind) {
    switch (kind) {
    case InspectorKind::AutoCdcFlow:
        return InspectorPanel::tr("AUTO CDC flow");
    case InspectorKind::StreamingTable:
        return InspectorPanel::tr("Streaming table");
    case InspectorKind::View:
        return InspectorPanel::tr("View");
    case InspectorKind::AppendFlow:
        return InspectorPanel::tr("Append flow");
    case InspectorKind::SourceTable:
        return InspectorPanel::tr("Source table");
    case InspectorKind::None:
        break;
    }
    return {};
}
} // namespace

InspectorPanel::InspectorPanel(Project* project, QWidget* parent)
    : QWidget(parent), m_project(project), m_title(new QLabel(this)), m_pages(new QStackedWidget(this)),
      m_emptyPage(new QWidget(this)), m_emptyHint(new QLabel(m_emptyPage)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    m_title->setObjectName(QStringLiteral("title"));
    m_title->setContentsMargins(10, 8, 10, 4);
    m_title->setTextFormat(Qt::PlainText);
    m_title->setWordWrap(true);
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.15);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    layout->addWidget(m_title);
    layout->addWidget(m_pages, 1);

    auto* empty = new QVBoxLayout(m_emptyPage);
    empty->setContentsMargins(16, 24, 16, 16);
    auto* nothing = new QLabel(tr("Nothing selected"), m_emptyPage);
    nothing->setObjectName(QStringLiteral("nothingSelected"));
    nothing->setAlignment(Qt::AlignHCenter);
    m_emptyHint->setObjectName(QStringLiteral("emptyHint"));
    m_emptyHint->setAlignment(Qt::AlignHCenter);
    m_emptyHint->setWordWrap(true);
    QPalette muted = m_emptyHint->palette();
    muted.setColor(QPalette::WindowText, themecolors::mutedText(muted));
    m_emptyHint->setPalette(muted);
    empty->addWidget(nothing);
    empty->addWidget(m_emptyHint);
    empty->addStretch();
    m_pages->addWidget(m_emptyPage);

    addForm(InspectorKind::AutoCdcFlow, new AutoCdcFlowForm(project));
    addForm(InspectorKind::StreamingTable, new StreamingTableForm(project));
    addForm(InspectorKind::View, new QueryForm(QueryForm::Subject::View, project));
    addForm(InspectorKind::AppendFlow, new QueryForm(QueryForm::Subject::AppendFlow, project));
    addForm(InspectorKind::SourceTable, new SourceTableForm(project));

    connect(project->document(), &PipelineDocument::parsed, this, &InspectorPanel::refresh);
    connect(project, &Project::dataChanged, this, &InspectorPanel::refresh); // the catalog's columns
    connect(project, &Project::projectReplaced, this, [this] { setSubject(InspectorKind::None, {}); });
    refresh();
}

void InspectorPanel::addForm(InspectorKind kind, InspectorForm* form) {
    auto* scroll = new QScrollArea(m_pages);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(form);
    m_pages->addWidget(scroll);
    m_forms[kind] = form;
    m_formPages[kind] = scroll;
    connect(form, &InspectorForm::renamed, this, [this, kind](const QString& newName) {
        if (m_kind != kind)
            return;
        const QString oldName = m_name;
        m_formerNames.removeAll(newName);
        m_formerNames << oldName;
        m_name = newName;
        emit subjectRenamed(kind, oldName, newName);
    });
    connect(form, &InspectorForm::subjectRequested, this,
            [this](InspectorKind requested, const QString& name) {
                setSubject(requested, name);
                emit subjectRequested(requested, name);
            });
}

InspectorForm* InspectorPanel::form(InspectorKind kind) const {
    const auto found = m_forms.find(kind);
    return found == m_forms.end() ? nullptr : found->second;
}

void InspectorPanel::setSubject(InspectorKind kind, const QString& name) {
    m_kind = name.isEmpty() ? InspectorKind::None : kind;
    m_name = m_kind == InspectorKind::None ? QString() : name;
    m_formerNames.clear();
    refresh();
}

bool InspectorPanel::loadFormerName(InspectorForm* shown) {
    // An undone (or redone) rename: the subject is there under another of its names.
    for (qsizetype i = m_formerNames.size() - 1; i >= 0; --i) {
        if (!shown->load(m_formerNames[i]))
            continue;
        const QString oldName = m_name;
        m_formerNames[i] = oldName; // the name a redo gives back
        m_name = shown->subjectName();
        emit subjectRenamed(m_kind, oldName, m_name);
        return true;
    }
    return false;
}

bool InspectorPanel::showsSubject() const {
    return m_pages->currentWidget() != m_emptyPage;
}

void InspectorPanel::refresh() {
    InspectorForm* shown = form(m_kind);
    if (shown && (shown->load(m_name) || loadFormerName(shown))) {
        m_name = shown->subjectName(); // as the pipeline spells it
        m_title->setText(tr("%1 %2").arg(kindName(m_kind), m_name));
        m_pages->setCurrentWidget(m_formPages.at(m_kind));
        // A Python pipeline is shown, not edited here: its text is a program, edited in the editor.
        const bool python = m_project->document()->isPython();
        shown->setEnabled(!python);
        shown->setToolTip(python ? tr("A Python pipeline is edited in its Python code, in the editor.")
                                 : QString());
        return;
    }
    // The subject is kept: when an undo or the user's typing brings it back, the form shows again.
    m_title->setText(QString());
    m_emptyHint->setText(m_kind == InspectorKind::None
                             ? tr("Select a node in the graph to see and edit its properties.")
                             : tr("%1 %2 is not in the pipeline now.").arg(kindName(m_kind), m_name));
    m_pages->setCurrentWidget(m_emptyPage);
}

} // namespace cdc::ui
