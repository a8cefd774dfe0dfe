#pragma once
/// The Spark SQL abstract syntax tree. Nodes are plain values (deep copies, structural equality).
/// Every node carries its source position in a `Span`, which never takes part in equality: that is
/// what makes the printer's round-trip check `parse(print(ast)) == ast` meaningful.

#include "core/common/Diagnostic.h"
#include "core/pipeline/Pipeline.h"

#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace cdc::sql {

/// A node's place in the text. Equality ignores it on purpose (see the file comment).
struct Span {
    SourceLocation location;
    bool operator==(const Span&) const { return true; }
};

/// An owning pointer with value semantics: deep copy, deep equality. Lets recursive nodes stay values.
template <class T> class Box {
public:
    Box() = default;
    Box(T value) : m_ptr(std::make_unique<T>(std::move(value))) {}
    Box(const Box& other) : m_ptr(other.m_ptr ? std::make_unique<T>(*other.m_ptr) : nullptr) {}
    Box(Box&&) noexcept = default;
    Box& operator=(const Box& other) {
        if (this != &other)
            m_ptr = other.m_ptr ? std::make_unique<T>(*other.m_ptr) : nullptr;
        return *this;
    }
    Box& operator=(Box&&) noexcept = default;
    ~Box() = default;

    explicit operator bool() const { return m_ptr != nullptr; }
    T& operator*() const { return *m_ptr; }
    T* operator->() const { return m_ptr.get(); }
    T* get() const { return m_ptr.get(); }
    friend bool operator==(const Box& a, const Box& b) {
        if (!a.m_ptr || !b.m_ptr)
            return !a.m_ptr && !b.m_ptr;
        return *a.m_ptr == *b.m_ptr;
    }

private:
    std::unique_ptr<T> m_ptr;
};

/// One identifier as written (backticks removed, case kept).
struct Ident {
    std::string name;
    Span span;
    bool operator==(const Ident&) const = default;
};

/// A possibly multi-part name: `main.cdc_tutorial.users_cdf`, `LIVE.t`, `t`.
struct Name {
    std::vector<std::string> parts;
    Span span;
    std::string joined() const;
    bool empty() const { return parts.empty(); }
    bool operator==(const Name&) const = default;
};

struct Query;
struct WindowSpec;

enum class ExprKind {
    Literal,
    Column,   ///< name (possibly qualified)
    Star,     ///< `*` or `t.*` (qualifier in name); args: the `EXCEPT (a, b)` columns (Column nodes)
    Unary,    ///< text: "-", "+", "~", "NOT"
    Binary,   ///< text: "+", "-", "*", "/", "%", "DIV", "||", "=", "!=", "<=>", "<", "<=", ">", ">=", "AND",
              ///< "OR", "&", "|", "^"
    Function, ///< name(args), `distinct` for count(DISTINCT x), `over` for a window function
    Case,     ///< args: [operand] when1 then1 ... [else]
    Cast,     ///< text: canonical Spark type; args[0]
    InList,   ///< args[0] IN (args[1..])
    InQuery,  ///< args[0] IN (query)
    Between,  ///< args[0] BETWEEN args[1] AND args[2]
    Like,     ///< text: LIKE / ILIKE / RLIKE; args[0] pattern args[1]
    IsNull,   ///< args[0] IS [NOT] NULL
    IsDistinct, ///< args[0] IS [NOT] DISTINCT FROM args[1]
    Exists,     ///< EXISTS (query)
    Subquery,   ///< (query) used as a value
    NamedArg,   ///< text => args[0] (table-valued function options)
    Field,      ///< args[0].text on a non-column base, e.g. (x).f or a[0].f
    Index,      ///< args[0][args[1]]
    Interval,   ///< INTERVAL v1 UNIT1 [v2 UNIT2 ...]: args the values (literals), text the units (singular,
                ///< upper case, one space apart), e.g. `INTERVAL 3 DAYS 4 HOURS` is (3, 4) and "DAY HOUR"
};

enum class LiteralKind { Null, Boolean, Integer, Decimal, String };

struct Expr {
    ExprKind kind = ExprKind::Literal;
    LiteralKind literalKind = LiteralKind::Null;
    std::string text; ///< literal text (string value unescaped), operator, cast type, argument or field name
    Name name;        ///< column, star qualifier or function name
    bool negated = false;
    bool distinct = false;
    bool hasCaseOperand = false;
    bool hasElse = false;
    bool ignoreNulls = false; ///< `f(...) IGNORE NULLS` (first, last, nth_value, lag, lead)
    std::vector<Expr> args;
    Box<Query> query;
    Box<WindowSpec> over; ///< `f(...) OVER (...)` / `OVER w`: a window function
    Span span;

    bool operator==(const Expr&) const = default;
};

enum class TableRefKind { Table, Subquery, Function, Join };

