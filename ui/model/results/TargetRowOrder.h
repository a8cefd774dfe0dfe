#pragma once
/// The order of a target's rows in the result views: keys, then __START_AT (SCD2), then the remaining
/// columns left to right (so that no two distinct rows tie), values compared as SQLite orders them.
/// The loader sorts by it, and everything that looks rows up by key binary-searches with it.

#include "core/common/ResultSet.h"

#include <QStringList>

#include <utility>
#include <vector>

namespace cdc::ui {

struct TargetSnapshot;

class TargetRowOrder {
public:
    /// The order of rows laid out as `rs` (by column name) for the keys and SCD type of `snapshot`.
    TargetRowOrder(const TargetSnapshot& snapshot, const cdc::ResultSet& rs);

    /// False when a key column is missing from the layout: nothing can be looked up by key then.
    bool valid() const { return m_valid; }
    const std::vector<int>& keyColumns() const { return m_keys; }

    int compareKeys(const cdc::Row& a, const cdc::Row& b) const;
    bool less(const cdc::Row& a, const cdc::Row& b) const;
    /// Sorts `rows` unless they already are (the loader's ORDER BY normally did it).
    void sort(std::vector<cdc::Row>& rows) const;
    bool isSortedByKeys(const std::vector<cdc::Row>& rows) const;
    /// The rows [first, last) of `sorted` whose keys equal those of `probe` (laid out the same way).
    std::pair<std::size_t, std::size_t> keyRange(const std::vector<cdc::Row>& sorted,
                                                 const cdc::Row& probe) const;

private:
    std::vector<int> m_keys;
    int m_start = -1;
    bool m_valid = false;
};

} // namespace cdc::ui
