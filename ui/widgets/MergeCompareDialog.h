#pragma once
/// Run › Compare with MERGE…: for an AUTO CDC target, the MERGE INTO a data engineer writes without AUTO CDC
/// (Databricks SQL, read-only, copyable and exportable), run on the events the project's updates delivered,
/// batch by batch (engine::compareWithMerge, in a scratch copy off the GUI thread: the project is not
/// touched), and its table next to AUTO CDC's with the differing rows and cells highlighted.

#include "core/engine/MergeComparison.h"

#include <QDialog>
#include <QFutureWatcher>

#include <memory>

class QComboBox;
class QLabel;
class QPushButton;
class QTableView;

namespace cdc::ui {

class CodeEditor;
class MergeTableModel;
class Project;

class MergeCompareDialog : public QDialog {
    Q_OBJECT
public:
    MergeCompareDialog(Project* project, QWidget* parent = nullptr);
    ~MergeCompareDialog() override;

    QComboBox* targetBox() const { return m_target; }
    QLabel* summaryLabel() const { return m_summary; }
    CodeEditor* sqlView() const { return m_sql; }
    QTableView* mergeView() const { return m_mergeView; }
    QTableView* autoCdcView() const { return m_autoCdcView; }
    MergeTableModel* mergeModel() const { return m_mergeModel; }
    MergeTableModel* autoCdcModel() const { return m_autoCdcModel; }
    QPushButton* copyButton() const { return m_copy; }
    QPushButton* exportButton() const { return m_export; }
    bool isRunning() const { return m_watcher.isRunning(); }
    /// The last comparison shown (null before the first, or after a failure).
    std::shared_ptr<const engine::MergeComparison> comparison() const { return m_comparison; }

    /// Lists the pipeline's AUTO CDC targets (keeping the chosen one) and compares the chosen one again.
    void refresh();
    /// Writes the MERGE SQL to `path`; false (reason in the summary) when it cannot.
    bool exportSql(const QString& path);

signals:
    void statusMessage(const QString& message, int timeoutMs = 5000);
    /// A comparison ended (shown or failed).
    void finished();

protected:
    void showEvent(QShowEvent* event) override;

private:
    struct Outcome {
        Result<engine::MergeComparison> comparison = engine::MergeComparison{};
    };
    void compare();
    void takeResult();
    void exportWithDialog();

    Project* m_project;
    QComboBox* m_target;
    QLabel* m_summary;
    CodeEditor* m_sql;
    MergeTableModel* m_autoCdcModel;
    MergeTableModel* m_mergeModel;
    QTableView* m_autoCdcView;
    QTableView* m_mergeView;
    QPushButton* m_copy;
    QPushButton* m_export;
    QFutureWatcher<Outcome> m_watcher;
    std::shared_ptr<const engine::MergeComparison> m_comparison;
    bool m_again = false; ///< the project changed while a comparison ran: compare once more
};

} // namespace cdc::ui
