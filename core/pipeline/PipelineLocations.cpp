#include "core/pipeline/PipelineLocations.h"

namespace cdc::pipeline {

namespace {

using Visit = std::function<void(SourceLocation&)>;

// Each struct is taken apart with a structured binding that names all its fields, so the build fails
// here when one gains a field: the author then decides whether it holds a position, and none is missed.

// Declared first so that the vector and optional walks below find every overload.
void walk(Identifier& identifier, const Visit& visit);
void walk(ColumnSelection& selection, const Visit& visit);
void walk(RelationRef& relation, const Visit& visit);
void walk(Expression& expression, const Visit& visit);
void walk(Query& query, const Visit& visit);
void walk(ColumnSpec& column, const Visit& visit);
void walk(StreamingTable& table, const Visit& visit);
void walk(View& view, const Visit& visit);
void walk(AutoCdcFlow& flow, const Visit& visit);
void walk(AppendFlow& flow, const Visit& visit);
void walk(Diagnostic& diagnostic, const Visit& visit);

void walk(SourceLocation& location, const Visit& visit) {
    visit(location);
}

template <class T> void walk(std::vector<T>& items, const Visit& visit) {
    for (auto& item : items)
        walk(item, visit);
}

template <class T> void walk(std::optional<T>& item, const Visit& visit) {
    if (item)
        walk(*item, visit);
}

void walk(Identifier& identifier, const Visit& visit) {
    [[maybe_unused]] auto& [name, location] = identifier;
    walk(location, visit);
}

void walk(ColumnSelection& selection, const Visit& visit) {
    [[maybe_unused]] auto& [mode, columns, location] = selection;
    walk(columns, visit);
    walk(location, visit);
}

void walk(RelationRef& relation, const Visit& visit) {
    [[maybe_unused]] auto& [name, stream, changeFeed, location, call] = relation;
    if (call) {
        walk(call->location, visit);
        for (auto& argument : call->arguments)
            walk(argument.location, visit);
    }
    walk(location, visit);
}

void walk(Expression& expression, const Visit& visit) {
    [[maybe_unused]] auto& [sparkText, sqlite, columnName, location] = expression;
    walk(location, visit);
}

void walk(Query& query, const Visit& visit) {
    [[maybe_unused]] auto& [sparkText, sqliteTemplate, relations, outputColumns, location, outputTypes] =
        query;
    walk(relations, visit);
    walk(location, visit);
}

void walk(ColumnSpec& column, const Visit& visit) {
    [[maybe_unused]] auto& [name, type, notNull, comment, location] = column;
    walk(location, visit);
}

void walk(StreamingTable& table, const Visit& visit) {
    [[maybe_unused]] auto& [name, schema, comment, properties, location] = table;
    walk(name, visit);
    walk(schema, visit);
    walk(location, visit);
}

void walk(View& view, const Visit& visit) {
    [[maybe_unused]] auto& [name, materialized, temporary, query, comment, location] = view;
    walk(name, visit);
    walk(query, visit);
    walk(location, visit);
}

void walk(AutoCdcFlow& flow, const Visit& visit) {
    [[maybe_unused]] auto& [name, target, once, legacySyntax, source, keys, ignoreNullUpdates, applyAsDelete,
                            applyAsTruncate, sequenceBy, sequenceIsStruct, sequenceFieldNames, columns,
                            scdType, storedAsLocation, trackHistory, columnsToUpdate, fromSnapshot,
                            snapshotQuery, versionQuery, snapshotFunction, location] = flow;
    walk(name, visit);
    walk(target, visit);
    walk(source, visit);
    walk(keys, visit);
    walk(ignoreNullUpdates, visit);
    walk(applyAsDelete, visit);
    walk(applyAsTruncate, visit);
    walk(sequenceBy, visit);
    walk(columns, visit);
    walk(storedAsLocation, visit);
    walk(trackHistory, visit);
    walk(columnsToUpdate, visit);
    walk(snapshotQuery, visit);
    walk(versionQuery, visit);
    walk(location, visit);
}

void walk(AppendFlow& flow, const Visit& visit) {
    [[maybe_unused]] auto& [name, target, once, query, location] = flow;
    walk(name, visit);
    walk(target, visit);
    walk(query, visit);
    walk(location, visit);
}

void walk(Diagnostic& diagnostic, const Visit& visit) {
    [[maybe_unused]] auto& [severity, code, message, location] = diagnostic;
    walk(location, visit);
}

} // namespace

void forEachLocation(Pipeline& pipeline, const std::function<void(SourceLocation&)>& visit) {
    [[maybe_unused]] auto& [streamingTables, views, cdcFlows, appendFlows, warnings] = pipeline;
    walk(streamingTables, visit);
    walk(views, visit);
    walk(cdcFlows, visit);
    walk(appendFlows, visit);
    walk(warnings, visit);
}

} // namespace cdc::pipeline
