#include "core/engine/DatasetRunner.h"

#include "core/engine/ChangeFeedWriter.h"
#include "core/engine/SqlText.h"
#include "core/engine/UndoJournal.h"

namespace cdc::engine {

using storage::quoteIdentifier;
using namespace sqltext;

namespace {

std::string dataColumns(const TargetPlan& t) {
    return join(t.columns.size(), [](std::size_t i) { return col(i); });
}

/// Copies the backing rows that `where` selects into the change feed as `type`, in row-id order, numbered
/// from the update's next feed position.
Result<std::int64_t> feedRows(UpdateContext& ctx, const TargetPlan& t, ChangeType type,
                              const std::string& where) {
    const std::string cols = dataColumns(t);
    auto count =
        scalar(ctx.db, "SELECT count(*) FROM " + quoteIdentifier(t.tables.backing) + " WHERE " + where,
               {ctx.updateId});
    if (!count || count.value() == 0)
        return count;
    CDC_TRY(run(ctx.db,
                "INSERT INTO main." + quoteIdentifier(t.tables.changeFeedRows) + " SELECT " + cols +
                    ", ?2, ?1, ?3 + " + "row_number() OVER (ORDER BY __cdc_rid) - 1 FROM " +
                    quoteIdentifier(t.tables.backing) + " WHERE " + where,
                {ctx.updateId, static_cast<std::int64_t>(type), ctx.feedPosition}));
    ctx.feedPosition += count.value();
    return count;
}

} // namespace

Status appendRows(UpdateContext& ctx, const TargetPlan& t, const std::string& from,
                  const std::vector<std::string>& columnSql, FlowMetrics& m) {
    auto before = scalar(ctx.db, "SELECT max(__cdc_rid) FROM " + quoteIdentifier(t.tables.backing));
    if (!before)
        return before.error();
    CDC_TRY(run(ctx.db,
                "INSERT INTO main." + quoteIdentifier(t.tables.backing) + "(" + dataColumns(t) +
                    ", __cdc_upd) SELECT " +
                    join(columnSql.size(), [&](std::size_t i) { return columnSql[i]; }) + ", ?1 FROM " +
                    from + " AS __src",
                {ctx.updateId}));
    auto added = feedRows(ctx, t, ChangeType::Insert,
                          "__cdc_upd = ?1 AND __cdc_rid > " + std::to_string(before.value()));
    if (!added)
        return added.error();
    m.rowsRead += added.value();
    m.upserted += added.value();
    return Status::success();
}

Status refreshMaterializedView(UpdateContext& ctx, const TargetPlan& t, FlowMetrics& m) {
    const std::string cols = dataColumns(t);
    const std::string backing = quoteIdentifier(t.tables.backing);
    CDC_TRY(ctx.db.exec("DROP TABLE IF EXISTS temp.__cdc_mv; CREATE TEMP TABLE __cdc_mv AS " +
                        t.materializedSql));
    auto rows = scalar(ctx.db, "SELECT count(*) FROM temp.__cdc_mv");
    if (!rows)
        return rows.error();
    m.rowsRead = rows.value();
    // The same rows as stored, duplicates counted: nothing to write, and no change-feed noise for the GUI.
    const std::string counted = "SELECT " + cols + ", count(*) FROM ";
    auto differs = scalar(ctx.db, "SELECT EXISTS (" + counted + "temp.__cdc_mv GROUP BY " + cols +
                                      " EXCEPT " + counted + backing + " GROUP BY " + cols + ") OR EXISTS (" +
                                      counted + backing + " GROUP BY " + cols + " EXCEPT " + counted +
                                      "temp.__cdc_mv GROUP BY " + cols + ")");
    if (!differs)
        return differs.error();
    if (differs.value()) {
        const int phase = ctx.nextPhase();
        UndoJournal undo(t.tables.undo);
        CDC_TRY(undo.saveQuery(ctx.db, "SELECT " + store::backingColumns(t) + " FROM " + backing));
        CDC_TRY(undo.flush(ctx.db, ctx.updateId, phase));
        auto removed = feedRows(ctx, t, ChangeType::Delete, "?1 IS NOT NULL");
        if (!removed)
            return removed.error();
        CDC_TRY(run(ctx.db, "DELETE FROM " + backing));
        CDC_TRY(run(ctx.db,
                    "INSERT INTO main." + backing + "(" + cols + ", __cdc_upd) SELECT " + cols +
                        ", ?1 FROM temp.__cdc_mv",
                    {ctx.updateId}));
        auto added = feedRows(ctx, t, ChangeType::Insert, "__cdc_upd = ?1");
        if (!added)
            return added.error();
        m.deleted = removed.value();
        m.upserted = added.value();
    }
    return ctx.db.exec("DROP TABLE temp.__cdc_mv");
}

} // namespace cdc::engine
