#pragma once
/// The rows of one target after the shown update, with the update's effect on each row: inserted,
/// changed, closed (SCD2) — and the rows it deleted, appended as struck-through ghost rows taken from
/// the change feed. Rows arrive in batches (fetchMore) so huge targets open instantly.
///
/// A snapshot patched from the shown one (TargetSnapshot::patch) is shown by moving only the rows of
/// the changed keys (rowsRemoved / rowsInserted, then one dataChanged for the new highlights), so the
/// view keeps its selection and scroll position; any other snapshot resets the model.

#include "ui/model/results/ChangeClassifier.h"
#include "ui/model/results/ResultText.h"
#include "ui/model/results/TargetSnapshot.h"

#include <QAbstractTableModel>

#include <memory>

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
    const TargetSnapshot& snapshot() const { return *m_shown.snapshot; }

    /// Rows of the target plus ghost rows, whether fetched yet or not.
    int totalRows() const;
    /// Makes sure `row` is fetched (for selecting a row far down).
    void fetchUpTo(int row);
    RowChange rowChange(int row) const;
    bool isGhost(int row) const;
    /// How many rows the shown update touched, per kind.
    int count(RowChange change) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex& parent) const override;
    void fetchMore(const QModelIndex& parent) override;

private:
    /// A snapshot with what the model derives from it.
    struct Shown {
        SharedSnapshot snapshot = emptySnapshot();
        std::shared_ptr<const ChangeClassification> changes;
        std::vector<int> ghostColumns; ///< per target column, its index in the change feed
        int targetRows() const { return static_cast<int>(snapshot->rows.rows.size()); }
        int total() const { return targetRows() + static_cast<int>(changes->ghostChangeRows.size()); }
    };
    /// While a patch is announced row by row, the model shows the base snapshot's rows before `split`
    /// and the new snapshot's rows from there on (shifted by `shift`), then the base's ghosts until
    /// they are removed; the new ghosts come once the transition is over.
    struct Transition {
        Shown base;
        int split = 0;
        int shift = 0;
        enum class Ghosts { Base, None } ghosts = Ghosts::Base;
    };
    struct Source {
        const Shown* shown;
        std::size_t row; ///< in that snapshot's numbering (target rows, then its ghosts)
    };

    static Shown derive(SharedSnapshot snapshot);
    bool canPatch(const TargetSnapshot& next) const;
    void patch(SharedSnapshot next);
    void moveSplit(int split, int shift) {
        m_transition->split = split;
        m_transition->shift = shift;
    }
    Source resolve(int row) const;
    /// Where a cell's value is: a row of the snapshot, or — for a ghost row — of its change feed.
    resulttext::CellRef cell(int row, int column) const;

    Shown m_shown = derive(emptySnapshot());
    std::unique_ptr<Transition> m_transition; ///< only while patch() runs
    int m_fetched = 0;
    bool m_announcing = false; ///< between beginInsertRows/beginRemoveRows and their end
};

} // namespace cdc::ui
