// The question says what running means (this computer, the user's permissions, a process of its own with a
// time limit) because "trust" alone tells nobody what they agree to.
#include "ui/widgets/PythonTrustController.h"

#include "ui/model/PipelineDocument.h"
#include "ui/model/Project.h"
#include "ui/widgets/NoticeBanner.h"

#include <QAction>
#include <QCheckBox>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QStyle>
#include <QWidget>

namespace cdc::ui {

PythonTrustController::PythonTrustController(Project* project, QWidget* window)
    : QObject(window), m_project(project), m_window(window),
      m_trust(
          new QAction(window->style()->standardIcon(QStyle::SP_MediaPlay), tr("Trust and Run File…"), this)),
      m_banner(new NoticeBanner(m_trust, window)) {
    m_banner->setObjectName(QStringLiteral("pythonTrustBanner"));
    m_trust->setToolTip(tr("Run this Python pipeline file to learn the graph it declares (asks first)"));
    connect(m_trust, &QAction::triggered, this, [this] {
        if (ensureTrusted())
            emit statusMessage(tr("Running %1 to read its pipeline…").arg(m_project->displayName()));
    });
    connect(project, &Project::pythonTrustChanged, this, &PythonTrustController::refresh);
    connect(project, &Project::projectReplaced, this, &PythonTrustController::refresh);
    connect(project->document(), &PipelineDocument::runningChanged, this, [this](bool running) {
        if (!running && m_project->document()->hasErrors())
            emit statusMessage(tr("The Python pipeline stopped on an error: see Issues"), 8000);
    });
    refresh();
}

void PythonTrustController::refresh() {
    const bool untrusted = m_project->document()->isPython() && !m_project->isPythonTrusted();
    m_trust->setEnabled(untrusted);
    m_banner->showText(untrusted ? tr("This pipeline is a Python program and has not been run: the graph and "
                                      "the issues are a preview read from the file without running it. "
                                      "Running it runs its code on this computer.")
                                 : QString());
}

bool PythonTrustController::ensureTrusted() {
    if (!m_project->document()->isPython() || m_project->isPythonTrusted())
        return true;
    return ask();
}

bool PythonTrustController::ask() {
    const QString file = m_project->trustFile();
    const QString name = file.isEmpty() ? tr("This pipeline") : QFileInfo(file).fileName();
    QMessageBox box(QMessageBox::Warning, tr("Run Python Pipeline?"),
                    tr("%1 is a Python program. Running it runs its code on this computer, with your "
                       "permissions, in a process of its own that is stopped after 10 seconds.")
                        .arg(name),
                    QMessageBox::Cancel, m_window);
    box.setObjectName(QStringLiteral("pythonTrustPrompt"));
    box.setInformativeText(tr("Trust it only if you wrote it or trust whoever did. Opening a file never runs "
                              "it; this question comes before the first run."));
    QPushButton* trust = box.addButton(tr("Trust and Run"), QMessageBox::AcceptRole);
    trust->setObjectName(QStringLiteral("trustButton"));
    auto* remember = new QCheckBox(tr("Do not ask again for this file"), &box);
    remember->setObjectName(QStringLiteral("rememberTrust"));
    remember->setChecked(!file.isEmpty());
    remember->setEnabled(!file.isEmpty());
    if (!file.isEmpty())
        remember->setToolTip(file);
    box.setCheckBox(remember);
    box.setDefaultButton(QMessageBox::Cancel); // Enter must not run code
    box.exec();
    if (box.clickedButton() != trust) {
        emit statusMessage(tr("Not run: %1 is not trusted").arg(name));
        return false;
    }
    m_project->trustPython(remember->isChecked());
    return true;
}

} // namespace cdc::ui
