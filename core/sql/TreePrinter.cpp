#include "core/sql/TreePrinter.h"

#include "core/sql/Printer.h"

namespace cdc::sql {

namespace {

/// An atom (`head` alone) or a list `(head kids...)`; rendered flat when it fits, else one kid a line.
struct Node {
    std::string head;
    std::vector<Node> kids;
    bool list = false;
};

std::string dashed(std::string words) {
    for (auto& c : words)
        if (c == ' ')
            c = '-';
    return words;
}

template <class T, class F> std::vector<Node> each(const std::vector<T>& items, F&& node) {
    std::vector<Node> out;
    out.reserve(items.size());
    for (const auto& item : items)
        out.push_back(node(item));
    return out;
}

std::string flat(const Node& n) {
    if (!n.list)
        return n.head;
    std::string out = "(" + n.head;
    for (const auto& k : n.kids)
        out += " " + flat(k);
    return out + ")";
}

std::string pretty(const Node& n, std::size_t indent, std::size_t width) {
    std::string line = flat(n);
    if (!n.list || indent + line.size() <= width)
        return line;
    // Leading atoms (names, flags) stay on the head's line: `(flow apply_cdc` reads better alone.
    std::string out = "(" + n.head;
    std::size_t i = 0;
    for (; i < n.kids.size() && !n.kids[i].list; ++i)
        out += " " + n.kids[i].head;
    for (; i < n.kids.size(); ++i)
        out += "\n" + std::string(indent + 2, ' ') + pretty(n.kids[i], indent + 2, width);
    return out + ")";
}

class Builder {
public:
    explicit Builder(bool positions) : m_positions(positions) {}

    Node statement(const Statement& st) const;
    Node query(const Query& q) const;
    Node expr(const Expr& e) const;

private:
    std::string at(const Span* span) const {
        if (!m_positions || !span || !span->location.valid())
            return {};
        const SourceLocation& l = span->location;
        return "@" + std::to_string(l.line) + ":" + std::to_string(l.column) + "+" + std::to_string(l.length);
    }
    Node atom(std::string text, const Span* span = nullptr) const { return {text + at(span), {}, false}; }
    Node list(std::string head, const Span* span, std::vector<Node> kids = {}) const {
        return {head + at(span), std::move(kids), true};
    }
    static void flag(std::vector<Node>& kids, bool on, const char* word) {
        if (on)
            kids.push_back({word, {}, false});
    }
    Node ident(const Ident& i) const { return atom(Printer::identifier(i.name), &i.span); }
    Node name(const Name& n) const { return atom(Printer::name(n), &n.span); }
    std::vector<Node> idents(const std::vector<Ident>& ids) const;
    std::vector<Node> words(const std::vector<std::string>& names) const;
    std::vector<Node> exprs(const std::vector<Expr>& es) const;
    Node orderBy(const std::vector<OrderItem>& items) const;
    Node window(const WindowSpec& w, const char* head) const;
    Node term(const QueryTerm& t) const;
    Node select(const Select& s, const Span& span) const;
    Node tableRef(const TableRef& t) const;
    std::vector<Node> columnSel(const ColumnSel& sel) const;
    Node autoCdc(const AutoCdcSpec& spec, const char* head) const;
    void tableParts(std::vector<Node>& kids, const std::vector<ColumnDef>& columns,
                    const std::vector<Expectation>& expectations, const std::optional<std::string>& comment,
                    const std::vector<Property>& properties) const;