struct TableRef {
    TableRefKind kind = TableRefKind::Table;
    Name name;           ///< Table / Function
    bool stream = false; ///< STREAM(name) / STREAM name
    std::vector<Expr> args;
    Box<Query> query;
    std::string alias;
    std::vector<std::string> columnAliases;
    std::string joinType; ///< INNER, LEFT, RIGHT, FULL, CROSS, LEFT SEMI, LEFT ANTI, "," (comma join)
    Box<TableRef> left;
    Box<TableRef> right;
    Box<Expr> condition;
    std::vector<std::string> usingColumns;
    Span span;
    bool operator==(const TableRef&) const = default;
};

enum class NullsOrder { Default, First, Last };

struct OrderItem {
    Expr expr;
    bool descending = false;
    NullsOrder nulls = NullsOrder::Default;
    bool operator==(const OrderItem&) const = default;
};

/// One end of a window frame: UNBOUNDED PRECEDING, `offset` PRECEDING, CURRENT ROW, `offset` FOLLOWING,
/// UNBOUNDED FOLLOWING.
struct FrameBound {
    enum class Kind { UnboundedPreceding, Preceding, CurrentRow, Following, UnboundedFollowing };
    Kind kind = Kind::CurrentRow;
    Box<Expr> offset;
    bool operator==(const FrameBound&) const = default;
};

/// `ROWS | RANGE BETWEEN start AND end`; the one-bound form `ROWS start` is parsed with end CURRENT ROW.
struct WindowFrame {
    std::string unit; ///< ROWS or RANGE
    FrameBound start;
    FrameBound end;
    bool operator==(const WindowFrame&) const = default;
};

/// `( [base] [PARTITION BY ...] [ORDER BY ...] [frame] )`, or just a WINDOW clause name (`OVER w`).
struct WindowSpec {
    std::string baseName; ///< a window of the query's WINDOW clause this one starts from; empty: none
    std::vector<Expr> partitionBy;
    std::vector<OrderItem> orderBy;
    std::optional<WindowFrame> frame;
    Span span;
    /// `OVER w` with nothing added: printed without parentheses.
    bool nameOnly() const { return !baseName.empty() && partitionBy.empty() && orderBy.empty() && !frame; }
    bool operator==(const WindowSpec&) const = default;
};

/// `WINDOW name AS (spec)` of a SELECT.
struct NamedWindow {
    Ident name;
    WindowSpec spec;
    bool operator==(const NamedWindow&) const = default;
};

struct SelectItem {
    Expr expr;
    std::string alias; ///< empty: none
    bool operator==(const SelectItem&) const = default;
};

struct Select {
    bool distinct = false;
    std::vector<SelectItem> items;
    Box<TableRef> from;
    Box<Expr> where;
    std::vector<Expr> groupBy;
    Box<Expr> having;
    Box<Expr> qualify;                ///< QUALIFY: filters on window function results
    std::vector<NamedWindow> windows; ///< WINDOW w AS (...), ...
    bool operator==(const Select&) const = default;
};

struct QueryTerm {
    enum class Kind { Select, Values, SetOp, Nested };
    Kind kind = Kind::Select;
    Select select;
    std::vector<std::vector<Expr>> rows; ///< VALUES
    std::string setOp;                   ///< UNION, UNION ALL, EXCEPT, EXCEPT ALL, INTERSECT, INTERSECT ALL
    Box<QueryTerm> left;
    Box<QueryTerm> right;
    Box<Query> nested;
    Span span;
    bool operator==(const QueryTerm&) const = default;
};

struct Cte {
    Ident name;
    std::vector<std::string> columns;
    Box<Query> query;
    bool operator==(const Cte&) const = default;
};

struct Query {
    std::vector<Cte> ctes;
    QueryTerm body;
    std::vector<OrderItem> orderBy;
    Box<Expr> limit;
    Box<Expr> offset;
    Span span;
    bool operator==(const Query&) const = default;
};

// --- statements ------------------------------------------------------------------------------------

struct ColumnDef {
    Ident name;
    std::string type; ///< canonical Spark type; empty for view column lists
    bool notNull = false;
    std::optional<std::string> comment;
    bool operator==(const ColumnDef&) const = default;
};

/// CONSTRAINT name EXPECT (condition) [ON VIOLATION {DROP ROW | FAIL UPDATE}] (pipeline data quality).
struct Expectation {
    Ident name;
    Expr condition;
    std::string onViolation; ///< empty (keep and count), "DROP ROW" or "FAIL UPDATE"
    bool operator==(const Expectation&) const = default;
};

struct Property {
    std::string key; ///< as written, unquoted
    std::string value;
    bool operator==(const Property&) const = default;
};

/// `(a, b)` or `* EXCEPT (a, b)` (and bare `*` where the grammar allows it).
struct ColumnSel {
    enum class Mode { All, Only, Except };
    Mode mode = Mode::Only;
    std::vector<Ident> columns;
    Span span;
    bool operator==(const ColumnSel&) const = default;
};

/// The body shared by CREATE FLOW ... AS AUTO CDC, FLOW AUTO CDC and APPLY CHANGES INTO.
/// STORED AS SCD TYPE 1 | 2, or STORED AS BITEMPORAL (parsed, refused by the builder): the SCD type is the
/// pipeline model's enum from the parse on.
struct StoredAs {
    std::optional<pipeline::ScdType> scdType; ///< empty: BITEMPORAL
    Span span;
    bool bitemporal() const { return !scdType; }
    bool operator==(const StoredAs&) const = default;
};

