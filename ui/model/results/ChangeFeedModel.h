#pragma once
/// The change data feed of one target for the shown update (table_changes(t, id, id)): one row per
/// insert / update_preimage / update_postimage / delete, coloured by change type.

#include "ui/model/results/RowChange.h"
#include "ui/model/results/TargetSnapshot.h"

#include <QAbstractTableModel>

namespace cdc::ui {

class ChangeFeedModel : public QAbstractTableModel {
    Q_OBJECT
public:
    explicit ChangeFeedModel(QObject* parent = nullptr);

    void setSnapshot(const TargetSnapshot& snapshot);
    const cdc::ResultSet& feed() const { return m_feed; }
    QString changeType(int row) const;
    RowChange rowChange(int row) const;
    /// Rows with the given _change_type.
    int count(const QString& changeType) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    cdc::ResultSet m_feed;
    int m_typeColumn = -1;
    std::vector<RowChange> m_changes; ///< per feed row: SCD2 postimages that set __END_AT count as Closed
};

} // namespace cdc::ui
