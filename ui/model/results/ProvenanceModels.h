#pragma once
/// The two tables of the provenance panel ("why is this row like this?"): the key's events in sequence
/// order with their fates, and which event set each current value.

#include "core/engine/Provenance.h"

#include <QAbstractTableModel>
#include <QColor>

namespace cdc::ui {

/// How a fate reads at a glance: kept (its values are in the table), replaced (an older state), dropped
/// (never applied), surprising (GC or a truncate changed the outcome), deleting.
enum class FateTone { Kept, Replaced, Dropped, Surprising, Deleting };
FateTone fateTone(engine::EventFate fate);
/// The tint of a tone on `base`, following the theme.
QColor fateBackground(FateTone tone, const QPalette& palette);

class ProvenanceEventsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    /// Fixed columns before the event's values; its source row and the reason follow them.
    enum Column { SequenceColumn, OperationColumn, UpdateColumn, FateColumn, FirstValueColumn };

    explicit ProvenanceEventsModel(QObject* parent = nullptr);
    void setExplanation(const engine::Explanation& e);
    void clear();
    const engine::Explanation& explanation() const { return m_e; }
    const engine::ExplainedEvent* eventAt(int row) const;
    int sourceColumn() const { return FirstValueColumn + static_cast<int>(m_e.columns.size()); }
    int whyColumn() const { return sourceColumn() + 1; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    engine::Explanation m_e;
};

/// Column | current value | the event that set it.
class ColumnOriginModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { NameColumn, ValueColumn, SetByColumn, ColumnCount };

    explicit ColumnOriginModel(QObject* parent = nullptr);
    void setExplanation(const engine::Explanation& e);
    void clear();
    /// The row of the events model holding the event that set row `row`'s value, or -1.
    int eventRow(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    engine::Explanation m_e;
};

} // namespace cdc::ui