struct AutoCdcSpec {
    bool once = false;
    std::optional<Name> target; ///< INTO target; absent in the FLOW AUTO CDC clause
    bool fromSnapshot = false;
    Name source;
    bool sourceStream = false;
    Box<Query> snapshotQuery;
    Box<Query> versionQuery;
    std::vector<Ident> keys;
    bool ignoreNullUpdates = false;
    std::optional<ColumnSel> ignoreNullOn;
    Box<Expr> applyAsDelete;
    Box<Expr> applyAsTruncate;
    Box<Expr> sequenceBy;
    Box<Expr> systemSequenceBy;
    std::optional<ColumnSel> columns;
    std::optional<StoredAs> storedAs; ///< absent without a STORED AS clause
    std::optional<ColumnSel> trackHistory;
    std::optional<Ident> columnsToUpdate;
    Span span;
    bool operator==(const AutoCdcSpec&) const = default;
};

struct CreateSchemaStmt {
    Name name;
    bool ifNotExists = false;
    bool operator==(const CreateSchemaStmt&) const = default;
};

struct CreateTableStmt {
    Name name;
    bool orReplace = false;
    bool ifNotExists = false;
    std::vector<ColumnDef> columns;
    std::optional<std::string> comment;
    std::vector<Property> properties;
    Box<Query> asQuery;
    bool operator==(const CreateTableStmt&) const = default;
};

struct InsertStmt {
    Name table;
    bool overwrite = false;
    bool byName = false;
    std::vector<Ident> columns;
    Query query;
    bool operator==(const InsertStmt&) const = default;
};

struct Assignment {
    Ident column;
    Expr value;
    bool operator==(const Assignment&) const = default;
};

struct UpdateStmt {
    Name table;
    std::string alias;
    std::vector<Assignment> assignments;
    Box<Expr> where;
    bool operator==(const UpdateStmt&) const = default;
};

struct DeleteStmt {
    Name table;
    std::string alias;
    Box<Expr> where;
    bool operator==(const DeleteStmt&) const = default;
};

struct TruncateStmt {
    Name table;
    bool operator==(const TruncateStmt&) const = default;
};

struct DropTableStmt {
    Name table;
    bool ifExists = false;
    bool operator==(const DropTableStmt&) const = default;
};

/// CREATE [OR REFRESH] [PRIVATE] STREAMING [LIVE] TABLE.
struct StreamingTableStmt {
    bool orRefresh = false;
    bool isPrivate = false;
    bool live = false;
    Name name;
    std::vector<ColumnDef> columns;
    std::vector<Expectation> expectations;
    std::optional<std::string> comment;
    std::vector<Property> properties;
    std::optional<AutoCdcSpec> autoCdc; ///< FLOW AUTO CDC ...
    bool flowInsert = false;            ///< FLOW INSERT [ONCE] BY NAME query
    bool flowInsertOnce = false;
    Box<Query> query; ///< AS query, or the FLOW INSERT query
    bool operator==(const StreamingTableStmt&) const = default;
};

/// CREATE FLOW name [COMMENT c] AS { AUTO CDC ... | INSERT INTO [ONCE] target BY NAME query }.
struct CreateFlowStmt {
    Ident name;
    std::optional<std::string> comment;
    std::optional<AutoCdcSpec> autoCdc;
    bool insertOnce = false;
    Name insertTarget;
    Box<Query> insertQuery;
    bool operator==(const CreateFlowStmt&) const = default;
};

/// Legacy APPLY CHANGES INTO [LIVE.]target FROM ...
struct ApplyChangesStmt {
    AutoCdcSpec spec;
    bool operator==(const ApplyChangesStmt&) const = default;
};

/// CREATE [OR REFRESH|OR REPLACE] [PRIVATE] [TEMPORARY] [LIVE] VIEW / MATERIALIZED VIEW / LIVE TABLE.
struct ViewStmt {
    bool orRefresh = false;
    bool orReplace = false;
    bool isPrivate = false;
    bool temporary = false;
    bool live = false;
    bool materialized = false;
    bool liveTable = false; ///< legacy CREATE LIVE TABLE (a materialized view)
    Name name;
    std::vector<ColumnDef> columns;
    std::vector<Expectation> expectations;
    std::optional<std::string> comment;
    std::vector<Property> properties;
    Query query;
    bool operator==(const ViewStmt&) const = default;
};

struct QueryStmt {
    Query query;
    bool operator==(const QueryStmt&) const = default;
};

using StatementBody =
    std::variant<CreateSchemaStmt, CreateTableStmt, InsertStmt, UpdateStmt, DeleteStmt, TruncateStmt,
                 DropTableStmt, StreamingTableStmt, CreateFlowStmt, ApplyChangesStmt, ViewStmt, QueryStmt>;

struct Statement {
    StatementBody body;
    Span span;
    bool operator==(const Statement&) const = default;
};

} // namespace cdc::sql
