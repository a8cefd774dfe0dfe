#include "core/engine/ArrivalExplorer.h"

#include "core/common/Text.h"
#include "core/engine/Engine.h"
#include "core/storage/Backup.h"
#include "core/storage/Catalog.h"

#include <algorithm>
#include <climits>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <thread>

namespace cdc::engine {

using storage::Catalog;
using storage::Database;
using storage::quoteIdentifier;
using storage::TableInfo;
using storage::TableKind;

namespace {

/// The names a pipeline reads as streams, views read as streams followed into what they read.
std::set<std::string> streamReads(const pipeline::Pipeline& p) {
    std::set<std::string> names, views;
    const auto add = [&](const pipeline::RelationRef& r, bool stream) {
        if (stream || r.stream)
            names.insert(toLower(r.name));
    };
    for (const auto& f : p.cdcFlows)
        if (!f.fromSnapshot)
            add(f.source, true);
    for (const auto& f : p.appendFlows)
        for (const auto& r : f.query.relations)
            add(r, false);
    for (const auto& v : p.views)
        for (const auto& r : v.query.relations)
            add(r, false);
    // A view read as a stream streams everything it reads.
    for (bool grew = true; grew;) {
        grew = false;
        for (const auto& v : p.views)
            if (names.count(toLower(v.name.name)) && views.insert(toLower(v.name.name)).second) {
                for (const auto& r : v.query.relations)
                    grew |= names.insert(toLower(r.name)).second;
            }
    }
    return names;
}

/// A source table and the SQL that creates it.
struct SourceTable {
    TableInfo info;
    std::string createSql;
    bool stream = false;
    std::vector<std::vector<Value>> staticRows; ///< a table read whole: its rows, the same in every run
};

std::vector<Value> rowValues(const storage::Statement& st, int first) {
    std::vector<Value> out;
    for (int c = first; c < st.columnCount(); ++c)
        out.push_back(st.value(c));
    return out;
}

/// The run's ingredients, read once from the project.
struct Material {
    std::vector<SourceTable> tables;
    std::vector<SourceEvent> events;
    std::map<std::string, std::size_t> tableIndex; ///< catalog name -> index in tables
};

/// The source tables, and with `withRows` their rows (events or static rows).
Result<Material> readMaterial(const Database& project, const pipeline::Pipeline& p, bool withRows = true) {
    Material m;
    const auto streams = streamReads(p);
    auto all = Catalog::list(project);
    if (!all)
        return all.error();
    for (const TableInfo& t : all.value()) {
        if (t.kind != TableKind::Source)
            continue;
        SourceTable s;
        s.info = t;
        auto sql = project.prepare("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?1");
        if (!sql)
            return sql.error();
        sql->bind(1, std::string_view(t.sqliteName));
        auto has = sql->step();
        if (!has)
            return has.error();
        if (!has.value())
            continue; // a catalog entry without its table: nothing to replay
        s.createSql = sql->text(0);
        // Read as a stream under its full name or a suffix of it (`users_cdf` for main.x.users_cdf).
        const std::string lower = toLower(t.name);
        s.stream = std::any_of(streams.begin(), streams.end(), [&](const std::string& n) {
            return lower == n ||
                   (lower.size() > n.size() && lower.compare(lower.size() - n.size(), n.size(), n) == 0 &&
                    lower[lower.size() - n.size() - 1] == '.');
        });
        if (!withRows) {
            m.tables.push_back(std::move(s));
            continue;
        }
        auto rows =
            project.prepare("SELECT rowid, * FROM " + quoteIdentifier(t.sqliteName) + " ORDER BY rowid");
        if (!rows)
            return rows.error();
        CDC_TRY(rows->forEachRow([&](storage::Statement& st) {
            auto values = rowValues(st, 1);
            if (s.stream)
                m.events.push_back({t.name, st.int64(0), std::move(values)});
            else
                s.staticRows.push_back(std::move(values));
        }));
        m.tableIndex[t.name] = m.tables.size();
        m.tables.push_back(std::move(s));
    }
    return m;
}

/// The pending events join the tables' rows; each must name a stream source table and fit its columns.
Status addPending(Material& m, const std::vector<SourceEvent>& pending) {
    for (const SourceEvent& e : pending) {
        const auto it = std::find_if(m.tables.begin(), m.tables.end(), [&](const SourceTable& t) {
            return equalsIgnoreCase(t.info.name, e.table);
        });
        if (it == m.tables.end() || !it->stream)
            continue; // a row for a table no flow streams from changes nothing the explorer compares
        if (e.values.size() != it->info.columns.size())
            return Diagnostic::error(
                "INVALID_EVENT", "a queued row of " + e.table + " has " + std::to_string(e.values.size()) +
                                     " values for " + std::to_string(it->info.columns.size()) + " columns");
        m.events.push_back({it->info.name, 0, e.values});
    }
    return Status::success();
}

Result<storage::Statement> prepareInsert(Database& db, const SourceTable& t, std::size_t columns) {
    std::string sql = "INSERT INTO " + quoteIdentifier(t.info.sqliteName) + " VALUES (";
    for (std::size_t i = 0; i < columns; ++i)
        sql += i ? ", ?" : "?";
    return db.prepare(sql + ")");
}

Status insertRow(storage::Statement& st, const std::vector<Value>& values) {
    for (std::size_t i = 0; i < values.size(); ++i)
        st.bind(static_cast<int>(i + 1), values[i]);
    Status status = st.run();
    st.reset();
    return status;
}

Status insertRow(Database& db, const SourceTable& t, const std::vector<Value>& values) {
    auto st = prepareInsert(db, t, values.size());
    if (!st)
        return st.error();
    return insertRow(*st, values);
}

/// Every target's rows, as sorted text lines.
using Tables = std::map<std::string, std::vector<std::string>>;

/// One worker's scratch databases: a template with the sources' schemas and static rows, copied afresh for
/// each run.
class Replayer {
public:
    Replayer(const Material& m, const pipeline::Pipeline& p, const ExplorerOptions& o)
        : m_material(m), m_pipeline(p), m_options(o) {}

