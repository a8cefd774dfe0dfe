// The engine's log is shown as it comes (columns by name, typed cells for sort and export); a logged
// error's `file:line:col` is parsed back so a double-click can jump to the position.
#include "ui/model/UpdateLogModel.h"

#include "core/engine/Engine.h"
#include "ui/model/Project.h"
#include "ui/model/ThemeColors.h"
#include "ui/model/ValueText.h"

#include <QBrush>
#include <QColor>
#include <QGuiApplication>
#include <QRegularExpression>

namespace cdc::ui {

UpdateLogModel::UpdateLogModel(Project* project, QObject* parent)
    : QAbstractTableModel(parent), m_project(project) {
    connect(project, &Project::dataChanged, this, &UpdateLogModel::reload);
    connect(project, &Project::projectReplaced, this, [this] {
        beginResetModel();
        m_failures.clear();
        endResetModel();
    });
    reload();
}

void UpdateLogModel::reload() {
    beginResetModel();
    auto log = [this] {
        const auto guard = m_project->guardQuickRead("reading the update log");
        return engine::updateLog(m_project->db());
    }();
    m_log = log ? *log : cdc::ResultSet{};
    m_errorColumn = -1;
    for (std::size_t i = 0; i < m_log.columns.size(); ++i)
        if (m_log.columns[i] == "error")
            m_errorColumn = int(i);
    endResetModel();
}

void UpdateLogModel::addFailure(const Diagnostic& error) {
    beginInsertRows({}, rowCount(), rowCount());
    m_failures << error;
    endInsertRows();
}

int UpdateLogModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_log.rows.size() + m_failures.size());
}
int UpdateLogModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : std::max(int(m_log.columns.size()), 3);
}

std::optional<Diagnostic> UpdateLogModel::errorAt(int row) const {
    if (row >= logRowCount() && row < rowCount())
        return m_failures[row - logRowCount()];
    if (row < 0 || row >= logRowCount() || m_errorColumn < 0)
        return std::nullopt;
    const auto* text = std::get_if<std::string>(&m_log.rows[row][m_errorColumn]);
    if (!text || text->empty())
        return std::nullopt;
    // Logged errors are formatted `file:line:col: error: message`.
    Diagnostic d = Diagnostic::error("UPDATE", *text);
    const auto m =
        QRegularExpression(QStringLiteral("^[^:]*:(\\d+):(\\d+):")).match(QString::fromStdString(*text));
    if (m.hasMatch()) {
        d.location.line = m.captured(1).toInt();
        d.location.column = m.captured(2).toInt();
    }
    return d;
}

QVariant UpdateLogModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    if (index.row() >= logRowCount()) {
        const Diagnostic& d = m_failures[index.row() - logRowCount()];
        const QString text = index.column() == 0                   ? tr("failed")
                             : index.column() == columnCount() - 1 ? QString::fromStdString(d.format())
                                                                   : QString();
        if (role == Qt::DisplayRole)
            return text;
        if (role == CellValueRole)
            return cellValue(text.isEmpty() ? cdc::Value{} : cdc::Value{text.toStdString()}, std::nullopt);
        if (role == Qt::ForegroundRole)
            return QBrush(themecolors::error(QGuiApplication::palette()));
        if (role == Qt::ToolTipRole)
            return tr(
                "This update failed and was rolled back: nothing changed. Double-click to see the position.");
        return {};
    }
    const auto& row = m_log.rows[index.row()];
    if (std::size_t(index.column()) >= row.size())
        return {};
    const auto& value = row[index.column()];
    if (role == Qt::DisplayRole) {
        if (m_log.columns[index.column()] == "duration_ms")
            if (auto* d = std::get_if<double>(&value))
                return QString::number(*d, 'f', 2);
        return isNull(value) ? QString() : displayText(value, m_log.typeOf(index.column()));
    }
    if (role == CellValueRole)
        return cellValue(value, m_log.typeOf(index.column()));
    if (role == Qt::TextAlignmentRole &&
        (std::holds_alternative<std::int64_t>(value) || std::holds_alternative<double>(value)))
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole && index.column() == m_errorColumn)
        return QBrush(themecolors::error(QGuiApplication::palette()));
    return {};
}

QVariant UpdateLogModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && role == Qt::DisplayRole &&
        std::size_t(section) < m_log.columns.size())
        return QString::fromStdString(m_log.columns[section]);
    return QAbstractTableModel::headerData(section, orientation, role);
}

} // namespace cdc::ui
