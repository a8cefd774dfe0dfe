// The feed's rows are grouped by key (stably, keeping commit order) and each touched key's rows are
// rebuilt in one span; the rows between spans are copied as they are, so the cost is the changed keys.
#include "ui/model/results/SnapshotPatcher.h"

#include "ui/model/results/ResultText.h"
#include "ui/model/results/TargetRowOrder.h"

#include <algorithm>
#include <numeric>

namespace cdc::ui {

namespace {

/// One change feed row, laid out as the target's rows.
struct Change {
    cdc::Row row;
    bool removes = false; ///< delete / update_preimage; else insert / update_postimage
};

bool takeOut(std::vector<cdc::Row>& versions, const cdc::Row& row) {
    const auto it = std::find(versions.begin(), versions.end(), row);
    if (it == versions.end())
        return false;
    versions.erase(it);
    return true;
}

} // namespace

bool patchSnapshotRows(const TargetSnapshot& base, TargetSnapshot& next) {
    const cdc::ResultSet& feed = next.changes;
    const cdc::ResultSet& old = base.rows;
    const TargetRowOrder order(next, old);
    const int typeColumn = resulttext::columnIndex(feed, QStringLiteral("_change_type"));
    if (!order.valid() || (typeColumn < 0 && !feed.rows.empty()))
        return false;
    std::vector<int> feedColumn;
    for (const std::string& name : old.columns) {
        feedColumn.push_back(resulttext::columnIndex(feed, QString::fromStdString(name)));
        if (feedColumn.back() < 0 && !feed.rows.empty())
            return false;
    }

    std::vector<Change> changes;
    changes.reserve(feed.rows.size());
    for (const cdc::Row& f : feed.rows) {
        const auto* type = std::get_if<std::string>(&f[static_cast<std::size_t>(typeColumn)]);
        if (!type)
            return false;
        Change c;
        c.removes = *type == "delete" || *type == "update_preimage";
        if (!c.removes && *type != "insert" && *type != "update_postimage")
            return false;
        c.row.reserve(feedColumn.size());
        for (int fc : feedColumn)
            c.row.push_back(f[static_cast<std::size_t>(fc)]);
        changes.push_back(std::move(c));
    }
    // The changes of one key together, in commit order within the key.
    std::vector<std::size_t> byKey(changes.size());
    std::iota(byKey.begin(), byKey.end(), std::size_t(0));
    std::stable_sort(byKey.begin(), byKey.end(), [&](std::size_t a, std::size_t b) {
        return order.compareKeys(changes[a].row, changes[b].row) < 0;
    });

    std::vector<cdc::Row> rows;
    rows.reserve(old.rows.size() + changes.size());
    RowsPatch patch;
    patch.baseSerial = base.serial;
    std::size_t copied = 0; // base rows before this position are in `rows` already
    for (std::size_t g = 0; g < byKey.size();) {
        std::size_t h = g + 1;
        while (h < byKey.size() && order.compareKeys(changes[byKey[g]].row, changes[byKey[h]].row) == 0)
            ++h;
        const auto [first, last] = order.keyRange(old.rows, changes[byKey[g]].row);
        rows.insert(rows.end(), old.rows.begin() + static_cast<std::ptrdiff_t>(copied),
                    old.rows.begin() + static_cast<std::ptrdiff_t>(first));
        std::vector<cdc::Row> versions(old.rows.begin() + static_cast<std::ptrdiff_t>(first),
                                       old.rows.begin() + static_cast<std::ptrdiff_t>(last));
        // A preimage may be listed after its postimage: what is not there yet is removed at the end.
        std::vector<const cdc::Row*> later;
        for (std::size_t i = g; i < h; ++i) {
            Change& c = changes[byKey[i]];
            if (!c.removes)
                versions.push_back(std::move(c.row));
            else if (!takeOut(versions, c.row))
                later.push_back(&c.row);
        }
        for (const cdc::Row* r : later)
            if (!takeOut(versions, *r))
                return false;
        std::sort(versions.begin(), versions.end(),
                  [&](const cdc::Row& a, const cdc::Row& b) { return order.less(a, b); });
        RowsPatch::Span span;
        span.oldBegin = static_cast<int>(first);
        span.oldEnd = static_cast<int>(last);
        span.newBegin = static_cast<int>(rows.size());
        span.newEnd = span.newBegin + static_cast<int>(versions.size());
        patch.spans.push_back(span);
        std::move(versions.begin(), versions.end(), std::back_inserter(rows));
        copied = last;
        g = h;
    }
    rows.insert(rows.end(), old.rows.begin() + static_cast<std::ptrdiff_t>(copied), old.rows.end());

    next.rows.columns = old.columns;
    next.rows.types = old.types;
    next.rows.rows = std::move(rows);
    next.patch = std::move(patch);
    return true;
}

} // namespace cdc::ui
