// loadTargetSnapshots: reads what the result views show of every AUTO CDC target after the last update.
#include "ui/model/results/TargetSnapshot.h"

#include "core/engine/Engine.h"
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

QStringList trackedColumns(const pipeline::AutoCdcFlow& flow, const cdc::ResultSet& rows) {
    if (!flow.trackHistory || flow.trackHistory->mode == pipeline::ColumnSelection::Mode::All)
        return {};
    QStringList listed;
    for (const pipeline::Identifier& c : flow.trackHistory->columns)
        listed << QString::fromStdString(c.name);
    if (flow.trackHistory->mode == pipeline::ColumnSelection::Mode::Only)
        return listed;
    QStringList keys;
    for (const pipeline::Identifier& k : flow.keys)
        keys << QString::fromStdString(k.name);
    QStringList out;
    for (const std::string& name : rows.columns) {
        const QString c = QString::fromStdString(name);
        if (!c.startsWith(QLatin1String("__")) && !keys.contains(c, Qt::CaseInsensitive) &&
            !listed.contains(c, Qt::CaseInsensitive))
            out << c;
    }
    return out;
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

Result<QList<TargetSnapshot>> loadTargetSnapshots(storage::Database& db, const pipeline::Pipeline& p,
                                                  const QList<TargetSnapshot>& previous) {
    auto last = engine::lastUpdateId(db);
    if (!last)
        return last.error();
    const std::int64_t updateId = last.value();

    QList<TargetSnapshot> out;
    // Targets whose previous snapshot is already of this update (the views reload after every edit,
    // not only after updates): index in `out` -> that snapshot, copied only if something else changed.
    std::vector<std::pair<qsizetype, const TargetSnapshot*>> unchanged;
    for (const pipeline::AutoCdcFlow& flow : p.cdcFlows) {
        const QString target = QString::fromStdString(flow.target.name);
        if (findSnapshot(out, target))
            continue; // several flows into one target: one snapshot
        auto info = storage::Catalog::find(db, flow.target.name);
        if (!info)
            return info.error();
        if (!info.value() || info.value()->kind != storage::TableKind::Target)
            continue; // not created yet: no update has run this flow

        TargetSnapshot s;
        s.target = QString::fromStdString(info.value()->name);
        s.scd2 = flow.scdType == pipeline::ScdType::Type2;
        for (const pipeline::Identifier& k : flow.keys)
            s.keyColumns << QString::fromStdString(k.name);
        s.updateId = updateId;
        auto query = prepareRows(db, *info.value(), s.keyColumns, s.scd2);
        if (!query)
            return query.error();
        s.trackedColumns = trackedColumns(flow, query->header);
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

        const bool patchable = base && updateId > 0 && base->updateId == updateId - 1;
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

} // namespace cdc::ui
