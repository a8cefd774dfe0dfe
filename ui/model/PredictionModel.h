#pragma once
/// The Predict panel's table: an editable copy of a target's rows as the learner expects them after the next
/// update, then — once graded against the rows the update left — each cell marked right or wrong, the rows
/// the prediction left out appended and marked missing, and the predicted rows the table lacks marked extra.
/// Every edit (a cell, Add Row, Delete Row) is a QUndoCommand on the model's own stack: the prediction is a
/// scratch guess, not part of the project's history.

#include "core/common/ResultSet.h"
#include "core/engine/PredictionGrade.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QUndoStack>

#include <optional>

namespace cdc::ui {

class PredictionModel : public QAbstractTableModel {
    Q_OBJECT
public:
    /// How a shown cell was graded (GradeRole).
    enum class Grade { Ungraded, Right, Wrong, Missing, Extra };
    /// Item-data role answering with the cell's Grade (as int).
    static constexpr int GradeRole = Qt::UserRole + 200;

    explicit PredictionModel(QObject* parent = nullptr);

    /// Starts a prediction from `rows` (the target now); `identity` are the columns that tell rows apart.
    /// Clears the grade and the edit history.
    void start(const cdc::ResultSet& rows, const std::vector<std::size_t>& identity);
    /// Forgets the prediction (no columns, no rows).
    void clear();
    bool isStarted() const { return !m_predicted.columns.empty(); }
    /// Grades the prediction against `actual` (the same columns); the prediction is read-only from then on.
    /// False when the columns differ (the target changed shape).
    bool grade(const cdc::ResultSet& actual);
    const std::optional<engine::PredictionGrade>& result() const { return m_grade; }
    bool isGraded() const { return m_grade.has_value(); }

    const cdc::ResultSet& predicted() const { return m_predicted; }
    const cdc::ResultSet& actual() const { return m_actual; }
    const std::vector<std::size_t>& identity() const { return m_identity; }
    /// The shown row of predicted row `row` / of missing actual row `actualRow`.
    int predictedRowCount() const { return static_cast<int>(m_predicted.rows.size()); }

    /// Why a graded cell or row is as it is (tooltips and the panel's list); `column` -1 for a whole row.
    void setExplanation(int row, int column, const QString& text);

    /// Undoable edits. addRow: a row of NULLs before `at` (the end when out of range); removeRows: the given
    /// predicted rows, one undo step.
    void addRow(int at);
    void removeRows(QList<int> rows);
    QUndoStack* undoStack() { return &m_undo; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;

signals:
    /// A typed cell did not convert to its column's type: nothing changed.
    void editRefused(const QString& message);

private:
    friend class CellEdit;
    friend class RowsEdit;
    // What the undo commands do and undo.
    void putCell(int row, int column, const cdc::Value& value);
    void insertAt(int at, const cdc::Row& row);
    void removeAt(int at);
    Grade gradeOf(int row, int column) const;
    /// The shown cell's source: a predicted row, or a missing row of the actual table.
    const cdc::Row& shownRow(int row) const;

    cdc::ResultSet m_predicted;
    cdc::ResultSet m_actual;
    std::vector<std::size_t> m_identity;
    std::optional<engine::PredictionGrade> m_grade;
    QHash<QPair<int, int>, QString> m_explanations;
    QUndoStack m_undo;
};

} // namespace cdc::ui
