#include "core/engine/MergeComparison.h"

#include "core/common/ResultSet.h"
#include "core/common/Text.h"
#include "core/engine/FlowPlan.h"
#include "core/engine/SequenceCodec.h"
#include "core/engine/SqlText.h"
#include "core/engine/ValueOrder.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace cdc::engine {

using storage::Database;
using storage::quoteIdentifier;
using namespace sqltext;

namespace {

constexpr const char* kStartAt = "__START_AT";
constexpr const char* kEndAt = "__END_AT";

/// A Spark identifier: backquoted unless it is a plain name.
std::string sparkName(const std::string& name) {
    const bool plain = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
                       std::all_of(name.begin(), name.end(), [](char ch) {
                           return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
                       });
    if (plain)
        return name;
    std::string out = "`";
    for (char ch : name)
        out += ch == '`' ? std::string("``") : std::string(1, ch);
    return out + "`";
}

std::string sequenceText(const pipeline::AutoCdcFlow& flow) {
    if (!flow.sequenceIsStruct)
        return flow.sequenceBy.front().sparkText;
    return "struct(" +
           join(flow.sequenceBy.size(), [&](std::size_t i) { return flow.sequenceBy[i].sparkText; }) + ")";
}

/// The textbook MERGE of one flow, as Databricks SQL.
std::string mergeSql(const FlowPlan& f, const TargetPlan& t) {
    const pipeline::AutoCdcFlow& flow = *f.flow;
    const auto name = [&](std::size_t i) { return sparkName(t.columns[i].name); };
    const std::string keys =
        join(t.keyIndex.size(), [&](std::size_t i) { return name(static_cast<std::size_t>(t.keyIndex[i])); });
    const std::string seq = sequenceText(flow);
    const bool scd2 = t.scdType == pipeline::ScdType::Type2;

    std::string sql =
        "-- Flow " + f.name + ": the MERGE a data engineer writes without AUTO CDC, run once per\n";
    sql += "-- batch of new rows of " + flow.source.name + ". It keeps the batch's latest row per key but\n";
    sql += "-- compares no stored sequence and keeps no tombstones: ";
    sql +=
        scd2 ? "a late event closes the open version at its\n-- older sequence, and a late insert after its "
               "delete opens a version that never closes.\n"
             : "a late update overwrites newer data,\n-- and a late insert brings a deleted row back.\n";
    if (flow.applyAsTruncate)
        sql += "-- APPLY AS TRUNCATE has no MERGE clause: those rows are left out.\n";
    if (flow.ignoreNullUpdates)
        sql += "-- IGNORE NULL UPDATES is AUTO CDC's: UPDATE SET overwrites with NULLs.\n";
    if (flow.columnsToUpdate)
        sql += "-- COLUMNS TO UPDATE is AUTO CDC's: UPDATE SET writes every column.\n";
    if (flow.trackHistory)
        sql += "-- TRACK HISTORY is AUTO CDC's: every upsert starts a new version.\n";

    // The batch: its latest row per key (Databricks' MERGE fails when several source rows match one row).
    const std::string isDelete =
        flow.applyAsDelete ? "coalesce(" + flow.applyAsDelete->sparkText + ", false)" : std::string("false");
    const std::string in = scd2 ? "      " : "    "; // the batch's indent: SCD 2 nests it in a WITH
    std::string batch = in + "SELECT *, " + seq + " AS __seq, " + isDelete + " AS __is_delete,\n";
    batch += in + "  row_number() OVER (PARTITION BY " + keys + " ORDER BY " + seq + " DESC) AS __rn\n";
    batch += in + "FROM " + flow.source.name + " -- the rows delivered since the last run\n";
    if (flow.applyAsTruncate)
        batch += in + "WHERE NOT coalesce(" + flow.applyAsTruncate->sparkText + ", false)\n";

    std::string data = join(t.columns.size(), name);
    std::string values = join(t.columns.size(), [&](std::size_t i) { return "s." + name(i); });
    const std::string on = join(
        t.keyIndex.size(),
        [&](std::size_t i) {
            const std::string k = name(static_cast<std::size_t>(t.keyIndex[i]));
            return "t." + k + " = s." + (scd2 ? sparkName("__merge_" + t.columns[t.keyIndex[i]].name) : k);
        },
        " AND ");

    sql += "MERGE INTO " + sparkName(t.name) + " AS t\nUSING (\n";
    if (!scd2) {
        sql += "  SELECT * FROM (\n" + batch + "  ) WHERE __rn = 1\n) AS s\nON " + on + "\n";
        sql += "WHEN MATCHED AND s.__is_delete THEN DELETE\n";
        std::string set;
        for (std::size_t i = 0; i < t.columns.size(); ++i)
            if (!t.isKey(i))
                set += (set.empty() ? "" : ", ") + std::string("t.") + name(i) + " = s." + name(i);
        if (!set.empty())
            sql += "WHEN MATCHED THEN UPDATE SET " + set + "\n";
        sql +=
            "WHEN NOT MATCHED AND NOT s.__is_delete THEN\n  INSERT (" + data + ") VALUES (" + values + ");\n";
        return sql;
    }
    // SCD 2, staged: every key once with its merge key to close the open version, and once more without one
    // (it never matches) to insert the new version of a key that has an open version to close.
    const std::string mergeKeys = join(t.keyIndex.size(), [&](std::size_t i) {
        const std::string k = t.columns[t.keyIndex[i]].name;
        return "b." + sparkName(k) + " AS " + sparkName("__merge_" + k);
    });
    const std::string nullKeys = join(t.keyIndex.size(), [&](std::size_t i) {
        return "NULL AS " + sparkName("__merge_" + t.columns[t.keyIndex[i]].name);
    });
    const std::string openJoin = join(
        t.keyIndex.size(),
        [&](std::size_t i) {
            const std::string k = name(static_cast<std::size_t>(t.keyIndex[i]));
            return "h." + k + " = b." + k;
        },
        " AND ");
    sql += "  WITH batch AS (\n    SELECT * FROM (\n" + batch + "    ) WHERE __rn = 1\n  )\n";
    sql += "  SELECT " + mergeKeys + ", b.* FROM batch AS b\n  UNION ALL\n";
    sql += "  SELECT " + nullKeys + ", b.* FROM batch AS b\n    JOIN " + sparkName(t.name) + " AS h ON " +
           openJoin + " AND h.__END_AT IS NULL\n    WHERE NOT b.__is_delete\n";
    sql += ") AS s\nON " + on + " AND t.__END_AT IS NULL\n";
    sql += "WHEN MATCHED THEN UPDATE SET t.__END_AT = s.__seq\n";
    sql += "WHEN NOT MATCHED AND NOT s.__is_delete THEN\n  INSERT (" + data +
           ", __START_AT, __END_AT)\n  VALUES (" + values + ", s.__seq, NULL);\n";
    return sql;
}

/// The scratch database's side: the MERGE's table and one batch at a time, named like the engine's internal
/// tables (c0.. data columns, so user names never need quoting here).
class ScratchMerge {
public:
    static Result<ScratchMerge> create(const TargetPlan& t) {
        auto db = Database::openMemory();
        if (!db)
            return db.error();
        ScratchMerge m(std::move(*db), t);
        const std::string data = join(t.columns.size(), col);
        std::string table = "CREATE TABLE merged(" + data;
        if (m.scd2())
            table += ", start_at, end_at)";
        else
            table += ", PRIMARY KEY(" + keyList(t.keyIndex) + "))";
        CDC_TRY(m.m_db.exec(table));
        CDC_TRY(m.m_db.exec("CREATE TABLE batch(rid, op, s, sv, " + data + ")"));
        return m;
    }

