#include "ui/model/results/ChangeClassifier.h"

#include "ui/model/results/ResultText.h"

#include <algorithm>
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
    const auto cell = [&row](int c) -> cdc::Value { return c >= 0 && c < int(row.size()) ? row[c] : cdc::Value{}; };
    const cdc::Value s = cell(start);
    resulttext::appendIdentity(out, cdc::isNull(s) ? cell(end) : s);
    return out;
}

namespace {

struct FeedEntry {
    bool inserted = false;
    bool postimage = false;
    bool preEndNull = false;
    bool postEndNull = false;
    int deleteRow = -1;
    bool present = false; ///< the identity is still a row of the target
};

} // namespace

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

    const std::vector<int> rowIds = identityColumns(snapshot, snapshot.rows);
    for (std::size_t r = 0; r < snapshot.rows.rows.size(); ++r) {
        auto it = entries.find(identityOf(snapshot, snapshot.rows.rows[r], rowIds));
        if (it == entries.end())
            continue;
        FeedEntry& e = it->second;
        e.present = true;
        if (e.inserted)
            out.rowChanges[r] = RowChange::Inserted;
        else if (e.postimage)
            out.rowChanges[r] = snapshot.scd2 && e.preEndNull && !e.postEndNull ? RowChange::Closed : RowChange::Updated;
    }

    for (const auto& [id, e] : entries)
        if (e.deleteRow >= 0 && !e.present)
            out.ghostChangeRows.push_back(e.deleteRow);
    std::sort(out.ghostChangeRows.begin(), out.ghostChangeRows.end());
    return out;
}

} // namespace cdc::ui
