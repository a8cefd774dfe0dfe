#include "core/engine/FlowPlan.h"

#include "core/common/Text.h"
#include "core/engine/ApplierSupport.h"
#include "core/engine/DatasetOrder.h"
#include "core/engine/DatasetPlanner.h"
#include "core/engine/SequenceCodec.h"
#include "core/engine/SourceResolver.h"
#include "core/engine/SqlText.h"
#include "core/engine/TargetStore.h"

#include <sqlite3.h>

#include <algorithm>
#include <charconv>
#include <set>

namespace cdc::engine {

using pipeline::AutoCdcFlow;
using pipeline::ColumnSelection;
using pipeline::Identifier;
using pipeline::ScdType;
using sqltext::replaceAll;
using storage::ColumnInfo;
using storage::quoteIdentifier;

namespace {

Diagnostic unknownColumn(const std::string& what, const Identifier& id, const std::vector<ColumnInfo>& cols) {
    std::string names;
    for (const auto& c : cols)
        names += (names.empty() ? "" : ", ") + c.name;
    return Diagnostic::error("UNKNOWN_COLUMN",
                             what + " column '" + id.name +
                                 "' does not exist in the source (columns: " + names + ")",
                             id.location);
}

bool truthy(const std::string& v) {
    return equalsIgnoreCase(v, "true") || v == "1";
}

std::optional<std::string> property(const std::map<std::string, std::string>& props, std::string_view key) {
    for (const auto& [k, v] : props)
        if (equalsIgnoreCase(k, key))
            return v;
    return std::nullopt;
}

DataType probeType(const storage::Database& db, const ResolvedSource& src, const std::string& exprSql) {
    const std::string from = closedFrom(src.probeTemplate, src.inputs.size());
    auto st = db.prepare("SELECT typeof(" + exprSql + ") FROM " + from + " AS __src WHERE (" + exprSql +
                         ") IS NOT NULL LIMIT 1");
    if (st && st->step().ok() && st->columnCount() > 0) {
        std::string t = st->text(0);
        if (t == "real")
            return DataType::of(DataType::Kind::Double);
        if (t == "text")
            return DataType::of(DataType::Kind::String);
    }
    return DataType::of(DataType::Kind::BigInt);
}

class FlowPlanner {
public:
    FlowPlanner(const storage::Database& db, const pipeline::Pipeline& p, PipelinePlan& plan)
        : m_db(db), m_pipeline(p), m_plan(plan), m_resolver(db, p, plan) {}

    Status plan(const AutoCdcFlow& f) {
        const pipeline::StreamingTable* table = m_pipeline.findTable(f.target.name);
        if (!table)
            return Diagnostic::error("UNKNOWN_TARGET",
                                     "target '" + f.target.name +
                                         "' is not declared; add CREATE OR REFRESH STREAMING TABLE " +
                                         f.target.name,
                                     f.target.location);
        auto src = f.fromSnapshot ? resolveSnapshot(f) : resolveSource(f);
        if (!src)
            return src.error();
        const auto& cols = src->columns;

        FlowPlan fp;
        fp.flow = &f;
        fp.name = f.name.name.empty() ? f.target.name : f.name.name;
        fp.once = f.once;
        fp.inputs = src->inputs;
        fp.fromTemplate = src->fromTemplate;
        fp.rowIdSql = src->hasRowId ? "__cdc_rowid" : "row_number() OVER ()";

        TargetPlan t;
        t.name = table->name.name;
        t.tables = storage::TargetTables(t.name);
        t.scdType = f.scdType;
        t.properties = table->properties;
        auto threshold = gcThreshold(table->properties, table->location);
        if (!threshold)
            return threshold.error();
        t.gcThresholdSeconds = threshold.value();
        auto skip = property(table->properties, "pipelines.cdc.skipChangeCommits");
        if (!skip)
            skip = property(table->properties, "skipChangeCommits");
        t.skipChangeCommits = skip && truthy(*skip);
        t.location = table->location;

        CDC_TRY(checkOptionCombinations(f));
        auto keySource = keyColumns(f, cols);
        if (!keySource)
            return keySource.error();
        if (f.fromSnapshot)
            CDC_TRY(planSnapshotVersion(f, *src, t, fp));
        else
            CDC_TRY(planSequence(f, *src, cols, t, fp));
        CDC_TRY(selectColumns(f, cols, *keySource, t, fp));
        CDC_TRY(planTrackHistory(f, cols, t));
        CDC_TRY(checkDeclaredSchema(f, table, t, fp));
        CDC_TRY(planIgnoreNullUpdates(f, t, fp));
        CDC_TRY(planColumnsToUpdate(f, cols, fp));
        CDC_TRY(checkWidth(f, t, fp));
        planEventClasses(f, fp);
        if (!f.fromSnapshot)
            CDC_TRY(checkExpressionsCompile(f, *src));

        return addTarget(std::move(t), fp, f);
    }

private:
    /// FROM source: a table read with STREAM incrementally, without it in full; a view as its query reads.
    /// Only ONCE flows may read no stream (semantics.md §11.5; Spark's pipelines reject a batch query
    /// into a streaming table: INVALID_FLOW_QUERY_TYPE.BATCH_RELATION_FOR_STREAMING_TABLE in
    /// GraphValidations.validateFlowStreamingness).
    Result<ResolvedSource> resolveSource(const AutoCdcFlow& f) {
        auto src = m_resolver.resolve(f.source);
        if (!src)
            return src;
        const pipeline::View* view = m_pipeline.findView(f.source.name);
        if (!f.source.stream && !(view && !view->materialized)) {
            src->fromTemplate = closedFrom(src->fromTemplate, src->inputs.size());
            src->probeTemplate = closedFrom(src->probeTemplate, src->inputs.size());
            src->inputs.clear();
        }
        if (!f.once && src->inputs.empty())
            return Diagnostic::error("INVALID_FLOW_QUERY_TYPE.BATCH_RELATION_FOR_STREAMING_TABLE",
                                     "flow '" + (f.name.name.empty() ? f.target.name : f.name.name) +
                                         "' reads '" + f.source.name +
                                         "' as a batch; AUTO CDC reads a stream: write STREAM(" +
                                         f.source.name + "), or AUTO CDC ONCE for a one-time backfill",
                                     f.source.location);
        return src;
    }

