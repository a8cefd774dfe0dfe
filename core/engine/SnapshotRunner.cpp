#include "core/engine/SnapshotRunner.h"

#include "core/engine/Appliers.h"
#include "core/engine/SqlText.h"
#include "core/engine/ValueOrder.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace cdc::engine {

using storage::quoteIdentifier;
using namespace sqltext;

namespace {

/// A query that reads its own version (`versionSql`) and its own table-valued functions never loops
/// forever: an update stops with an error after this many snapshots.
constexpr std::size_t kMaxSnapshotsPerUpdate = 10000;

constexpr const char* kErrorPrefix = "APPLY_CHANGES_FROM_SNAPSHOT_ERROR.";

/// A processed (or pending) snapshot version: as it compares and as `__START_AT` shows it.
struct Version {
    Value key, shown;
    std::string rows; ///< a snapshot function's offer as a FROM item; empty: the flow's snapshot query
};

/// What the flow has processed since its target was built: nothing yet (`exists` false), or versions up to
/// `last` (none when a full refresh reset it).
struct SnapshotState {
    bool exists = false;
    std::optional<Version> last;
};

/// A version value as SQL text, for the queries' placeholders (their statements are prepared unbound).
std::string literal(const Value& v) {
    switch (v.index()) {
    case 1:
        return std::to_string(std::get<std::int64_t>(v));
    case 2: {
        const double d = std::get<double>(v);
        if (!std::isfinite(d))
            return d > 0 ? "9e999" : d < 0 ? "-9e999" : "NULL";
        char buf[40];
        const auto end = std::to_chars(buf, buf + sizeof buf, d).ptr;
        std::string text(buf, end);
        if (text.find_first_of(".e") == std::string::npos)
            text += ".0"; // stays a REAL
        return text;
    }
    case 3:
        return storage::quoteString(std::get<std::string>(v));
    case 4: {
        static const char* hex = "0123456789ABCDEF";
        std::string text = "X'";
        for (unsigned char b : std::get<Blob>(v).bytes) {
            text += hex[b >> 4];
            text += hex[b & 15];
        }
        return text + "'";
    }
    default:
        return "NULL";
    }
}

Result<SnapshotState> loadState(const storage::Database& db, const std::string& flow) {
    auto st = db.prepare("SELECT version_key, version FROM __cdc_snapshot_versions WHERE flow = ?1 "
                         "ORDER BY update_id DESC LIMIT 1");
    if (!st)
        return st.error();
    st->bind(1, std::string_view(flow));
    auto has = st->step();
    if (!has)
        return has.error();
    SnapshotState state;
    state.exists = has.value();
    if (state.exists && !st->isNull(0))
        state.last = Version{st->value(0), st->value(1), {}};
    return state;
}

Status saveState(UpdateContext& ctx, const std::string& flow, const SnapshotState& state) {
    static const Value null;
    return run(
        ctx.db,
        "INSERT OR REPLACE INTO __cdc_snapshot_versions(flow, update_id, version_key, version) VALUES "
        "(?1, ?2, ?3, ?4)",
        {flow, ctx.updateId, state.last ? state.last->key : null, state.last ? state.last->shown : null});
}

class SnapshotFlow {
public:
    SnapshotFlow(UpdateContext& ctx, const TargetPlan& t, const FlowPlan& f, const UpdateOptions& options,
                 FlowMetrics& m)
        : m_ctx(ctx), m_t(t), m_f(f), m_snap(*f.snapshot), m_options(options), m_m(m) {}

    Status run() {
        auto loaded = loadState(m_ctx.db, m_f.name);
        if (!loaded)
            return loaded.error();
        SnapshotState state = m_options.fullRefresh ? SnapshotState{} : loaded.value();
        if (m_f.once && state.exists)
            return Status::success(); // ONCE: its first update, and again after a full refresh (§10.4)
        const bool fresh = !state.exists;
        std::size_t processed = 0;
        for (;;) {
            auto pending = pendingVersions(state.last);
            if (!pending)
                return pending.error();
            if (pending->empty())
                break;
            for (Version& v : pending.value()) {
                auto again = periodicRepeat(v, state.last);
                if (!again)
                    return again.error();
                if (again.value())
                    continue;
                CDC_TRY(checkOrder(v, state.last));
                if (++processed > kMaxSnapshotsPerUpdate)
                    return Diagnostic::error(std::string(kErrorPrefix) + "TOO_MANY_SNAPSHOTS",
                                             "the WITH VERSION query of flow '" + m_f.name +
                                                 "' offered more than " +
                                                 std::to_string(kMaxSnapshotsPerUpdate) +
                                                 " versions in one update; it must offer only versions above "
                                                 "last_snapshot_version()",
                                             m_f.flow->versionQuery->location);
                if (m_options.cancel && m_options.cancel->load())
                    return Diagnostic::error("CANCELLED", "the update was cancelled; nothing was changed");
                CDC_TRY(apply(v, !state.last.has_value()));
                state.last = std::move(v);
            }
            if (m_snap.periodic())
                break; // one snapshot per update: the source as it is now
        }
        if (fresh || m_options.fullRefresh || processed > 0) {
            state.exists = true;
            CDC_TRY(saveState(m_ctx, m_f.name, state));
        }
        return Status::success();
    }

private:
    std::string withVersion(const std::string& sql, const Value& shown) const {
        return replaceAll(sql, std::string(kSnapshotVersionSlot), literal(shown));
    }

