#include "core/sql/ReferenceRenamer.h"

#include "core/common/Text.h"
#include "core/sql/PipelineBuilder.h"

namespace cdc::sql {

namespace {

/// Whether the FROM tree reads `from` without an alias, so that its columns may be qualified by the
/// table's own last name part (`users.userId`).
bool readsUnaliased(const TableRef& ref, const std::string& from) {
    switch (ref.kind) {
    case TableRefKind::Table:
        return ref.alias.empty() && equalsIgnoreCase(withoutLivePrefix(ref.name.joined()), from);
    case TableRefKind::Join:
        return (ref.left && readsUnaliased(*ref.left, from)) ||
               (ref.right && readsUnaliased(*ref.right, from));
    default:
        return false;
    }
}

std::string lastPart(const std::string& name) {
    auto dot = name.rfind('.');
    return dot == std::string::npos ? name : name.substr(dot + 1);
}

} // namespace

std::vector<std::string> splitQualifiedName(std::string_view name) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (;;) {
        std::size_t dot = name.find('.', start);
        parts.emplace_back(name.substr(start, dot == std::string_view::npos ? dot : dot - start));
        if (dot == std::string_view::npos)
            return parts;
        start = dot + 1;
    }
}

ReferenceRenamer::ReferenceRenamer(std::string from, std::vector<std::string> to)
    : m_from(std::move(from)), m_to(std::move(to)) {}

bool ReferenceRenamer::name(Name& name) {
    if (name.empty() || !equalsIgnoreCase(withoutLivePrefix(name.joined()), m_from))
        return false;
    std::vector<std::string> parts;
    if (name.parts.size() > 1 && equalsIgnoreCase(name.parts.front(), "live"))
        parts.push_back(name.parts.front());
    parts.insert(parts.end(), m_to.begin(), m_to.end());
    name.parts = std::move(parts);
    ++m_renamed;
    return true;
}

bool ReferenceRenamer::statement(Statement& statement) {
    m_renamed = 0;
    if (auto* s = std::get_if<StreamingTableStmt>(&statement.body)) {
        if (s->autoCdc)
            spec(*s->autoCdc);
        if (s->query)
            query(*s->query);
    } else if (auto* f = std::get_if<CreateFlowStmt>(&statement.body)) {
        if (f->autoCdc)
            spec(*f->autoCdc);
        name(f->insertTarget);
        if (f->insertQuery)
            query(*f->insertQuery);
    } else if (auto* a = std::get_if<ApplyChangesStmt>(&statement.body)) {
        spec(a->spec);
    } else if (auto* v = std::get_if<ViewStmt>(&statement.body)) {
        query(v->query);
    }
    return m_renamed > 0;
}

void ReferenceRenamer::spec(AutoCdcSpec& spec) {
    if (spec.target)
        name(*spec.target);
    name(spec.source);
    for (Box<Query>* q : {&spec.snapshotQuery, &spec.versionQuery})
        if (*q)
            query(**q);
    for (Box<Expr>* e : {&spec.applyAsDelete, &spec.applyAsTruncate, &spec.sequenceBy})
        if (*e)
            expr(**e);
}

void ReferenceRenamer::query(Query& query) {
    // Each CTE sees those before it; one named like the dataset hides it from everything after.
    for (auto& cte : query.ctes) {
        if (cte.query)
            this->query(*cte.query);
        if (equalsIgnoreCase(cte.name.name, m_from))
            return;
    }
    term(query.body);
    for (auto& item : query.orderBy)
        expr(item.expr);
}

void ReferenceRenamer::term(QueryTerm& term) {
    switch (term.kind) {
    case QueryTerm::Kind::Select:
        select(term.select);
        break;
    case QueryTerm::Kind::Values:
        for (auto& row : term.rows)
            each(row, &ReferenceRenamer::expr);
        break;
    case QueryTerm::Kind::SetOp:
        if (term.left)
            this->term(*term.left);
        if (term.right)
            this->term(*term.right);
        break;
    case QueryTerm::Kind::Nested:
        if (term.nested)
            query(*term.nested);
        break;
    }
}

void ReferenceRenamer::select(Select& select) {
    // Columns qualified by the renamed table's own name follow it, inside this SELECT and its subqueries.
    const std::string oldQualifier = m_qualifier;
    if (select.from && readsUnaliased(*select.from, m_from))
        m_qualifier = lastPart(m_from);
    if (select.from)
        tableRef(*select.from);
    for (auto& item : select.items)
        expr(item.expr);
    for (Box<Expr>* e : {&select.where, &select.having, &select.qualify})
        if (*e)
            expr(**e);
    each(select.groupBy, &ReferenceRenamer::expr);
    for (auto& w : select.windows)
        window(w.spec);
    m_qualifier = oldQualifier;
}

void ReferenceRenamer::tableRef(TableRef& ref) {
    switch (ref.kind) {
    case TableRefKind::Table:
        name(ref.name);
        break;
    case TableRefKind::Subquery:
        if (ref.query)
            query(*ref.query);
        break;
    case TableRefKind::Function:
        if (ref.name.joined() == "table_changes" && !ref.args.empty() &&
            ref.args[0].kind == ExprKind::Literal && ref.args[0].literalKind == LiteralKind::String) {
            Name target;
            target.parts = splitQualifiedName(ref.args[0].text);
            if (name(target))
                ref.args[0].text = target.joined();
        }
        each(ref.args, &ReferenceRenamer::expr);
        break;
    case TableRefKind::Join:
        if (ref.left)
            tableRef(*ref.left);
        if (ref.right)
            tableRef(*ref.right);
        if (ref.condition)
            expr(*ref.condition);
        break;
    }
}

void ReferenceRenamer::expr(Expr& e) {
    bool qualified = e.kind == ExprKind::Column ? e.name.parts.size() > 1 : e.kind == ExprKind::Star;
    if (qualified && !m_qualifier.empty() && !e.name.empty() &&
        equalsIgnoreCase(e.name.parts.front(), m_qualifier) && !equalsIgnoreCase(m_qualifier, m_to.back())) {
        e.name.parts.front() = m_to.back();
        ++m_renamed;
    }
    each(e.args, &ReferenceRenamer::expr);
    if (e.query)
        query(*e.query);
    if (e.over)
        window(*e.over);
}

void ReferenceRenamer::window(WindowSpec& w) {
    each(w.partitionBy, &ReferenceRenamer::expr);
    for (auto& item : w.orderBy)
        expr(item.expr);
}

} // namespace cdc::sql