    /// FROM SNAPSHOT: the snapshot query (the whole table or view for `FROM SNAPSHOT name`) as the source;
    /// it reads no stream, so it has no inputs and every read takes the current content.
    Result<ResolvedSource> resolveSnapshot(const AutoCdcFlow& f) {
        if (!f.snapshotQuery)
            return Diagnostic::error("MISSING_SNAPSHOT", "FROM SNAPSHOT needs a source", f.location);
        return m_resolver.resolveQuery(*f.snapshotQuery, "the FROM SNAPSHOT query", f.snapshotQuery->location,
                                       0, SnapshotScope::SnapshotQuery);
    }

    /// The snapshot version is the sequence (§7.1): the version query's one column, or for periodic
    /// snapshots the update's time (§7.2: "the ingestion time is used as the snapshot version").
    Status planSnapshotVersion(const AutoCdcFlow& f, const ResolvedSource& src, TargetPlan& t, FlowPlan& fp) {
        SnapshotSource snap;
        snap.querySql = closedFrom(src.fromTemplate, src.inputs.size());
        t.sequenceType = DataType::of(DataType::Kind::Timestamp);
        if (f.versionQuery) {
            auto versions = m_resolver.resolveQuery(*f.versionQuery, "the WITH VERSION query",
                                                    f.versionQuery->location, 0, SnapshotScope::VersionQuery);
            if (!versions)
                return versions.error();
            if (versions->columns.size() != 1)
                return Diagnostic::error("APPLY_CHANGES_FROM_SNAPSHOT_ERROR.INVALID_SNAPSHOT_VERSION",
                                         "the WITH VERSION query must return one column, the version; it "
                                         "returns " +
                                             std::to_string(versions->columns.size()),
                                         f.versionQuery->location);
            snap.versionSql = closedFrom(versions->fromTemplate, versions->inputs.size());
            t.sequenceType = versions->columns[0].type;
            if (t.sequenceType.kind == DataType::Kind::String) // not a base table's column, or text
                t.sequenceType = probeVersionType(snap.versionSql);
            if (!t.sequenceType.isOrderable())
                return Diagnostic::error("APPLY_CHANGES_FROM_SNAPSHOT_ERROR.SNAPSHOT_VERSION_NOT_SORTABLE",
                                         "snapshot versions of type " + t.sequenceType.toString() +
                                             " cannot be ordered",
                                         f.versionQuery->location);
        }
        const std::string slot(kSnapshotVersionSlot);
        fp.sequenceKeySql = encodeFieldSql(slot, t.sequenceType);
        if (t.sequenceType.kind == DataType::Kind::Struct) {
            // A STRUCT version (`struct(modification_time, path)`, semantics.md §7.2) orders field by
            // field, as a STRUCT sequence does (§6.2).
            std::vector<std::string> fields;
            for (const std::string& name : t.sequenceType.fieldNames)
                fields.push_back("json_extract(" + slot + ", " + storage::quoteString("$.\"" + name + "\"") +
                                 ")");
            fp.sequenceKeySql = encodeSequenceSql(fields, t.sequenceType.children, true);
        }
        fp.sequenceValueSql = "(" + slot + ")";
        fp.sequenceNullSql = "0";
        if (!f.snapshotFunction.empty()) {
            // The queries described the first snapshot; each offered one is resolved the same way.
            snap.function = f.snapshotFunction;
            // The plan is being built (and is moved after), so an offer resolves against no pipeline
            // datasets: a snapshot function's DataFrame reads source tables and files.
            snap.resolveOffer = [db = &m_db,
                                 p = &m_pipeline](const pipeline::Query& q) -> Result<std::string> {
                static const PipelinePlan kNoDatasets;
                SourceResolver resolver(*db, *p, kNoDatasets);
                auto rows = resolver.resolveQuery(q, "the snapshot function's DataFrame", q.location, 0,
                                                  SnapshotScope::SnapshotQuery);
                if (!rows)
                    return rows.error();
                return closedFrom(rows->fromTemplate, rows->inputs.size());
            };
        }
        fp.snapshot = std::move(snap);
        return Status::success();
    }

