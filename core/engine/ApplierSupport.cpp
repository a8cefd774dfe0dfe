#include "core/engine/ApplierSupport.h"

#include "core/common/Text.h"

#include <algorithm>

namespace cdc::engine {

namespace {

/// Human-readable `k1=v1, k2=v2` for diagnostics.
std::string describeKey(const TargetPlan& t, const Row& keyValues) {
    std::string out;
    for (std::size_t i = 0; i < t.keyIndex.size() && i < keyValues.size(); ++i)
        out += (i ? ", " : "") + t.columns[static_cast<std::size_t>(t.keyIndex[i])].name + "=" +
               displayText(keyValues[i]);
    return out;
}

} // namespace

bool tracing(const UpdateContext& ctx, const TargetPlan& t, const Row& key) {
    return ctx.trace && ctx.trace->wants(t.name, key);
}

TraceRecord traceRecord(const UpdateContext& ctx, const TargetPlan& t, const FlowPlan& f, const BatchEvent& e,
                        TraceOutcome outcome) {
    TraceRecord r;
    r.target = t.name;
    // The rid is the source row's rowid only when the flow reads one source table by rowid.
    if (f.inputs.size() == 1 && f.inputs[0].positionSql == StreamInput{}.positionSql)
        r.source = f.inputs[0].catalogName;
    r.update = ctx.updateId;
    r.rid = e.rid;
    r.isDelete = e.isDelete();
    r.outcome = outcome;
    r.sequence = e.shown;
    r.values = e.values;
    r.supplied = e.supplied;
    return r;
}

std::vector<std::string> supplySql(const TargetPlan& t, const FlowPlan& f, const std::string& ctuColumn,
                                   const std::function<std::string(std::size_t)>& valueSql) {
    std::vector<std::string> out;
    bool any = false;
    for (std::size_t i = 0; i < t.columns.size(); ++i) {
        std::string s = "1";
        if (!t.isKey(i)) {
            if (f.columnsToUpdateSql) {
                s = "(EXISTS (SELECT 1 FROM json_each(" + ctuColumn +
                    ") WHERE lower(value) = " + storage::quoteString(toLower(t.columns[i].name)) + "))";
                any = true;
            } else if (f.ignoreNull[i]) {
                s = valueSql(
                    i); // built by appending: GCC 12 -O3 warns falsely (-Wrestrict) on `"(" + col(i)`
                s.insert(0, 1, '(');
                s += " IS NOT NULL)";
                any = true;
            }
        }
        out.push_back(s);
    }
    if (!any)
        out.clear();
    return out;
}

void reportTies(UpdateContext& ctx, const TargetPlan& t, const FlowPlan& f, const FlowMetrics& m,
                const std::vector<TieSample>& samples) {
    const std::string rule = t.scdType == pipeline::ScdType::Type1
                                 ? "the last-arriving upsert wins and an upsert beats a delete"
                                 : "a delete wins, else the last-arriving upsert";
    const std::int64_t shown = std::min<std::int64_t>(5, static_cast<std::int64_t>(samples.size()));
    // A snapshot flow has no SEQUENCE BY (and no ties: its keys are unique per version).
    const SourceLocation at =
        f.flow->sequenceBy.empty() ? f.flow->location : f.flow->sequenceBy.front().location;
    for (std::int64_t i = 0; i < shown; ++i) {
        const TieSample& tie = samples[static_cast<std::size_t>(i)];
        ctx.warnings.push_back(Diagnostic::warning(
            "SEQUENCE_TIE",
            "flow '" + f.name + "': " + std::to_string(tie.events) + " events for key " +
                describeKey(t, tie.key) + " share the sequence value " + displayText(tie.shown) + "; " +
                rule + ". Make the order explicit with SEQUENCE BY STRUCT(..., tiebreaker)",
            at));
    }
    if (m.ties > shown)
        ctx.warnings.push_back(Diagnostic::warning("SEQUENCE_TIE",
                                                   "flow '" + f.name +
                                                       "': " + std::to_string(m.ties - shown) +
                                                       " more keys with events sharing a sequence value",
                                                   at));
}

} // namespace cdc::engine
