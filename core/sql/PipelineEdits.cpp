#include "core/sql/PipelineEdits.h"

#include "core/common/Text.h"
#include "core/sql/Parser.h"
#include "core/sql/PipelineScript.h"
#include "core/sql/Printer.h"
#include "core/sql/ReferenceRenamer.h"

#include <functional>

namespace cdc::sql {

namespace {

using Mode = pipeline::ColumnSelection::Mode;

Diagnostic editError(const std::string& message) {
    return Diagnostic::error("EDIT", message);
}

/// The first error among the results of an edit's checks, in order.
template <class... Checked> std::optional<Diagnostic> firstError(const Checked&... results) {
    std::optional<Diagnostic> first;
    ((first = first ? first : results.ok() ? std::nullopt : std::optional<Diagnostic>(results.error())), ...);
    return first;
}

std::string quoted(std::string_view name) {
    return "'" + std::string(name) + "'";
}

std::string listed(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& item : items)
        out += (out.empty() ? "" : ", ") + item;
    return out;
}

Result<Name> tableName(std::string_view raw, const std::string& what) {
    Name name;
    name.parts = splitQualifiedName(raw);
    for (const auto& part : name.parts)
        if (trim(part).empty())
            return editError(quoted(raw) + " is not a " + what + " name");
    return name;
}

Result<Ident> identifier(std::string_view raw, const std::string& what) {
    if (trim(raw).empty())
        return editError("a " + what + " name is needed");
    Ident id;
    id.name = std::string(raw);
    return id;
}

Result<std::vector<Ident>> identifiers(const std::vector<std::string>& raw, const std::string& what) {
    if (raw.empty())
        return editError("at least one " + what + " is needed");
    std::vector<Ident> out;
    for (const auto& name : raw) {
        auto id = identifier(name, what);
        if (!id)
            return id.error();
        out.push_back(std::move(*id));
    }
    return out;
}

Result<ColumnSel> columnSelection(const ColumnChoice& choice) {
    ColumnSel sel;
    sel.mode = choice.mode == Mode::All    ? ColumnSel::Mode::All
               : choice.mode == Mode::Only ? ColumnSel::Mode::Only
                                           : ColumnSel::Mode::Except;
    if (choice.mode == Mode::All)
        return sel;
    auto columns = identifiers(choice.columns, "column");
    if (!columns)
        return columns.error();
    sel.columns = std::move(*columns);
    return sel;
}

/// SEQUENCE BY one column, or a STRUCT of several compared field by field (the parser spells it lower-case).
Result<Expr> sequenceOf(const std::vector<std::string>& columns) {
    auto ids = identifiers(columns, "sequence column");
    if (!ids)
        return ids.error();
    std::vector<Expr> fields;
    for (const auto& id : *ids) {
        Expr column;
        column.kind = ExprKind::Column;
        column.name.parts = {id.name};
        fields.push_back(std::move(column));
    }
    if (fields.size() == 1)
        return fields.front();
    Expr sequence;
    sequence.kind = ExprKind::Function;
    sequence.name.parts = {"struct"};
    sequence.args = std::move(fields);
    return sequence;
}

std::string choiceText(const ColumnChoice& choice) {
    switch (choice.mode) {
    case Mode::All:
        return "all columns";
    case Mode::Except:
        return "all columns except " + listed(choice.columns);
    case Mode::Only:
        break;
    }
    return listed(choice.columns);
}

/// Text the user typed, parsed with the real parser: its errors point into that text (`file` names it).
Result<Expr> userExpression(std::string_view text, const std::string& file) {
    return Parser(text, file).parseSingleExpression();
}

Result<Query> userQuery(std::string_view text) {
    return Parser(text, "<query>").parseSingleQuery();
}

/// The edit handed back, checked to parse: a text this file made unparseable is refused, never returned.
Result<PipelineEdit> finish(std::string text, std::string description) {
    auto check = PipelineScript::parse(text);
    if (!check)
        return editError("the edit would make the pipeline invalid (" + check.error().message + ")");
    return PipelineEdit{std::move(text), std::move(description)};
}

Result<PipelineScript> parseText(std::string_view text) {
    return PipelineScript::parse(std::string(text));
}

/// A parsed text and a copy of the statement that defines one of its flows or datasets, to change.
struct Definition {
    PipelineScript script;
    std::size_t index = 0;
    Statement statement;
};

enum class Entity { Flow, Dataset };

Result<Definition> findDefinition(std::string_view text, Entity entity, std::string_view name) {
    auto script = parseText(text);
    if (!script)
        return script.error();
    auto index = entity == Entity::Flow ? script->findFlow(name) : script->findDataset(name);
    if (!index)
        return editError(std::string("there is no ") +
                         (entity == Entity::Flow ? "flow" : "streaming table or view") + " named " +
                         quoted(name));
    Statement statement = script->statements()[*index].statement;
    return Definition{std::move(*script), *index, std::move(statement)};
}

/// Applies `change` to the statement that defines `flow` and re-prints that statement alone.
Result<PipelineEdit> editFlow(std::string_view text, std::string_view flow,
                              const std::function<Status(Statement&)>& change, std::string description) {
    auto found = findDefinition(text, Entity::Flow, flow);
    if (!found)
        return found.error();
    if (auto changed = change(found->statement); !changed)
        return changed.error();
    return finish(found->script.replaced(found->index, found->statement), std::move(description));
}

/// editFlow for an AUTO CDC flow's specification. `streamClause` names a clause FROM SNAPSHOT flows do not
/// have (the edit is refused on them), or is null.
Result<PipelineEdit> editAutoCdc(std::string_view text, std::string_view flow, const char* streamClause,
                                 const std::function<void(AutoCdcSpec&)>& change, std::string description) {
    return editFlow(
        text, flow,
        [&](Statement& statement) -> Status {
            AutoCdcSpec* spec = autoCdcSpecOf(statement);
            if (!spec)
                return editError("flow " + quoted(flow) + " is an append flow, not an AUTO CDC flow");
            if (streamClause && spec->fromSnapshot)
                return editError("flow " + quoted(flow) + " reads FROM SNAPSHOT, which takes no " +
                                 streamClause);
            change(*spec);
            return Status::success();
        },
        std::move(description));
}

/// APPLY CHANGES INTO t as the CREATE FLOW it stands for, so that it can take a name or ONCE.
Statement asCreateFlow(const ApplyChangesStmt& legacy, std::string name, bool once) {
    CreateFlowStmt flow;
    flow.name.name = std::move(name);
    flow.autoCdc = legacy.spec;
    flow.autoCdc->once = once;
    Statement statement;
    statement.body = std::move(flow);
    return statement;
}

Diagnostic ownFlow(std::string_view flow) {
    return editError("flow " + quoted(flow) +
                     " is its streaming table's FLOW clause, named after the table " + "and writing it");
}

Result<PipelineEdit> setCondition(std::string_view text, std::string_view flow,
                                  std::optional<std::string_view> condition, Box<Expr> AutoCdcSpec::*clause,
                                  const std::string& what, const char* sqlClause) {
    Box<Expr> value;
    std::string description = "Clear " + what + " of " + std::string(flow);
    if (condition) {
        auto parsed = userExpression(*condition, "<" + what + ">");
        if (!parsed)
            return parsed.error();
        description = "Set " + what + " of " + std::string(flow) + " to " + Printer::expr(*parsed);
        value = std::move(*parsed);
    }
    return editAutoCdc(
        text, flow, sqlClause, [&](AutoCdcSpec& spec) { spec.*clause = value; }, description);
}

std::string datasetKind(const Statement& statement) {
    if (auto* v = std::get_if<ViewStmt>(&statement.body))
        return v->materialized ? "materialized view" : "view";
    return "streaming table";
}

Result<PipelineEdit> appendStatement(std::string_view text, StatementBody body, std::string description) {
    auto script = parseText(text);
    if (!script)
        return script.error();
    Statement statement;
    statement.body = std::move(body);
    return finish(script->appended(statement), std::move(description));
}

Status datasetNameFree(std::string_view text, std::string_view name) {
    auto script = parseText(text);
    if (!script)
        return script.error();
    if (auto existing = script->findDataset(name))
        return editError("there is already a " + datasetKind(script->statements()[*existing].statement) +
                         " named " + quoted(name));
    return Status::success();
}

Status flowNameFree(std::string_view text, std::string_view name) {
    auto script = parseText(text);
    if (!script)
        return script.error();
    if (script->findFlow(name))
        return editError("there is already a flow named " + quoted(name));
    return Status::success();
}

} // namespace