    /// Loads one batch (rid, op, s, sv, c0..) read from the project; truncates are left out.
    Result<std::size_t> load(const Database& project, const std::string& batchSql) {
        CDC_TRY(m_db.exec("DELETE FROM batch"));
        const std::string data = join(m_table.columns.size(), col);
        auto read =
            project.prepare("SELECT rid, op, s, sv, " + data + " FROM " + batchSql + " WHERE op <> 2");
        if (!read)
            return read.error();
        auto insert =
            m_db.prepare("INSERT INTO batch VALUES (" + placeholders(4 + m_table.columns.size()) + ")");
        if (!insert)
            return insert.error();
        std::size_t rows = 0;
        Status written = Status::success();
        CDC_TRY(read->forEachRow([&](storage::Statement& st) {
            insert->reset();
            for (int c = 0; c < st.columnCount(); ++c)
                insert->bind(c + 1, st.value(c));
            ++rows;
            written = insert->run();
            return written.ok();
        }));
        CDC_TRY(written);
        return rows;
    }

    /// The MERGE's clauses over the loaded batch, as SQLite statements with the same effect.
    Status apply() {
        // The batch's latest row per key; equal sequences: the last to arrive.
        const std::string latest = "(SELECT * FROM (SELECT *, row_number() OVER (PARTITION BY " +
                                   keyList(m_table.keyIndex) +
                                   " ORDER BY s DESC, rid DESC) AS rn FROM batch) WHERE rn = 1)";
        const std::string keys = "(" + keyList(m_table.keyIndex) + ")";
        const std::string data = join(m_table.columns.size(), col);
        if (scd2()) {
            // WHEN MATCHED (the open version of every key in the batch) THEN UPDATE SET __END_AT = sequence
            CDC_TRY(m_db.exec("UPDATE merged SET end_at = l.sv FROM " + latest +
                              " AS l WHERE merged.end_at IS NULL AND " +
                              keyJoin(m_table.keyIndex, "merged", "l")));
            // WHEN NOT MATCHED AND NOT delete THEN INSERT the new version
            return m_db.exec("INSERT INTO merged SELECT " + data + ", sv, NULL FROM " + latest +
                             " WHERE op = 0");
        }
        // WHEN MATCHED AND delete THEN DELETE
        CDC_TRY(m_db.exec("DELETE FROM merged WHERE " + keys + " IN (SELECT " + keyList(m_table.keyIndex) +
                          " FROM " + latest + " WHERE op = 1)"));
        // WHEN MATCHED THEN UPDATE SET ... / WHEN NOT MATCHED AND NOT delete THEN INSERT
        std::string set;
        for (std::size_t i = 0; i < m_table.columns.size(); ++i)
            if (!m_table.isKey(i))
                set += (set.empty() ? "" : ", ") + col(i) + " = excluded." + col(i);
        return m_db.exec("INSERT INTO merged SELECT " + data + " FROM " + latest +
                         " WHERE op = 0 ON CONFLICT" + keys +
                         (set.empty() ? " DO NOTHING" : " DO UPDATE SET " + set));
    }

