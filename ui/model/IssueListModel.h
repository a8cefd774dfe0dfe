#pragma once
/// The Issues dock's model: the diagnostics the editor underlines, as a list a user can read and
/// click through to the location.

#include "core/common/Diagnostic.h"

#include <QAbstractTableModel>

#include <vector>

namespace cdc::ui {

/// Every error and warning of the last parse / validation / update, for the issues list.
class IssueListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { SeverityColumn, LocationColumn, MessageColumn, ColumnCount };
    using QAbstractTableModel::QAbstractTableModel;

    void setDiagnostics(std::vector<Diagnostic> diagnostics);
    const std::vector<Diagnostic>& diagnostics() const { return m_diagnostics; }
    const Diagnostic* at(int row) const;
    int errorCount() const;
    int warningCount() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<Diagnostic> m_diagnostics;
};

} // namespace cdc::ui