// --- a flow ------------------------------------------------------------------------------------------------

Result<PipelineEdit> PipelineEdits::setTarget(std::string_view text, std::string_view flow,
                                              std::string_view target) {
    auto name = tableName(target, "table");
    if (!name)
        return name.error();
    return editFlow(
        text, flow,
        [&](Statement& statement) -> Status {
            if (auto* f = std::get_if<CreateFlowStmt>(&statement.body)) {
                (f->autoCdc ? *f->autoCdc->target : f->insertTarget) = *name;
                return Status::success();
            }
            if (auto* a = std::get_if<ApplyChangesStmt>(&statement.body)) {
                a->spec.target = *name;
                return Status::success();
            }
            return ownFlow(flow);
        },
        "Set target of " + std::string(flow) + " to " + std::string(target));
}

Result<PipelineEdit> PipelineEdits::setSource(std::string_view text, std::string_view flow,
                                              std::string_view source, bool stream) {
    auto name = tableName(source, "source");
    if (!name)
        return name.error();
    std::string shown = stream ? "STREAM(" + std::string(source) + ")" : std::string(source);
    return editAutoCdc(
        text, flow, "other source",
        [&](AutoCdcSpec& spec) {
            spec.source = *name;
            spec.sourceStream = stream;
        },
        "Set source of " + std::string(flow) + " to " + shown);
}

