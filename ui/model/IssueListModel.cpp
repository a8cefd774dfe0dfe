// A reset per refresh: each parse yields a new list, not an edit of the old one, and it is a handful
// of rows. The model sorts them itself so the list reads like the text, errors first.
#include "ui/model/IssueListModel.h"

#include <QIcon>

#include <algorithm>

namespace cdc::ui {

void IssueListModel::setDiagnostics(std::vector<Diagnostic> diagnostics) {
    // Errors first, then by position, so the list reads top to bottom like the text.
    std::stable_sort(diagnostics.begin(), diagnostics.end(), [](const Diagnostic& a, const Diagnostic& b) {
        if (a.severity != b.severity)
            return a.severity < b.severity;
        return a.location.offset < b.location.offset;
    });
    beginResetModel();
    m_diagnostics = std::move(diagnostics);
    endResetModel();
}

const Diagnostic* IssueListModel::at(int row) const {
    return row >= 0 && std::size_t(row) < m_diagnostics.size() ? &m_diagnostics[row] : nullptr;
}

int IssueListModel::errorCount() const {
    return int(std::count_if(m_diagnostics.begin(), m_diagnostics.end(),
                             [](const Diagnostic& d) { return d.severity == Severity::Error; }));
}
int IssueListModel::warningCount() const {
    return int(std::count_if(m_diagnostics.begin(), m_diagnostics.end(),
                             [](const Diagnostic& d) { return d.severity == Severity::Warning; }));
}

int IssueListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_diagnostics.size());
}
int IssueListModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant IssueListModel::data(const QModelIndex& index, int role) const {
    const Diagnostic* d = at(index.row());
    if (!d)
        return {};
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case SeverityColumn:
            return QString::fromStdString(severityName(d->severity));
        case LocationColumn:
            return d->location.valid() ? QStringLiteral("%1:%2").arg(d->location.line).arg(d->location.column)
                                       : QString();
        case MessageColumn:
            return QString::fromStdString(d->message);
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole)
        return QString::fromStdString(d->format()) +
               (d->code.empty() ? QString() : QStringLiteral(" [%1]").arg(QString::fromStdString(d->code)));
    if (role == Qt::DecorationRole && index.column() == SeverityColumn)
        return QIcon::fromTheme(d->severity == Severity::Error ? QStringLiteral("dialog-error")
                                                               : QStringLiteral("dialog-warning"));
    return {};
}

QVariant IssueListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case SeverityColumn:
        return tr("Severity");
    case LocationColumn:
        return tr("Line:Col");
    case MessageColumn:
        return tr("Message");
    default:
        return {};
    }
}

} // namespace cdc::ui
