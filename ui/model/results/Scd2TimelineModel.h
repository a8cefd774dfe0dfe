#pragma once
/// The SCD2 history of one target as lanes and bars: one lane per key, one bar per version spanning
/// [__START_AT, __END_AT) on a SequenceAxis. Bars carry how the shown update touched the version, and
/// versions it removed come back as ghost bars. As an item model it is a two-level tree
/// (lane -> versions) so that tests and accessibility tools can read it; the timeline view paints
/// straight from lanes().

#include "ui/model/results/ChangeClassifier.h"
#include "ui/model/results/SequenceAxis.h"
#include "ui/model/results/TargetSnapshot.h"

#include <QAbstractItemModel>

#include <optional>

namespace cdc::ui {

class TargetRowOrder;

struct TimelineBar {
    int row = -1;                ///< the row in TargetRowsModel numbering (target rows, then ghost rows)
    double start = 0;            ///< axis position of __START_AT
    double end = 0;              ///< axis position of __END_AT (meaningless when open)
    bool open = false;           ///< current version: __END_AT is NULL
    bool startUnknown = false;   ///< __START_AT is NULL (Databricks' delete-splits-delete row)
    bool closedByDelete = false; ///< closed, and no version of the key starts where it ends
    bool ghost = false;          ///< removed from the target by the shown update
    RowChange change = RowChange::None;
};

struct TimelineLane {
    int keyRow = -1;                    ///< a row (TargetRowsModel numbering) holding the lane's key values
    QList<TimelineBar> bars;            ///< ordered by start
    RowChange change = RowChange::None; ///< the shown update touched this key (most notable kind)
    bool current() const;
};

class Scd2TimelineModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { LabelColumn, StartColumn, EndColumn, ChangeColumn, ColumnCount };

    explicit Scd2TimelineModel(QObject* parent = nullptr);

    /// Copies `snapshot`; the shared overload shows it without a copy. A snapshot patched from the
    /// shown one (TargetSnapshot::patch) rebuilds only the lanes of changed keys and moves the rest,
    /// announced as one layout change that keeps persistent indexes; any other snapshot resets.
    void setSnapshot(const TargetSnapshot& snapshot);
    void setSnapshot(SharedSnapshot snapshot);
    const TargetSnapshot& snapshot() const { return *m_snapshot; }
    const QList<TimelineLane>& lanes() const { return m_lanes; }
    const SequenceAxis& axis() const { return m_axis; }
    /// Lane and bar index of a row in TargetRowsModel numbering; {-1, -1} when it has none.
    std::pair<int, int> locate(int row) const;

    QString laneLabel(int lane) const;
    /// The tracked values of a version, as the bar shows them.
    QString barLabel(const TimelineBar& bar) const;
    QString startText(const TimelineBar& bar) const;
    QString endText(const TimelineBar& bar) const;
    /// The full row with the update's effect on it, for the hover tooltip.
    QString barToolTip(const TimelineBar& bar) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    const cdc::Row& rowValues(int row) const;
    const cdc::Value& cell(int row, int column) const;
    static std::vector<cdc::Row> ghostRowsOf(const TargetSnapshot& snapshot,
                                             const ChangeClassification& changes);
    void buildLanes();
    TimelineBar makeBar(int row) const;
    static void finishLane(TimelineLane& lane);
    void locateBars();
    bool canPatch(const TargetSnapshot& next) const;
    /// False (and nothing changed) when the axis needs every value: then the caller resets.
    bool patch(const SharedSnapshot& next);
    /// patch()'s steps: the axis with the changed rows' sequence values (none: it needs every value), the
    /// keys whose lanes are rebuilt (in `order`), and views' indexes moved to the lanes' new places.
    std::optional<SequenceAxis> patchedAxis(const TargetSnapshot& next,
                                            const std::vector<cdc::Row>& ghostRows) const;
    std::vector<cdc::Row> dirtyKeys(const TargetSnapshot& next, const std::vector<cdc::Row>& ghostRows,
                                    const TargetRowOrder& order) const;
    void remapPersistentIndexes(const std::vector<int>& laneMap, const std::vector<bool>& rebuilt);

    SharedSnapshot m_snapshot = emptySnapshot();
    std::shared_ptr<const ChangeClassification> m_changes = changesOf(*emptySnapshot());
    SequenceAxis m_axis;
    QList<TimelineLane> m_lanes;
    std::vector<std::pair<int, int>> m_location;
    cdc::Row m_emptyRow;
    cdc::Value m_null;
    /// Column indices in the target rows; ghost rows are remapped into the same layout.
    std::vector<int> m_keyColumns;
    std::vector<int> m_labelColumns;
    int m_start = -1;
    int m_end = -1;
    std::vector<cdc::Row> m_ghostRows;
};

} // namespace cdc::ui
