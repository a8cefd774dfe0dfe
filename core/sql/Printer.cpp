#include "core/sql/Printer.h"

#include "core/common/Text.h"
#include "core/sql/Parser.h"
#include "core/sql/SqlApi.h"

#include <cctype>

namespace cdc::sql {

namespace {

template <class T, class F> std::string join(const std::vector<T>& items, const std::string& sep, F&& f) {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i)
            out += sep;
        out += f(items[i]);
    }
    return out;
}

bool isComparison(const std::string& op) {
    return op == "=" || op == "!=" || op == "<" || op == "<=" || op == ">" || op == ">=" || op == "<=>";
}

// Binding strength, loosest first. Predicates (IN, BETWEEN, LIKE, IS ...) bind looser than
// comparisons: their operands are value expressions, comparisons included, and nothing compares a
// predicate's result without parentheses.
enum Precedence : int {
    kOr = 1,
    kAnd,
    kNot,
    kPredicate,
    kComparison,
    kBitOr,
    kBitXor,
    kBitAnd,
    kAdditive,
    kMultiplicative,
    kUnary,
    kPrimary
};

} // namespace

int precedenceOf(const Expr& e) {
    switch (e.kind) {
    case ExprKind::Binary:
        if (e.text == "OR")
            return kOr;
        if (e.text == "AND")
            return kAnd;
        if (isComparison(e.text))
            return kComparison;
        if (e.text == "|")
            return kBitOr;
        if (e.text == "^")
            return kBitXor;
        if (e.text == "&")
            return kBitAnd;
        if (e.text == "+" || e.text == "-" || e.text == "||")
            return kAdditive;
        return kMultiplicative;
    case ExprKind::Unary:
        return e.text == "NOT" ? kNot : kUnary;
    case ExprKind::InList:
    case ExprKind::InQuery:
    case ExprKind::Between:
    case ExprKind::Like:
    case ExprKind::IsNull:
    case ExprKind::IsDistinct:
        return kPredicate;
    case ExprKind::Interval: // `x - INTERVAL -1 DAY` reads back the same: a primary, whatever its values
        return kPrimary;
    case ExprKind::Literal:
        // A negative number must not glue onto a preceding '-' or act as a postfix base.
        return (!e.text.empty() && e.text[0] == '-') ? kUnary : kPrimary;
    default:
        return kPrimary;
    }
}

std::vector<std::string> intervalUnits(const Expr& interval) {
    std::vector<std::string> units;
    std::size_t pos = 0;
    while (pos < interval.text.size()) {
        std::size_t end = interval.text.find(' ', pos);
        units.push_back(interval.text.substr(pos, end == std::string::npos ? end : end - pos));
        pos = end == std::string::npos ? interval.text.size() : end + 1;
    }
    return units;
}

std::string Printer::identifier(std::string_view name) {
    bool plain = !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_');
    for (char c : name)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
            plain = false;
    if (plain && !isReservedWord(name)) {
        const std::string u = toUpper(name);
        if (u != "NULL" && u != "TRUE" && u != "FALSE")
            return std::string(name);
    }
    std::string out = "`";
    for (char c : name) {
        if (c == '`')
            out += '`';
        out += c;
    }
    return out + "`";
}

std::string Printer::name(const Name& n) {
    return join(n.parts, ".", [](const std::string& p) { return identifier(p); });
}

std::string Printer::stringLiteral(std::string_view value) {
    std::string out = "'";
    for (char c : value) {
        switch (c) {
        case '\'':
            out += "\\'";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\0':
            out += "\\0";
            break;
        default:
            out += c;
        }
    }
    return out + "'";
}

// --- expressions -------------------------------------------------------------------------------------------

std::string Printer::expr(const Expr& e) {
    return exprAt(e, 0);
}