    /// A version column computed by an expression: typed by the values it gives now.
    DataType probeVersionType(const std::string& versionSql) const {
        const std::string sql =
            replaceAll(versionSql, std::string(kLastVersionSlot), "(SELECT NULL AS version WHERE 0)");
        auto st = m_db.prepare("WITH __v(v) AS (SELECT * FROM " + sql +
                               ") SELECT typeof(v) FROM __v WHERE v IS NOT NULL LIMIT 1");
        if (st && st->step().ok() && st->columnCount() > 0) {
            const std::string type = st->text(0);
            if (type == "integer")
                return DataType::of(DataType::Kind::BigInt);
            if (type == "real")
                return DataType::of(DataType::Kind::Double);
            if (type == "text")
                if (auto fields = structFields(sql))
                    return *fields;
        }
        return DataType::of(DataType::Kind::String);
    }

    /// A version that is a JSON object (a struct) typed field by field from its first value: numbers as
    /// BIGINT / DOUBLE, text that reads as a timestamp as TIMESTAMP, other text as STRING.
    std::optional<DataType> structFields(const std::string& versionSql) const {
        auto st = m_db.prepare(
            "WITH __v(v) AS (SELECT * FROM " + versionSql +
            ") SELECT f.key, f.type, f.value GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9] "
            "[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*' FROM (SELECT v FROM __v WHERE v IS NOT NULL "
            "AND json_valid(v) AND json_type(v) = 'object' LIMIT 1) AS first, json_each(first.v) "
            "AS f ORDER BY f.id");
        if (!st)
            return std::nullopt;
        std::vector<std::string> names;
        std::vector<DataType> types;
        auto read = st->forEachRow([&](const storage::Statement& r) {
            names.push_back(r.text(0));
            const std::string type = r.text(1);
            types.push_back(DataType::of(type == "integer" ? DataType::Kind::BigInt
                                         : type == "real"  ? DataType::Kind::Double
                                         : r.int64(2) != 0 ? DataType::Kind::Timestamp
                                                           : DataType::Kind::String));
        });
        if (!read || names.empty())
            return std::nullopt;
        return DataType::structOf(std::move(names), std::move(types));
    }

    /// Option combinations that Databricks rejects at analysis time.
    static Status checkOptionCombinations(const AutoCdcFlow& f) {
        if (f.applyAsTruncate && f.scdType == ScdType::Type2)
            return Diagnostic::error(
                "TRUNCATE_WITH_SCD2",
                "APPLY AS TRUNCATE WHEN is supported only for SCD TYPE 1; SCD TYPE 2 does not "
                "support truncate operations",
                f.applyAsTruncate->location);
        if (f.trackHistory && f.scdType != ScdType::Type2)
            return Diagnostic::error("TRACK_HISTORY_WITH_SCD1",
                                     "TRACK HISTORY ON requires STORED AS SCD TYPE 2",
                                     f.trackHistory->location);
        if (f.columnsToUpdate && f.ignoreNullUpdates)
            return Diagnostic::error("COLUMNS_TO_UPDATE_WITH_IGNORE_NULL_UPDATES",
                                     "COLUMNS TO UPDATE cannot be combined with IGNORE NULL UPDATES",
                                     f.columnsToUpdate->location);
        return Status::success();
    }

    /// Keys: the source column of each.
    static Result<std::vector<int>> keyColumns(const AutoCdcFlow& f, const std::vector<ColumnInfo>& cols) {
        std::vector<int> keySource;
        for (const Identifier& k : f.keys) {
            int i = indexOfColumn(cols, k.name);
            if (i < 0)
                return unknownColumn("KEYS", k, cols);
            keySource.push_back(i);
        }
        if (f.keys.empty())
            return Diagnostic::error("MISSING_KEYS", "KEYS must name at least one column", f.location);
        return keySource;
    }

