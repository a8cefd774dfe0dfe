#pragma once
/// What a result grid's view shows of its model: the rows that hold a filter text (in any column,
/// case-insensitive), sorted by one column or in the model's own order.

#include "ui/model/ValueText.h"

#include <QSortFilterProxyModel>
#include <QStringMatcher>

#include <vector>

namespace cdc::ui {

class GridProxyModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit GridProxyModel(QObject* parent = nullptr);

    void setSourceModel(QAbstractItemModel* source) override;

    /// Keeps the rows with `text` in the display text of any column; empty keeps every row.
    void setFilterText(const QString& text);
    QString filterText() const { return m_filterText; }
    bool isFiltering() const { return !m_filterText.isEmpty(); }
    /// Sorted by a column (sortColumn() >= 0) rather than in the model's order.
    bool isSorted() const { return sortColumn() >= 0; }

    /// Sorts by `column`, or restores the model's order for -1. A lazily fetching model is read in
    /// full first: sorting only the rows fetched so far would put the others in the wrong place.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    /// Fetches every row a lazily fetching model still holds back.
    void fetchAll();

    /// The typed cell at a source index: its CellValueRole, else its display text as a string.
    static CellValue cellAt(const QModelIndex& sourceIndex);
    /// The order of a sort: NULL first, numbers by value, text case-insensitively (ties exactly).
    static int compare(const CellValue& a, const CellValue& b);

signals:
    void filterTextChanged(const QString& text);

protected:
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QString m_filterText;
    QStringMatcher m_matcher;
    /// While sort() runs: the sort column's cell of every source row, read once instead of twice per
    /// comparison. Re-sorts after a change of the model read the model.
    std::vector<CellValue> m_sortKeys;
    QMetaObject::Connection m_sourceReset;
};

} // namespace cdc::ui
