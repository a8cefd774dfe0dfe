#pragma once
/// File › Project Settings…: the settings that belong to the project file rather than to the app. Today
/// one: the Volumes folder, where the pipeline's `/Volumes/<catalog>/<schema>/<volume>/...` paths
/// (read_files, list_files) lead; by default the folder that holds the project file. And the time limit of
/// the result views' reads (a view in a project may never end).

#include <QDialog>

#include <functional>

class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace cdc::ui {

class Project;

class ProjectSettingsDialog : public QDialog {
    Q_OBJECT
public:
    ProjectSettingsDialog(Project* project, QWidget* parent = nullptr);

    QLineEdit* volumesEdit() const { return m_volumes; }
    QPushButton* browseButton() const { return m_browse; }
    QPushButton* defaultButton() const { return m_default; }
    /// The folder the pipeline's files are read from with what is typed now, or why there is none.
    QLabel* previewLabel() const { return m_preview; }
    /// Shows why OK was refused (a folder that does not exist, a write that failed).
    QLabel* errorLabel() const { return m_error; }
    /// The result views' query time limit, in seconds.
    QSpinBox* queryTimeoutEdit() const { return m_queryTimeout; }
    /// Replaces the folder chooser (tests answer it without a native dialog): given the current folder,
    /// returns the chosen one, or empty when cancelled.
    void setFolderChooser(std::function<QString(const QString&)> chooser) { m_chooser = std::move(chooser); }

    void accept() override;

private:
    void updatePreview();

    Project* m_project;
    QLineEdit* m_volumes;
    QPushButton* m_browse;
    QPushButton* m_default;
    QLabel* m_preview;
    QLabel* m_error;
    QSpinBox* m_queryTimeout;
    std::function<QString(const QString&)> m_chooser;
};

} // namespace cdc::ui