    /// Sequence: its type, and the SQL that orders, shows and null-checks it.
    Status planSequence(const AutoCdcFlow& f, const ResolvedSource& src, const std::vector<ColumnInfo>& cols,
                        TargetPlan& t, FlowPlan& fp) const {
        std::vector<std::string> seqSql, seqNames;
        std::vector<DataType> seqTypes;
        for (std::size_t i = 0; i < f.sequenceBy.size(); ++i) {
            const auto& e = f.sequenceBy[i];
            DataType type;
            if (e.columnName) {
                int c = indexOfColumn(cols, *e.columnName);
                if (c < 0)
                    return unknownColumn("SEQUENCE BY", Identifier{*e.columnName, e.location}, cols);
                type = cols[static_cast<std::size_t>(c)].type;
            } else {
                type = probeType(m_db, src, e.sqlite);
            }
            if (!type.isOrderable())
                return Diagnostic::error(
                    "AUTOCDC_MICROBATCH_VALIDATION.NON_ORDERABLE_SEQUENCE",
                    "The sequencing column has non-orderable type " + type.toString() +
                        ". The sequencing column must be of a type that supports ordering.",
                    e.location);
            seqSql.push_back(e.sqlite);
            seqTypes.push_back(type);
            seqNames.push_back(i < f.sequenceFieldNames.size() ? f.sequenceFieldNames[i]
                                                               : "col" + std::to_string(i + 1));
        }
        if (seqSql.empty())
            return Diagnostic::error("MISSING_SEQUENCE", "SEQUENCE BY is required", f.location);
        t.sequenceType = f.sequenceIsStruct ? DataType::structOf(seqNames, seqTypes) : seqTypes[0];
        fp.sequenceKeySql = encodeSequenceSql(seqSql, seqTypes, f.sequenceIsStruct);
        fp.sequenceValueSql = displaySequenceSql(seqSql, seqNames, f.sequenceIsStruct);
        fp.sequenceNullSql = f.sequenceIsStruct ? "0" : "((" + seqSql[0] + ") IS NULL)";
        return Status::success();
    }

    /// Column selection: source order for All / Except, list order for Only.
    static Status selectColumns(const AutoCdcFlow& f, const std::vector<ColumnInfo>& cols,
                                const std::vector<int>& keySource, TargetPlan& t, FlowPlan& fp) {
        std::vector<int> selected;
        if (f.columns.mode == ColumnSelection::Mode::Only) {
            for (const Identifier& c : f.columns.columns) {
                int i = indexOfColumn(cols, c.name);
                if (i < 0)
                    return unknownColumn("COLUMNS", c, cols);
                if (std::find(selected.begin(), selected.end(), i) == selected.end())
                    selected.push_back(i);
            }
        } else {
            std::set<int> excluded;
            for (const Identifier& c : f.columns.columns) {
                int i = indexOfColumn(cols, c.name);
                if (i < 0)
                    return unknownColumn("COLUMNS * EXCEPT", c, cols);
                excluded.insert(i);
            }
            for (int i = 0; i < static_cast<int>(cols.size()); ++i)
                if (!excluded.count(i))
                    selected.push_back(i);
        }
        for (std::size_t k = 0; k < keySource.size(); ++k) {
            auto it = std::find(selected.begin(), selected.end(), keySource[k]);
            if (it == selected.end())
                return Diagnostic::error("KEY_NOT_SELECTED",
                                         "key column '" + f.keys[k].name +
                                             "' must be kept in the target by COLUMNS",
                                         f.keys[k].location);
            t.keyIndex.push_back(static_cast<int>(it - selected.begin()));
        }
        for (int i : selected) {
            const ColumnInfo& c = cols[static_cast<std::size_t>(i)];
            if (f.scdType == ScdType::Type2 &&
                (equalsIgnoreCase(c.name, "__START_AT") || equalsIgnoreCase(c.name, "__END_AT")))
                return Diagnostic::error(
                    "RESERVED_COLUMN",
                    "the source column '" + c.name +
                        "' collides with the SCD TYPE 2 version columns; exclude it with COLUMNS * EXCEPT",
                    f.columns.location.valid() ? f.columns.location : f.location);
            t.columns.push_back(c);
            fp.columnSql.push_back(quoteIdentifier(c.name));
        }
        return Status::success();
    }