    /// The versions to process now, ascending: the update's time for a periodic snapshot (once), else what
    /// the version query offers given the last processed version.
    Result<std::vector<Version>> pendingVersions(const std::optional<Version>& last) const {
        if (!m_snap.function.empty())
            return offeredVersion(last);
        std::string versions;
        if (m_snap.periodic()) {
            versions = "SELECT strftime('%Y-%m-%d %H:%M:%S', " + std::to_string(m_ctx.now) + ", 'unixepoch')";
        } else {
            const std::string lastItem = last ? "(SELECT " + literal(last->shown) + " AS version)"
                                              : std::string("(SELECT NULL AS version WHERE 0)");
            versions =
                "SELECT * FROM " + replaceAll(m_snap.versionSql, std::string(kLastVersionSlot), lastItem);
        }
        auto st = m_ctx.db.prepare("WITH __versions(v) AS (" + versions + ") SELECT " +
                                   replaceAll(m_f.sequenceKeySql, std::string(kSnapshotVersionSlot), "v") +
                                   ", v FROM __versions");
        if (!st)
            return Diagnostic::error(std::string(kErrorPrefix) + "INVALID_SNAPSHOT_VERSION",
                                     "the versions of flow '" + m_f.name +
                                         "' cannot be read: " + st.error().message,
                                     versionLocation());
        std::vector<Version> out;
        CDC_TRY(st->forEachRow([&](const storage::Statement& r) {
            out.push_back({r.value(0), r.value(1), {}});
        }));
        for (const Version& v : out)
            if (isNull(v.shown))
                return Diagnostic::error(std::string(kErrorPrefix) + "NULL_SNAPSHOT_VERSION",
                                         "the WITH VERSION query of flow '" + m_f.name +
                                             "' returned a NULL version; snapshot versions must not be NULL",
                                         versionLocation());
        std::stable_sort(out.begin(), out.end(),
                         [](const Version& a, const Version& b) { return compareValues(a.key, b.key) < 0; });
        // A version listed twice in one answer is one snapshot (a version query over a table of snapshot rows
        // without DISTINCT).
        const auto same = [](const Version& a, const Version& b) { return compareValues(a.key, b.key) == 0; };
        out.erase(std::unique(out.begin(), out.end(), same), out.end());
        return out;
    }

    /// A snapshot function's next snapshot (none, or one): the function decides which version follows
    /// `last`, and is asked again after each.
    Result<std::vector<Version>> offeredVersion(const std::optional<Version>& last) const {
        if (!m_options.snapshotFunction)
            return Diagnostic::error("SNAPSHOT_FUNCTION_NOT_RUN",
                                     "flow '" + m_f.name + "' takes its snapshots from the Python function " +
                                         m_snap.function + ", which only a run of its pipeline file can call",
                                     m_f.flow->location);
        auto offer =
            m_options.snapshotFunction(m_f.name, last ? std::optional<Value>(last->shown) : std::nullopt);
        if (!offer)
            return offer.error();
        if (!offer.value())
            return std::vector<Version>{};
        const SnapshotOffer& o = *offer.value();
        if (isNull(o.version))
            return Diagnostic::error(std::string(kErrorPrefix) + "NULL_SNAPSHOT_VERSION",
                                     "the snapshot function " + m_snap.function + " of flow '" + m_f.name +
                                         "' returned a NULL version; snapshot versions must not be NULL",
                                     o.query.location);
        auto rows = m_snap.resolveOffer(o.query);
        if (!rows)
            return rows.error();
        // The version as it orders (encoded like a sequence value), from the same SQL as queried versions.
        auto key = m_ctx.db.prepare("SELECT " + withVersion(m_f.sequenceKeySql, o.version));
        if (!key)
            return key.error();
        if (auto has = key->step(); !has)
            return has.error();
        return std::vector<Version>{{key->value(0), o.version, rows.value()}};
    }

