// The grade comes from the core (engine::gradePrediction); this model only shows it. Missing rows are shown
// after the predicted ones so that the learner's rows keep their places.
#include "ui/model/PredictionModel.h"

#include "ui/model/ThemeColors.h"
#include "ui/model/ValueText.h"
#include "ui/model/results/ResultText.h"

#include <QFont>
#include <QGuiApplication>
#include <QPalette>

#include <algorithm>

namespace cdc::ui {

/// One cell typed by the learner.
class CellEdit : public QUndoCommand {
public:
    CellEdit(PredictionModel* model, int row, int column, cdc::Value before, cdc::Value after)
        : m_model(model), m_row(row), m_column(column), m_before(std::move(before)),
          m_after(std::move(after)) {
        setText(QObject::tr("Edit %1").arg(
            QString::fromStdString(model->m_predicted.columns[std::size_t(column)])));
    }
    void redo() override { m_model->putCell(m_row, m_column, m_after); }
    void undo() override { m_model->putCell(m_row, m_column, m_before); }

private:
    PredictionModel* m_model;
    int m_row, m_column;
    cdc::Value m_before, m_after;
};

/// Rows added (redo inserts them) or deleted (redo removes them), at ascending positions.
class RowsEdit : public QUndoCommand {
public:
    RowsEdit(PredictionModel* model, std::vector<std::pair<int, cdc::Row>> rows, bool insert)
        : m_model(model), m_rows(std::move(rows)), m_insert(insert) {
        setText(insert ? QObject::tr("Add Row") : QObject::tr("Delete Rows"));
    }
    void redo() override { m_insert ? insert() : remove(); }
    void undo() override { m_insert ? remove() : insert(); }

private:
    void insert() {
        for (const auto& [at, row] : m_rows)
            m_model->insertAt(at, row);
    }
    void remove() {
        for (auto it = m_rows.rbegin(); it != m_rows.rend(); ++it)
            m_model->removeAt(it->first);
    }
    PredictionModel* m_model;
    std::vector<std::pair<int, cdc::Row>> m_rows;
    bool m_insert;
};

PredictionModel::PredictionModel(QObject* parent) : QAbstractTableModel(parent) {}

void PredictionModel::start(const cdc::ResultSet& rows, const std::vector<std::size_t>& identity) {
    beginResetModel();
    m_predicted = rows;
    m_actual = {};
    m_identity = identity;
    m_grade.reset();
    m_explanations.clear();
    m_undo.clear();
    endResetModel();
}

void PredictionModel::clear() {
    start({}, {});
}

bool PredictionModel::grade(const cdc::ResultSet& actual) {
    if (actual.columns != m_predicted.columns)
        return false;
    beginResetModel();
    m_actual = actual;
    m_grade = engine::gradePrediction(m_predicted.rows, m_actual.rows, m_identity);
    m_explanations.clear();
    endResetModel();
    // A graded prediction is what the learner said: edits after the fact would change the verdict.
    m_undo.clear();
    return true;
}

void PredictionModel::setExplanation(int row, int column, const QString& text) {
    m_explanations.insert({row, column}, text);
    const int first = column < 0 ? 0 : column;
    const int last = column < 0 ? columnCount() - 1 : column;
    emit dataChanged(index(row, first), index(row, last), {Qt::ToolTipRole});
}

void PredictionModel::addRow(int at) {
    if (!isStarted() || isGraded())
        return;
    if (at < 0 || at > predictedRowCount())
        at = predictedRowCount();
    m_undo.push(new RowsEdit(this, {{at, cdc::Row(m_predicted.columns.size())}}, true));
}

void PredictionModel::removeRows(QList<int> rows) {
    if (isGraded())
        return;
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    std::vector<std::pair<int, cdc::Row>> removed;
    for (int r : rows)
        if (r >= 0 && r < predictedRowCount())
            removed.emplace_back(r, m_predicted.rows[std::size_t(r)]);
    if (!removed.empty())
        m_undo.push(new RowsEdit(this, std::move(removed), false));
}

void PredictionModel::putCell(int row, int column, const cdc::Value& value) {
    m_predicted.rows[std::size_t(row)][std::size_t(column)] = value;
    emit dataChanged(index(row, column), index(row, column));
}

void PredictionModel::insertAt(int at, const cdc::Row& row) {
    beginInsertRows({}, at, at);
    m_predicted.rows.insert(m_predicted.rows.begin() + at, row);
    endInsertRows();
}

void PredictionModel::removeAt(int at) {
    beginRemoveRows({}, at, at);
    m_predicted.rows.erase(m_predicted.rows.begin() + at);
    endRemoveRows();
}

int PredictionModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid())
        return 0;
    return predictedRowCount() + (m_grade ? static_cast<int>(m_grade->missing.size()) : 0);
}

int PredictionModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_predicted.columns.size());
}

const cdc::Row& PredictionModel::shownRow(int row) const {
    if (row < predictedRowCount())
        return m_predicted.rows[std::size_t(row)];
    return m_actual.rows[std::size_t(m_grade->missing[std::size_t(row - predictedRowCount())])];
}

PredictionModel::Grade PredictionModel::gradeOf(int row, int column) const {
    if (!m_grade)
        return Grade::Ungraded;
    if (row >= predictedRowCount())
        return Grade::Missing;
    const engine::GradedRow& g = m_grade->rows[std::size_t(row)];
    if (g.extra())
        return Grade::Extra;
    return g.right[std::size_t(column)] ? Grade::Right : Grade::Wrong;
}

QVariant PredictionModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const int row = index.row(), column = index.column();
    const auto type = m_predicted.typeOf(std::size_t(column));
    const cdc::Value& value = shownRow(row)[std::size_t(column)];
    const Grade grade = gradeOf(row, column);
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
        return displayText(value, type);
    case CellValueRole:
        return cellValue(value, type);
    case GradeRole:
        return static_cast<int>(grade);
    case Qt::BackgroundRole: {
        const QColor base = QGuiApplication::palette().color(QPalette::Base);
        switch (grade) {
        case Grade::Right:
            return themecolors::mix(base, QColor(0x2e, 0xa0, 0x43), 0.28);
        case Grade::Wrong:
        case Grade::Extra:
            return themecolors::mix(base, QColor(0xd7, 0x3a, 0x49), 0.32);
        case Grade::Missing:
            return themecolors::mix(base, QColor(0xe3, 0xa0, 0x08), 0.30);
        case Grade::Ungraded:
            break;
        }
        return {};
    }
    case Qt::FontRole:
        if (grade == Grade::Missing || grade == Grade::Extra) {
            QFont font;
            font.setItalic(true);
            font.setStrikeOut(grade == Grade::Extra);
            return font;
        }
        return {};
    case Qt::ToolTipRole: {
        if (auto it = m_explanations.find({row, column}); it != m_explanations.end())
            return *it;
        if (auto it = m_explanations.find({row, -1}); it != m_explanations.end())
            return *it;
        if (grade == Grade::Wrong) {
            const cdc::Value& truth =
                m_actual.rows[std::size_t(m_grade->rows[std::size_t(row)].actual)][std::size_t(column)];
            return tr("Wrong: it is %1").arg(displayText(truth, type));
        }
        return grade == Grade::Right ? tr("Right") : QVariant();
    }
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(resulttext::cellAlignment(
            row < predictedRowCount() ? m_predicted : m_actual,
            row < predictedRowCount() ? std::size_t(row)
                                      : std::size_t(m_grade->missing[std::size_t(row - predictedRowCount())]),
            column));
    default:
        return {};
    }
}

bool PredictionModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole || !index.isValid() || isGraded() || index.row() >= predictedRowCount())
        return false;
    const auto type = m_predicted.typeOf(std::size_t(index.column()));
    cdc::Value parsed;
    if (auto error = parseCell(value.toString(), type, parsed)) {
        emit editRefused(tr("%1: %2").arg(
            QString::fromStdString(m_predicted.columns[std::size_t(index.column())]), *error));
        return false;
    }
    const cdc::Value& before = m_predicted.rows[std::size_t(index.row())][std::size_t(index.column())];
    if (parsed == before)
        return true;
    m_undo.push(new CellEdit(this, index.row(), index.column(), before, std::move(parsed)));
    return true;
}

QVariant PredictionModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole)
        return {};
    if (orientation == Qt::Horizontal)
        return section < columnCount() ? QString::fromStdString(m_predicted.columns[std::size_t(section)])
                                       : QVariant();
    if (section >= predictedRowCount())
        return tr("missing");
    if (m_grade && m_grade->rows[std::size_t(section)].extra())
        return tr("extra");
    return section + 1;
}

Qt::ItemFlags PredictionModel::flags(const QModelIndex& index) const {
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.isValid() && !isGraded() && index.row() < predictedRowCount())
        f |= Qt::ItemIsEditable;
    return f;
}

} // namespace cdc::ui