    /// The tables after replaying `events` (indexes into the material's events) as `arrival` says.
    Result<Tables> run(const Arrival& arrival) {
        CDC_TRY(ensureTemplate());
        auto db = Database::openMemory();
        if (!db)
            return db.error();
        CDC_TRY(storage::copyDatabase(*m_template, *db));
        // One prepared INSERT per table for the whole replay (building and looking up its SQL per event
        // was half the cost of inserting the events). Declared after `db`, so released before it closes.
        std::vector<std::optional<storage::Statement>> inserts(m_material.tables.size());
        std::size_t next = 0;
        for (int u = 0; u < arrival.updates; ++u) {
            {
                // One transaction for the update's events: a commit per row was a sixth of a replay.
                auto tx = storage::Transaction::begin(*db, "cdc_arrival");
                if (!tx)
                    return tx.error();
                for (; next < arrival.events.size() && arrival.update[next] == u; ++next) {
                    const SourceEvent& e = m_material.events[arrival.events[next]];
                    const std::size_t table = m_material.tableIndex.at(e.table);
                    if (!inserts[table]) {
                        auto st = prepareInsert(*db, m_material.tables[table], e.values.size());
                        if (!st)
                            return st.error();
                        inserts[table].emplace(std::move(st).value());
                    }
                    CDC_TRY(insertRow(*inserts[table], e.values));
                }
                CDC_TRY(tx->commit());
            }
            UpdateOptions options;
            options.now = m_options.start + (u + 1) * m_options.tick;
            options.cancel = m_options.cancel;
            auto report = runUpdate(*db, m_pipeline, options);
            if (!report)
                return report.error();
        }
        return dump(*db);
    }

private:
    Status ensureTemplate() {
        if (m_template)
            return Status::success();
        auto db = Database::openMemory();
        if (!db)
            return db.error();
        CDC_TRY(Catalog::ensureSchema(*db));
        for (const SourceTable& t : m_material.tables) {
            CDC_TRY(db->exec(t.createSql));
            CDC_TRY(Catalog::put(*db, t.info));
            for (const auto& row : t.staticRows)
                CDC_TRY(insertRow(*db, t, row));
        }
        m_template = std::make_unique<Database>(std::move(db.value()));
        return Status::success();
    }