std::string Printer::exprAt(const Expr& e, int minPrecedence) {
    std::string s;
    int p = precedenceOf(e);
    switch (e.kind) {
    case ExprKind::Literal:
        switch (e.literalKind) {
        case LiteralKind::Null:
            s = "NULL";
            break;
        case LiteralKind::Boolean:
            s = e.text;
            break;
        case LiteralKind::String:
            s = stringLiteral(e.text);
            break;
        default:
            s = e.text;
            break;
        }
        break;
    case ExprKind::Column:
        s = name(e.name);
        break;
    case ExprKind::Star:
        s = e.name.empty() ? "*" : name(e.name) + ".*";
        if (!e.args.empty())
            s += " EXCEPT (" + join(e.args, ", ", [](const Expr& a) { return expr(a); }) + ")";
        break;
    case ExprKind::Unary:
        if (e.text == "NOT") {
            s = "NOT " + exprAt(e.args[0], kNot);
        } else {
            std::string operand = exprAt(e.args[0], kUnary);
            // "- 2" stays a negation: the parser folds "-2" (no space) into a negative literal.
            const bool number =
                e.args[0].kind == ExprKind::Literal && (e.args[0].literalKind == LiteralKind::Integer ||
                                                        e.args[0].literalKind == LiteralKind::Decimal);
            const bool glued = !operand.empty() && (operand[0] == '-' || operand[0] == '+');
            s = e.text + (glued || (number && e.text == "-") ? " " : "") + operand;
        }
        break;
    case ExprKind::Binary: {
        s = exprAt(e.args[0], p) + " " + e.text + " " + exprAt(e.args[1], p + 1);
        break;
    }
    case ExprKind::Function:
        s = name(e.name) + "(" + (e.distinct ? "DISTINCT " : "") +
            join(e.args, ", ", [](const Expr& a) { return expr(a); }) + ")";
        if (e.ignoreNulls)
            s += " IGNORE NULLS";
        if (e.over)
            s += " OVER " + (e.over->nameOnly() ? identifier(e.over->baseName) : windowSpec(*e.over));
        break;
    case ExprKind::Case: {
        s = "CASE";
        std::size_t i = 0;
        if (e.hasCaseOperand)
            s += " " + expr(e.args[i++]);
        std::size_t pairsEnd = e.args.size() - (e.hasElse ? 1 : 0);
        for (; i + 1 < pairsEnd; i += 2)
            s += " WHEN " + expr(e.args[i]) + " THEN " + expr(e.args[i + 1]);
        if (e.hasElse)
            s += " ELSE " + expr(e.args.back());
        s += " END";
        break;
    }
    case ExprKind::Cast:
        s = "CAST(" + expr(e.args[0]) + " AS " + e.text + ")";
        break;
    case ExprKind::InList:
        s = exprAt(e.args[0], kComparison) + (e.negated ? " NOT IN (" : " IN (");
        for (std::size_t i = 1; i < e.args.size(); ++i)
            s += (i > 1 ? ", " : "") + expr(e.args[i]);
        s += ")";
        break;
    case ExprKind::InQuery:
        s = exprAt(e.args[0], kComparison) + (e.negated ? " NOT IN (" : " IN (") + queryWith(*e.query, " ") +
            ")";
        break;
    case ExprKind::Between:
        s = exprAt(e.args[0], kComparison) + (e.negated ? " NOT BETWEEN " : " BETWEEN ") +
            exprAt(e.args[1], kComparison) + " AND " + exprAt(e.args[2], kComparison);
        break;
    case ExprKind::Like:
        s = exprAt(e.args[0], kComparison) + (e.negated ? " NOT " : " ") + e.text + " " +
            exprAt(e.args[1], kComparison);
        if (e.args.size() > 2)
            s += " ESCAPE " + exprAt(e.args[2], kComparison);
        break;
    case ExprKind::IsNull:
        s = exprAt(e.args[0], kComparison) + (e.negated ? " IS NOT NULL" : " IS NULL");
        break;
    case ExprKind::IsDistinct:
        s = exprAt(e.args[0], kComparison) + (e.negated ? " IS NOT DISTINCT FROM " : " IS DISTINCT FROM ") +
            exprAt(e.args[1], kComparison);
        break;
    case ExprKind::Exists:
        s = "EXISTS (" + queryWith(*e.query, " ") + ")";
        break;
    case ExprKind::Subquery:
        s = "(" + queryWith(*e.query, " ") + ")";
        break;
    case ExprKind::NamedArg:
        s = identifier(e.text) + " => " + expr(e.args[0]);
        break;
    case ExprKind::Field: {
        // A column base would merge into a multi-part column name: keep it apart with parentheses.
        std::string base = exprAt(e.args[0], kPrimary);
        if (e.args[0].kind == ExprKind::Column || e.args[0].kind == ExprKind::Star)
            base = "(" + base + ")";
        s = base + "." + identifier(e.text);
        break;
    }
    case ExprKind::Index:
        s = exprAt(e.args[0], kPrimary) + "[" + expr(e.args[1]) + "]";
        break;
    case ExprKind::Interval: {
        s = "INTERVAL";
        const std::vector<std::string> units = intervalUnits(e);
        for (std::size_t i = 0; i < e.args.size() && i < units.size(); ++i)
            s += " " + expr(e.args[i]) + " " + units[i];
        break;
    }
    }
    if (p < minPrecedence)
        return "(" + s + ")";
    return s;
}

