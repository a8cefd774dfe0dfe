#pragma once
/// A sample's README says what to try at each step, so it stays docked beside the workbench rather
/// than in a dialog that is closed after the first read.

#include <QWidget>

class QTextBrowser;

namespace cdc::ui {

class Project;

/// "About this project": the sample's explanation (its README) or a short how-to for new projects.
class ProjectInfoPanel : public QWidget {
    Q_OBJECT
public:
    ProjectInfoPanel(Project* project, QWidget* parent = nullptr);
    QTextBrowser* browser() const { return m_browser; }

public slots:
    void refresh();

private:
    Project* m_project;
    QTextBrowser* m_browser;
};

} // namespace cdc::ui