    /// TRACK HISTORY ON: which target columns start a new SCD TYPE 2 version when they change.
    Status planTrackHistory(const AutoCdcFlow& f, const std::vector<ColumnInfo>& cols, TargetPlan& t) {
        t.tracked.assign(t.columns.size(), true);
        if (f.trackHistory) {
            const ColumnSelection& th = *f.trackHistory;
            std::vector<bool> named(t.columns.size(), false);
            for (const Identifier& c : th.columns) {
                int i = indexOfColumn(t.columns, c.name);
                if (i >= 0) {
                    named[static_cast<std::size_t>(i)] = true;
                } else if (th.mode == ColumnSelection::Mode::Except && indexOfColumn(cols, c.name) >= 0) {
                    m_plan.warnings.push_back(
                        Diagnostic::warning("TRACK_HISTORY_UNSELECTED",
                                            "TRACK HISTORY ON * EXCEPT names '" + c.name +
                                                "', which is not a target column; it has no effect",
                                            c.location));
                } else {
                    return Diagnostic::error(
                        "UNKNOWN_COLUMN",
                        "TRACK HISTORY ON column '" + c.name + "' is not a column of the target", c.location);
                }
            }
            for (std::size_t i = 0; i < t.columns.size(); ++i)
                t.tracked[i] = th.mode == ColumnSelection::Mode::Only     ? named[i]
                               : th.mode == ColumnSelection::Mode::Except ? !named[i]
                                                                          : true;
        }
        return Status::success();
    }

    /// An explicit schema (CREATE STREAMING TABLE t (cols...)) must describe what the flow produces.
    static Status checkDeclaredSchema(const AutoCdcFlow& f, const pipeline::StreamingTable* table,
                                      const TargetPlan& t, const FlowPlan& fp) {
        if (!table->schema.empty()) {
            std::vector<bool> declared(t.columns.size(), false);
            bool start = false, end = false;
            for (const pipeline::ColumnSpec& c : table->schema) {
                const bool version =
                    equalsIgnoreCase(c.name, "__START_AT") || equalsIgnoreCase(c.name, "__END_AT");
                if (version && f.scdType == ScdType::Type2) {
                    if (c.type.toString() != t.sequenceType.toString())
                        return Diagnostic::error("SCHEMA_MISMATCH",
                                                 "column " + c.name + " must have the sequence type " +
                                                     t.sequenceType.toString() + ", not " + c.type.toString(),
                                                 c.location);
                    (equalsIgnoreCase(c.name, "__START_AT") ? start : end) = true;
                    continue;
                }
                int i = indexOfColumn(t.columns, c.name);
                if (i < 0)
                    return Diagnostic::error("SCHEMA_MISMATCH",
                                             "column '" + c.name + "' of " + t.name +
                                                 "'s declared schema is not produced by flow '" + fp.name +
                                                 "'",
                                             c.location);
                declared[static_cast<std::size_t>(i)] = true;
            }
            for (std::size_t i = 0; i < declared.size(); ++i)
                if (!declared[i])
                    return Diagnostic::error("SCHEMA_MISMATCH",
                                             "flow '" + fp.name + "' produces column '" + t.columns[i].name +
                                                 "', which the declared schema of " + t.name + " lacks",
                                             table->location);
            if (f.scdType == ScdType::Type2 && !(start && end))
                return Diagnostic::error(
                    "SCHEMA_MISMATCH",
                    "an SCD TYPE 2 target with a declared schema must include __START_AT and "
                    "__END_AT of the sequence type " +
                        t.sequenceType.toString(),
                    table->location);
        }
        return Status::success();
    }

    /// IGNORE NULL UPDATES [ON ...]: the columns a NULL in an update leaves as they were (never a key).
    static Status planIgnoreNullUpdates(const AutoCdcFlow& f, const TargetPlan& t, FlowPlan& fp) {
        fp.ignoreNull.assign(t.columns.size(), false);
        if (f.ignoreNullUpdates) {
            const ColumnSelection& in = *f.ignoreNullUpdates;
            std::vector<bool> named(t.columns.size(), false);
            for (const Identifier& c : in.columns) {
                int i = indexOfColumn(t.columns, c.name);
                if (i < 0)
                    return Diagnostic::error("UNKNOWN_COLUMN",
                                             "IGNORE NULL UPDATES column '" + c.name +
                                                 "' is not a column of the target",
                                             c.location);
                named[static_cast<std::size_t>(i)] = true;
            }
            for (std::size_t i = 0; i < t.columns.size(); ++i)
                fp.ignoreNull[i] = in.mode == ColumnSelection::Mode::Only     ? named[i]
                                   : in.mode == ColumnSelection::Mode::Except ? !named[i]
                                                                              : true;
            for (int k : t.keyIndex)
                fp.ignoreNull[static_cast<std::size_t>(k)] = false;
        }
        return Status::success();
    }

