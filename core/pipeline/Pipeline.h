#pragma once
/// The Pipeline model: the value type that pipeline SQL parses into and that the engine runs.
/// Produced by `cdc::sql::parsePipeline` (core/sql), validated against the catalog by
/// `cdc::pipeline::validate`, executed by `cdc::engine`.
///
/// Expressions and queries are carried both as the user's Spark SQL text and already translated
/// to SQLite SQL, so the engine never needs the AST:
///  - Expression::sqlite references source columns as quoted identifiers ("operation" = 'DELETE').
///  - Query::sqliteTemplate writes each relation it reads as the placeholder `{{REL:i}}`, i indexing
///    Query::relations. Whoever runs the query substitutes a FROM-item for each placeholder
///    (a table name, or for a stream the rows appended since a checkpoint).

#include "core/common/DataType.h"
#include "core/common/Diagnostic.h"
#include "core/common/TableFunctionCall.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cdc::pipeline {

struct Identifier {
    std::string name; ///< unquoted, as written (case kept)
    SourceLocation location;
    bool operator==(const Identifier&) const = default;
};

/// `COLUMNS (a, b)` / `COLUMNS * EXCEPT (x)` and the same shape in TRACK HISTORY ON / IGNORE NULL UPDATES ON.
struct ColumnSelection {
    enum class Mode { All, Only, Except };
    Mode mode = Mode::All;
    std::vector<Identifier> columns;
    SourceLocation location;
    bool operator==(const ColumnSelection&) const = default;
};

struct RelationRef {
    std::string name;        ///< possibly multi-part, e.g. main.cdc_tutorial.users_cdf
    bool stream = false;     ///< read with STREAM(...) / STREAM name
    bool changeFeed = false; ///< table_changes('name', from[, to]): the rows of the target's change feed
    SourceLocation location;
    /// A table-valued function call (`name` is then its Spark text): read_files, list_files, the snapshot
    /// version functions. Whoever binds the query evaluates it.
    std::optional<TableFunctionCall> call;
    bool operator==(const RelationRef&) const = default;
};

struct Expression {
    std::string sparkText; ///< canonical Spark SQL (printer output)
    std::string sqlite;    ///< SQLite SQL with Spark semantics
    /// Set when the expression is a bare column reference: lets the engine type it from the source schema.
    std::optional<std::string> columnName;
    SourceLocation location;
    bool operator==(const Expression&) const = default;
};

struct Query {
    std::string sparkText;      ///< canonical Spark SQL of the query
    std::string sqliteTemplate; ///< SQLite SELECT with {{REL:i}} placeholders
    std::vector<RelationRef> relations;
    std::vector<std::string>
        outputColumns; ///< names of the result columns when known statically ("*" otherwise)
    SourceLocation location;
    /// Per result column, its Spark type when the query alone decides it (`CAST(userId AS INT)`, a
    /// literal) whatever the tables it reads; empty when the column list is not known statically.
    std::vector<std::optional<DataType>> outputTypes;
    bool operator==(const Query&) const = default;
};

enum class ScdType { Type1 = 1, Type2 = 2 };

struct ColumnSpec {
    std::string name;
    DataType type;
    bool notNull = false;
    std::string comment;
    SourceLocation location;
    bool operator==(const ColumnSpec&) const = default;
};

/// CREATE [OR REFRESH] STREAMING TABLE. A `FLOW AUTO CDC` clause becomes an AutoCdcFlow named after
/// the table; an `AS query` clause becomes an AppendFlow named after the table.
struct StreamingTable {
    Identifier name;
    std::vector<ColumnSpec> schema; ///< empty: inferred from the flows
    std::string comment;
    std::map<std::string, std::string> properties; ///< TBLPROPERTIES, keys as written
    SourceLocation location;
    bool operator==(const StreamingTable&) const = default;
};

/// CREATE [TEMPORARY] VIEW / CREATE MATERIALIZED VIEW.
struct View {
    Identifier name;
    bool materialized = false;
    bool temporary = false;
    Query query;
    std::string comment;
    SourceLocation location;
    bool operator==(const View&) const = default;
};

/// CREATE FLOW f AS AUTO CDC INTO t ..., APPLY CHANGES INTO t ..., or the FLOW AUTO CDC clause.
struct AutoCdcFlow {
    Identifier name; ///< flow name; defaults to the target's
    Identifier target;
    bool once = false;
    bool legacySyntax = false; ///< written as APPLY CHANGES INTO

    // AUTO CDC ... FROM source
    RelationRef source;
    std::vector<Identifier> keys;
    /// IGNORE NULL UPDATES: nullopt = absent; Mode::All = every column; Only / Except = the ON forms.
    std::optional<ColumnSelection> ignoreNullUpdates;
    std::optional<Expression> applyAsDelete;
    std::optional<Expression> applyAsTruncate;
    std::vector<Expression> sequenceBy; ///< one entry, or the STRUCT(...) fields in order
    bool sequenceIsStruct = false;
    std::vector<std::string> sequenceFieldNames; ///< STRUCT field names (column name or colN)
    ColumnSelection columns;                     ///< Mode::All when absent
    ScdType scdType = ScdType::Type1;
    SourceLocation storedAsLocation;
    std::optional<ColumnSelection> trackHistory;
    std::optional<Identifier> columnsToUpdate;

    // AUTO CDC ... FROM SNAPSHOT (query) [WITH VERSION (query)]: parsed, executed later
    bool fromSnapshot = false;
    std::optional<Query> snapshotQuery;
    std::optional<Query> versionQuery;
    /// The Python function that offers the snapshots one version at a time
    /// (`create_auto_cdc_from_snapshot_flow(source=function)`); empty otherwise. Set only by a run of a
    /// Python pipeline file, never by the SQL parser: the queries above then describe the first snapshot
    /// (its columns and version type) and the engine asks `UpdateOptions::snapshotFunction` for each one.
    std::string snapshotFunction;

    SourceLocation location;
    bool operator==(const AutoCdcFlow&) const = default;
};

/// CREATE FLOW f AS INSERT INTO [ONCE] t BY NAME query, or CREATE STREAMING TABLE t AS query.
struct AppendFlow {
    Identifier name;
    Identifier target;
    bool once = false;
    Query query;
    SourceLocation location;
    bool operator==(const AppendFlow&) const = default;
};

struct Pipeline {
    std::vector<StreamingTable> streamingTables;
    std::vector<View> views;
    std::vector<AutoCdcFlow> cdcFlows;
    std::vector<AppendFlow> appendFlows;
    std::vector<Diagnostic> warnings; ///< non-fatal findings of the parser / validator

    const StreamingTable* findTable(const std::string& name) const;
    const View* findView(const std::string& name) const;
    bool operator==(const Pipeline&) const = default;
};

} // namespace cdc::pipeline