    SourceLocation versionLocation() const {
        return m_f.flow->versionQuery ? m_f.flow->versionQuery->location : m_f.flow->location;
    }

    /// Versions must increase (Part 1 #7): the first version not above the last processed one fails.
    Status checkOrder(const Version& v, const std::optional<Version>& last) const {
        if (!last || compareValues(v.key, last->key) > 0)
            return Status::success();
        const std::string versions = "snapshot version " + displayText(v.shown) +
                                     " is not above the last processed version " + displayText(last->shown) +
                                     " of flow '" + m_f.name + "'";
        return Diagnostic::error(
            std::string(kErrorPrefix) + "OUT_OF_ORDER_SNAPSHOT_VERSION",
            m_snap.periodic()
                ? versions + ": a periodic snapshot is versioned by the update's time, which must advance "
                             "between updates"
                : versions +
                      "; the WITH VERSION query must offer only versions above last_snapshot_version()",
            versionLocation());
    }

    /// A periodic snapshot taken at the same simulated time as the last one (two updates without the clock
    /// moving, as `--now` allows): the ingestion time is the snapshot's identity (§7.2), so the same time
    /// means the same snapshot. When the source still holds exactly what the target shows, the update has
    /// nothing to do — true, with a SNAPSHOT_ALREADY_PROCESSED warning; when it changed, checkOrder refuses
    /// it, since a different snapshot needs a later time. Skipping the change silently would hide it.
    Result<bool> periodicRepeat(const Version& v, const std::optional<Version>& last) {
        if (!m_snap.periodic() || !last || compareValues(v.key, last->key) != 0)
            return false;
        auto st =
            m_ctx.db.prepare("SELECT count(*) FROM " + diffBatch(withVersion(m_snap.querySql, v.shown), v));
        if (!st)
            return st.error();
        auto has = st->step();
        if (!has)
            return has.error();
        if (st->int64(0) != 0)
            return false;
        m_ctx.warnings.push_back(Diagnostic::warning(
            "SNAPSHOT_ALREADY_PROCESSED",
            "flow '" + m_f.name + "' already processed the periodic snapshot of " + displayText(v.shown) +
                " and its source has not changed since: nothing to do until the clock moves on",
            versionLocation()));
        return true;
    }

    std::string keyTest(const std::string& a, const std::string& b) const {
        return join(
            m_t.keyIndex.size(),
            [&](std::size_t k) {
                const std::string c =
                    quoteIdentifier(m_t.columns[static_cast<std::size_t>(m_t.keyIndex[k])].name);
                return a + "." + c + " = " + b + "." + c;
            },
            " AND ");
    }

    /// No NULL key, no key twice (§7.1 DUPLICATE_KEY_VIOLATION); returns the snapshot's row count.
    Result<std::int64_t> validate(const std::string& rows, const Version& v) const {
        const std::size_t nk = m_t.keyIndex.size();
        const auto keyName = [&](std::size_t k) {
            return quoteIdentifier(m_t.columns[static_cast<std::size_t>(m_t.keyIndex[k])].name);
        };
        std::string nullKeys;
        for (std::size_t k = 0; k < nk; ++k)
            nullKeys += ", count(*) FILTER (WHERE " + keyName(k) + " IS NULL)";
        auto counts = m_ctx.db.prepare("SELECT count(*)" + nullKeys + " FROM " + rows + " AS __s");
        if (!counts)
            return counts.error();
        auto has = counts->step();
        if (!has)
            return has.error();
        for (std::size_t k = 0; k < nk; ++k)
            if (counts->int64(static_cast<int>(k + 1)) > 0)
                return Diagnostic::error(
                    "AUTOCDC_MICROBATCH_VALIDATION.NULL_KEY",
                    "snapshot version " + displayText(v.shown) + " of flow '" + m_f.name + "' has " +
                        std::to_string(counts->int64(static_cast<int>(k + 1))) +
                        " row(s) with a null value in the key column " + m_f.flow->keys[k].name +
                        "; every snapshot row must have non-null values for every key column",
                    m_f.flow->keys[k].location);
        const std::int64_t total = counts->int64(0);
        auto dup = m_ctx.db.prepare("SELECT count(*), " + join(nk, keyName) + " FROM " + rows +
                                    " AS __s GROUP BY " + join(nk, keyName) + " HAVING count(*) > 1 LIMIT 1");
        if (!dup)
            return dup.error();
        auto found = dup->step();
        if (!found)
            return found.error();
        if (found.value()) {
            std::string key;
            for (std::size_t k = 0; k < nk; ++k)
                key += (k ? ", " : "") + displayText(dup->value(static_cast<int>(k + 1)));
            return Diagnostic::error(std::string(kErrorPrefix) + "DUPLICATE_KEY_VIOLATION",
                                     "Found " + std::to_string(dup->int64(0)) + " rows for key '" + key +
                                         "' in snapshot version " + displayText(v.shown) + " for flow '" +
                                         m_f.name + "'. Expected at most 1 row per key.",
                                     m_f.flow->snapshotQuery ? m_f.flow->snapshotQuery->location
                                                             : m_f.flow->location);
        }
        return total;
    }

