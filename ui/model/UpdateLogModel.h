#pragma once
/// The model behind the Update Log dock. Failed updates live only here, in memory: their transaction
/// rolled back, so the engine's log never saw them. They are dropped when another project opens.

#include "core/common/Diagnostic.h"
#include "core/common/ResultSet.h"

#include <QAbstractTableModel>

namespace cdc::ui {

class Project;

/// The update log: one row per update and flow with every metric (the engine's log), followed by
/// the updates of this session that failed (rolled back, so not in the engine's log) with their error.
class UpdateLogModel : public QAbstractTableModel {
    Q_OBJECT
public:
    explicit UpdateLogModel(Project* project, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void addFailure(const Diagnostic& error);
    /// The error (with its position) of a row, if it has one.
    std::optional<Diagnostic> errorAt(int row) const;
    int logRowCount() const { return int(m_log.rows.size()); }

public slots:
    void reload();

private:
    Project* m_project;
    cdc::ResultSet m_log;
    QList<Diagnostic> m_failures;
    int m_errorColumn = -1;
};

} // namespace cdc::ui