    /// COLUMNS TO UPDATE: a source column holding the names of the columns an event sets.
    static Status planColumnsToUpdate(const AutoCdcFlow& f, const std::vector<ColumnInfo>& cols,
                                      FlowPlan& fp) {
        if (f.columnsToUpdate) {
            int i = indexOfColumn(cols, f.columnsToUpdate->name);
            if (i < 0)
                return unknownColumn("COLUMNS TO UPDATE", *f.columnsToUpdate, cols);
            const DataType& type = cols[static_cast<std::size_t>(i)].type;
            if (type.kind != DataType::Kind::Array && type.kind != DataType::Kind::String)
                return Diagnostic::error("COLUMNS_TO_UPDATE_TYPE",
                                         "COLUMNS TO UPDATE column '" + f.columnsToUpdate->name +
                                             "' must be an ARRAY<STRING> of column names, not " +
                                             type.toString(),
                                         f.columnsToUpdate->location);
            fp.columnsToUpdateSql = quoteIdentifier(cols[static_cast<std::size_t>(i)].name);
        }
        return Status::success();
    }

    /// SQLite bounds the columns of a row (SQLITE_MAX_COLUMN, 2000 unless built otherwise) and a target's
    /// storage is wider than the target (an SCD2 row holds an event and a version): a target too wide for
    /// it is refused at the flow, with the number it can have, not with SQLite's bare "too many columns".
    Status checkWidth(const AutoCdcFlow& f, const TargetPlan& t, const FlowPlan& fp) const {
        const bool partial = !supplySql(t, fp, "__cdc_ctu").empty();
        const auto limit = static_cast<std::size_t>(sqlite3_limit(m_db.handle(), SQLITE_LIMIT_COLUMN, -1));
        const std::size_t n = t.columns.size();
        if (store::rowWidth(t, n, partial) <= limit)
            return Status::success();
        std::size_t most = n;
        while (most > 0 && store::rowWidth(t, most, partial) > limit)
            --most;
        const std::string kind =
            t.scdType == ScdType::Type2 ? "an SCD type 2 target" : "an SCD type 1 target";
        return Diagnostic::error(
            "TOO_MANY_COLUMNS",
            "flow '" + (f.name.name.empty() ? t.name : f.name.name) + "' gives " + t.name + " " +
                std::to_string(n) + " columns, but " + kind +
                (partial && t.scdType == ScdType::Type2 ? " with IGNORE NULL UPDATES or COLUMNS TO UPDATE"
                                                        : "") +
                " can have at most " + std::to_string(most) + " in the simulator (its storage uses " +
                std::to_string(store::rowWidth(t, n, partial)) + " of the " + std::to_string(limit) +
                " columns SQLite allows in a row); keep fewer with COLUMNS (...) or COLUMNS * EXCEPT (...)",
            f.location);
    }

    /// Event classes. Only TRUE conditions count: NULL makes the event an upsert.
    static void planEventClasses(const AutoCdcFlow& f, FlowPlan& fp) {
        std::string op = "CASE";
        if (f.applyAsTruncate) {
            op += " WHEN (" + f.applyAsTruncate->sqlite + ") THEN 2";
            fp.hasTruncate = true;
        }
        if (f.applyAsDelete)
            op += " WHEN (" + f.applyAsDelete->sqlite + ") THEN 1";
        fp.operationSql = op == "CASE" ? "0" : op + " ELSE 0 END";
    }

    /// Every expression must compile against the source: report the clause, not a later SQLite error.
    Status checkExpressionsCompile(const AutoCdcFlow& f, const ResolvedSource& src) const {
        std::vector<const pipeline::Expression*> exprs;
        for (const auto& e : f.sequenceBy)
            exprs.push_back(&e);
        if (f.applyAsDelete)
            exprs.push_back(&*f.applyAsDelete);
        if (f.applyAsTruncate)
            exprs.push_back(&*f.applyAsTruncate);
        const std::string probeFrom = closedFrom(src.probeTemplate, src.inputs.size());
        for (const pipeline::Expression* e : exprs) {
            auto st = m_db.prepare("SELECT (" + e->sqlite + ") FROM " + probeFrom + " AS __src LIMIT 0");
            if (!st)
                return Diagnostic::error("INVALID_EXPRESSION",
                                         "cannot evaluate '" + e->sparkText +
                                             "' over the source: " + st.error().message,
                                         e->location);
        }
        return Status::success();
    }

    Status addTarget(TargetPlan t, FlowPlan& fp, const AutoCdcFlow& f) {
        for (std::size_t i = 0; i < m_plan.targets.size(); ++i) {
            if (!equalsIgnoreCase(m_plan.targets[i].name, t.name))
                continue;
            if (m_plan.targets[i].signature() != t.signature())
                return Diagnostic::error(
                    "INCOMPATIBLE_FLOWS",
                    "flow '" + fp.name + "' writes '" + t.name +
                        "' with different keys, columns, sequence type, SCD type or tracked "
                        "columns than flow into it declared before; all flows into one target "
                        "must agree",
                    f.location);
            fp.target = i;
            m_plan.flows.push_back(std::move(fp));
            return Status::success();
        }
        fp.target = m_plan.targets.size();
        m_plan.targets.push_back(std::move(t));
        m_plan.flows.push_back(std::move(fp));
        return Status::success();
    }