std::string Printer::orderItems(const std::vector<OrderItem>& items) {
    return join(items, ", ", [](const OrderItem& o) {
        std::string item = expr(o.expr);
        if (o.descending)
            item += " DESC";
        if (o.nulls == NullsOrder::First)
            item += " NULLS FIRST";
        else if (o.nulls == NullsOrder::Last)
            item += " NULLS LAST";
        return item;
    });
}

std::string Printer::windowSpec(const WindowSpec& w) {
    std::vector<std::string> parts;
    if (!w.baseName.empty())
        parts.push_back(identifier(w.baseName));
    if (!w.partitionBy.empty())
        parts.push_back("PARTITION BY " + join(w.partitionBy, ", ", [](const Expr& e) { return expr(e); }));
    if (!w.orderBy.empty())
        parts.push_back("ORDER BY " + orderItems(w.orderBy));
    if (w.frame) {
        auto bound = [](const FrameBound& b) -> std::string {
            switch (b.kind) {
            case FrameBound::Kind::UnboundedPreceding:
                return "UNBOUNDED PRECEDING";
            case FrameBound::Kind::Preceding:
                return exprAt(*b.offset, kBitOr) + " PRECEDING";
            case FrameBound::Kind::CurrentRow:
                return "CURRENT ROW";
            case FrameBound::Kind::Following:
                return exprAt(*b.offset, kBitOr) + " FOLLOWING";
            case FrameBound::Kind::UnboundedFollowing:
                return "UNBOUNDED FOLLOWING";
            }
            return {};
        };
        parts.push_back(w.frame->unit + " BETWEEN " + bound(w.frame->start) + " AND " + bound(w.frame->end));
    }
    return "(" + join(parts, " ", [](const std::string& p) { return p; }) + ")";
}

// --- queries
// --------------------------------------------------------------------------------------------------

std::string Printer::query(const Query& q) {
    return queryWith(q, "\n");
}

std::string Printer::queryWith(const Query& q, const std::string& nl) {
    std::string s;
    if (!q.ctes.empty()) {
        s += "WITH " + join(q.ctes, ", ", [&](const Cte& c) {
                 std::string cols = c.columns.empty() ? std::string()
                                                      : "(" + join(c.columns, ", ", [](const std::string& n) {
                                                            return identifier(n);
                                                        }) + ")";
                 return identifier(c.name.name) + cols + " AS (" + queryWith(*c.query, " ") + ")";
             });
        s += nl;
    }
    s += term(q.body, nl);
    if (!q.orderBy.empty())
        s += nl + "ORDER BY " + orderItems(q.orderBy);
    if (q.limit)
        s += nl + "LIMIT " + expr(*q.limit);
    if (q.offset)
        s += nl + "OFFSET " + expr(*q.offset);
    return s;
}

std::string Printer::term(const QueryTerm& t, const std::string& nl) {
    switch (t.kind) {
    case QueryTerm::Kind::Select:
        return select(t.select, nl);
    case QueryTerm::Kind::Values: {
        bool multiline = nl == "\n" && t.rows.size() > 1;
        auto row = [](const std::vector<Expr>& r) {
            return "(" + join(r, ", ", [](const Expr& e) { return expr(e); }) + ")";
        };
        return multiline ? "VALUES\n  " + join(t.rows, ",\n  ", row) : "VALUES " + join(t.rows, ", ", row);
    }
    case QueryTerm::Kind::SetOp:
        return term(*t.left, nl) + nl + t.setOp + nl + term(*t.right, nl);
    case QueryTerm::Kind::Nested:
        return "(" + queryWith(*t.nested, " ") + ")";
    }
    return {};
}

