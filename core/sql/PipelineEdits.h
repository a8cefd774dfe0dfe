#pragma once
/// The pipeline designer's edits as pure text operations: each takes the pipeline text, re-prints only the
/// statements it changes (see PipelineScript) and returns the new text with a sentence saying what it did,
/// for the undo command's text ("Set keys of apply_cdc to userId"). A text that does not parse is refused
/// with the parser's error; an expression or query the user typed that does not parse is refused with an
/// error positioned in that small text. Either way nothing changes.
///
/// Names (tables, views, flows, columns) are raw names as the pipeline model spells them
/// (pipeline::Identifier::name): a table name's parts are split at dots, and the printer quotes what needs
/// quoting. Names compare case-insensitively. New statements use the current Databricks syntax:
/// CREATE OR REFRESH STREAMING TABLE, CREATE FLOW ... AS AUTO CDC INTO, CREATE OR REFRESH MATERIALIZED VIEW.

#include "core/common/Diagnostic.h"
#include "core/pipeline/Pipeline.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cdc::sql {

/// The new pipeline text and what the edit did.
struct PipelineEdit {
    std::string text;
    std::string description;
};

/// COLUMNS, TRACK HISTORY ON and IGNORE NULL UPDATES ON: every column, these, or all but these.
struct ColumnChoice {
    pipeline::ColumnSelection::Mode mode = pipeline::ColumnSelection::Mode::All;
    std::vector<std::string> columns; ///< Only / Except: not empty
};

/// What a new AUTO CDC flow needs to be valid SQL at once.
struct NewAutoCdcFlow {
    std::string name;
    std::string source; ///< e.g. main.cdc_tutorial.users_cdf
    bool sourceStream = true;
    std::string target;
    std::vector<std::string> keys;
    std::vector<std::string> sequence; ///< one column, or several for SEQUENCE BY STRUCT(a, b)
    std::optional<pipeline::ScdType> scdType;
};

class PipelineEdits {
public:
    // --- a flow, by name: CREATE FLOW, a streaming table's FLOW clause, or APPLY CHANGES INTO --------------

    /// INTO target (CREATE FLOW, also an append flow's INSERT INTO; APPLY CHANGES, whose flow takes the new
    /// name). A streaming table's own FLOW clause always writes that table: refused.
    static Result<PipelineEdit> setTarget(std::string_view text, std::string_view flow,
                                          std::string_view target);
    static Result<PipelineEdit> setSource(std::string_view text, std::string_view flow,
                                          std::string_view source, bool stream);
    static Result<PipelineEdit> setKeys(std::string_view text, std::string_view flow,
                                        const std::vector<std::string>& keys);
    /// SEQUENCE BY one column, or STRUCT(a, b, ...) for several in order.
    static Result<PipelineEdit> setSequence(std::string_view text, std::string_view flow,
                                            const std::vector<std::string>& columns);
    /// APPLY AS DELETE WHEN `condition` (Spark SQL the user typed); nullopt removes the clause.
    static Result<PipelineEdit> setDeleteCondition(std::string_view text, std::string_view flow,
                                                   std::optional<std::string_view> condition);
    /// APPLY AS TRUNCATE WHEN `condition`; nullopt removes the clause.
    static Result<PipelineEdit> setTruncateCondition(std::string_view text, std::string_view flow,
                                                     std::optional<std::string_view> condition);
    /// STORED AS SCD TYPE 1 | 2.
    static Result<PipelineEdit> setScdType(std::string_view text, std::string_view flow,
                                           pipeline::ScdType type);
    /// COLUMNS: Mode::All removes the clause (all columns), Only is `(a, b)`, Except `* EXCEPT (a, b)`.
    static Result<PipelineEdit> setColumns(std::string_view text, std::string_view flow,
                                           const ColumnChoice& columns);
    /// TRACK HISTORY ON: nullopt removes the clause, Mode::All is `*`.
    static Result<PipelineEdit> setTrackHistory(std::string_view text, std::string_view flow,
                                                const std::optional<ColumnChoice>& columns);
    /// IGNORE NULL UPDATES: nullopt off, Mode::All on every column, Only / Except the ON forms.
    static Result<PipelineEdit> setIgnoreNullUpdates(std::string_view text, std::string_view flow,
                                                     const std::optional<ColumnChoice>& columns);
    /// COLUMNS TO UPDATE column; nullopt removes the clause.
    static Result<PipelineEdit> setColumnsToUpdate(std::string_view text, std::string_view flow,
                                                   const std::optional<std::string>& column);
    /// ONCE (AUTO CDC and append flows). APPLY CHANGES has no ONCE: it becomes CREATE FLOW <target> AS AUTO
    /// CDC ONCE INTO <target>, the same flow.
    static Result<PipelineEdit> setOnce(std::string_view text, std::string_view flow, bool once);
    /// CREATE FLOW's name; APPLY CHANGES becomes CREATE FLOW newName AS AUTO CDC INTO its target. A
    /// streaming table's own flow is named after the table: refused (rename the table).
    static Result<PipelineEdit> renameFlow(std::string_view text, std::string_view flow,
                                           std::string_view newName);

    // --- adding, removing, renaming ----------------------------------------------------------------------

    /// CREATE OR REFRESH STREAMING TABLE name.
    static Result<PipelineEdit> addStreamingTable(std::string_view text, std::string_view name);
    /// CREATE FLOW name AS AUTO CDC INTO target FROM [STREAM(]source[)] KEYS (...) SEQUENCE BY ...
    static Result<PipelineEdit> addAutoCdcFlow(std::string_view text, const NewAutoCdcFlow& flow);
    /// CREATE FLOW name AS INSERT INTO target BY NAME query.
    static Result<PipelineEdit> addAppendFlow(std::string_view text, std::string_view name,
                                              std::string_view target, std::string_view query);
    /// CREATE OR REFRESH MATERIALIZED VIEW name AS query, or CREATE TEMPORARY VIEW name AS query.
    static Result<PipelineEdit> addView(std::string_view text, std::string_view name, std::string_view query,
                                        bool materialized);
    /// Removes the statement defining the streaming table, view or flow `name` (a dataset first when a
    /// flow has the same name). A streaming table goes with the flow its FLOW clause defines.
    static Result<PipelineEdit> removeEntity(std::string_view text, std::string_view name);
    /// Removes the flow `name` only: its statement, or a streaming table's FLOW / AS clause (the table
    /// stays).
    static Result<PipelineEdit> removeFlow(std::string_view text, std::string_view name);
    /// Renames a streaming table or view, and every plain reference to it: flows' INTO / FROM, the tables
    /// queries read (`name`, `LIVE.name`, `STREAM(name)`, `table_changes('name', ...)`).
    static Result<PipelineEdit> renameDataset(std::string_view text, std::string_view name,
                                              std::string_view newName);
    /// A view's (or materialized view's) AS query.
    static Result<PipelineEdit> setViewQuery(std::string_view text, std::string_view view,
                                             std::string_view query);
};

} // namespace cdc::sql
