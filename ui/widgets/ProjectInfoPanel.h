#pragma once
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