std::string Printer::select(const Select& s, const std::string& nl) {
    std::string out = s.distinct ? "SELECT DISTINCT " : "SELECT ";
    out += join(s.items, ", ", [](const SelectItem& item) {
        return expr(item.expr) + (item.alias.empty() ? "" : " AS " + identifier(item.alias));
    });
    if (s.from)
        out += nl + "FROM " + tableRef(*s.from);
    if (s.where)
        out += nl + "WHERE " + expr(*s.where);
    if (!s.groupBy.empty())
        out += nl + "GROUP BY " + join(s.groupBy, ", ", [](const Expr& e) { return expr(e); });
    if (s.having)
        out += nl + "HAVING " + expr(*s.having);
    if (s.qualify)
        out += nl + "QUALIFY " + expr(*s.qualify);
    if (!s.windows.empty())
        out += nl + "WINDOW " + join(s.windows, ", ", [](const NamedWindow& w) {
                   return identifier(w.name.name) + " AS " + windowSpec(w.spec);
               });
    return out;
}

std::string Printer::tableRef(const TableRef& t) {
    std::string s;
    switch (t.kind) {
    case TableRefKind::Table:
        s = t.stream ? "STREAM(" + name(t.name) + ")" : name(t.name);
        break;
    case TableRefKind::Subquery:
        s = "(" + queryWith(*t.query, " ") + ")";
        break;
    case TableRefKind::Function:
        s = name(t.name) + "(" + join(t.args, ", ", [](const Expr& e) { return expr(e); }) + ")";
        break;
    case TableRefKind::Join:
        if (t.joinType == ",")
            return tableRef(*t.left) + ", " + tableRef(*t.right);
        s = tableRef(*t.left) + " " + t.joinType + " JOIN " + tableRef(*t.right);
        if (t.condition)
            s += " ON " + expr(*t.condition);
        if (!t.usingColumns.empty())
            s += " USING (" + join(t.usingColumns, ", ", [](const std::string& n) { return identifier(n); }) +
                 ")";
        return s;
    }
    if (!t.alias.empty()) {
        s += " AS " + identifier(t.alias);
        if (!t.columnAliases.empty())
            s += "(" + join(t.columnAliases, ", ", [](const std::string& n) { return identifier(n); }) + ")";
    }
    return s;
}

// --- statements
// ------------------------------------------------------------------------------------------------

std::string Printer::columnSel(const ColumnSel& sel) {
    auto list = [&] {
        return "(" + join(sel.columns, ", ", [](const Ident& i) { return identifier(i.name); }) + ")";
    };
    switch (sel.mode) {
    case ColumnSel::Mode::All:
        return "*";
    case ColumnSel::Mode::Except:
        return "* EXCEPT " + list();
    case ColumnSel::Mode::Only:
        return list();
    }
    return {};
}

std::string Printer::columnDefs(const std::vector<ColumnDef>& cols,
                                const std::vector<Expectation>& expectations) {
    if (cols.empty() && expectations.empty())
        return {};
    std::vector<std::string> lines;
    for (const auto& c : cols) {
        std::string s = "  " + identifier(c.name.name);
        if (!c.type.empty())
            s += " " + c.type;
        if (c.notNull)
            s += " NOT NULL";
        if (c.comment)
            s += " COMMENT " + stringLiteral(*c.comment);
        lines.push_back(std::move(s));
    }
    for (const auto& e : expectations) {
        std::string s = "  CONSTRAINT " + identifier(e.name.name) + " EXPECT (" + expr(e.condition) + ")";
        if (!e.onViolation.empty())
            s += " ON VIOLATION " + e.onViolation;
        lines.push_back(std::move(s));
    }
    return " (\n" + join(lines, ",\n", [](const std::string& l) { return l; }) + "\n)";
}

std::string Printer::tableClauses(const std::optional<std::string>& comment,
                                  const std::vector<Property>& props) {
    std::string s;
    if (comment)
        s += "\nCOMMENT " + stringLiteral(*comment);
    if (!props.empty())
        s += "\nTBLPROPERTIES (" +
             join(props, ", ",
                  [](const Property& p) { return stringLiteral(p.key) + " = " + stringLiteral(p.value); }) +
             ")";
    return s;
}

