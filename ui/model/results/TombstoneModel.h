#pragma once
/// The delete tombstones of one target: key, delete sequence, when the delete was recorded and when
/// garbage collection will drop it (simulated clock). Tombstones the shown update collected follow
/// the live ones, greyed and marked with the update that removed them.

#include "ui/model/results/ResultText.h"
#include "ui/model/results/TargetSnapshot.h"

#include <QAbstractTableModel>
#include <optional>

namespace cdc::ui {

class TombstoneModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum class Field { Key, Sequence, RecordedAt, GcDueAt, Status };

    explicit TombstoneModel(QObject* parent = nullptr);

    void setSnapshot(const TargetSnapshot& snapshot);
    /// The simulated clock (epoch seconds): live tombstones past their GC due time show as "due".
    void setSimulatedNow(std::optional<qint64> now);

    int liveCount() const { return static_cast<int>(m_live.rows.size()); }
    int collectedCount() const { return static_cast<int>(m_collected.rows.size()); }
    bool isCollected(int row) const { return row >= liveCount(); }
    Field field(int column) const;
    /// The status text of a row ("Live", "Due for GC", "Kept" (SCD2), "Collected in update N").
    QString status(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Column {
        Field field;
        QString name;   ///< the engine's column name
        QString header; ///< what people read
        int live = -1;  ///< index in the live result set
        int collected = -1;
    };
    QString text(int row, const Column& column) const;
    QVariant value(int row, const Column& column) const;
    /// The stored cell (live or collected tombstones) of a row and column.
    resulttext::CellRef stored(int row, const Column& column) const;
    bool isDue(int row) const;
    bool neverCollected(int row) const;

    cdc::ResultSet m_live;
    cdc::ResultSet m_collected;
    QList<Column> m_columns;
    qint64 m_updateId = 0;
    std::optional<qint64> m_now;
};

} // namespace cdc::ui