Result<PipelineEdit> PipelineEdits::setKeys(std::string_view text, std::string_view flow,
                                            const std::vector<std::string>& keys) {
    auto ids = identifiers(keys, "key column");
    if (!ids)
        return ids.error();
    return editAutoCdc(
        text, flow, nullptr, [&](AutoCdcSpec& spec) { spec.keys = *ids; },
        "Set keys of " + std::string(flow) + " to " + listed(keys));
}

Result<PipelineEdit> PipelineEdits::setSequence(std::string_view text, std::string_view flow,
                                                const std::vector<std::string>& columns) {
    auto sequence = sequenceOf(columns);
    if (!sequence)
        return sequence.error();
    return editAutoCdc(
        text, flow, "SEQUENCE BY", [&](AutoCdcSpec& spec) { spec.sequenceBy = *sequence; },
        "Set sequence of " + std::string(flow) + " to " + Printer::expr(*sequence));
}

Result<PipelineEdit> PipelineEdits::setDeleteCondition(std::string_view text, std::string_view flow,
                                                       std::optional<std::string_view> condition) {
    return setCondition(text, flow, condition, &AutoCdcSpec::applyAsDelete, "delete condition",
                        "APPLY AS DELETE WHEN");
}

Result<PipelineEdit> PipelineEdits::setTruncateCondition(std::string_view text, std::string_view flow,
                                                         std::optional<std::string_view> condition) {
    return setCondition(text, flow, condition, &AutoCdcSpec::applyAsTruncate, "truncate condition",
                        "APPLY AS TRUNCATE WHEN");
}

Result<PipelineEdit> PipelineEdits::setScdType(std::string_view text, std::string_view flow,
                                               pipeline::ScdType type) {
    StoredAs stored;
    stored.scdType = type;
    return editAutoCdc(
        text, flow, nullptr, [&](AutoCdcSpec& spec) { spec.storedAs = stored; },
        "Set SCD type of " + std::string(flow) + " to " + std::to_string(static_cast<int>(type)));
}

Result<PipelineEdit> PipelineEdits::setColumns(std::string_view text, std::string_view flow,
                                               const ColumnChoice& columns) {
    auto sel = columnSelection(columns);
    if (!sel)
        return sel.error();
    return editAutoCdc(
        text, flow, "COLUMNS",
        [&](AutoCdcSpec& spec) {
            // Without the clause every column is kept: that is how "all" prints.
            if (columns.mode == Mode::All)
                spec.columns.reset();
            else
                spec.columns = *sel;
        },
        "Set columns of " + std::string(flow) + " to " + choiceText(columns));
}

Result<PipelineEdit> PipelineEdits::setTrackHistory(std::string_view text, std::string_view flow,
                                                    const std::optional<ColumnChoice>& columns) {
    std::optional<ColumnSel> sel;
    if (columns) {
        auto chosen = columnSelection(*columns);
        if (!chosen)
            return chosen.error();
        sel = std::move(*chosen);
    }
    return editAutoCdc(
        text, flow, nullptr, [&](AutoCdcSpec& spec) { spec.trackHistory = sel; },
        columns ? "Set track history of " + std::string(flow) + " to " + choiceText(*columns)
                : "Clear track history of " + std::string(flow));
}

Result<PipelineEdit> PipelineEdits::setIgnoreNullUpdates(std::string_view text, std::string_view flow,
                                                         const std::optional<ColumnChoice>& columns) {
    std::optional<ColumnSel> on;
    if (columns && columns->mode != Mode::All) {
        auto chosen = columnSelection(*columns);
        if (!chosen)
            return chosen.error();
        on = std::move(*chosen);
    }
    return editAutoCdc(
        text, flow, "IGNORE NULL UPDATES",
        [&](AutoCdcSpec& spec) {
            spec.ignoreNullUpdates = columns.has_value();
            spec.ignoreNullOn = on;
        },
        columns ? "Set ignore null updates of " + std::string(flow) + " to " + choiceText(*columns)
                : "Turn off ignore null updates of " + std::string(flow));
}

