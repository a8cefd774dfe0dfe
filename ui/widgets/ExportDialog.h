#pragma once
/// File › Export Pipeline…: the project's pipeline as a Databricks Asset Bundle or an Apache Spark
/// Declarative Pipelines project (core/export), in SQL or Python, with its source data if asked. The files
/// are planned in memory as the options change and previewed (the list and the chosen file's content) with
/// the warnings — a click on one moves the editor to its line; Export writes them, asking before it
/// overwrites a folder that is not empty.

#include "core/export/ExportOptions.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;

namespace cdc::ui {

class Project;

class ExportDialog : public QDialog {
    Q_OBJECT
public:
    ExportDialog(Project* project, QWidget* parent = nullptr);

    QComboBox* kindBox() const { return m_kind; }
    QComboBox* languageBox() const { return m_language; }
    QLineEdit* nameEdit() const { return m_name; }
    QLineEdit* catalogEdit() const { return m_catalog; }
    QLineEdit* schemaEdit() const { return m_schema; }
    QCheckBox* csvBox() const { return m_csv; }
    QCheckBox* insertsBox() const { return m_inserts; }
    QLineEdit* folderEdit() const { return m_folder; }
    QPushButton* browseButton() const { return m_browse; }
    QListWidget* fileList() const { return m_files; }
    QPlainTextEdit* preview() const { return m_preview; }
    QListWidget* warningList() const { return m_warnings; }
    QLabel* summaryLabel() const { return m_summary; }
    QPushButton* exportButton() const { return m_export; }

    exporting::ExportOptions options() const;
    /// Plans the export again from the project's current pipeline and the options, and shows it.
    void refresh();
    /// Writes the planned files to the folder; false (reason in the summary) when it cannot or the user
    /// declines to overwrite.
    bool exportFiles();

signals:
    void statusMessage(const QString& message, int timeoutMs = 5000);
    /// A warning was clicked: where it points in the pipeline text.
    void locationActivated(const cdc::SourceLocation& location);

private:
    void showFile(int row);

    Project* m_project;
    QComboBox* m_kind;
    QComboBox* m_language;
    QLineEdit* m_name;
    QLineEdit* m_catalog;
    QLineEdit* m_schema;
    QCheckBox* m_csv;
    QCheckBox* m_inserts;
    QLineEdit* m_folder;
    QPushButton* m_browse;
    QListWidget* m_files;
    QPlainTextEdit* m_preview;
    QListWidget* m_warnings;
    QLabel* m_summary;
    QPushButton* m_export;
    exporting::ExportPlan m_plan;
    bool m_planned = false;
};

} // namespace cdc::ui