    /// The batch of one snapshot (§7.4): an upsert for each snapshot row that no current row equals
    /// (null-safe, every column), a delete for each current row whose key the snapshot lacks. Current
    /// rows are the public view's: SCD1 live rows, SCD2 open versions.
    std::string diffBatch(const std::string& rows, const Version& v) const {
        const std::size_t n = m_t.columns.size();
        const auto name = [&](std::size_t i) { return quoteIdentifier(m_t.columns[i].name); };
        const std::string current = "main." + quoteIdentifier(m_t.tables.view);
        const std::string open =
            m_t.scdType == pipeline::ScdType::Type2 ? " AND o.\"__END_AT\" IS NULL" : std::string();
        const std::string s = withVersion(m_f.sequenceKeySql, v.shown) + " AS s, " +
                              withVersion(m_f.sequenceValueSql, v.shown) + " AS sv, ";
        const auto values = [&](const std::string& alias) {
            return join(n, [&](std::size_t i) { return alias + "." + name(i) + " AS " + col(i); });
        };
        const std::string same = join(
            n, [&](std::size_t i) { return "o." + name(i) + " IS n." + name(i); }, " AND ");
        return "(WITH __snap AS MATERIALIZED (SELECT * FROM " + rows +
               " AS __s) SELECT row_number() OVER () AS rid, 0 AS op, " + s + values("n") +
               ", NULL AS ctu FROM __snap AS n WHERE NOT EXISTS (SELECT 1 FROM " + current + " AS o WHERE " +
               keyTest("o", "n") + open + " AND " + same + ") UNION ALL SELECT -row_number() OVER (), 1, " +
               s + values("o") + ", NULL FROM " + current +
               " AS o WHERE NOT EXISTS (SELECT 1 FROM __snap AS n WHERE " + keyTest("n", "o") + ")" + open +
               ")";
    }

    Status apply(const Version& v, bool first) {
        const std::string rows = v.rows.empty() ? withVersion(m_snap.querySql, v.shown) : v.rows;
        auto total = validate(rows, v);
        if (!total)
            return total.error();
        // §7.3: an empty first snapshot cannot be told apart from "no data yet"; later ones delete every row.
        if (first && total.value() == 0)
            return Diagnostic::error(
                std::string(kErrorPrefix) + "FIRST_SNAPSHOT_EMPTY",
                "the first snapshot of flow '" + m_f.name + "' (version " + displayText(v.shown) +
                    ") is empty; the first snapshot after the target's creation or a full "
                    "refresh must hold rows",
                m_f.flow->snapshotQuery ? m_f.flow->snapshotQuery->location : m_f.flow->location);
        m_ctx.batch = diffBatch(rows, v);
        FlowMetrics diff;
        CDC_TRY(m_t.scdType == pipeline::ScdType::Type1 ? applyScd1(m_ctx, m_t, m_f, diff)
                                                        : applyScd2(m_ctx, m_t, m_f, diff));
        // The rows read are the snapshot's; the rest counts what its difference did.
        m_m.rowsRead += total.value();
        m_m.upserted += diff.upserted;
        m_m.deleted += diff.deleted;
        m_m.staleDropped += diff.staleDropped;
        m_m.versionsOpened += diff.versionsOpened;
        m_m.versionsClosed += diff.versionsClosed;
        m_m.versionsSplit += diff.versionsSplit;
        m_m.tombstonesCreated += diff.tombstonesCreated;
        return Status::success();
    }

    UpdateContext& m_ctx;
    const TargetPlan& m_t;
    const FlowPlan& m_f;
    const SnapshotSource& m_snap;
    const UpdateOptions& m_options;
    FlowMetrics& m_m;
};

} // namespace

Status runSnapshotFlow(UpdateContext& ctx, const TargetPlan& t, const FlowPlan& f,
                       const UpdateOptions& options, FlowMetrics& m) {
    SnapshotFlow flow(ctx, t, f, options, m);
    return flow.run();
}

} // namespace cdc::engine
