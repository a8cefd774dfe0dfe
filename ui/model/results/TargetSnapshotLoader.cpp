// loadTargetSnapshots: reads what the result views show of every AUTO CDC target after the last update.
#include "ui/model/results/TargetSnapshot.h"

#include "core/engine/Engine.h"
#include "core/engine/StoredTarget.h"
#include "core/pipeline/Pipeline.h"
#include "core/storage/Catalog.h"
#include "core/storage/Database.h"
#include "ui/model/results/ChangeClassifier.h"
#include "ui/model/results/ResultText.h"
#include "ui/model/results/SnapshotPatcher.h"
#include "ui/model/results/TargetRowOrder.h"

namespace cdc::ui {

namespace {

/// The query behind a target's rows: its catalog view in key then version order. Preparing it also
/// tells the columns and their types, which is how a changed schema shows.
struct RowsQuery {
    storage::Statement statement;
    cdc::ResultSet header; ///< columns and types, no rows
};

Result<RowsQuery> prepareRows(storage::Database& db, const storage::TableInfo& info, const QStringList& keys,
                              bool scd2) {
    std::string order;
    for (const QString& k : keys)
        if (info.columnIndex(k.toStdString()) >= 0)
            order += (order.empty() ? "" : ", ") + storage::quoteIdentifier(k.toStdString());
    if (scd2 && info.columnIndex("__START_AT") >= 0)
        order += (order.empty() ? "" : ", ") + std::string("\"__START_AT\"");
    const std::string sql = "SELECT * FROM " + storage::quoteIdentifier(info.sqliteName) +
                            (order.empty() ? std::string() : " ORDER BY " + order);
    auto st = db.prepare(sql);
    if (!st)
        return st.error();
    cdc::ResultSet rs;
    for (int c = 0; c < st->columnCount(); ++c) {
        rs.columns.push_back(st->columnName(c));
        const int ci = info.columnIndex(rs.columns.back());
        rs.types.push_back(ci >= 0 ? std::optional<DataType>(info.columns[static_cast<std::size_t>(ci)].type)
                                   : std::nullopt);
    }
    return RowsQuery{std::move(st.value()), std::move(rs)};
}

/// Every row of the target, in TargetRowOrder.
Status readRows(RowsQuery& query, TargetSnapshot& s) {
    s.rows = std::move(query.header);
    for (;;) {
        auto has = query.statement.step();
        if (!has)
            return has.error();
        if (!has.value())
            break;
        s.rows.rows.push_back(query.statement.row());
    }
    TargetRowOrder(s, s.rows).sort(s.rows.rows);
    return Status::success();
}

/// The columns whose change opens a new version when TRACK HISTORY leaves some out; empty when all do.
QStringList trackedColumns(const engine::StoredTarget& t) {
    if (!t.scd2() || t.untrackedColumns().empty())
        return {};
    QStringList out;
    for (std::size_t i = 0; i < t.columns.size(); ++i)
        if (t.tracked[i] &&
            std::find(t.keyIndex.begin(), t.keyIndex.end(), static_cast<int>(i)) == t.keyIndex.end())
            out << QString::fromStdString(t.columns[i].name);
    return out;
}

/// The stored targets, those named in `order` first and in that order, then the others by name.
std::vector<engine::StoredTarget> inOrder(std::vector<engine::StoredTarget> targets,
                                          const QStringList& order) {
    const auto rank = [&](const engine::StoredTarget& t) {
        const QString name = QString::fromStdString(t.name);
        for (qsizetype i = 0; i < order.size(); ++i)
            if (name.compare(order[i], Qt::CaseInsensitive) == 0 ||
                name.endsWith(QLatin1Char('.') + order[i], Qt::CaseInsensitive))
                return i;
        return order.size();
    };
    std::stable_sort(
        targets.begin(), targets.end(),
        [&](const engine::StoredTarget& a, const engine::StoredTarget& b) { return rank(a) < rank(b); });
    return targets;
}

/// The previous snapshot of the same target when it shows the target the same way: same keys, SCD
/// type, tracked columns and columns. Its rows are those of its update: reused for the same update,
/// patched for the next one.
const TargetSnapshot* sameShape(const QList<TargetSnapshot>& previous, const TargetSnapshot& s,
                                const cdc::ResultSet& header) {
    const TargetSnapshot* base = findSnapshot(previous, s.target);
    if (!base || base->serial == 0 || base->scd2 != s.scd2 || base->keyColumns != s.keyColumns ||
        base->trackedColumns != s.trackedColumns || base->rows.columns != header.columns ||
        base->rows.types != header.types)
        return nullptr;
    return base;
}

} // namespace

Result<QList<TargetSnapshot>> loadTargetSnapshots(storage::Database& db, const QStringList& order,
                                                  const QList<TargetSnapshot>& previous) {
    auto last = engine::lastUpdateId(db);
    if (!last)
        return last.error();
    const std::int64_t updateId = last.value();

    QList<TargetSnapshot> out;
    // Targets whose previous snapshot is already of this update (the views reload after every edit,
    // not only after updates): index in `out` -> that snapshot, copied only if something else changed.
    std::vector<std::pair<qsizetype, const TargetSnapshot*>> unchanged;
    auto stored = engine::storedTargets(db);
    if (!stored)
        return stored.error();
    bool fullRefresh = false;
    if (updateId > 0) {
        auto refreshed = engine::wasFullRefresh(db, updateId);
        if (!refreshed)
            return refreshed.error();
        fullRefresh = refreshed.value();
    }
    for (const engine::StoredTarget& target : inOrder(std::move(stored).value(), order)) {
        auto info = storage::Catalog::find(db, target.name);
        if (!info)
            return info.error();
        if (!info.value() || (info.value()->kind != storage::TableKind::Target &&
                              info.value()->kind != storage::TableKind::MaterializedView))
            continue; // registered but not in the catalog: nothing a view could show

        TargetSnapshot s;
        s.target = QString::fromStdString(info.value()->name);
        s.kind = target.kind;
        s.scd2 = target.scd2();
        for (const std::string& k : target.keyNames())
            s.keyColumns << QString::fromStdString(k);
        s.updateId = updateId;
        auto query = prepareRows(db, *info.value(), s.keyColumns, s.scd2);
        if (!query)
            return query.error();
        s.trackedColumns = trackedColumns(target);
        const TargetSnapshot* base = sameShape(previous, s, query->header);
        if (base && base->updateId == updateId) {
            unchanged.emplace_back(out.size(), base);
            s.serial = base->serial;
            out.append(std::move(s)); // a placeholder
            continue;
        }
        s.serial = nextSnapshotSerial();

        if (updateId > 0) {
            auto changes = engine::changeFeed(db, info.value()->name, updateId, updateId);
            if (!changes)
                return changes.error();
            s.changes = std::move(changes.value());
            auto collected = engine::collectedTombstones(db, info.value()->name, updateId);
            if (!collected)
                return collected.error();
            s.collected = std::move(collected.value());
        }
        auto tombstones = engine::tombstones(db, info.value()->name);
        if (!tombstones)
            return tombstones.error();
        s.tombstones = std::move(tombstones.value());

        // A full refresh's change feed restates every row without removing the replaced ones: read in full.
        // Patching finds rows by key: append tables and materialized views have none, and are read in full.
        const bool patchable =
            base && updateId > 0 && base->updateId == updateId - 1 && !fullRefresh && target.autoCdc();
        if (!patchable || !patchSnapshotRows(*base, s))
            CDC_TRY(readRows(query.value(), s));
        s.rowsInKeyOrder = true;
        s.classification = std::make_shared<const ChangeClassification>(classifyChanges(s));

        const int seq = s.scd2 ? resulttext::columnIndex(s.rows, resulttext::startAt())
                               : resulttext::columnIndex(s.tombstones, QStringLiteral("__SEQUENCE"));
        const auto seqType = s.scd2 ? s.rows.typeOf(static_cast<std::size_t>(std::max(seq, 0)))
                                    : s.tombstones.typeOf(static_cast<std::size_t>(std::max(seq, 0)));
        if (seq >= 0 && seqType)
            s.sequenceType = QString::fromStdString(seqType->toString());
        out.append(std::move(s));
    }
    // Nothing changed at all: the very same list, shared, so that callers can tell.
    if (unchanged.size() == static_cast<std::size_t>(out.size()) && out.size() == previous.size() &&
        std::equal(out.begin(), out.end(), previous.begin(),
                   [](const TargetSnapshot& a, const TargetSnapshot& b) { return a.serial == b.serial; }))
        return previous;
    for (const auto& [index, base] : unchanged)
        out[index] = *base;
    return out;
}

QStringList targetOrder(const pipeline::Pipeline& pipeline) {
    QStringList out;
    for (const pipeline::AutoCdcFlow& flow : pipeline.cdcFlows)
        out << QString::fromStdString(flow.target.name);
    for (const pipeline::AppendFlow& flow : pipeline.appendFlows)
        out << QString::fromStdString(flow.target.name);
    for (const pipeline::View& view : pipeline.views)
        if (view.materialized)
            out << QString::fromStdString(view.name.name);
    return out;
}

} // namespace cdc::ui