Result<PipelineEdit> PipelineEdits::setColumnsToUpdate(std::string_view text, std::string_view flow,
                                                       const std::optional<std::string>& column) {
    std::optional<Ident> id;
    if (column) {
        auto named = identifier(*column, "column");
        if (!named)
            return named.error();
        id = std::move(*named);
    }
    return editAutoCdc(
        text, flow, "COLUMNS TO UPDATE", [&](AutoCdcSpec& spec) { spec.columnsToUpdate = id; },
        column ? "Set columns to update of " + std::string(flow) + " to " + *column
               : "Clear columns to update of " + std::string(flow));
}

Result<PipelineEdit> PipelineEdits::setOnce(std::string_view text, std::string_view flow, bool once) {
    return editFlow(
        text, flow,
        [&](Statement& statement) -> Status {
            if (auto* f = std::get_if<CreateFlowStmt>(&statement.body))
                (f->autoCdc ? f->autoCdc->once : f->insertOnce) = once;
            else if (auto* s = std::get_if<StreamingTableStmt>(&statement.body); s && s->autoCdc)
                s->autoCdc->once = once;
            else if (s) {
                // `AS query` has no ONCE; FLOW INSERT [ONCE] BY NAME query is the same append flow.
                s->flowInsert = s->flowInsert || once;
                s->flowInsertOnce = once;
            } else if (auto* a = std::get_if<ApplyChangesStmt>(&statement.body); a && once)
                statement = asCreateFlow(*a, std::string(flow), true);
            return Status::success();
        },
        (once ? "Set ONCE on " : "Clear ONCE on ") + std::string(flow));
}

Result<PipelineEdit> PipelineEdits::renameFlow(std::string_view text, std::string_view flow,
                                               std::string_view newName) {
    auto id = identifier(newName, "flow");
    if (!id)
        return id.error();
    if (!equalsIgnoreCase(flow, newName))
        if (auto free = flowNameFree(text, newName); !free)
            return free.error();
    return editFlow(
        text, flow,
        [&](Statement& statement) -> Status {
            if (auto* f = std::get_if<CreateFlowStmt>(&statement.body))
                f->name = *id;
            else if (auto* a = std::get_if<ApplyChangesStmt>(&statement.body))
                statement = asCreateFlow(*a, id->name, false);
            else
                return ownFlow(flow);
            return Status::success();
        },
        "Rename flow " + std::string(flow) + " to " + std::string(newName));
}

// --- adding, removing, renaming ---------------------------------------------------------------------------

Result<PipelineEdit> PipelineEdits::addStreamingTable(std::string_view text, std::string_view name) {
    auto tablename = tableName(name, "table");
    if (auto problem = firstError(tablename, datasetNameFree(text, name)))
        return *problem;
    StreamingTableStmt table;
    table.orRefresh = true;
    table.name = std::move(*tablename);
    return appendStatement(text, std::move(table), "Add streaming table " + std::string(name));
}

Result<PipelineEdit> PipelineEdits::addAutoCdcFlow(std::string_view text, const NewAutoCdcFlow& flow) {
    auto name = identifier(flow.name, "flow");
    auto source = tableName(flow.source, "source");
    auto target = tableName(flow.target, "target table");
    auto keys = identifiers(flow.keys, "key column");
    auto sequence = sequenceOf(flow.sequence);
    if (auto problem = firstError(name, source, target, keys, sequence, flowNameFree(text, flow.name)))
        return *problem;
    CreateFlowStmt created;
    created.name = std::move(*name);
    AutoCdcSpec& spec = created.autoCdc.emplace();
    spec.target = std::move(*target);
    spec.source = std::move(*source);
    spec.sourceStream = flow.sourceStream;
    spec.keys = std::move(*keys);
    if (flow.scdType)
        spec.storedAs = StoredAs{flow.scdType, {}};
    spec.sequenceBy = std::move(*sequence);
    return appendStatement(text, std::move(created), "Add flow " + flow.name);
}

