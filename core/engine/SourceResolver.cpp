#include "core/engine/SourceResolver.h"

#include "core/common/Text.h"
#include "core/engine/ChangeFeedWriter.h"
#include "core/engine/SqlText.h"
#include "core/pipeline/OutputTypes.h"
#include "core/storage/FileTableFunctions.h"
#include "core/storage/StarExpansion.h"

#include <algorithm>
#include <map>

namespace cdc::engine {

using sqltext::join;
using sqltext::replaceAll;
using storage::ColumnInfo;
using storage::quoteIdentifier;

namespace {

constexpr const char* kEndOfTime = "9223372036854775807";

std::string streamItem(std::size_t input, const std::string& sqliteName) {
    const std::string i = std::to_string(input);
    return "(SELECT rowid AS __cdc_rowid, * FROM " + quoteIdentifier(sqliteName) +
           " WHERE rowid > {{LO:" + i + "}} AND rowid <= {{HI:" + i + "}})";
}

/// `current_snapshot_version()` / `last_snapshot_version()` as the translator names the relation, or "".
std::string snapshotFunction(const pipeline::RelationRef& ref) {
    for (const char* fn : {"current_snapshot_version", "last_snapshot_version"})
        if (equalsIgnoreCase(ref.name, std::string(fn) + "()"))
            return fn;
    return {};
}

/// An empty relation with these columns and their types' affinities: what a dataset that an update has not
/// created yet looks like to SQLite while a plan compiles.
std::string standIn(const std::vector<ColumnInfo>& cols, bool rowId) {
    std::string select = rowId ? "NULL AS __cdc_rowid" : "";
    for (const ColumnInfo& c : cols) {
        const std::string affinity = c.type.sqliteAffinity();
        select += (select.empty() ? "" : ", ") +
                  (affinity.empty() ? std::string("NULL") : "CAST(NULL AS " + affinity + ")") + " AS " +
                  quoteIdentifier(c.name);
    }
    return "(SELECT " + select + " LIMIT 0)";
}

/// The change feed's metadata columns as table_changes() shows them.
std::vector<ColumnInfo> changeFeedColumns() {
    return {{"_change_type", DataType::of(DataType::Kind::String)},
            {"_commit_version", DataType::of(DataType::Kind::BigInt)},
            {"_commit_timestamp", DataType::of(DataType::Kind::Timestamp)}};
}

const TargetPlan* plannedDataset(const PipelinePlan& plan, const std::string& name) {
    for (const TargetPlan& t : plan.targets)
        if (equalsIgnoreCase(t.name, name))
            return &t;
    return nullptr;
}

} // namespace

int indexOfColumn(const std::vector<ColumnInfo>& cols, std::string_view name) {
    for (std::size_t i = 0; i < cols.size(); ++i)
        if (equalsIgnoreCase(cols[i].name, name))
            return static_cast<int>(i);
    return -1;
}

std::string closedFrom(const std::string& fromTemplate, std::size_t inputs) {
    std::string from = fromTemplate;
    for (std::size_t i = 0; i < inputs; ++i) {
        from = replaceAll(from, "{{LO:" + std::to_string(i) + "}}", "0");
        from = replaceAll(from, "{{HI:" + std::to_string(i) + "}}", kEndOfTime);
    }
    return from;
}

Result<ResolvedSource> SourceResolver::resolveDataset(const pipeline::RelationRef& ref, const TargetPlan& t) {
    ResolvedSource out;
    out.columns = t.publicColumns();
    const bool feed = ref.changeFeed || (ref.stream && t.autoCdc());
    if (feed) // an AUTO CDC target's stream is its change feed, as table_changes() shows it
        for (const ColumnInfo& c : changeFeedColumns())
            out.columns.push_back(c);
    out.typed.assign(out.columns.size(), true);
    if (ref.changeFeed) {
        out.fromTemplate = quoteIdentifier(t.tables.changeFeed);
    } else if (!ref.stream) {
        out.fromTemplate = quoteIdentifier(t.tables.view);
    } else {
        if (t.kind == DatasetKind::MaterializedView)
            // Spark's pipelines read a materialized view only as a batch (GraphValidations.scala:
            // materialized views are not streaming sources).
            return Diagnostic::error("INVALID_FLOW_QUERY_TYPE.STREAMING_READ_OF_MATERIALIZED_VIEW",
                                     "materialized view '" + t.name +
                                         "' cannot be read with STREAM(): it is recomputed in full by every "
                                         "update; read it without STREAM",
                                     ref.location);
        const std::string position = "((_commit_version << 32) + __pos)";
        std::string columns = join(t.publicColumns().size(),
                                   [&](std::size_t i) { return quoteIdentifier(t.publicColumns()[i].name); });
        if (feed)
            columns += ", " + changeFeedMetadataSql();
        out.fromTemplate = "(SELECT " + position + " AS __cdc_rowid, " + columns + " FROM " +
                           quoteIdentifier(t.tables.changeFeedRows) +
                           " WHERE _commit_version >= ({{LO:0}} >> 32) AND " + position + " > {{LO:0}} AND " +
                           position + " <= {{HI:0}})";
        out.inputs.push_back({t.name, t.tables.changeFeedRows, position});
        out.hasRowId = true;
        out.streamRead = ref.location;
    }
    out.probeTemplate = standIn(out.columns, out.hasRowId);
    return out;
}

Result<ResolvedSource> SourceResolver::resolve(const pipeline::RelationRef& ref, int depth) {
    if (depth > 16)
        return Diagnostic::error("CIRCULAR_DEPENDENCY", "view '" + ref.name + "' refers to itself",
                                 ref.location);
    if (const std::string fn = snapshotFunction(ref); !fn.empty())
        return Diagnostic::error(
            "UNRESOLVABLE_TABLE_VALUED_FUNCTION",
            fn + "() can be read only in " +
                (fn == "last_snapshot_version" ? "the WITH VERSION query" : "the FROM SNAPSHOT query") +
                " of an AUTO CDC FROM SNAPSHOT flow",
            ref.location);
    if (ref.call && storage::isFileTableFunction(ref.call->function)) {
        // read_files / list_files: the files as they are now, read once for this plan.
        auto bound = storage::bindFileTableFunction(m_db, *ref.call);
        if (!bound)
            return bound.error();
        ResolvedSource out;
        out.fromTemplate = out.probeTemplate = bound->fromItem;
        out.columns = bound->columns;
        out.typed.assign(out.columns.size(), true);
        return out;
    }
    const pipeline::View* view = m_pipeline.findView(ref.name);
    if (view && !view->materialized) {
        // STREAM(v) reads the view as a stream: the tables its query reads, as Spark's readStream of a view
        // plans its sources as streams.
        auto out = resolveQuery(view->query, "view '" + view->name.name + "'", view->location, depth,
                                SnapshotScope::None, ref.stream);
        if (out && ref.stream && !out->streamRead)
            out->streamRead = ref.location;
        return out;
    }
    if (const TargetPlan* t = plannedDataset(m_plan, ref.name))
        return resolveDataset(ref, *t);
    if (view || m_pipeline.findTable(ref.name))
        // Datasets are planned in dependency order (DatasetOrder), so this is a dataset without flows.
        return Diagnostic::error("UNKNOWN_SOURCE",
                                 "'" + ref.name + "' is declared but no flow writes it, so it has no rows",
                                 ref.location);
    auto found = storage::Catalog::find(m_db, ref.name);
    if (!found)
        return Diagnostic::error(found.error().code, found.error().message, ref.location);
    if (!found.value())
        return Diagnostic::error("UNKNOWN_SOURCE",
                                 "source '" + ref.name +
                                     "' is neither a table in the database nor a dataset of the pipeline",
                                 ref.location);
    const storage::TableInfo& t = *found.value();
    ResolvedSource out;
    out.columns = t.columns;
    out.typed.assign(out.columns.size(), true);
    if (t.kind != storage::TableKind::Source) {
        // A table an earlier pipeline made: its stored rows, as a batch.
        if (ref.stream || ref.changeFeed)
            return Diagnostic::error("UNSUPPORTED_SOURCE",
                                     "'" + ref.name + "' is a " + storage::tableKindName(t.kind) +
                                         " this pipeline does not declare; only source tables and the "
                                         "pipeline's own tables can be read as a stream",
                                     ref.location);
        out.fromTemplate = out.probeTemplate = quoteIdentifier(t.sqliteName);
        return out;
    }
    out.inputs.push_back({t.name, t.sqliteName});
    out.fromTemplate = out.probeTemplate = streamItem(0, t.sqliteName);
    out.hasRowId = true;
    if (ref.stream)
        out.streamRead = ref.location;
    return out;
}

namespace {

/// A computed column (`amount * 2`) gets the type the SQL front end's inference gives it over the columns of
/// the relations the query reads, when one is installed (pipeline/OutputTypes.h).
void typeComputedColumns(const pipeline::Query& query,
                         const std::map<std::string, std::vector<ColumnInfo>>& relationColumns,
                         ResolvedSource& out) {
    const auto& infer = pipeline::outputTypeInference();
    if (!infer || std::all_of(out.typed.begin(), out.typed.end(), [](bool typed) { return typed; }))
        return;
    const auto lookup = [&](const std::string& name) -> std::optional<std::vector<pipeline::NamedColumn>> {
        std::string key = toLower(name);
        if (key.rfind("live.", 0) == 0)
            key.erase(0, 5);
        auto found = relationColumns.find(key);
        if (found == relationColumns.end())
            return std::nullopt;
        std::vector<pipeline::NamedColumn> columns;
        for (const auto& c : found->second)
            columns.push_back({c.name, c.type});
        return columns;
    };
    const auto types = infer(query, lookup);
    if (types.size() != out.columns.size())
        return; // `*` over a stand-in, or a query the inference cannot read: the values decide
    for (std::size_t i = 0; i < types.size(); ++i)
        if (!out.typed[i] && types[i]) {
            out.columns[i].type = *types[i];
            out.typed[i] = true;
        }
}

} // namespace

Result<ResolvedSource> SourceResolver::resolveQuery(const pipeline::Query& query, const std::string& what,
                                                    const SourceLocation& where, int depth,
                                                    SnapshotScope scope, bool streamAll) {
    ResolvedSource out;
    std::string sql = query.sqliteTemplate, probe = query.sqliteTemplate;
    std::vector<ColumnInfo> known;
    std::map<std::string, std::vector<ColumnInfo>> relationColumns; // by lower-cased name, for typing
    const auto put = [&](const std::string& placeholder, const std::string& item, const std::string& stub) {
        sql = replaceAll(sql, placeholder, item);
        probe = replaceAll(probe, placeholder, stub);
    };
    for (std::size_t r = 0; r < query.relations.size(); ++r) {
        const auto& rel = query.relations[r];
        const std::string placeholder = "{{REL:" + std::to_string(r) + "}}";
        const std::string fn = snapshotFunction(rel);
        if (fn == "current_snapshot_version" && scope == SnapshotScope::SnapshotQuery) {
            const std::string item = "(SELECT " + std::string(kSnapshotVersionSlot) + " AS version)";
            put(placeholder, item, "(SELECT NULL AS version)");
            continue;
        }
        if (fn == "last_snapshot_version" && scope == SnapshotScope::VersionQuery) {
            put(placeholder, std::string(kLastVersionSlot), "(SELECT NULL AS version WHERE 0)");
            continue;
        }
        pipeline::RelationRef read = rel;
        read.stream = rel.stream || (streamAll && scope == SnapshotScope::None);
        auto inner = resolve(read, depth + 1);
        if (!inner)
            return inner.error();
        if (!out.streamRead)
            out.streamRead = inner->streamRead;
        std::string item = inner->fromTemplate, stub = inner->probeTemplate;
        // Renumber the inner inputs after ours; a static (non-STREAM) read takes every row, and so does
        // a snapshot, which reads the source's whole current content.
        const bool stream = read.stream && scope == SnapshotScope::None;
        for (std::size_t i = inner->inputs.size(); i-- > 0;) {
            const std::string from = std::to_string(i), to = std::to_string(i + out.inputs.size());
            for (std::string* text : {&item, &stub}) {
                *text = replaceAll(*text, "{{LO:" + from + "}}", stream ? "{{LO:" + to + "}}" : "0");
                *text = replaceAll(*text, "{{HI:" + from + "}}", stream ? "{{HI:" + to + "}}" : kEndOfTime);
            }
        }
        if (stream)
            out.inputs.insert(out.inputs.end(), inner->inputs.begin(), inner->inputs.end());
        known.insert(known.end(), inner->columns.begin(), inner->columns.end());
        relationColumns[toLower(rel.name)] = inner->columns;
        // The translator already aliases each placeholder (`{{REL:0}} AS "users_cdf"`).
        put(placeholder, item, stub);
    }
    // Column names come from SQLite itself; types from the tables read where the names match.
    probe = replaceAll(probe, std::string(kSnapshotVersionSlot), "NULL");
    // `* EXCEPT (...)`, QUALIFY over a star and `s.*` list their columns from the probe (whose datasets may
    // be stand-ins an update has not created yet); the SQL that runs gets the same lists.
    const std::size_t inputs = out.inputs.size();
    auto expanded = storage::expandStarMarkers(
        m_db, std::move(probe),
        [inputs](std::string text) {
            for (std::size_t i = 0; i < inputs; ++i) {
                text = replaceAll(text, "{{LO:" + std::to_string(i) + "}}", "0");
                text = replaceAll(text, "{{HI:" + std::to_string(i) + "}}", "0");
            }
            return text;
        },
        &sql);
    if (!expanded)
        return expanded.error();
    probe = std::move(expanded.value());
    out.fromTemplate = "(" + sql + ")";
    out.probeTemplate = "(" + probe + ")";
    auto st = m_db.prepare("SELECT * FROM " + closedFrom(out.probeTemplate, out.inputs.size()) + " LIMIT 0");
    if (!st)
        return Diagnostic::error("INVALID_VIEW", what + " cannot be read: " + st.error().message, where);
    for (int c = 0; c < st->columnCount(); ++c) {
        std::string name = st->columnName(c);
        if (name == "__cdc_rowid") {
            out.hasRowId = true;
            continue;
        }
        int k = indexOfColumn(known, name);
        out.columns.push_back(
            {name, k >= 0 ? known[static_cast<std::size_t>(k)].type : DataType::of(DataType::Kind::String)});
        out.typed.push_back(k >= 0);
    }
    // A type the query itself decides (`CAST(userId AS INT) AS userId`) wins over the name's.
    if (query.outputTypes.size() == out.columns.size())
        for (std::size_t i = 0; i < out.columns.size(); ++i)
            if (query.outputTypes[i]) {
                out.columns[i].type = *query.outputTypes[i];
                out.typed[i] = true;
            }
    typeComputedColumns(query, relationColumns, out);
    return out;
}

} // namespace cdc::engine