    Status clear() { return m_db.exec("DELETE FROM merged"); }

    Result<std::vector<Row>> rows() const { return readRows(m_db, "SELECT * FROM merged"); }

    static Result<std::vector<Row>> readRows(const Database& db, const std::string& sql) {
        auto st = db.prepare(sql);
        if (!st)
            return st.error();
        std::vector<Row> out;
        CDC_TRY(st->forEachRow([&](storage::Statement& s) { out.push_back(s.row()); }));
        return out;
    }

private:
    ScratchMerge(Database db, const TargetPlan& t) : m_db(std::move(db)), m_table(t) {}
    bool scd2() const { return m_table.scdType == pipeline::ScdType::Type2; }

    Database m_db;
    const TargetPlan& m_table;
};

/// The last position each input of a flow had consumed by an update, when the flow ran in it.
Result<std::optional<std::int64_t>> checkpointAt(const Database& project, const std::string& flow,
                                                 const std::string& input, std::int64_t update) {
    auto st = project.prepare(
        "SELECT last_rowid FROM __cdc_checkpoints WHERE flow = ?1 AND input = ?2 AND update_id = ?3");
    if (!st)
        return st.error();
    st->bind(1, std::string_view(flow)).bind(2, std::string_view(input)).bind(3, update);
    auto has = st->step();
    if (!has)
        return has.error();
    return has.value() ? std::optional<std::int64_t>(st->int64(0)) : std::nullopt;
}

bool hasObject(const Database& db, const std::string& name) {
    auto n = scalar(db, "SELECT count(*) FROM sqlite_schema WHERE name = ?1", {name});
    return n && n.value() > 0;
}

/// Replays every delivered update's batches of the target's flows through the MERGE.
Status replay(const Database& project, const std::vector<const FlowPlan*>& flows, ScratchMerge& merge,
              MergeComparison& c) {
    if (!hasObject(project, "__cdc_updates") || !hasObject(project, "__cdc_checkpoints"))
        return Status::success(); // no update ran: both tables are empty
    auto updates = ScratchMerge::readRows(
        project, "SELECT update_id, full_refresh FROM __cdc_updates ORDER BY update_id");
    if (!updates)
        return updates.error();
    std::map<std::pair<std::size_t, std::size_t>, std::int64_t> consumed; // (flow, input) -> last position
    for (const Row& u : updates.value()) {
        const auto update = std::get<std::int64_t>(u[0]);
        if (compareValues(u[1], Value(std::int64_t(0))) != 0) { // a full refresh starts from nothing
            CDC_TRY(merge.clear());
            consumed.clear();
        }
        bool delivered = false;
        for (std::size_t fi = 0; fi < flows.size(); ++fi) {
            const FlowPlan& f = *flows[fi];
            InputRanges ranges;
            bool ran = !f.inputs.empty(), anyNew = false;
            for (std::size_t i = 0; i < f.inputs.size() && ran; ++i) {
                auto last = checkpointAt(project, f.name, f.inputs[i].catalogName, update);
                if (!last)
                    return last.error();
                ran = last->has_value();
                if (!ran)
                    break;
                const std::int64_t lo = consumed[{fi, i}];
                ranges.emplace_back(lo, std::max(lo, **last));
                anyNew = anyNew || **last > lo;
            }
            if (!ran || !anyNew)
                continue;
            for (std::size_t i = 0; i < ranges.size(); ++i)
                consumed[{fi, i}] = ranges[i].second;
            auto rows = merge.load(project, batchSql(f, bindInputRanges(f.fromTemplate, ranges)));
            if (!rows)
                return rows.error();
            c.events += rows.value();
            delivered = true;
            CDC_TRY(merge.apply());
        }
        c.updates += delivered ? 1 : 0;
    }
    return Status::success();
}

int compareRows(const Row& a, const Row& b, const std::vector<std::size_t>& columns) {
    for (std::size_t i : columns)
        if (int d = compareValues(a[i], b[i]))
            return d;
    return 0;
}

/// Pairs the sorted tables' rows by the match columns and lists what differs.
void diff(MergeComparison& c) {
    const auto byMatch = [&](const Row& a, const Row& b) {
        if (int d = compareRows(a, b, c.matchColumns))
            return d < 0;
        return std::lexicographical_compare(
            a.begin(), a.end(), b.begin(), b.end(),
            [](const Value& x, const Value& y) { return compareValues(x, y) < 0; });
    };
    std::sort(c.merge.begin(), c.merge.end(), byMatch);
    std::sort(c.autoCdc.begin(), c.autoCdc.end(), byMatch);
    std::size_t m = 0, a = 0;
    while (m < c.merge.size() || a < c.autoCdc.size()) {
        const int d = m == c.merge.size()     ? 1
                      : a == c.autoCdc.size() ? -1
                                              : compareRows(c.merge[m], c.autoCdc[a], c.matchColumns);
        RowDifference r;
        if (d < 0) {
            r.mergeRow = m++;
        } else if (d > 0) {
            r.autoCdcRow = a++;
        } else {
            for (std::size_t i = 0; i < c.columns.size(); ++i)
                if (!sameValue(c.merge[m][i], c.autoCdc[a][i]))
                    r.cells.push_back(i);
            r.mergeRow = m++;
            r.autoCdcRow = a++;
            if (r.cells.empty())
                continue;
        }
        c.differences.push_back(std::move(r));
    }
}

std::string rowText(const MergeComparison& c, const Row& row) {
    return "(" + join(row.size(), [&](std::size_t i) { return displayValue(row[i], c.types[i]); }) + ")";
}

std::string plural(std::size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

} // namespace

std::vector<std::string> mergeComparableTargets(const pipeline::Pipeline& pipeline) {
    std::vector<std::string> out;
    for (const auto& f : pipeline.cdcFlows)
        if (!f.fromSnapshot && std::none_of(out.begin(), out.end(), [&](const std::string& n) {
                return equalsIgnoreCase(n, f.target.name);
            }))
            out.push_back(f.target.name);
    return out;
}

Result<MergeComparison> compareWithMerge(const Database& project, const pipeline::Pipeline& pipeline,
                                         const std::string& target) {
    // The batch SQL encodes sequences with the engine's functions, as runUpdate registers them.
    if (!project.prepare("SELECT cdc_seq_key(0), cdc_ts_key(0)"))
        registerSequenceFunctions(project.handle());
    auto plan = planPipeline(project, pipeline);
    if (!plan)
        return plan.error();
    const auto& targets = plan->targets;
    const auto it = std::find_if(targets.begin(), targets.end(), [&](const TargetPlan& t) {
        return t.autoCdc() && equalsIgnoreCase(t.name, target);
    });
    std::vector<const FlowPlan*> flows;
    for (const FlowPlan& f : plan->flows)
        if (it != targets.end() && f.target == static_cast<std::size_t>(it - targets.begin()))
            flows.push_back(&f);
    if (flows.empty())
        return Diagnostic::error("NO_SUCH_TARGET",
                                 "'" + target + "' is not an AUTO CDC target of the pipeline");
    const TargetPlan& t = *it;
    MergeComparison c;
    c.target = t.name;
    c.scd2 = t.scdType == pipeline::ScdType::Type2;
    for (const FlowPlan* f : flows) {
        if (f->snapshot)
            return Diagnostic::error("UNSUPPORTED",
                                     "flow '" + f->name +
                                         "' reads snapshots: a MERGE of a change feed does not apply",
                                     f->flow->location);
        c.sql += (c.sql.empty() ? "" : "\n") + mergeSql(*f, t);
    }
    for (const auto& column : t.publicColumns()) {
        c.columns.push_back(column.name);
        c.types.push_back(column.type);
    }
    for (int k : t.keyIndex)
        c.matchColumns.push_back(static_cast<std::size_t>(k));
    if (c.scd2)
        c.matchColumns.push_back(t.columns.size()); // __START_AT

    auto merge = ScratchMerge::create(t);
    if (!merge)
        return merge.error();
    CDC_TRY(replay(project, flows, *merge, c));
    auto merged = merge->rows();
    if (!merged)
        return merged.error();
    c.merge = std::move(merged.value());
    if (hasObject(project, t.tables.view)) {
        auto stored = ScratchMerge::readRows(project, "SELECT * FROM " + quoteIdentifier(t.tables.view));
        if (!stored)
            return stored.error();
        c.autoCdc = std::move(stored.value());
    }
    diff(c);
    return c;
}

std::string MergeComparison::summary() const {
    if (differences.empty())
        return "MERGE gives the same table as AUTO CDC for " + target + " (" +
               plural(autoCdc.size(), "row", "rows") + ")";
    std::size_t onlyMerge = 0, onlyAuto = 0, cells = 0;
    for (const auto& d : differences) {
        onlyMerge += d.mergeRow && !d.autoCdcRow;
        onlyAuto += d.autoCdcRow && !d.mergeRow;
        cells += d.mergeRow && d.autoCdcRow;
    }
    std::vector<std::string> parts;
    if (onlyMerge)
        parts.push_back(std::to_string(onlyMerge) + " only in MERGE");
    if (onlyAuto)
        parts.push_back(std::to_string(onlyAuto) + " only in AUTO CDC");
    if (cells)
        parts.push_back(std::to_string(cells) + " with different cells");
    return "MERGE differs from AUTO CDC in " + plural(differences.size(), "row", "rows") + " of " + target +
           ": " + join(parts.size(), [&](std::size_t i) { return parts[i]; });
}

std::string MergeComparison::describe(const RowDifference& d) const {
    const Row& row = d.mergeRow ? merge[*d.mergeRow] : autoCdc[*d.autoCdcRow];
    std::string out = join(matchColumns.size(), [&](std::size_t i) {
        return columns[matchColumns[i]] + "=" + displayValue(row[matchColumns[i]], types[matchColumns[i]]);
    });
    if (!d.autoCdcRow)
        return out + ": only in MERGE " + rowText(*this, row);
    if (!d.mergeRow)
        return out + ": only in AUTO CDC " + rowText(*this, row);
    return out + ": " +
           join(
               d.cells.size(),
               [&](std::size_t i) {
                   const std::size_t cell = d.cells[i];
                   return columns[cell] + " is " + displayValue(merge[*d.mergeRow][cell], types[cell]) +
                          " in MERGE, " + displayValue(autoCdc[*d.autoCdcRow][cell], types[cell]) +
                          " in AUTO CDC";
               },
               "; ");
}

std::string comparisonText(const MergeComparison& c) {
    std::string out = c.summary() + " (" + plural(static_cast<std::size_t>(c.updates), "update", "updates") +
                      " replayed, " + plural(c.events, "event", "events") + ")\n";
    for (const auto& d : c.differences)
        out += "  " + c.describe(d) + "\n";
    const auto table = [&](const char* title, const std::vector<Row>& rows) {
        ResultSet rs{c.columns, c.types, rows};
        return std::string("\n") + title + ":\n" + toTable(rs);
    };
    return out + table("AUTO CDC", c.autoCdc) + table("MERGE", c.merge);
}

} // namespace cdc::engine
