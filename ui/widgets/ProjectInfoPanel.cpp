// READMEs are Markdown, rendered by QTextBrowser::setMarkdown with no converter of our own; a
// project with no README gets a three-step how-to instead.
#include "ui/widgets/ProjectInfoPanel.h"

#include "ui/model/Project.h"

#include <QTextBrowser>
#include <QVBoxLayout>

namespace cdc::ui {

ProjectInfoPanel::ProjectInfoPanel(Project* project, QWidget* parent)
    : QWidget(parent), m_project(project), m_browser(new QTextBrowser(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_browser);
    m_browser->setOpenExternalLinks(false);
    m_browser->setFrameShape(QFrame::NoFrame);
    m_browser->document()->setDocumentMargin(10);
    connect(project, &Project::projectReplaced, this, &ProjectInfoPanel::refresh);
    connect(project, &Project::filePathChanged, this, &ProjectInfoPanel::refresh); // Save As renames it
    refresh();
}

void ProjectInfoPanel::refresh() {
    QString text = m_project->readme();
    if (text.isEmpty())
        text = tr("# %1\n\n1. Write the pipeline SQL in the editor (or pick a sample from the **Samples** "
                  "menu).\n"
                  "2. Create source tables with **Run › Source SQL…** and add rows in **Sources**.\n"
                  "3. Deliver events from the **Event queue** with **Step** (F10) and watch the targets.")
                   .arg(m_project->displayName());
    m_browser->setMarkdown(text);
}

} // namespace cdc::ui
