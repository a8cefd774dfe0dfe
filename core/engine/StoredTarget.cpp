#include "core/engine/StoredTarget.h"

#include "core/engine/FlowPlan.h"

#include <algorithm>
#include <charconv>

namespace cdc::engine {

namespace {

std::vector<int> parseKeys(const std::string& text) {
    std::vector<int> out;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t comma = std::min(text.find(',', pos), text.size());
        // Not std::stoi: the registry is read from a file that may have been edited (verifyProject names
        // what is wrong; reading it must not throw first).
        int key = -1;
        std::from_chars(text.data() + pos, text.data() + comma, key);
        if (comma > pos && key >= 0)
            out.push_back(key);
        pos = comma + 1;
    }
    return out;
}

/// The parts of the signature (TargetPlan::signature) that the registry has no column for: the sequence
/// type and which columns are tracked. The column list is walked with the catalog's own names and types,
/// so names holding ':' or ',' cannot confuse it; a signature that does not match leaves every column
/// tracked.
void readSignature(const std::string& signature, StoredTarget& t) {
    t.tracked.assign(t.columns.size(), true);
    const std::size_t seq = signature.find(";seq="), cols = signature.find(";cols=");
    if (seq == std::string::npos || cols == std::string::npos || cols < seq)
        return;
    if (auto type = DataType::parse(signature.substr(seq + 5, cols - seq - 5)))
        t.sequenceType = *type;
    std::size_t pos = cols + 6;
    std::vector<bool> tracked;
    for (const storage::ColumnInfo& c : t.columns) {
        const std::string entry = c.name + ":" + c.type.toString();
        if (signature.compare(pos, entry.size(), entry) != 0)
            return;
        pos += entry.size();
        const bool untracked = pos < signature.size() && signature[pos] == '~';
        tracked.push_back(!untracked);
        pos += untracked ? 1 : 0;
        if (pos >= signature.size() || signature[pos] != ',')
            return;
        ++pos;
    }
    t.tracked = std::move(tracked);
}

Result<StoredTarget> readRow(const storage::Database& db, const storage::Statement& row) {
    StoredTarget t;
    t.name = row.text(0);
    const std::int64_t kind = row.int64(1);
    t.kind = kind == kAppendKindCode         ? DatasetKind::Append
             : kind == kMaterializedKindCode ? DatasetKind::MaterializedView
                                             : DatasetKind::AutoCdc;
    t.scdType = kind == 2 ? pipeline::ScdType::Type2 : pipeline::ScdType::Type1;
    t.keyIndex = parseKeys(row.text(2));
    // Bounded for the same reason: a huge count from an edited file is not memory to allocate.
    const auto columnCount = static_cast<std::size_t>(std::clamp<std::int64_t>(row.int64(3), 0, 2000));
    t.createdIn = row.int64(4);
    t.signature = row.text(5);
    t.currentLayout = t.signature.rfind(kStoreLayoutTag, 0) == 0;
    t.sequenceType = DataType::of(DataType::Kind::String);
    auto info = storage::Catalog::find(db, t.name);
    if (!info)
        return info.error();
    if (info.value()) {
        t.properties = info.value()->properties;
        t.columns = info.value()->columns;
    }
    // The catalog lists SCD2's __START_AT/__END_AT after the data columns; a missing entry still gives
    // rewind the column count it needs.
    t.columns.resize(columnCount, storage::ColumnInfo{"", DataType::of(DataType::Kind::String)});
    for (std::size_t i = 0; i < t.columns.size(); ++i)
        if (t.columns[i].name.empty())
            t.columns[i].name = "c" + std::to_string(i);
    readSignature(t.signature, t);
    return t;
}

constexpr const char* kSelect =
    "SELECT name, scd_type, keys, ncols, created_in, signature FROM __cdc_targets";

} // namespace

std::vector<std::string> StoredTarget::keyNames() const {
    std::vector<std::string> out;
    for (int k : keyIndex)
        if (k >= 0 && static_cast<std::size_t>(k) < columns.size())
            out.push_back(columns[static_cast<std::size_t>(k)].name);
    return out;
}

std::vector<std::string> StoredTarget::untrackedColumns() const {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < columns.size() && i < tracked.size(); ++i)
        if (!tracked[i])
            out.push_back(columns[i].name);
    return out;
}

Result<std::vector<StoredTarget>> storedTargets(const storage::Database& db) {
    std::vector<StoredTarget> out;
    if (!db.tableExists("__cdc_targets"))
        return out;
    auto st = db.prepare(std::string(kSelect) + " ORDER BY name");
    if (!st)
        return st.error();
    std::optional<Diagnostic> error;
    CDC_TRY(st->forEachRow([&](const storage::Statement& row) {
        auto t = readRow(db, row);
        if (!t) {
            error = t.error();
            return false;
        }
        out.push_back(std::move(t.value()));
        return true;
    }));
    if (error)
        return *error;
    return out;
}

Result<std::optional<StoredTarget>> findStoredTarget(const storage::Database& db, std::string_view name) {
    auto info = storage::Catalog::find(db, name);
    if (!info)
        return info.error();
    if (!info.value() ||
        (info.value()->kind != storage::TableKind::Target &&
         info.value()->kind != storage::TableKind::MaterializedView) ||
        !db.tableExists("__cdc_targets"))
        return std::optional<StoredTarget>();
    auto st = db.prepare(std::string(kSelect) + " WHERE name = ?1");
    if (!st)
        return st.error();
    st->bind(1, std::string_view(info.value()->name));
    auto has = st->step();
    if (!has)
        return has.error();
    if (!has.value())
        return std::optional<StoredTarget>();
    auto t = readRow(db, *st);
    if (!t)
        return t.error();
    return std::optional<StoredTarget>(std::move(t.value()));
}

} // namespace cdc::engine