std::string Printer::autoCdc(const AutoCdcSpec& spec) {
    std::string s;
    if (spec.fromSnapshot) {
        s += "\nFROM SNAPSHOT ";
        if (spec.snapshotQuery)
            s += "(\n  " + queryWith(*spec.snapshotQuery, "\n  ") + "\n)";
        else
            s += name(spec.source);
        if (spec.versionQuery)
            s += "\nWITH VERSION (\n  " + queryWith(*spec.versionQuery, "\n  ") + "\n)";
    } else {
        s += "\nFROM " + (spec.sourceStream ? "STREAM(" + name(spec.source) + ")" : name(spec.source));
    }
    s += "\nKEYS (" + join(spec.keys, ", ", [](const Ident& i) { return identifier(i.name); }) + ")";
    if (spec.ignoreNullUpdates) {
        s += "\nIGNORE NULL UPDATES";
        if (spec.ignoreNullOn)
            s += " ON " + columnSel(*spec.ignoreNullOn);
    }
    if (spec.applyAsDelete)
        s += "\nAPPLY AS DELETE WHEN " + expr(*spec.applyAsDelete);
    if (spec.applyAsTruncate)
        s += "\nAPPLY AS TRUNCATE WHEN " + expr(*spec.applyAsTruncate);
    if (spec.sequenceBy)
        s += "\nSEQUENCE BY " + expr(*spec.sequenceBy);
    if (spec.systemSequenceBy)
        s += "\nSYSTEM SEQUENCE BY " + expr(*spec.systemSequenceBy);
    if (spec.columns)
        s += "\nCOLUMNS " + columnSel(*spec.columns);
    if (spec.storedAs && spec.storedAs->bitemporal())
        s += "\nSTORED AS BITEMPORAL";
    else if (spec.storedAs) // the enum's values are the SCD type numbers
        s += "\nSTORED AS SCD TYPE " + std::to_string(static_cast<int>(*spec.storedAs->scdType));
    if (spec.trackHistory)
        s += "\nTRACK HISTORY ON " + columnSel(*spec.trackHistory);
    if (spec.columnsToUpdate)
        s += "\nCOLUMNS TO UPDATE " + identifier(spec.columnsToUpdate->name);
    return s;
}