    const storage::Database& m_db;
    const pipeline::Pipeline& m_pipeline;
    PipelinePlan& m_plan;
    SourceResolver m_resolver;
};

} // namespace

Result<std::int64_t> gcThreshold(const std::map<std::string, std::string>& properties,
                                 const SourceLocation& where) {
    for (const char* key : {"pipelines.cdc.tombstoneGCThresholdInSeconds",
                            "pipelines.applyChanges.tombstoneGCThresholdInSeconds"})
        if (auto v = property(properties, key)) {
            std::int64_t seconds = 0;
            const char* end = v->data() + v->size();
            const auto [stop, error] = std::from_chars(v->data(), end, seconds);
            if (error != std::errc() || stop != end || seconds < 0)
                return Diagnostic::error("INVALID_PROPERTY",
                                         std::string(key) +
                                             " takes a whole number of seconds (0 or more), not '" + *v + "'",
                                         where);
            return seconds;
        }
    return kDefaultGcThresholdSeconds;
}

std::int64_t gcThresholdFrom(const std::map<std::string, std::string>& properties) {
    // Stored properties were checked when the target was planned; a file edited since falls back to the
    // default.
    auto seconds = gcThreshold(properties, {});
    return seconds ? seconds.value() : kDefaultGcThresholdSeconds;
}

std::string TargetPlan::signature() const {
    // store6: undo journal blobs, SCD2 events and versions in one table, a clustered change feed storing
    // its change type as a number and its commit timestamp once per update (in __cdc_updates).
    // Append targets and materialized views have no keys, sequence or history: their kind leads instead.
    std::string s =
        std::string(kStoreLayoutTag) +
        (kind == DatasetKind::Append             ? std::string("append")
         : kind == DatasetKind::MaterializedView ? std::string("mv")
                                                 : "scd" + std::to_string(static_cast<int>(scdType))) +
        ";seq=" + sequenceType.toString() + ";cols=";
    for (std::size_t i = 0; i < columns.size(); ++i)
        s += columns[i].name + ":" + columns[i].type.toString() + (tracked[i] ? "" : "~") + ",";
    s += ";keys=";
    for (int k : keyIndex)
        s += std::to_string(k) + ",";
    return s;
}

std::vector<ColumnInfo> TargetPlan::publicColumns() const {
    std::vector<ColumnInfo> out = columns;
    if (scdType == pipeline::ScdType::Type2) {
        out.push_back({"__START_AT", sequenceType});
        out.push_back({"__END_AT", sequenceType});
    }
    return out;
}

/// SQLite reads a double-quoted name that matches no column as a string literal; the translator quotes
/// every column reference, so while planning that fallback is switched off to surface unknown columns.
class StrictIdentifiers {
public:
    explicit StrictIdentifiers(sqlite3* db) : m_db(db) {
        sqlite3_db_config(m_db, SQLITE_DBCONFIG_DQS_DML, -1, &m_saved);
        sqlite3_db_config(m_db, SQLITE_DBCONFIG_DQS_DML, 0, nullptr);
    }
    ~StrictIdentifiers() { sqlite3_db_config(m_db, SQLITE_DBCONFIG_DQS_DML, m_saved, nullptr); }
    StrictIdentifiers(const StrictIdentifiers&) = delete;
    StrictIdentifiers& operator=(const StrictIdentifiers&) = delete;

private:
    sqlite3* m_db;
    int m_saved = 1;
};

std::uint64_t definitionHash(const PipelinePlan& plan, std::size_t target) {
    // FNV-1a over every part, each closed by a separator byte so that moved text changes the hash.
    std::uint64_t hash = 14695981039346656037ULL;
    const auto add = [&hash](std::string_view part) {
        for (unsigned char c : part)
            hash = (hash ^ c) * 1099511628211ULL;
        hash = (hash ^ 0x1F) * 1099511628211ULL;
    };
    for (const FlowPlan& f : plan.flows) {
        if (f.target != target)
            continue;
        add(f.name);
        add(f.fromTemplate);
        add(f.rowIdSql);
        for (const StreamInput& in : f.inputs)
            add(in.sqliteName);
        add(f.once ? "once" : "");
        for (const std::string& c : f.columnSql)
            add(c);
        add(f.sequenceKeySql);
        add(f.sequenceValueSql);
        add(f.sequenceNullSql);
        add(f.operationSql);
        std::string ignoreNull;
        for (bool b : f.ignoreNull)
            ignoreNull += b ? '1' : '0';
        add(ignoreNull);
        add(f.columnsToUpdateSql.value_or("*"));
        if (f.snapshot) {
            add(f.snapshot->querySql);
            add(f.snapshot->versionSql);
        }
    }
    for (const AppendFlowPlan& f : plan.appendFlows) {
        if (f.target != target)
            continue;
        add(f.name);
        add(f.fromTemplate);
        add(f.once ? "once" : "");
        for (const std::string& c : f.columnSql)
            add(c);
    }
    add(plan.targets[target].materializedSql);
    return hash;
}

/// A target fed by a FROM SNAPSHOT flow (semantics.md §7.1, §7.6, Part 1 #7): one such flow per target;
/// AUTO CDC flows may share it only on SCD TYPE 1 (the same keys and sequence type: addTarget compares the
/// signatures) and without IGNORE NULL UPDATES.
static Status checkSnapshotTargets(const PipelinePlan& plan) {
    for (std::size_t t = 0; t < plan.targets.size(); ++t) {
        const FlowPlan* snapshot = nullptr;
        for (const FlowPlan& f : plan.flows) {
            if (f.target != t || !f.snapshot)
                continue;
            if (snapshot)
                return Diagnostic::error("APPLY_CHANGES_FROM_SNAPSHOT_ERROR.MULTIPLE_QUERIES_FOR_TABLE",
                                         "'" + plan.targets[t].name +
                                             "' already has the FROM SNAPSHOT flow '" + snapshot->name +
                                             "'; a target takes at most one",
                                         f.flow->location);
            snapshot = &f;
        }
        if (!snapshot)
            continue;
        for (const FlowPlan& f : plan.flows) {
            if (f.target != t || f.snapshot)
                continue;
            if (plan.targets[t].scdType != ScdType::Type1)
                return Diagnostic::error("APPLY_CHANGES_FROM_SNAPSHOT_ERROR.INTEROP_SCD2_NOT_SUPPORTED",
                                         "flow '" + f.name + "' writes '" + plan.targets[t].name +
                                             "', which the FROM SNAPSHOT flow '" + snapshot->name +
                                             "' feeds; only SCD TYPE 1 targets combine both",
                                         f.flow->location);
            if (f.flow->ignoreNullUpdates)
                return Diagnostic::error("APPLY_CHANGES_FROM_SNAPSHOT_ERROR.INTEROP_IGNORE_NULL_UNSUPPORTED",
                                         "flow '" + f.name + "' shares '" + plan.targets[t].name +
                                             "' with a FROM SNAPSHOT flow: remove IGNORE NULL UPDATES",
                                         f.flow->ignoreNullUpdates->location.valid()
                                             ? f.flow->ignoreNullUpdates->location
                                             : f.flow->location);
        }
    }
    return Status::success();
}

Result<PipelinePlan> planPipeline(const storage::Database& db, const pipeline::Pipeline& pipeline) {
    StrictIdentifiers strict(db.handle());
    PipelinePlan plan;
    auto datasets = orderDatasets(pipeline);
    if (!datasets)
        return datasets.error();
    // Dependency order: a dataset's reads of the pipeline's other datasets resolve against their plans.
    for (const DeclaredDataset& d : datasets.value()) {
        if (d.kind == DatasetKind::Append) {
            CDC_TRY(planAppendTarget(db, pipeline, plan, d));
        } else if (d.kind == DatasetKind::MaterializedView) {
            CDC_TRY(planMaterializedView(db, pipeline, plan, d));
        } else {
            for (const AutoCdcFlow* f : d.cdcFlows) {
                FlowPlanner planner(db, pipeline, plan);
                CDC_TRY(planner.plan(*f));
            }
        }
    }
    // Flows into a table the pipeline does not declare are not in any dataset.
    for (const auto& f : pipeline.cdcFlows)
        if (!pipeline.findTable(f.target.name)) {
            FlowPlanner planner(db, pipeline, plan);
            CDC_TRY(planner.plan(f));
        }
    CDC_TRY(checkSnapshotTargets(plan));
    return plan;
}

std::string bindInputRanges(std::string fromTemplate, const InputRanges& ranges) {
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        fromTemplate = sqltext::replaceAll(fromTemplate, "{{LO:" + std::to_string(i) + "}}",
                                           std::to_string(ranges[i].first));
        fromTemplate = sqltext::replaceAll(fromTemplate, "{{HI:" + std::to_string(i) + "}}",
                                           std::to_string(ranges[i].second));
    }
    return fromTemplate;
}

std::string batchSql(const FlowPlan& f, const std::string& from) {
    std::string select = "SELECT " + f.rowIdSql + " AS rid, " + f.operationSql + " AS op, " +
                         f.sequenceKeySql + " AS s, " + f.sequenceValueSql + " AS sv";
    for (std::size_t i = 0; i < f.columnSql.size(); ++i)
        select += ", " + f.columnSql[i] + " AS " + sqltext::col(i);
    select += ", " + f.columnsToUpdateSql.value_or("NULL") + " AS ctu FROM " + from + " AS __src";
    return "(" + select + ")";
}

} // namespace cdc::engine