    bool m_positions;
};

std::vector<Node> Builder::idents(const std::vector<Ident>& ids) const {
    return each(ids, [&](const Ident& i) { return ident(i); });
}

std::vector<Node> Builder::words(const std::vector<std::string>& names) const {
    return each(names, [&](const std::string& n) { return atom(Printer::identifier(n)); });
}

std::vector<Node> Builder::exprs(const std::vector<Expr>& es) const {
    return each(es, [&](const Expr& e) { return expr(e); });
}

Node Builder::expr(const Expr& e) const {
    const Span* span = &e.span;
    std::vector<Node> args = exprs(e.args);
    const std::string no = e.negated ? "NOT-" : "";
    switch (e.kind) {
    case ExprKind::Literal:
        switch (e.literalKind) {
        case LiteralKind::Null:
            return atom("NULL", span);
        case LiteralKind::String:
            return atom(Printer::stringLiteral(e.text), span);
        default:
            return atom(e.text, span);
        }
    case ExprKind::Column:
        return atom(Printer::name(e.name), span);
    case ExprKind::Star:
        if (!e.args.empty())
            return list(e.name.empty() ? "*" : Printer::name(e.name) + ".*", span,
                        {list("EXCEPT", nullptr, std::move(args))});
        return atom(e.name.empty() ? "*" : Printer::name(e.name) + ".*", span);
    case ExprKind::Unary:
    case ExprKind::Binary:
        return list(e.text, span, std::move(args));
    case ExprKind::Function:
        if (e.distinct)
            args.insert(args.begin(), atom("DISTINCT"));
        if (e.ignoreNulls)
            args.push_back(atom("IGNORE-NULLS"));
        if (e.over)
            args.push_back(window(*e.over, "over"));
        return list(Printer::name(e.name), span, std::move(args));
    case ExprKind::Case: {
        std::vector<Node> kids;
        std::size_t i = 0;
        if (e.hasCaseOperand)
            kids.push_back(args[i++]);
        const std::size_t pairsEnd = args.size() - (e.hasElse ? 1 : 0);
        for (; i + 1 < pairsEnd; i += 2)
            kids.push_back(list("WHEN", nullptr, {args[i], args[i + 1]}));
        if (e.hasElse)
            kids.push_back(list("ELSE", nullptr, {args.back()}));
        return list("CASE", span, std::move(kids));
    }
    case ExprKind::Cast:
        args.push_back(atom(e.text));
        return list("CAST", span, std::move(args));
    case ExprKind::InList:
        return list(no + "IN", span, std::move(args));
    case ExprKind::InQuery:
        args.push_back(query(*e.query));
        return list(no + "IN", span, std::move(args));
    case ExprKind::Between:
        return list(no + "BETWEEN", span, std::move(args));
    case ExprKind::Like:
        if (args.size() > 2)
            args[2] = list("ESCAPE", nullptr, {args[2]});
        return list(no + e.text, span, std::move(args));
    case ExprKind::IsNull:
        return list(e.negated ? "IS-NOT-NULL" : "IS-NULL", span, std::move(args));
    case ExprKind::IsDistinct:
        return list(e.negated ? "IS-NOT-DISTINCT-FROM" : "IS-DISTINCT-FROM", span, std::move(args));
    case ExprKind::Exists:
        return list("EXISTS", span, {query(*e.query)});
    case ExprKind::Subquery:
        return list("SUBQUERY", span, {query(*e.query)});
    case ExprKind::NamedArg:
        args.insert(args.begin(), atom(Printer::identifier(e.text)));
        return list("=>", span, std::move(args));
    case ExprKind::Field:
        args.push_back(atom(Printer::identifier(e.text)));
        return list(".", span, std::move(args));
    case ExprKind::Index:
        return list("[]", span, std::move(args));
    case ExprKind::Interval: {
        std::vector<Node> kids;
        const std::vector<std::string> units = intervalUnits(e);
        for (std::size_t i = 0; i < args.size() && i < units.size(); ++i) {
            kids.push_back(args[i]);
            kids.push_back(atom(units[i]));
        }
        return list("INTERVAL", span, std::move(kids));
    }
    }
    return atom("?");
}

// --- queries -------------------------------------------------------------------------------------------

Node Builder::query(const Query& q) const {
    Node body = term(q.body);
    if (q.ctes.empty() && q.orderBy.empty() && !q.limit && !q.offset)
        return body; // a plain query is its body: (select ...), (values ...), (UNION ...)
    std::vector<Node> kids;
    if (!q.ctes.empty()) {
        std::vector<Node> ctes;
        for (const auto& c : q.ctes) {
            std::vector<Node> parts{ident(c.name)};
            if (!c.columns.empty())
                parts.push_back(list("columns", nullptr, words(c.columns)));
            parts.push_back(query(*c.query));
            ctes.push_back(list("cte", nullptr, std::move(parts)));
        }
        kids.push_back(list("with", nullptr, std::move(ctes)));
    }
    kids.push_back(std::move(body));
    if (!q.orderBy.empty())
        kids.push_back(orderBy(q.orderBy));
    if (q.limit)
        kids.push_back(list("limit", nullptr, {expr(*q.limit)}));
    if (q.offset)
        kids.push_back(list("offset", nullptr, {expr(*q.offset)}));
    return list("query", &q.span, std::move(kids));
}

Node Builder::orderBy(const std::vector<OrderItem>& items) const {
    std::vector<Node> kids;
    for (const auto& o : items) {
        if (!o.descending && o.nulls == NullsOrder::Default) {
            kids.push_back(expr(o.expr));
            continue;
        }
        std::vector<Node> parts{expr(o.expr)};
        flag(parts, o.nulls == NullsOrder::First, "NULLS-FIRST");
        flag(parts, o.nulls == NullsOrder::Last, "NULLS-LAST");
        kids.push_back(list(o.descending ? "DESC" : "ASC", nullptr, std::move(parts)));
    }
    return list("order-by", nullptr, std::move(kids));
}

/// `(over w)`, `(over (partition-by ...) (order-by ...) (ROWS start end))`; bounds as UNBOUNDED-PRECEDING,
/// (PRECEDING n), CURRENT-ROW, (FOLLOWING n), UNBOUNDED-FOLLOWING.
Node Builder::window(const WindowSpec& w, const char* head) const {
    std::vector<Node> kids;
    if (!w.baseName.empty())
        kids.push_back(atom(Printer::identifier(w.baseName)));
    if (!w.partitionBy.empty())
        kids.push_back(list("partition-by", nullptr, exprs(w.partitionBy)));
    if (!w.orderBy.empty())
        kids.push_back(orderBy(w.orderBy));
    if (w.frame) {
        auto bound = [&](const FrameBound& b) {
            switch (b.kind) {
            case FrameBound::Kind::UnboundedPreceding:
                return atom("UNBOUNDED-PRECEDING");
            case FrameBound::Kind::Preceding:
                return list("PRECEDING", nullptr, {expr(*b.offset)});
            case FrameBound::Kind::CurrentRow:
                return atom("CURRENT-ROW");
            case FrameBound::Kind::Following:
                return list("FOLLOWING", nullptr, {expr(*b.offset)});
            case FrameBound::Kind::UnboundedFollowing:
                return atom("UNBOUNDED-FOLLOWING");
            }
            return atom("?");
        };
        kids.push_back(list(w.frame->unit, nullptr, {bound(w.frame->start), bound(w.frame->end)}));
    }
    return list(head, &w.span, std::move(kids));
}

Node Builder::term(const QueryTerm& t) const {
    switch (t.kind) {
    case QueryTerm::Kind::Select:
        return select(t.select, t.span);
    case QueryTerm::Kind::Values: {
        std::vector<Node> rows;
        for (const auto& r : t.rows)
            rows.push_back(list("row", nullptr, exprs(r)));
        return list("values", &t.span, std::move(rows));
    }
    case QueryTerm::Kind::SetOp:
        return list(dashed(t.setOp), &t.span, {term(*t.left), term(*t.right)});
    case QueryTerm::Kind::Nested:
        return query(*t.nested);
    }
    return atom("?");
}

Node Builder::select(const Select& s, const Span& span) const {
    std::vector<Node> kids;
    flag(kids, s.distinct, "DISTINCT");
    for (const auto& item : s.items) {
        if (item.alias.empty())
            kids.push_back(expr(item.expr));
        else
            kids.push_back(list("AS", nullptr, {expr(item.expr), atom(Printer::identifier(item.alias))}));
    }
    if (s.from)
        kids.push_back(list("from", nullptr, {tableRef(*s.from)}));
    if (s.where)
        kids.push_back(list("where", nullptr, {expr(*s.where)}));
    if (!s.groupBy.empty())
        kids.push_back(list("group-by", nullptr, exprs(s.groupBy)));
    if (s.having)
        kids.push_back(list("having", nullptr, {expr(*s.having)}));
    if (s.qualify)
        kids.push_back(list("qualify", nullptr, {expr(*s.qualify)}));
    if (!s.windows.empty()) {
        std::vector<Node> named;
        for (const auto& w : s.windows)
            named.push_back(window(w.spec, Printer::identifier(w.name.name).c_str()));
        kids.push_back(list("window", nullptr, std::move(named)));
    }
    return list("select", &span, std::move(kids));
}

Node Builder::tableRef(const TableRef& t) const {
    const bool aliased = !t.alias.empty();
    // The reference's own position goes on its outermost node: the alias when there is one.
    const Span* own = aliased ? nullptr : &t.span;
    Node n;
    switch (t.kind) {
    case TableRefKind::Table:
        n = t.stream ? list("STREAM", own, {name(t.name)}) : atom(Printer::name(t.name), own);
        break;
    case TableRefKind::Subquery:
        n = query(*t.query);
        break;
    case TableRefKind::Function:
        n = list(Printer::name(t.name), own, exprs(t.args));
        break;
    case TableRefKind::Join: {
        std::vector<Node> kids{tableRef(*t.left), tableRef(*t.right)};
        if (t.condition)
            kids.push_back(list("ON", nullptr, {expr(*t.condition)}));
        if (!t.usingColumns.empty())
            kids.push_back(list("USING", nullptr, words(t.usingColumns)));
        return list(t.joinType == "," ? "COMMA-JOIN" : dashed(t.joinType) + "-JOIN", &t.span,
                    std::move(kids));
    }
    }
    if (!aliased)
        return n;
    std::vector<Node> kids{std::move(n), atom(Printer::identifier(t.alias))};
    if (!t.columnAliases.empty())
        kids.push_back(list("columns", nullptr, words(t.columnAliases)));
    return list("AS", &t.span, std::move(kids));
}

// --- statements ----------------------------------------------------------------------------------------

std::vector<Node> Builder::columnSel(const ColumnSel& sel) const {
    switch (sel.mode) {
    case ColumnSel::Mode::All:
        return {atom("*")};
    case ColumnSel::Mode::Except:
        return {list("EXCEPT", nullptr, idents(sel.columns))};
    case ColumnSel::Mode::Only:
        break;
    }
    return idents(sel.columns);
}

Node Builder::autoCdc(const AutoCdcSpec& spec, const char* head) const {
    std::vector<Node> kids;
    flag(kids, spec.once, "ONCE");
    if (spec.target)
        kids.push_back(list("into", nullptr, {name(*spec.target)}));
    if (spec.fromSnapshot) {
        kids.push_back(list("from-snapshot", nullptr,
                            {spec.snapshotQuery ? query(*spec.snapshotQuery) : name(spec.source)}));
        if (spec.versionQuery)
            kids.push_back(list("with-version", nullptr, {query(*spec.versionQuery)}));
    } else {
        Node source = name(spec.source);
        kids.push_back(
            list("from", nullptr, {spec.sourceStream ? list("STREAM", nullptr, {source}) : source}));
    }
    kids.push_back(list("keys", nullptr, idents(spec.keys)));
    if (spec.ignoreNullUpdates) {
        std::vector<Node> on;
        if (spec.ignoreNullOn)
            on.push_back(list("on", &spec.ignoreNullOn->span, columnSel(*spec.ignoreNullOn)));
        kids.push_back(list("ignore-null-updates", nullptr, std::move(on)));
    }
    if (spec.applyAsDelete)
        kids.push_back(list("apply-as-delete-when", nullptr, {expr(*spec.applyAsDelete)}));
    if (spec.applyAsTruncate)
        kids.push_back(list("apply-as-truncate-when", nullptr, {expr(*spec.applyAsTruncate)}));
    if (spec.sequenceBy)
        kids.push_back(list("sequence-by", nullptr, {expr(*spec.sequenceBy)}));
    if (spec.systemSequenceBy)
        kids.push_back(list("system-sequence-by", nullptr, {expr(*spec.systemSequenceBy)}));
    if (spec.columns)
        kids.push_back(list("columns", &spec.columns->span, columnSel(*spec.columns)));
    if (spec.storedAs)
        kids.push_back(
            list("stored-as", &spec.storedAs->span,
                 {atom(spec.storedAs->bitemporal()
                           ? std::string("BITEMPORAL")
                           : "SCD-TYPE-" + std::to_string(static_cast<int>(*spec.storedAs->scdType)))}));
    if (spec.trackHistory)
        kids.push_back(list("track-history-on", &spec.trackHistory->span, columnSel(*spec.trackHistory)));
    if (spec.columnsToUpdate)
        kids.push_back(list("columns-to-update", nullptr, {ident(*spec.columnsToUpdate)}));
    return list(head, &spec.span, std::move(kids));
}

void Builder::tableParts(std::vector<Node>& kids, const std::vector<ColumnDef>& columns,
                         const std::vector<Expectation>& expectations,
                         const std::optional<std::string>& comment,
                         const std::vector<Property>& properties) const {
    if (!columns.empty()) {
        std::vector<Node> defs;
        for (const auto& c : columns) {
            std::vector<Node> parts;
            if (!c.type.empty())
                parts.push_back(atom(c.type));
            flag(parts, c.notNull, "NOT-NULL");
            if (c.comment)
                parts.push_back(list("comment", nullptr, {atom(Printer::stringLiteral(*c.comment))}));
            defs.push_back(list(Printer::identifier(c.name.name), &c.name.span, std::move(parts)));
        }
        kids.push_back(list("columns", nullptr, std::move(defs)));
    }
    for (const auto& e : expectations) {
        std::vector<Node> parts{ident(e.name), expr(e.condition)};
        if (!e.onViolation.empty())
            parts.push_back(atom(dashed(e.onViolation)));
        kids.push_back(list("expect", nullptr, std::move(parts)));
    }
    if (comment)
        kids.push_back(list("comment", nullptr, {atom(Printer::stringLiteral(*comment))}));
    if (!properties.empty()) {
        std::vector<Node> props;
        for (const auto& p : properties)
            props.push_back(list(
                "=", nullptr, {atom(Printer::stringLiteral(p.key)), atom(Printer::stringLiteral(p.value))}));
        kids.push_back(list("properties", nullptr, std::move(props)));
    }
}

Node Builder::statement(const Statement& st) const {
    const Span* span = &st.span;
    std::vector<Node> kids;
    if (const auto* s = std::get_if<CreateSchemaStmt>(&st.body)) {
        flag(kids, s->ifNotExists, "IF-NOT-EXISTS");
        kids.push_back(name(s->name));
        return list("create-schema", span, std::move(kids));
    }
    if (const auto* s = std::get_if<CreateTableStmt>(&st.body)) {
        flag(kids, s->orReplace, "OR-REPLACE");
        flag(kids, s->ifNotExists, "IF-NOT-EXISTS");
        kids.push_back(name(s->name));
        tableParts(kids, s->columns, {}, s->comment, s->properties);
        if (s->asQuery)
            kids.push_back(list("as", nullptr, {query(*s->asQuery)}));
        return list("create-table", span, std::move(kids));
    }
    if (const auto* s = std::get_if<InsertStmt>(&st.body)) {
        flag(kids, s->overwrite, "OVERWRITE");
        flag(kids, s->byName, "BY-NAME");
        kids.push_back(name(s->table));
        if (!s->columns.empty())
            kids.push_back(list("columns", nullptr, idents(s->columns)));
        kids.push_back(query(s->query));
        return list("insert", span, std::move(kids));
    }
    if (const auto* s = std::get_if<UpdateStmt>(&st.body)) {
        kids.push_back(name(s->table));
        if (!s->alias.empty())
            kids.push_back(list("alias", nullptr, {atom(Printer::identifier(s->alias))}));
        std::vector<Node> sets;
        for (const auto& a : s->assignments)
            sets.push_back(list("=", nullptr, {ident(a.column), expr(a.value)}));
        kids.push_back(list("set", nullptr, std::move(sets)));
        if (s->where)
            kids.push_back(list("where", nullptr, {expr(*s->where)}));
        return list("update", span, std::move(kids));
    }
    if (const auto* s = std::get_if<DeleteStmt>(&st.body)) {
        kids.push_back(name(s->table));
        if (!s->alias.empty())
            kids.push_back(list("alias", nullptr, {atom(Printer::identifier(s->alias))}));
        if (s->where)
            kids.push_back(list("where", nullptr, {expr(*s->where)}));
        return list("delete", span, std::move(kids));
    }
    if (const auto* s = std::get_if<TruncateStmt>(&st.body))
        return list("truncate", span, {name(s->table)});
    if (const auto* s = std::get_if<DropTableStmt>(&st.body)) {
        flag(kids, s->ifExists, "IF-EXISTS");
        kids.push_back(name(s->table));
        return list("drop-table", span, std::move(kids));
    }
    if (const auto* s = std::get_if<StreamingTableStmt>(&st.body)) {
        flag(kids, s->orRefresh, "OR-REFRESH");
        flag(kids, s->isPrivate, "PRIVATE");
        flag(kids, s->live, "LIVE");
        kids.push_back(name(s->name));
        tableParts(kids, s->columns, s->expectations, s->comment, s->properties);
        if (s->autoCdc)
            kids.push_back(autoCdc(*s->autoCdc, "flow-auto-cdc"));
        else if (s->flowInsert)
            kids.push_back(
                list(s->flowInsertOnce ? "flow-insert-once" : "flow-insert", nullptr, {query(*s->query)}));
        else if (s->query)
            kids.push_back(list("as", nullptr, {query(*s->query)}));
        return list("streaming-table", span, std::move(kids));
    }
    if (const auto* s = std::get_if<CreateFlowStmt>(&st.body)) {
        kids.push_back(ident(s->name));
        if (s->comment)
            kids.push_back(list("comment", nullptr, {atom(Printer::stringLiteral(*s->comment))}));
        if (s->autoCdc)
            kids.push_back(autoCdc(*s->autoCdc, "auto-cdc"));
        else
            kids.push_back(list(s->insertOnce ? "insert-into-once" : "insert-into", nullptr,
                                {name(s->insertTarget), query(*s->insertQuery)}));
        return list("flow", span, std::move(kids));
    }
    if (const auto* s = std::get_if<ApplyChangesStmt>(&st.body)) {
        Node n = autoCdc(s->spec, "apply-changes");
        n.head = "apply-changes" + at(span); // the statement's position, not the clause list's
        return n;
    }
    if (const auto* s = std::get_if<ViewStmt>(&st.body)) {
        flag(kids, s->orRefresh, "OR-REFRESH");
        flag(kids, s->orReplace, "OR-REPLACE");
        flag(kids, s->isPrivate, "PRIVATE");
        flag(kids, s->temporary, "TEMPORARY");
        flag(kids, s->live && !s->liveTable, "LIVE");
        kids.push_back(name(s->name));
        tableParts(kids, s->columns, s->expectations, s->comment, s->properties);
        kids.push_back(list("as", nullptr, {query(s->query)}));
        const char* head = s->liveTable ? "live-table" : s->materialized ? "materialized-view" : "view";
        return list(head, span, std::move(kids));
    }
    return query(std::get<QueryStmt>(st.body).query);
}

std::string render(const Node& n, const TreePrinter::Options& options) {
    return pretty(n, 0, static_cast<std::size_t>(options.width));
}

} // namespace

std::string TreePrinter::statement(const Statement& st, const Options& options) {
    return render(Builder(options.positions).statement(st), options);
}

std::string TreePrinter::query(const Query& q, const Options& options) {
    return render(Builder(options.positions).query(q), options);
}

std::string TreePrinter::expr(const Expr& e, const Options& options) {
    return render(Builder(options.positions).expr(e), options);
}

} // namespace cdc::sql
