#include "core/sql/PipelineBuilder.h"

#include "core/sql/TypeInference.h"

#include "core/common/Text.h"
#include "core/sql/Parser.h"
#include "core/sql/Printer.h"
#include "core/sql/SqlApi.h"
#include "core/sql/Translator.h"
#include "core/storage/Catalog.h"

#include <algorithm>

namespace cdc::sql {

std::string withoutLivePrefix(const std::string& name) {
    if (name.size() > 5 && toLower(name.substr(0, 5)) == "live.")
        return name.substr(5);
    return name;
}

void PipelineBuilder::error(const std::string& message, const SourceLocation& where) {
    if (m_diagnostics)
        m_diagnostics->push_back(Diagnostic::error("PIPELINE", message, where));
}

void PipelineBuilder::warnExpectations(const std::vector<Expectation>& expectations) {
    for (const auto& e : expectations) {
        Diagnostic d = Diagnostic::warning("EXPECTATION_IGNORED",
                                           "expectation '" + e.name.name +
                                               "' is accepted but not enforced by the simulator",
                                           e.name.span.location);
        m_pipeline.warnings.push_back(d);
        if (m_diagnostics)
            m_diagnostics->push_back(std::move(d));
    }
}

pipeline::Identifier PipelineBuilder::identifier(const Name& n) {
    return {withoutLivePrefix(n.joined()), n.span.location};
}

pipeline::Identifier PipelineBuilder::identifier(const Ident& i) {
    return {i.name, i.span.location};
}

pipeline::Expression PipelineBuilder::expression(const Expr& e) {
    pipeline::Expression out;
    out.sparkText = Printer::expr(e);
    out.location = e.span.location;
    if (e.kind == ExprKind::Column && e.name.parts.size() == 1)
        out.columnName = e.name.parts[0];
    auto sql = Translator::translateExpression(e);
    if (sql)
        out.sqlite = sql.value();
    else if (m_diagnostics)
        m_diagnostics->push_back(sql.error());
    return out;
}

pipeline::Query PipelineBuilder::query(const Query& q) {
    pipeline::Query out;
    out.sparkText = Printer::query(q);
    out.location = q.span.location;
    auto translated = Translator::translateQuery(q);
    if (!translated) {
        if (m_diagnostics)
            m_diagnostics->push_back(translated.error());
        return out;
    }
    out.sqliteTemplate = translated->sql;
    out.relations = translated->relations;
    for (auto& r : out.relations)
        r.name = withoutLivePrefix(r.name);
    out.outputColumns = translated->outputColumns;
    // No catalog here: only the types that do not depend on any table's columns come out known.
    TypeInference inference(
        [](const std::string&) { return std::optional<std::vector<storage::ColumnInfo>>(); });
    if (auto columns = inference.queryColumns(q))
        for (const TypedColumn& c : *columns)
            out.outputTypes.push_back(c.type && c.type->kind != DataType::Kind::Void ? c.type : std::nullopt);
    return out;
}

pipeline::ColumnSelection PipelineBuilder::selection(const ColumnSel& sel) const {
    pipeline::ColumnSelection out;
    out.location = sel.span.location;
    switch (sel.mode) {
    case ColumnSel::Mode::All:
        out.mode = pipeline::ColumnSelection::Mode::All;
        break;
    case ColumnSel::Mode::Only:
        out.mode = pipeline::ColumnSelection::Mode::Only;
        break;
    case ColumnSel::Mode::Except:
        out.mode = pipeline::ColumnSelection::Mode::Except;
        break;
    }
    for (const auto& c : sel.columns)
        out.columns.push_back(identifier(c));
    return out;
}

pipeline::AutoCdcFlow PipelineBuilder::autoCdc(const AutoCdcSpec& spec, pipeline::Identifier name,
                                               pipeline::Identifier target, const Span& where) {
    pipeline::AutoCdcFlow f;
    f.name = std::move(name);
    f.target = std::move(target);
    f.once = spec.once;
    f.location = where.location;
    if (!spec.source.empty()) {
        f.source.name = withoutLivePrefix(spec.source.joined());
        f.source.stream = spec.sourceStream;
        f.source.location = spec.source.span.location;
    }
    for (const auto& k : spec.keys)
        f.keys.push_back(identifier(k));
    if (spec.ignoreNullUpdates) {
        pipeline::ColumnSelection all;
        all.mode = pipeline::ColumnSelection::Mode::All;
        f.ignoreNullUpdates = spec.ignoreNullOn ? selection(*spec.ignoreNullOn) : all;
    }
    if (spec.applyAsDelete)
        f.applyAsDelete = expression(*spec.applyAsDelete);
    if (spec.applyAsTruncate)
        f.applyAsTruncate = expression(*spec.applyAsTruncate);
    if (spec.sequenceBy) {
        const Expr& seq = *spec.sequenceBy;
        if (seq.kind == ExprKind::Function && seq.name.parts.size() == 1 && seq.name.parts[0] == "struct") {
            f.sequenceIsStruct = true;
            for (std::size_t i = 0; i < seq.args.size(); ++i) {
                f.sequenceBy.push_back(expression(seq.args[i]));
                f.sequenceFieldNames.push_back(
                    f.sequenceBy.back().columnName.value_or("col" + std::to_string(i + 1)));
            }
            if (seq.args.empty())
                error("SEQUENCE BY STRUCT() needs at least one field", seq.span.location);
        } else {
            f.sequenceBy.push_back(expression(seq));
        }
    }
    if (spec.systemSequenceBy || (spec.storedAs && spec.storedAs->bitemporal()))
        error("bitemporal AUTO CDC (SYSTEM SEQUENCE BY, STORED AS BITEMPORAL) is not supported by the "
              "simulator",
              spec.systemSequenceBy ? spec.systemSequenceBy->span.location : spec.storedAs->span.location);
    if (spec.columns)
        f.columns = selection(*spec.columns);
    if (spec.storedAs) {
        f.scdType = spec.storedAs->scdType.value_or(pipeline::ScdType::Type1);
        f.storedAsLocation = spec.storedAs->span.location;
    }
    if (spec.trackHistory)
        f.trackHistory = selection(*spec.trackHistory);
    if (spec.columnsToUpdate)
        f.columnsToUpdate = identifier(*spec.columnsToUpdate);
    f.fromSnapshot = spec.fromSnapshot;
    if (spec.snapshotQuery) {
        f.snapshotQuery = query(*spec.snapshotQuery);
    } else if (spec.fromSnapshot) {
        // FROM SNAPSHOT table: the snapshot is the whole table.
        Query whole;
        whole.span = spec.source.span;
        SelectItem star;
        star.expr.kind = ExprKind::Star;
        whole.body.select.items.push_back(star);
        TableRef from;
        from.kind = TableRefKind::Table;
        from.name = spec.source;
        from.span = spec.source.span;
        whole.body.select.from = std::move(from);
        f.snapshotQuery = query(whole);
    }
    if (spec.versionQuery)
        f.versionQuery = query(*spec.versionQuery);
    return f;
}

void PipelineBuilder::add(const Statement& st, std::vector<Diagnostic>& diagnostics) {
    m_diagnostics = &diagnostics;
    const SourceLocation& where = st.span.location;
    if (auto* s = std::get_if<StreamingTableStmt>(&st.body)) {
        pipeline::StreamingTable t;
        t.name = identifier(s->name);
        t.location = where;
        t.comment = s->comment.value_or("");
        for (const auto& p : s->properties)
            t.properties[p.key] = p.value;
        warnExpectations(s->expectations);
        for (const auto& c : s->columns) {
            pipeline::ColumnSpec spec;
            spec.name = c.name.name;
            spec.type = DataType::parse(c.type).value_or(DataType::of(DataType::Kind::String));
            spec.notNull = c.notNull;
            spec.comment = c.comment.value_or("");
            spec.location = c.name.span.location;
            t.schema.push_back(std::move(spec));
        }
        if (s->autoCdc)
            m_pipeline.cdcFlows.push_back(autoCdc(*s->autoCdc, t.name, t.name, st.span));
        else if (s->query) {
            pipeline::AppendFlow a;
            a.name = t.name;
            a.target = t.name;
            a.once = s->flowInsertOnce;
            a.query = query(*s->query);
            a.location = where;
            m_pipeline.appendFlows.push_back(std::move(a));
        }
        m_pipeline.streamingTables.push_back(std::move(t));
    } else if (auto* s = std::get_if<CreateFlowStmt>(&st.body)) {
        if (s->autoCdc) {
            m_pipeline.cdcFlows.push_back(
                autoCdc(*s->autoCdc, identifier(s->name), identifier(*s->autoCdc->target), st.span));
        } else {
            pipeline::AppendFlow a;
            a.name = identifier(s->name);
            a.target = identifier(s->insertTarget);
            a.once = s->insertOnce;
            a.query = query(*s->insertQuery);
            a.location = where;
            m_pipeline.appendFlows.push_back(std::move(a));
        }
    } else if (auto* s = std::get_if<ApplyChangesStmt>(&st.body)) {
        pipeline::Identifier target = identifier(*s->spec.target);
        pipeline::AutoCdcFlow f = autoCdc(s->spec, target, target, st.span);
        f.legacySyntax = true;
        m_pipeline.cdcFlows.push_back(std::move(f));
    } else if (auto* s = std::get_if<ViewStmt>(&st.body)) {
        warnExpectations(s->expectations);
        pipeline::View v;
        v.name = identifier(s->name);
        v.materialized = s->materialized;
        v.temporary = s->temporary || (s->live && !s->liveTable);
        v.query = query(s->query);
        v.comment = s->comment.value_or("");
        v.location = where;
        m_pipeline.views.push_back(std::move(v));
    } else {
        const char* kind = std::holds_alternative<QueryStmt>(st.body) ? "a query" : "source SQL";
        error(std::string("this is ") + kind +
                  ", not a pipeline definition (CREATE STREAMING TABLE, CREATE FLOW, CREATE VIEW, CREATE "
                  "MATERIALIZED "
                  "VIEW, APPLY CHANGES INTO); run source SQL as a source script",
              where);
    }
    m_diagnostics = nullptr;
}

bool PipelineParse::hasErrors() const {
    for (const auto& d : diagnostics)
        if (d.severity == Severity::Error)
            return true;
    return false;
}

std::optional<Diagnostic> PipelineParse::firstError() const {
    for (const auto& d : diagnostics)
        if (d.severity == Severity::Error)
            return d;
    return std::nullopt;
}

PipelineParse parsePipeline(std::string_view text, const std::string& file) {
    PipelineParse out;
    ParsedScript script = Parser(text, file).parseScript();
    out.diagnostics = std::move(script.diagnostics);
    PipelineBuilder builder;
    for (const auto& st : script.statements)
        builder.add(st, out.diagnostics);
    out.pipeline = builder.take();
    // Report in text order whatever stage found the problem.
    std::stable_sort(
        out.diagnostics.begin(), out.diagnostics.end(),
        [](const Diagnostic& a, const Diagnostic& b) { return a.location.offset < b.location.offset; });
    return out;
}

} // namespace cdc::sql
