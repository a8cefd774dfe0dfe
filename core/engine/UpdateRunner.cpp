#include "core/engine/UpdateRunner.h"

#include "core/common/Text.h"
#include "core/engine/Appliers.h"
#include "core/engine/DatasetRunner.h"
#include "core/engine/SnapshotRunner.h"
#include "core/engine/SqlText.h"

#include <chrono>

namespace cdc::engine {

using storage::quoteIdentifier;
using namespace sqltext;

namespace {

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

Result<UpdateReport> UpdateRunner::run() {
    const auto t0 = std::chrono::steady_clock::now();
    UpdateReport report;
    report.updateId = m_ctx.updateId;
    report.now = m_ctx.now;
    CDC_TRY(sqltext::run(m_ctx.db,
                         "INSERT INTO __cdc_updates(update_id, now, full_refresh) VALUES (?1, ?2, ?3)",
                         {m_ctx.updateId, m_ctx.now, static_cast<std::int64_t>(m_options.fullRefresh)}));
    m_hasSourceChanges = m_ctx.db.tableExists("__cdc_source_changes");
    if (m_hasSourceChanges) {
        auto seq = scalar(m_ctx.db, "SELECT max(seq) FROM __cdc_source_changes");
        if (!seq)
            return seq.error();
        m_sourceChangeSeq = seq.value();
    }

    std::vector<std::int64_t> collected(m_plan.targets.size(), 0);
    for (std::size_t i = 0; i < m_plan.targets.size(); ++i) {
        CDC_TRY(store::prepareTarget(m_ctx, m_plan.targets[i], m_options.fullRefresh));
        CDC_TRY(store::recordDefinition(m_ctx, m_plan.targets[i].name, definitionHash(m_plan, i)));
        auto gc = store::collectTombstones(m_ctx, m_plan.targets[i]);
        if (!gc)
            return gc.error();
        collected[i] = gc.value();
    }

    // Datasets in dependency order: what a flow or a materialized view reads of the pipeline's own tables
    // is what this update has made of them.
    // A run-time error of the SQL a flow runs (a Spark function's: a cast, a regular expression) comes from
    // SQLite without a position: it is reported at the flow (or the materialized view) that ran it.
    const auto measure = [&](const std::string& name, std::size_t target, const SourceLocation& at,
                             const auto& work) -> Status {
        if (m_options.cancel && m_options.cancel->load())
            return Diagnostic::error("CANCELLED", "the update was cancelled; nothing was changed");
        FlowMetrics m;
        m.flow = name;
        m.target = m_plan.targets[target].name;
        m.tombstonesCollected = std::exchange(collected[target], 0);
        const auto tf = std::chrono::steady_clock::now();
        if (m_options.progress)
            m_options.progress(name, 0, 0);
        if (Status st = work(m); !st) {
            Diagnostic error = st.error();
            if (!error.location.valid())
                error.location = at;
            return error;
        }
        m.durationMs = msSince(tf);
        if (m_options.progress)
            m_options.progress(name, m.rowsRead, m.rowsRead);
        report.flows.push_back(m);
        return Status::success();
    };
    for (std::size_t i = 0; i < m_plan.targets.size(); ++i) {
        for (const FlowPlan& f : m_plan.flows)
            if (f.target == i)
                CDC_TRY(measure(f.name, i, f.flow->location, [&](FlowMetrics& m) { return runFlow(f, m); }));
        for (const AppendFlowPlan& f : m_plan.appendFlows)
            if (f.target == i)
                CDC_TRY(measure(f.name, i, f.flow->location,
                                [&](FlowMetrics& m) { return runAppendFlow(f, m); }));
        if (m_plan.targets[i].kind == DatasetKind::MaterializedView)
            CDC_TRY(measure(m_plan.targets[i].name, i, m_plan.targets[i].location, [&](FlowMetrics& m) {
                return refreshMaterializedView(m_ctx, m_plan.targets[i], m);
            }));
    }

    report.durationMs = msSince(t0);
    for (const FlowMetrics& m : report.flows)
        CDC_TRY(sqltext::run(
            m_ctx.db,
            "INSERT INTO __cdc_update_log(update_id, flow, target, rows_read, upserted, deleted, "
            "stale_dropped, versions_opened, versions_closed, versions_split, tombstones_created, "
            "tombstones_collected, ties, duration_ms, error) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, "
            "?9, ?10, ?11, ?12, ?13, ?14, NULL)",
            {m_ctx.updateId, m.flow, m.target, m.rowsRead, m.upserted, m.deleted, m.staleDropped,
             m.versionsOpened, m.versionsClosed, m.versionsSplit, m.tombstonesCreated, m.tombstonesCollected,
             m.ties, m.durationMs}));
    CDC_TRY(sqltext::run(m_ctx.db, "UPDATE __cdc_updates SET duration_ms = ?1 WHERE update_id = ?2",
                         {report.durationMs, m_ctx.updateId}));
    report.warnings = m_plan.warnings;
    report.warnings.insert(report.warnings.end(), m_ctx.warnings.begin(), m_ctx.warnings.end());
    return report;
}

Status UpdateRunner::checkSourceChanges(const std::string& flow, const SourceLocation& where,
                                        const TargetPlan& t, const StreamInput& in,
                                        const store::Checkpoint& cp) {
    if (!m_hasSourceChanges || !cp.exists || cp.lastRowId <= 0 || m_options.fullRefresh ||
        t.skipChangeCommits)
        return Status::success();
    auto st = m_ctx.db.prepare(
        "SELECT kind, min_rowid FROM __cdc_source_changes WHERE seq > ?1 AND (table_name = ?2 "
        "COLLATE NOCASE OR table_name = ?3 COLLATE NOCASE) AND (min_rowid IS NULL OR "
        "min_rowid <= ?4) ORDER BY seq LIMIT 1");
    if (!st)
        return st.error();
    st->bind(1, cp.changeSeq)
        .bind(2, std::string_view(in.catalogName))
        .bind(3, std::string_view(in.sqliteName));
    st->bind(4, cp.lastRowId);
    auto has = st->step();
    if (!has)
        return has.error();
    if (!has.value())
        return Status::success();
    return Diagnostic::error(
        "SOURCE_CHANGED",
        "source '" + in.catalogName + "' had rows that flow '" + flow + "' already processed changed by " +
            st->text(0) +
            "; AUTO CDC reads sources as append-only streams. Run the update with "
            "--full-refresh, or set TBLPROPERTIES ('pipelines.cdc.skipChangeCommits' = 'true') "
            "on '" +
            t.name + "' to ignore such changes",
        where);
}

Status UpdateRunner::validateColumnsToUpdate(const FlowPlan& f, const TargetPlan& t) {
    // The appliers' batch read validates keys and sequences (readBatchEvents).
    if (f.columnsToUpdateSql) {
        const SourceLocation at = f.flow->columnsToUpdate->location;
        auto nulls =
            scalar(m_ctx.db, "SELECT count(*) FROM " + m_ctx.batch + " WHERE op = 0 AND ctu IS NULL");
        if (!nulls)
            return nulls.error();
        if (nulls.value() > 0)
            return Diagnostic::error(
                "APPLY_CHANGES_ERROR.NULL_BINARY_STATUS_COLUMN",
                "Binary status column values must not be null during upsert operations (" +
                    std::to_string(nulls.value()) + " row(s) have a NULL " + f.flow->columnsToUpdate->name +
                    ")",
                at);
        auto bad =
            scalar(m_ctx.db, "SELECT count(*) FROM " + m_ctx.batch +
                                 " WHERE op = 0 AND NOT (json_valid(ctu) AND json_type(ctu) = 'array')");
        if (!bad)
            return bad.error();
        if (bad.value() > 0)
            return Diagnostic::error("APPLY_CHANGES_ERROR.INVALID_COLUMN_POSITION",
                                     "COLUMNS TO UPDATE values must be arrays of column names", at);
        std::string names;
        for (const auto& c : t.columns)
            names += (names.empty() ? "" : ", ") + storage::quoteString(toLower(c.name));
        auto unknown = m_ctx.db.prepare("SELECT j.value FROM " + m_ctx.batch +
                                        " AS b, json_each(b.ctu) j WHERE b.op = 0 AND "
                                        "lower(j.value) NOT IN (" +
                                        names + ") LIMIT 1");
        if (!unknown)
            return unknown.error();
        auto u = unknown->step();
        if (!u)
            return u.error();
        if (u.value())
            return Diagnostic::error("APPLY_CHANGES_ERROR.STATUS_COLUMN_NOT_FOUND",
                                     "COLUMNS TO UPDATE names '" + unknown->text(0) +
                                         "', which is not a column of '" + t.name + "'",
                                     at);
    }
    return Status::success();
}

Result<std::optional<UpdateRunner::Ranges>>
UpdateRunner::pendingRanges(const std::string& flow, const SourceLocation& where, const TargetPlan& t,
                            const std::vector<StreamInput>& inputs, bool once) {
    Ranges out;
    if (once) { // ONCE flows run again only after a full refresh (semantics.md §10.4), streams or not
        auto done = store::checkpoint(m_ctx.db, flow, kOnceInput);
        if (!done)
            return done.error();
        if (done->exists && !m_options.fullRefresh)
            return std::optional<Ranges>();
        out.next.push_back({0, m_sourceChangeSeq, true});
    }
    for (const StreamInput& in : inputs) {
        auto cp = store::checkpoint(m_ctx.db, flow, in.catalogName);
        if (!cp)
            return cp.error();
        store::Checkpoint c = m_options.fullRefresh ? store::Checkpoint{} : cp.value();
        if (once && c.exists)
            return std::optional<Ranges>(); // a ONCE flow checkpointed before the marker above existed
        CDC_TRY(checkSourceChanges(flow, where, t, in, c));
        auto hi =
            scalar(m_ctx.db, "SELECT max(" + in.positionSql + ") FROM " + quoteIdentifier(in.sqliteName));
        if (!hi)
            return hi.error();
        // A full refresh rebuilds every table upstream in this update, and their change feeds restate them
        // as this update's inserts: a reader of one starts there, not at the feed's older history.
        const bool refreshedFeed = m_options.fullRefresh && in.positionSql != StreamInput{}.positionSql;
        const std::int64_t lo = refreshedFeed ? (m_ctx.updateId << 32) - 1 : once ? 0 : c.lastRowId;
        out.ranges.emplace_back(lo, std::max(hi.value(), lo));
        out.anyNew = out.anyNew || hi.value() > lo;
        out.next.push_back({std::max(hi.value(), lo), m_sourceChangeSeq, true});
    }
    return std::optional<Ranges>(std::move(out));
}

Status UpdateRunner::saveCheckpoints(const std::string& flow, const std::vector<StreamInput>& inputs,
                                     bool once, const Ranges& r) {
    std::size_t i = 0;
    if (once)
        CDC_TRY(store::saveCheckpoint(m_ctx, flow, kOnceInput, r.next[i++]));
    for (const StreamInput& in : inputs)
        CDC_TRY(store::saveCheckpoint(m_ctx, flow, in.catalogName, r.next[i++]));
    return Status::success();
}

Status UpdateRunner::runFlow(const FlowPlan& f, FlowMetrics& m) {
    const TargetPlan& t = m_plan.targets[f.target];
    if (f.snapshot)
        return runSnapshotFlow(m_ctx, t, f, m_options, m);
    auto pending = pendingRanges(f.name, f.flow->source.location, t, f.inputs, f.once);
    if (!pending)
        return pending.error();
    if (!pending.value())
        return Status::success();
    const Ranges& r = *pending.value();
    if (r.anyNew || f.inputs.empty()) {
        // Reading the source twice (validation, then the applier) is cheaper than writing every event to a
        // temp table.
        m_ctx.batch = batchSql(f, bindInputRanges(f.fromTemplate, r.ranges));
        CDC_TRY(validateColumnsToUpdate(f, t));
        if (t.scdType == pipeline::ScdType::Type1)
            CDC_TRY(applyScd1(m_ctx, t, f, m));
        else
            CDC_TRY(applyScd2(m_ctx, t, f, m));
    }
    return saveCheckpoints(f.name, f.inputs, f.once, r);
}

Status UpdateRunner::runAppendFlow(const AppendFlowPlan& f, FlowMetrics& m) {
    const TargetPlan& t = m_plan.targets[f.target];
    auto pending = pendingRanges(f.name, f.flow->query.location, t, f.inputs, f.once);
    if (!pending)
        return pending.error();
    if (!pending.value())
        return Status::success();
    const Ranges& r = *pending.value();
    if (r.anyNew || f.inputs.empty())
        CDC_TRY(appendRows(m_ctx, t, bindInputRanges(f.fromTemplate, r.ranges), f.columnSql, m));
    return saveCheckpoints(f.name, f.inputs, f.once, r);
}

} // namespace cdc::engine