std::string Printer::statement(const Statement& st) {
    struct Visitor {
        std::string operator()(const CreateSchemaStmt& s) const {
            return std::string("CREATE SCHEMA ") + (s.ifNotExists ? "IF NOT EXISTS " : "") + name(s.name);
        }
        std::string operator()(const CreateTableStmt& s) const {
            std::string out = std::string("CREATE ") + (s.orReplace ? "OR REPLACE " : "") + "TABLE " +
                              (s.ifNotExists ? "IF NOT EXISTS " : "") + name(s.name) + columnDefs(s.columns) +
                              tableClauses(s.comment, s.properties);
            if (s.asQuery)
                out += "\nAS " + query(*s.asQuery);
            return out;
        }
        std::string operator()(const InsertStmt& s) const {
            std::string out = std::string(s.overwrite ? "INSERT OVERWRITE " : "INSERT INTO ") + name(s.table);
            if (s.byName)
                out += " BY NAME";
            if (!s.columns.empty())
                out += " (" + join(s.columns, ", ", [](const Ident& i) { return identifier(i.name); }) + ")";
            return out + (s.query.body.kind == QueryTerm::Kind::Values && s.query.ctes.empty() ? " " : "\n") +
                   query(s.query);
        }
        std::string operator()(const UpdateStmt& s) const {
            std::string out =
                "UPDATE " + name(s.table) + (s.alias.empty() ? "" : " AS " + identifier(s.alias));
            out += "\nSET " + join(s.assignments, ", ", [](const Assignment& a) {
                       return identifier(a.column.name) + " = " + expr(a.value);
                   });
            if (s.where)
                out += "\nWHERE " + expr(*s.where);
            return out;
        }
        std::string operator()(const DeleteStmt& s) const {
            std::string out =
                "DELETE FROM " + name(s.table) + (s.alias.empty() ? "" : " AS " + identifier(s.alias));
            if (s.where)
                out += "\nWHERE " + expr(*s.where);
            return out;
        }
        std::string operator()(const TruncateStmt& s) const { return "TRUNCATE TABLE " + name(s.table); }
        std::string operator()(const DropTableStmt& s) const {
            return std::string("DROP TABLE ") + (s.ifExists ? "IF EXISTS " : "") + name(s.table);
        }
        std::string operator()(const StreamingTableStmt& s) const {
            std::string out = std::string("CREATE ") + (s.orRefresh ? "OR REFRESH " : "") +
                              (s.isPrivate ? "PRIVATE " : "") + "STREAMING " + (s.live ? "LIVE " : "") +
                              "TABLE " + name(s.name) + columnDefs(s.columns, s.expectations) +
                              tableClauses(s.comment, s.properties);
            if (s.autoCdc)
                out += "\nFLOW AUTO CDC" + std::string(s.autoCdc->once ? " ONCE" : "") + autoCdc(*s.autoCdc);
            else if (s.flowInsert)
                out += std::string("\nFLOW INSERT ") + (s.flowInsertOnce ? "ONCE " : "") + "BY NAME\n" +
                       query(*s.query);
            else if (s.query)
                out += "\nAS " + query(*s.query);
            return out;
        }
        std::string operator()(const CreateFlowStmt& s) const {
            std::string out = "CREATE FLOW " + identifier(s.name.name);
            if (s.comment)
                out += " COMMENT " + stringLiteral(*s.comment);
            if (s.autoCdc) {
                out += std::string(" AS AUTO CDC ") + (s.autoCdc->once ? "ONCE " : "") + "INTO " +
                       name(*s.autoCdc->target) + autoCdc(*s.autoCdc);
            } else {
                out += std::string(" AS INSERT INTO ") + (s.insertOnce ? "ONCE " : "") +
                       name(s.insertTarget) + " BY NAME\n" + query(*s.insertQuery);
            }
            return out;
        }
        std::string operator()(const ApplyChangesStmt& s) const {
            return "APPLY CHANGES INTO " + name(*s.spec.target) + autoCdc(s.spec);
        }
        std::string operator()(const ViewStmt& s) const {
            std::string out = "CREATE ";
            if (s.orRefresh)
                out += "OR REFRESH ";
            if (s.orReplace)
                out += "OR REPLACE ";
            if (s.isPrivate)
                out += "PRIVATE ";
            if (s.temporary)
                out += "TEMPORARY ";
            if (s.liveTable)
                out += "LIVE TABLE ";
            else if (s.live)
                out += "LIVE VIEW ";
            else if (s.materialized)
                out += "MATERIALIZED VIEW ";
            else
                out += "VIEW ";
            out +=
                name(s.name) + columnDefs(s.columns, s.expectations) + tableClauses(s.comment, s.properties);
            return out + "\nAS " + query(s.query);
        }
        std::string operator()(const QueryStmt& s) const { return query(s.query); }
    };
    return std::visit(Visitor{}, st.body);
}

Result<std::string> formatSql(std::string_view text, const std::string& file) {
    Parser parser(text, file);
    ParsedScript script = parser.parseScript();
    if (!script.diagnostics.empty())
        return script.diagnostics.front();
    // Comments survive: those between statements are kept on their own lines, and a statement with
    // comments inside keeps its original text (the printer has no place for them).
    const auto& comments = parser.comments();
    std::size_t next = 0;
    std::string out;
    auto emitCommentsBefore = [&](std::size_t offset) {
        for (; next < comments.size() && comments[next].first < offset; ++next) {
            if (!out.empty() && out.back() != '\n')
                out += '\n';
            out += std::string(text.substr(comments[next].first, comments[next].second)) + "\n";
        }
    };
    for (const auto& st : script.statements) {
        std::size_t begin = st.span.location.offset, end = begin + st.span.location.length;
        if (!out.empty())
            out += "\n";
        emitCommentsBefore(begin);
        bool inner = next < comments.size() && comments[next].first < end;
        if (inner) {
            out += std::string(text.substr(begin, end - begin)) + ";\n";
            while (next < comments.size() && comments[next].first < end)
                ++next;
        } else {
            out += Printer::statement(st) + ";\n";
        }
    }
    if (next < comments.size() && !out.empty())
        out += "\n";
    emitCommentsBefore(text.size());
    return out;
}

} // namespace cdc::sql
