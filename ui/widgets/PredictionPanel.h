#pragma once
/// Predict, then see (teaching mode): before an update the learner edits a copy of a target table into what
/// they expect after the next update; when that update has run the panel grades it cell by cell (right,
/// wrong, missing row, extra row) and explains every mistake from the key's provenance (engine::explainKey,
/// replayed off the GUI thread on a copy of the project). When the open sample has a lesson, its question for
/// the next update is shown before it and its explanation after it.

#include "ui/model/Lesson.h"
#include "ui/model/results/TargetSnapshot.h"

#include <QFutureWatcher>
#include <QWidget>

#include <atomic>
#include <memory>
#include <optional>

class QAction;
class QComboBox;
class QLabel;
class QListWidget;
class QTableView;

namespace cdc::ui {

class PredictionModel;
class Project;
class ResultsController;

class PredictionPanel : public QWidget {
    Q_OBJECT
public:
    PredictionPanel(Project* project, ResultsController* results, QWidget* parent = nullptr);
    ~PredictionPanel() override;

    /// Predict Next Update (Ctrl+Shift+P): copies the chosen target as it is now into the editable grid.
    QAction* predictAction() const { return m_predict; }
    /// Starts a prediction of `target` (the chosen one when empty); false (with a message) when it cannot.
    bool predict(const QString& target = {});
    bool isExplaining() const { return m_watcher.isRunning(); }

    QComboBox* targetBox() const { return m_target; }
    QTableView* gridView() const { return m_view; }
    PredictionModel* model() const { return m_model; }
    QLabel* lessonLabel() const { return m_lesson; }
    QLabel* summaryLabel() const { return m_summary; }
    QListWidget* explanationList() const { return m_explanations; }
    QAction* addRowAction() const { return m_addRow; }
    QAction* deleteRowsAction() const { return m_deleteRows; }
    const Lesson& lesson() const { return m_lessonData; }

signals:
    void statusMessage(const QString& message);
    /// A prediction started: show the panel.
    void shown();
    /// The explanations of a graded prediction are listed (or could not be found).
    void explained();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    /// One mistake to explain: a wrong cell (column >= 0) or a whole missing / extra row of a key.
    struct Mistake {
        int row = 0;
        int column = -1;
        bool missing = false;
        cdc::Row key;
        cdc::Value predicted, actual;
        std::optional<cdc::Value> versionStart; ///< SCD2: the row's __START_AT
    };
    void snapshotsChanged(const QList<TargetSnapshot>& snapshots);
    void grade(const TargetSnapshot& actual);
    void explain(std::vector<Mistake> mistakes);
    void takeExplanations();
    void loadLesson();
    void showLesson();
    qint64 lastUpdate() const;
    void refuse(const QString& why);

    Project* m_project;
    ResultsController* m_results;
    PredictionModel* m_model;
    QComboBox* m_target;
    QAction* m_predict;
    QAction* m_addRow;
    QAction* m_deleteRows;
    QLabel* m_lesson;
    QTableView* m_view;
    QLabel* m_summary;
    QListWidget* m_explanations;
    QString m_predictedTarget;
    qint64 m_predictedAt = -1; ///< the update the prediction starts from; -1: none
    Lesson m_lessonData;
    QString m_lessonError;
    std::vector<Mistake> m_mistakes; ///< being explained
    QFutureWatcher<std::vector<std::string>> m_watcher;
    std::shared_ptr<std::atomic<bool>> m_cancel;
};

} // namespace cdc::ui
