#include "core/engine/BatchEvents.h"

#include "core/engine/ApplierSupport.h"
#include "core/engine/SqlText.h"
#include "core/engine/ValueOrder.h"

#include <string_view>

namespace cdc::engine {

using namespace sqltext;

namespace {

std::string microbatchPrefix(const TargetPlan& t, std::int64_t batch) {
    return "AutoCDC flow on table " + t.name + " in batch " + std::to_string(batch) +
           " failed microbatch validation. ";
}

/// AUTOCDC_MICROBATCH_VALIDATION (semantics.md §1.2); truncate rows are exempt from the key check.
Status validate(const UpdateContext& ctx, const TargetPlan& t, const FlowPlan& f, std::int64_t nullSequences,
                const std::vector<std::int64_t>& nullKeys) {
    if (nullSequences > 0)
        return Diagnostic::error("AUTOCDC_MICROBATCH_VALIDATION.NULL_SEQUENCE",
                                 microbatchPrefix(t, ctx.updateId) + "The microbatch contains " +
                                     std::to_string(nullSequences) +
                                     " row(s) with a null sequencing value. All rows must have a non-null "
                                     "sequencing value.",
                                 f.flow->sequenceBy.front().location);
    std::string counts;
    SourceLocation where;
    for (std::size_t k = 0; k < nullKeys.size(); ++k) {
        if (nullKeys[k] == 0)
            continue;
        if (!where.valid())
            where = f.flow->keys[k].location;
        counts += (counts.empty() ? "" : ", ") + f.flow->keys[k].name + ": " + std::to_string(nullKeys[k]);
    }
    if (!counts.empty())
        return Diagnostic::error(
            "AUTOCDC_MICROBATCH_VALIDATION.NULL_KEY",
            microbatchPrefix(t, ctx.updateId) +
                "The microbatch contains rows with null values in the following key column(s): " + counts +
                ". All rows must have non-null values for every key column.",
            where);
    return Status::success();
}

} // namespace

Status readBatchEvents(UpdateContext& ctx, const TargetPlan& t, const FlowPlan& f,
                       const std::optional<store::Watermark>& floor, FlowMetrics& m, bool& partial,
                       const std::function<void(BatchEvent&&)>& onEvent) {
    const std::size_t n = t.columns.size();
    const auto supply = supplySql(t, f, "ctu");
    partial = !supply.empty();
    std::string sql = "SELECT rid, op, s, sv, ctu, " + join(n, [](std::size_t i) { return col(i); });
    if (partial)
        sql += ", " + join(n, [&](std::size_t i) { return supply[i]; });
    sql += " FROM " + ctx.batch;
    auto st = ctx.db.prepare(sql);
    if (!st)
        return st.error();
    const int dataAt = 5, supplyAt = dataAt + static_cast<int>(n);
    // Plain sequences display as they compare: one value read, copied.
    const bool shownIsKey = f.sequenceKeySql == f.sequenceValueSql;
    std::int64_t rows = 0, truncates = 0, nullSequences = 0;
    std::vector<std::int64_t> nullKeys(t.keyIndex.size(), 0);
    bool valid = true;
    CDC_TRY(st->forEachRow([&](const storage::Statement& r) {
        ++rows;
        const int op = static_cast<int>(r.int64(1));
        const bool nullSequence = r.isNull(2);
        nullSequences += nullSequence;
        if (op == 2) {
            ++truncates;
            return; // truncates are read by the applier's own query
        }
        bool nullKey = false;
        for (std::size_t k = 0; k < t.keyIndex.size(); ++k)
            if (r.isNull(dataAt + t.keyIndex[k])) {
                ++nullKeys[k];
                nullKey = true;
            }
        valid = valid && !nullSequence && !nullKey;
        if (!valid)
            return; // the update fails once the whole batch is counted
        BatchEvent e;
        e.s = r.value(2);
        const bool below = floor && compareValues(e.s, floor->key) < 0; // below the truncate watermark: stale
        if (below && !ctx.trace)
            return;
        e.rid = r.int64(0);
        e.op = op;
        e.shown = shownIsKey ? e.s : r.value(3);
        e.ctu = r.value(4);
        e.values.reserve(n);
        for (std::size_t i = 0; i < n; ++i)
            e.values.push_back(r.value(dataAt + static_cast<int>(i)));
        if (partial) {
            e.supplied.resize(n);
            for (std::size_t i = 0; i < n; ++i)
                e.supplied[i] = r.int64(supplyAt + static_cast<int>(i)) != 0;
        }
        if (below) {
            if (tracing(ctx, t, keyOf(t, e.values))) {
                TraceRecord traced = traceRecord(ctx, t, f, e, TraceOutcome::BelowTruncate);
                traced.against = floor->value;
                ctx.trace->record(std::move(traced));
            }
            return;
        }
        onEvent(std::move(e));
    }));
    m.rowsRead = rows;
    ctx.batchTruncates = truncates;
    return validate(ctx, t, f, nullSequences, nullKeys);
}

Row keyOf(const TargetPlan& t, const Row& values) {
    Row key;
    key.reserve(t.keyIndex.size());
    for (int k : t.keyIndex)
        key.push_back(values[static_cast<std::size_t>(k)]);
    return key;
}

std::size_t KeyHash::operator()(const Row& key) const {
    std::size_t h = 0;
    for (const Value& v : key) {
        std::size_t x = 0;
        switch (v.index()) {
        case 1:
            x = std::hash<std::int64_t>{}(std::get<std::int64_t>(v));
            break;
        case 2: {
            const double d = std::get<double>(v);
            const auto i = static_cast<std::int64_t>(d);
            x = static_cast<double>(i) == d ? std::hash<std::int64_t>{}(i) : std::hash<double>{}(d);
            break;
        }
        case 3:
            x = std::hash<std::string>{}(std::get<std::string>(v));
            break;
        case 4: {
            const auto& b = std::get<Blob>(v).bytes;
            x = std::hash<std::string_view>{}(
                std::string_view(reinterpret_cast<const char*>(b.data()), b.size()));
            break;
        }
        default:
            break;
        }
        h = h * 1000003u ^ x;
    }
    return h;
}

bool KeyEqual::operator()(const Row& a, const Row& b) const {
    for (std::size_t i = 0; i < a.size(); ++i)
        if (compareValues(a[i], b[i]) != 0)
            return false;
    return true;
}

bool keyLess(const Row& a, const Row& b) {
    for (std::size_t i = 0; i < a.size(); ++i)
        if (int c = compareValues(a[i], b[i]))
            return c < 0;
    return false;
}

} // namespace cdc::engine
