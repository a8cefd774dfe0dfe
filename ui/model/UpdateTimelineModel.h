#pragma once
/// The model behind the Update Timeline dock, where a user picks the update the result panels show
/// and the point to rewind to; hence the extra "Start" row for the state before any update.

#include "core/common/ResultSet.h"

#include <QAbstractTableModel>

namespace cdc::ui {

class Project;

/// Every update so far (from the engine's update log), one row each with its metrics summed over
/// its flows; row 0 is the state before the first update.
class UpdateTimelineModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        UpdateColumn,
        TimeColumn,
        ReadColumn,
        UpsertedColumn,
        DeletedColumn,
        StaleColumn,
        VersionsColumn,
        TombstonesColumn,
        DurationColumn,
        ColumnCount
    };
    struct Entry {
        qint64 updateId = 0;
        QString time;
        QStringList flows;
        qint64 read = 0, upserted = 0, deleted = 0, stale = 0;
        qint64 opened = 0, closed = 0, split = 0;
        qint64 tombstonesCreated = 0, tombstonesCollected = 0;
        double durationMs = 0;
        QString error;
    };

    explicit UpdateTimelineModel(Project* project, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    const QList<Entry>& entries() const { return m_entries; }
    qint64 updateIdAt(int row) const { return m_entries.value(row).updateId; }
    int rowOfUpdate(qint64 updateId) const;
    qint64 lastUpdateId() const { return m_entries.isEmpty() ? 0 : m_entries.last().updateId; }
    /// The raw update log (one row per update and flow), for the log dock.
    const cdc::ResultSet& log() const { return m_log; }

public slots:
    void reload();

private:
    Project* m_project;
    QList<Entry> m_entries;
    cdc::ResultSet m_log;
};

} // namespace cdc::ui