    static Result<Tables> dump(Database& db) {
        auto all = Catalog::list(db);
        if (!all)
            return all.error();
        Tables out;
        for (const TableInfo& t : all.value()) {
            if (t.kind != TableKind::Target && t.kind != TableKind::MaterializedView)
                continue;
            auto st = db.prepare("SELECT * FROM " + quoteIdentifier(t.sqliteName));
            if (!st)
                return st.error();
            auto& rows = out[t.name];
            CDC_TRY(st->forEachRow([&](storage::Statement& row) {
                std::string line;
                for (int c = 0; c < row.columnCount(); ++c)
                    line += (c ? "\t" : "") + displayText(row.value(c));
                rows.push_back(std::move(line));
            }));
            std::sort(rows.begin(), rows.end());
        }
        return out;
    }

    const Material& m_material;
    const pipeline::Pipeline& m_pipeline;
    const ExplorerOptions& m_options;
    std::unique_ptr<Database> m_template;
};

/// The in-order run of `events` (indexes, any order): written order, one update.
Arrival inOrder(std::vector<std::size_t> events) {
    std::sort(events.begin(), events.end());
    Arrival a;
    a.update.assign(events.size(), 0);
    a.events = std::move(events);
    return a;
}

std::vector<TableDifference> differences(const Result<Tables>& expected, const Result<Tables>& got) {
    std::vector<TableDifference> out;
    if (!got) {
        out.push_back({"(the update failed)", {}, {got.error().format()}});
        return out;
    }
    std::set<std::string> names;
    for (const auto& [name, rows] : expected.value())
        names.insert(name);
    for (const auto& [name, rows] : got.value())
        names.insert(name);
    for (const auto& name : names) {
        const auto a = expected.value().find(name), b = got.value().find(name);
        const std::vector<std::string> none;
        const auto& left = a == expected.value().end() ? none : a->second;
        const auto& right = b == got.value().end() ? none : b->second;
        if (left != right)
            out.push_back({name, left, right});
    }
    return out;
}

/// Whether the arrival diverges from the in-order run of the same events.
bool diverges(Replayer& r, const Arrival& arrival) {
    const auto expected = r.run(inOrder(arrival.events));
    if (!expected)
        return false; // the events alone do not make a valid run: not a counterexample
    return !differences(expected, r.run(arrival)).empty();
}

/// `arrival` without the events at the positions `drop` (sorted), its updates kept.
Arrival without(const Arrival& a, const std::vector<std::size_t>& keep) {
    Arrival out;
    out.updates = a.updates;
    for (std::size_t i : keep) {
        out.events.push_back(a.events[i]);
        out.update.push_back(a.update[i]);
    }
    return out;
}

/// Delta debugging (Zeller's ddmin) over the arrival's events: a smallest set whose replay still diverges,
/// in the same relative arrival order and updates.
Arrival shrinkEvents(Replayer& r, Arrival a, const std::atomic<bool>* cancel) {
    std::size_t chunks = 2;
    while (a.events.size() >= 2 && !(cancel && cancel->load())) {
        const std::size_t n = a.events.size();
        const std::size_t size = (n + chunks - 1) / chunks;
        bool reduced = false;
        for (std::size_t c = 0; c < chunks && !reduced; ++c) {
            const std::size_t from = c * size, to = std::min(n, from + size);
            if (from >= to)
                continue;
            std::vector<std::size_t> subset, complement;
            for (std::size_t i = 0; i < n; ++i)
                (i >= from && i < to ? subset : complement).push_back(i);
            for (const auto* keep : {&subset, &complement}) {
                Arrival candidate = without(a, *keep);
                if (!candidate.events.empty() && diverges(r, candidate)) {
                    a = std::move(candidate);
                    chunks = keep == &subset ? 2 : std::max<std::size_t>(chunks - 1, 2);
                    reduced = true;
                    break;
                }
            }
        }
        if (!reduced) {
            if (chunks >= n)
                break;
            chunks = std::min(n, chunks * 2);
        }
    }
    return a;
}

/// Then the fewest updates: two neighbouring updates merged, or an update with no event dropped, while the
/// replay still diverges.
Arrival shrinkUpdates(Replayer& r, Arrival a) {
    for (bool reduced = true; reduced && a.updates > 1;) {
        reduced = false;
        for (int u = 0; u + 1 < a.updates && !reduced; ++u) {
            Arrival merged = a;
            for (auto& x : merged.update)
                if (x > u)
                    --x;
            merged.updates = a.updates - 1;
            if (diverges(r, merged)) {
                a = std::move(merged);
                reduced = true;
            }
        }
    }
    return a;
}

Arrival randomArrival(std::size_t n, int maxUpdates, std::mt19937_64& rng) {
    Arrival a;
    a.events.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        a.events[i] = i;
    std::shuffle(a.events.begin(), a.events.end(), rng);
    a.updates = std::uniform_int_distribution<int>(1, std::max(1, maxUpdates))(rng);
    std::vector<std::size_t> cuts;
    for (int c = 1; c < a.updates; ++c)
        cuts.push_back(std::uniform_int_distribution<std::size_t>(0, n)(rng));
    std::sort(cuts.begin(), cuts.end());
    a.update.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        a.update[i] = static_cast<int>(std::upper_bound(cuts.begin(), cuts.end(), i) - cuts.begin());
    return a;
}

} // namespace

Result<std::vector<std::string>> streamSourceTables(const storage::Database& project,
                                                    const pipeline::Pipeline& pipeline) {
    auto material = readMaterial(project, pipeline, false); // the names only: no row is read
    if (!material)
        return material.error();
    std::vector<std::string> out;
    for (const SourceTable& t : material->tables)
        if (t.stream)
            out.push_back(t.info.name);
    return out;
}

std::string eventText(const SourceEvent& e) {
    std::string out = e.table + " (";
    for (std::size_t i = 0; i < e.values.size(); ++i)
        out += (i ? ", " : "") + (isNull(e.values[i]) ? std::string("NULL") : displayText(e.values[i]));
    return out + ")";
}

std::string reportText(const ExplorerReport& r, const ExplorerOptions& o) {
    const std::string seed = std::to_string(o.seed);
    if (!r.counterexample)
        return "arrival order does not matter: identical in " + std::to_string(r.identical) + " of " +
               std::to_string(r.ordersRun) + " arrival orders (" + std::to_string(r.events) +
               " events, seed " + seed + ", 1 to " + std::to_string(o.maxUpdates) + " updates)\n";
    const Counterexample& ce = *r.counterexample;
    std::string out = "arrival order matters: arrival order " + std::to_string(ce.order) + " (seed " + seed +
                      ") gives different tables than the in-order run\n";
    out += "minimal counterexample: " + std::to_string(ce.events.size()) + " event(s) in " +
           std::to_string(ce.arrival.updates) + " update(s)\n";
    out += "in order (one update):\n";
    for (const auto& e : ce.events)
        out += "  " + eventText(e) + "\n";
    for (int u = 0; u < ce.arrival.updates; ++u) {
        out += "arrived, update " + std::to_string(u + 1) + ":\n";
        for (std::size_t i = 0; i < ce.arrival.events.size(); ++i)
            if (ce.arrival.update[i] == u)
                out += "  " + eventText(ce.events[ce.arrival.events[i]]) + "\n";
    }
    for (const auto& d : ce.differences) {
        out += d.target + " differs (- in order, + arrived):\n";
        for (const auto& row : d.inOrder)
            out += "  - " + row + "\n";
        for (const auto& row : d.arrived)
            out += "  + " + row + "\n";
    }
    return out;
}

Result<ExplorerReport> exploreArrivalOrders(const storage::Database& project,
                                            const pipeline::Pipeline& pipeline,
                                            const ExplorerOptions& options) {
    auto material = readMaterial(project, pipeline);
    if (!material)
        return material.error();
    CDC_TRY(addPending(material.value(), options.pending));
    const Material& m = material.value();
    ExplorerReport report;
    report.events = m.events.size();

    Replayer main(m, pipeline, options);
    std::vector<std::size_t> all(m.events.size());
    for (std::size_t i = 0; i < all.size(); ++i)
        all[i] = i;
    const auto expected = main.run(inOrder(all));
    if (!expected)
        return expected.error();

    // The arrivals are drawn up front, so the seed alone decides them, whatever the threads do.
    std::mt19937_64 rng(options.seed);
    std::vector<Arrival> arrivals;
    for (int k = 0; k < options.orders; ++k)
        arrivals.push_back(randomArrival(m.events.size(), options.maxUpdates, rng));

    std::atomic<int> next{0}, done{0}, firstDivergent{INT_MAX};
    std::mutex failureLock;
    std::optional<Diagnostic> failure;
    const auto work = [&] {
        Replayer r(m, pipeline, options);
        for (int k = next++; k < options.orders; k = next++) {
            if ((options.cancel && options.cancel->load()) || k > firstDivergent.load())
                break;
            const auto got = r.run(arrivals[static_cast<std::size_t>(k)]);
            if (!got && (got.error().code == "CANCELLED")) {
                const std::lock_guard lock(failureLock);
                failure = got.error();
                break;
            }
            if (!differences(expected, got).empty()) {
                int seen = firstDivergent.load();
                while (k < seen && !firstDivergent.compare_exchange_weak(seen, k)) {
                }
            }
            const int d = ++done;
            if (options.progress)
                options.progress(d, options.orders);
        }
    };
    const int threads = options.threads > 0
                            ? options.threads
                            : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t)
        pool.emplace_back(work);
    work();
    for (auto& t : pool)
        t.join();
    if (options.cancel && options.cancel->load())
        return Diagnostic::error("CANCELLED", "the arrival-order exploration was cancelled");
    if (failure)
        return *failure;

