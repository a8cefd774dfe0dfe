// Comparisons go through resulttext::compareValues, which orders values as SQLite's ORDER BY
// does, so the loader's sorted rows pass sort()'s check untouched and binary searches agree with them.
#include "ui/model/results/TargetRowOrder.h"

#include "ui/model/results/ResultText.h"
#include "ui/model/results/TargetSnapshot.h"

#include <algorithm>

namespace cdc::ui {

namespace {
const cdc::Value& at(const cdc::Row& row, int column) {
    static const cdc::Value null;
    return column >= 0 && static_cast<std::size_t>(column) < row.size()
               ? row[static_cast<std::size_t>(column)]
               : null;
}
} // namespace

TargetRowOrder::TargetRowOrder(const TargetSnapshot& snapshot, const cdc::ResultSet& rs)
    : m_keys(resulttext::columnIndices(rs, snapshot.keyColumns)),
      m_start(snapshot.scd2 ? resulttext::columnIndex(rs, resulttext::startAt()) : -1),
      m_valid(std::find(m_keys.begin(), m_keys.end(), -1) == m_keys.end()) {}

int TargetRowOrder::compareKeys(const cdc::Row& a, const cdc::Row& b) const {
    for (int c : m_keys)
        if (int cmp = resulttext::compareValues(at(a, c), at(b, c)))
            return cmp;
    return 0;
}

bool TargetRowOrder::less(const cdc::Row& a, const cdc::Row& b) const {
    if (int cmp = compareKeys(a, b))
        return cmp < 0;
    if (m_start >= 0)
        if (int cmp = resulttext::compareValues(at(a, m_start), at(b, m_start)))
            return cmp < 0;
    for (std::size_t c = 0; c < a.size() && c < b.size(); ++c)
        if (int cmp = resulttext::compareValues(a[c], b[c]))
            return cmp < 0;
    return a.size() < b.size();
}

void TargetRowOrder::sort(std::vector<cdc::Row>& rows) const {
    const auto lessThan = [this](const cdc::Row& a, const cdc::Row& b) { return less(a, b); };
    if (!std::is_sorted(rows.begin(), rows.end(), lessThan))
        std::sort(rows.begin(), rows.end(), lessThan);
}

bool TargetRowOrder::isSortedByKeys(const std::vector<cdc::Row>& rows) const {
    return std::is_sorted(rows.begin(), rows.end(),
                          [this](const cdc::Row& a, const cdc::Row& b) { return compareKeys(a, b) < 0; });
}

std::pair<std::size_t, std::size_t> TargetRowOrder::keyRange(const std::vector<cdc::Row>& sorted,
                                                             const cdc::Row& probe) const {
    const auto first =
        std::lower_bound(sorted.begin(), sorted.end(), probe,
                         [this](const cdc::Row& r, const cdc::Row& p) { return compareKeys(r, p) < 0; });
    auto last = first;
    while (last != sorted.end() && compareKeys(*last, probe) == 0)
        ++last; // a key has a handful of versions: stepping beats a second binary search
    return {static_cast<std::size_t>(first - sorted.begin()),
            static_cast<std::size_t>(last - sorted.begin())};
}

} // namespace cdc::ui
