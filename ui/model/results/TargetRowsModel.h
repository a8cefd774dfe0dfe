#pragma once
/// The rows of one target after the shown update, with the update's effect on each row: inserted,
/// changed, closed (SCD2) — and the rows it deleted, appended as struck-through ghost rows taken from
/// the change feed. Rows arrive in batches (fetchMore) so huge targets open instantly.

#include "ui/model/results/ChangeClassifier.h"
#include "ui/model/results/TargetSnapshot.h"

#include <QAbstractTableModel>

namespace cdc::ui {

class TargetRowsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    static constexpr int FetchBatch = 1000;

    explicit TargetRowsModel(QObject* parent = nullptr);

    /// Copies `snapshot`; the shared overload shows it without a copy.
    void setSnapshot(const TargetSnapshot& snapshot);
    void setSnapshot(SharedSnapshot snapshot);
    void clear();
    const TargetSnapshot& snapshot() const { return *m_snapshot; }

    /// Rows of the target plus ghost rows, whether fetched yet or not.
    int totalRows() const;
    /// Makes sure `row` is fetched (for selecting a row far down).
    void fetchUpTo(int row);
    RowChange rowChange(int row) const;
    bool isGhost(int row) const { return row >= static_cast<int>(m_snapshot->rows.rows.size()); }
    /// How many rows the shown update touched, per kind.
    int count(RowChange change) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex& parent) const override;
    void fetchMore(const QModelIndex& parent) override;

private:
    QString cell(int row, int column) const;

    SharedSnapshot m_snapshot = emptySnapshot();
    ChangeClassification m_changes;
    std::vector<int> m_ghostColumns; ///< per target column, its index in the change feed
    int m_fetched = 0;
};

} // namespace cdc::ui