Result<PipelineEdit> PipelineEdits::addAppendFlow(std::string_view text, std::string_view name,
                                                  std::string_view target, std::string_view query) {
    auto id = identifier(name, "flow");
    auto into = tableName(target, "target table");
    auto parsed = userQuery(query);
    if (auto problem = firstError(id, into, parsed, flowNameFree(text, name)))
        return *problem;
    CreateFlowStmt created;
    created.name = std::move(*id);
    created.insertTarget = std::move(*into);
    created.insertQuery = std::move(*parsed);
    return appendStatement(text, std::move(created), "Add flow " + std::string(name));
}

Result<PipelineEdit> PipelineEdits::addView(std::string_view text, std::string_view name,
                                            std::string_view query, bool materialized) {
    auto viewName = tableName(name, "view");
    auto parsed = userQuery(query);
    if (auto problem = firstError(viewName, parsed, datasetNameFree(text, name)))
        return *problem;
    ViewStmt view;
    view.name = std::move(*viewName);
    view.materialized = materialized;
    view.orRefresh = materialized;
    view.temporary = !materialized;
    view.query = std::move(*parsed);
    return appendStatement(text, std::move(view),
                           std::string(materialized ? "Add materialized view " : "Add view ") +
                               std::string(name));
}

Result<PipelineEdit> PipelineEdits::removeEntity(std::string_view text, std::string_view name) {
    auto script = parseText(text);
    if (!script)
        return script.error();
    if (auto index = script->findDataset(name)) {
        const Statement& statement = script->statements()[*index].statement;
        std::string description = "Remove " + datasetKind(statement) + " " + std::string(name);
        if (definedFlow(statement))
            description += " and its flow " + std::string(name);
        return finish(script->removed(*index), description);
    }
    if (auto index = script->findFlow(name))
        return finish(script->removed(*index), "Remove flow " + std::string(name));
    return editError("there is no streaming table, view or flow named " + quoted(name));
}

Result<PipelineEdit> PipelineEdits::removeFlow(std::string_view text, std::string_view name) {
    auto found = findDefinition(text, Entity::Flow, name);
    if (!found)
        return found.error();
    const PipelineScript& script = found->script;
    Statement& statement = found->statement;
    if (auto* table = std::get_if<StreamingTableStmt>(&statement.body)) {
        table->autoCdc.reset();
        table->flowInsert = table->flowInsertOnce = false;
        table->query = {};
        return finish(script.replaced(found->index, statement),
                      "Remove flow " + std::string(name) + " from streaming table " + std::string(name));
    }
    return finish(script.removed(found->index), "Remove flow " + std::string(name));
}

Result<PipelineEdit> PipelineEdits::renameDataset(std::string_view text, std::string_view name,
                                                  std::string_view newName) {
    auto renamed = tableName(newName, "table");
    if (!renamed)
        return renamed.error();
    auto found = findDefinition(text, Entity::Dataset, name);
    if (!found)
        return found.error();
    const PipelineScript& script = found->script;
    const std::size_t index = found->index;
    if (auto clash = script.findDataset(newName); clash && clash != index)
        return editError("there is already a " + datasetKind(script.statements()[*clash].statement) +
                         " named " + quoted(newName));
    ReferenceRenamer renamer(*definedDataset(found->statement), renamed->parts);
    std::vector<StatementChange> changes;
    for (std::size_t i = 0; i < script.statements().size(); ++i) {
        Statement statement = script.statements()[i].statement;
        bool changed = renamer.statement(statement);
        if (i == index) {
            auto* table = std::get_if<StreamingTableStmt>(&statement.body);
            changed = renamer.name(table ? table->name : std::get<ViewStmt>(statement.body).name);
        }
        if (changed)
            changes.push_back({i, std::move(statement)});
    }
    std::string description =
        "Rename " + datasetKind(found->statement) + " " + std::string(name) + " to " + std::string(newName);
    if (std::size_t users = changes.size() - 1; users > 0)
        description += " (and " + std::to_string(users) +
                       (users == 1 ? " statement that uses it)" : " statements that use it)");
    return finish(script.rewritten(std::move(changes)), description);
}

Result<PipelineEdit> PipelineEdits::setViewQuery(std::string_view text, std::string_view view,
                                                 std::string_view query) {
    auto parsed = userQuery(query);
    if (!parsed)
        return parsed.error();
    auto found = findDefinition(text, Entity::Dataset, view);
    if (!found)
        return found.error();
    auto* target = std::get_if<ViewStmt>(&found->statement.body);
    if (!target)
        return editError(quoted(view) + " is a streaming table, not a view");
    target->query = std::move(*parsed);
    return finish(found->script.replaced(found->index, found->statement),
                  "Set query of " + datasetKind(found->statement) + " " + std::string(view));
}

} // namespace cdc::sql
