#pragma once
/// Sources › Import Feed…: a change feed file (Debezium, AWS DMS, Delta change data feed, Flink changelog,
/// plain CSV or JSON Lines) into a source table's event queue, with the format detected, the column mapping
/// editable and the first records shown as they would be inserted.

#include "core/feeds/FeedImporter.h"

#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace cdc::ui {

class Project;

class FeedImportDialog : public QDialog {
    Q_OBJECT
public:
    /// `table`: the table to offer first (the Sources tab on show), may be empty.
    FeedImportDialog(Project* project, const QString& table, QWidget* parent = nullptr);

    /// Chooses the file as Browse… does: detects its format, drafts the mapping, shows the preview.
    void setFile(const QString& path);
    QString file() const;
    feeds::FeedFormat format() const;
    QString table() const;
    const feeds::FeedMapping& mapping() const { return m_mapping; }
    /// What the import did (after the dialog was accepted).
    const feeds::ImportReport& report() const { return m_report; }

    QLineEdit* fileEdit() const { return m_file; }
    QPushButton* browseButton() const { return m_browse; }
    QComboBox* formatBox() const { return m_format; }
    QComboBox* tableBox() const { return m_table; }
    /// One row per table column: its name, its type and what it takes (a combo box in column 2).
    QTableWidget* mappingTable() const { return m_mappingView; }
    QTableWidget* previewTable() const { return m_preview; }
    QLabel* messageLabel() const { return m_message; }
    QPushButton* importButton() const { return m_import; }
    QProgressBar* progressBar() const { return m_progress; }

public slots:
    void reject() override;

private:
    void browse();
    /// Reads the preview again and drafts the mapping anew (file, format or table changed).
    void reload();
    void fillMapping();
    /// The preview rows through the current mapping.
    void fillPreview();
    void runImport();
    void setBusy(bool busy);

    Project* m_project;
    QLineEdit* m_file;
    QPushButton* m_browse;
    QComboBox* m_format;
    QComboBox* m_table;
    QTableWidget* m_mappingView;
    QTableWidget* m_preview;
    QLabel* m_summary;
    QLabel* m_message;
    QProgressBar* m_progress;
    QDialogButtonBox* m_buttons;
    QPushButton* m_import;
    feeds::FeedPreview m_previewData;
    feeds::FeedMapping m_mapping;
    feeds::ImportReport m_report;
    QString m_loadedTable; ///< the table the mapping was drafted for
    bool m_busy = false;
    bool m_cancel = false;
    bool m_filling = false;
};

} // namespace cdc::ui
