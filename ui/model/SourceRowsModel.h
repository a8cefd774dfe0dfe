#pragma once
/// The model of one tab of the Sources dock. Rows still queued are edited here, not in the source
/// table: nothing reaches the table until the simulation delivers it, as in a real stream.

#include "core/storage/Catalog.h"
#include "ui/model/ProjectStore.h"

#include <QAbstractTableModel>

namespace cdc::ui {

class Project;

/// One source table as a grid: the rows already delivered (read-only, greyed) followed by the rows
/// still waiting in the event queue (editable). Edits become undoable queue changes.
class SourceRowsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    SourceRowsModel(Project* project, const QString& table, QObject* parent = nullptr);

    QString table() const { return m_table; }
    const storage::TableInfo& info() const { return m_info; }
    QStringList columnNames() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

    /// Delivered rows shown: the latest ones (a source can hold a million; the grid is reloaded after every
    /// step). Their row numbers count the earlier ones too.
    static constexpr int kDeliveredShown = 1000;
    int deliveredCount() const { return int(m_delivered.size()); }
    /// Delivered rows older than those shown.
    qint64 hiddenDeliveredCount() const { return m_hiddenDelivered; }
    /// Queued rows shown: the last ones (what Add Row and Paste Rows append is always among them), numbered
    /// +1, +2 ... from the first queued row of the source.
    static constexpr int kPendingShown = 10000;
    /// Queued rows ahead of those shown.
    qint64 hiddenPendingCount() const { return m_hiddenPending; }
    bool isPending(int row) const { return row >= m_delivered.size() && row < rowCount(); }
    /// The row showing the delivered row with SQLite rowid `rowid` (provenance names events by it), or -1
    /// (also for a row older than those shown).
    int rowOfRowId(qint64 rowid) const;
    /// Queue id of a pending row, 0 for delivered rows.
    qint64 eventId(int row) const;

    /// Appends rows given as text cells in column order (paste, CSV import). `mapping[i]` is the
    /// index in `cells` of table column i, or -1 for NULL. All rows or none: a bad cell is an error
    /// naming its line and column.
    Status appendTextRows(const QList<QStringList>& cells, const QList<int>& mapping, const QString& what);
    Status addEmptyRow();
    Status removeRowsAt(const QList<int>& rows);
    /// The last error of setData (the view shows it in the status bar).
    QString lastError() const { return m_lastError; }

public slots:
    void reload();

signals:
    void editRejected(const QString& message);

private:
    Project* m_project;
    QString m_table;
    storage::TableInfo m_info;
    QList<cdc::Row> m_delivered;
    QList<qint64> m_rowids; ///< of the delivered rows
    QList<QueuedEvent> m_pending;
    qint64 m_hiddenDelivered = 0;
    qint64 m_hiddenPending = 0;
    QString m_lastError;
};

} // namespace cdc::ui
