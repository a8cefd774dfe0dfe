// The feed is folded per row identity first, then only the feed's keys are looked up in the
// key-ordered target rows (binary search), so the cost follows the update's size, not the target's.
#include "ui/model/results/ChangeClassifier.h"

#include "ui/model/results/ResultText.h"
#include "ui/model/results/TargetRowOrder.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace cdc::ui {

using resulttext::columnIndex;

std::vector<int> identityColumns(const TargetSnapshot& snapshot, const cdc::ResultSet& rs) {
    std::vector<int> cols = resulttext::columnIndices(rs, snapshot.keyColumns);
    if (snapshot.scd2) {
        cols.push_back(columnIndex(rs, resulttext::startAt()));
        cols.push_back(columnIndex(rs, resulttext::endAt()));
    }
    return cols;
}

std::string identityOf(const TargetSnapshot& snapshot, const cdc::Row& row, const std::vector<int>& columns) {
    if (!snapshot.scd2)
        return resulttext::identity(row, columns);
    const std::vector<int> keys(columns.begin(), columns.end() - 2);
    std::string out = resulttext::identity(row, keys);
    const int start = columns[columns.size() - 2];
    const int end = columns.back();
    const auto cell = [&row](int c) -> cdc::Value {
        return c >= 0 && c < int(row.size()) ? row[c] : cdc::Value{};
    };
    const cdc::Value s = cell(start);
    resulttext::appendIdentity(out, cdc::isNull(s) ? cell(end) : s);
    return out;
}

namespace {

struct FeedEntry {
    int feedRow = -1; ///< a row of the feed with this identity (the key to look the target rows up by)
    bool inserted = false;
    bool postimage = false;
    bool preEndNull = false;
    bool postEndNull = false;
    int deleteRow = -1;
    bool present = false; ///< the identity is still a row of the target
};

/// The target rows in TargetRowOrder key order: the rows themselves when already sorted (as loaded),
/// else a sorted permutation (hand-made snapshots).
class KeyIndex {
public:
    KeyIndex(const TargetRowOrder& order, const std::vector<cdc::Row>& rows, bool sorted)
        : m_order(order), m_rows(rows) {
        if (sorted || order.isSortedByKeys(rows))
            return;
        m_permutation.resize(rows.size());
        std::iota(m_permutation.begin(), m_permutation.end(), 0);
        std::stable_sort(m_permutation.begin(), m_permutation.end(), [&](int a, int b) {
            return order.compareKeys(rows[std::size_t(a)], rows[std::size_t(b)]) < 0;
        });
    }

    /// Calls f(row index) for every target row with the keys of `probe`.
    template <typename F> void forEachWithKey(const cdc::Row& probe, F&& f) const {
        if (m_permutation.empty()) {
            const auto [first, last] = m_order.keyRange(m_rows, probe);
            for (std::size_t r = first; r < last; ++r)
                f(r);
            return;
        }
        auto it = std::lower_bound(
            m_permutation.begin(), m_permutation.end(), probe,
            [&](int r, const cdc::Row& p) { return m_order.compareKeys(m_rows[std::size_t(r)], p) < 0; });
        for (; it != m_permutation.end() && m_order.compareKeys(m_rows[std::size_t(*it)], probe) == 0; ++it)
            f(std::size_t(*it));
    }

private:
    const TargetRowOrder& m_order;
    const std::vector<cdc::Row>& m_rows;
    std::vector<int> m_permutation;
};

} // namespace

std::shared_ptr<const ChangeClassification> changesOf(const TargetSnapshot& snapshot) {
    return snapshot.classification ? snapshot.classification
                                   : std::make_shared<const ChangeClassification>(classifyChanges(snapshot));
}

ChangeClassification classifyChanges(const TargetSnapshot& snapshot) {
    ChangeClassification out;
    out.rowChanges.assign(snapshot.rows.rows.size(), RowChange::None);

    const cdc::ResultSet& feed = snapshot.changes;
    const int typeCol = columnIndex(feed, QStringLiteral("_change_type"));
    if (typeCol < 0 || feed.rows.empty())
        return out;
    const std::vector<int> feedIds = identityColumns(snapshot, feed);
    const int feedEnd = columnIndex(feed, resulttext::endAt());

    std::unordered_map<std::string, FeedEntry> entries;
    entries.reserve(feed.rows.size());
    for (std::size_t r = 0; r < feed.rows.size(); ++r) {
        const cdc::Row& row = feed.rows[r];
        const auto* type = std::get_if<std::string>(&row[typeCol]);
        if (!type)
            continue;
        FeedEntry& e = entries[identityOf(snapshot, row, feedIds)];
        e.feedRow = static_cast<int>(r);
        const bool endNull = feedEnd < 0 || cdc::isNull(row[feedEnd]);
        if (*type == "insert") {
            e.inserted = true;
        } else if (*type == "update_postimage") {
            e.postimage = true;
            e.postEndNull = endNull;
        } else if (*type == "update_preimage") {
            e.preEndNull = endNull;
        } else if (*type == "delete") {
            e.deleteRow = static_cast<int>(r);
        }
    }

    // Only the feed's keys are looked up (binary search), never every row of the target.
    const TargetRowOrder order(snapshot, snapshot.rows);
    if (order.valid()) {
        const KeyIndex index(order, snapshot.rows.rows, snapshot.rowsInKeyOrder);
        const std::vector<int> rowIds = identityColumns(snapshot, snapshot.rows);
        std::vector<int> feedToRow;
        for (const std::string& name : snapshot.rows.columns)
            feedToRow.push_back(columnIndex(feed, QString::fromStdString(name)));
        for (auto& [id, e] : entries) {
            const cdc::Row& f = feed.rows[static_cast<std::size_t>(e.feedRow)];
            cdc::Row probe(feedToRow.size());
            for (std::size_t c = 0; c < feedToRow.size(); ++c)
                if (feedToRow[c] >= 0)
                    probe[c] = f[static_cast<std::size_t>(feedToRow[c])];
            index.forEachWithKey(probe, [&](std::size_t r) {
                if (identityOf(snapshot, snapshot.rows.rows[r], rowIds) != id)
                    return;
                e.present = true;
                if (e.inserted)
                    out.rowChanges[r] = RowChange::Inserted;
                else if (e.postimage)
                    out.rowChanges[r] = snapshot.scd2 && e.preEndNull && !e.postEndNull ? RowChange::Closed
                                                                                        : RowChange::Updated;
            });
        }
    }

    for (const auto& [id, e] : entries)
        if (e.deleteRow >= 0 && !e.present)
            out.ghostChangeRows.push_back(e.deleteRow);
    std::sort(out.ghostChangeRows.begin(), out.ghostChangeRows.end());
    return out;
}

} // namespace cdc::ui