    const int divergent = firstDivergent.load();
    report.ordersRun = divergent == INT_MAX ? options.orders : divergent + 1;
    report.identical = divergent == INT_MAX ? options.orders : divergent;
    if (divergent == INT_MAX)
        return report;

    Arrival minimal = shrinkUpdates(
        main, shrinkEvents(main, arrivals[static_cast<std::size_t>(divergent)], options.cancel));
    // Renumber: the counterexample's events alone, in written order, and its arrival over them.
    std::vector<std::size_t> chosen = minimal.events;
    std::sort(chosen.begin(), chosen.end());
    Counterexample ce;
    ce.order = divergent + 1;
    for (std::size_t i : chosen)
        ce.events.push_back(m.events[i]);
    ce.arrival.updates = minimal.updates;
    for (std::size_t i = 0; i < minimal.events.size(); ++i) {
        const auto at = std::lower_bound(chosen.begin(), chosen.end(), minimal.events[i]) - chosen.begin();
        ce.arrival.events.push_back(static_cast<std::size_t>(at));
        ce.arrival.update.push_back(minimal.update[i]);
    }
    ce.differences = differences(main.run(inOrder(minimal.events)), main.run(minimal));
    report.counterexample = std::move(ce);
    return report;
}

} // namespace cdc::engine
