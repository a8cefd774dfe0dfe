// Static Spark types (core/sql/TypeInference): literals, operators, CAST, functions and aggregates,
// numeric widening, and the typed columns of queries over catalog tables. Expected types are Spark's:
// the Databricks data type pages (typeof examples quoted), Spark's literal reference and its type
// coercion and function result types. Where the simulator knowingly differs, the row says so and
// is an expected failure (XFAIL), so that closing the gap shows up.

#include "core/sql/Parser.h"
#include "core/sql/TypeInference.h"

#include <QTest>

using namespace cdc;
using namespace cdc::sql;

namespace {

DataType type(const char* text) {
    return DataType::parse(text).value();
}

/// The columns every expression case can read.
std::vector<TypedColumn> scope() {
    const std::pair<const char*, const char*> columns[] = {{"i", "INT"},
                                                           {"l", "BIGINT"},
                                                           {"sm", "SMALLINT"},
                                                           {"ti", "TINYINT"},
                                                           {"d", "DOUBLE"},
                                                           {"f", "FLOAT"},
                                                           {"m", "DECIMAL(10,2)"},
                                                           {"s", "STRING"},
                                                           {"b", "BOOLEAN"},
                                                           {"dt", "DATE"},
                                                           {"ts", "TIMESTAMP"},
                                                           {"arr", "ARRAY<INT>"},
                                                           {"st", "STRUCT<a: INT, b: STRING>"}};
    std::vector<TypedColumn> out;
    for (const auto& [name, t] : columns)
        out.push_back({name, type(t), "t"});
    return out;
}

/// Catalog tables for the query cases.
std::optional<std::vector<storage::ColumnInfo>> lookup(const std::string& name) {
    if (name == "t")
        return std::vector<storage::ColumnInfo>{
            {"id", type("INT")}, {"name", type("STRING")}, {"amount", type("DECIMAL(10,2)")}};
    if (name == "u")
        return std::vector<storage::ColumnInfo>{{"id", type("BIGINT")}, {"v", type("DOUBLE")}};
    return std::nullopt;
}

QString text(const std::optional<DataType>& t) {
    return t ? QString::fromStdString(t->toString()) : QStringLiteral("?");
}

/// Rows of (input, expected, gap): `gap` says why the simulator differs from Spark there, if it does.
void addRow(const char* name, const char* input, const char* expected, const char* gap) {
    QTest::newRow(name) << QString::fromUtf8(input) << QString::fromUtf8(expected) << QString::fromUtf8(gap);
}

/// Compares as the row expects; a row with a gap is an expected failure.
void compareRow(const QString& actual) {
    QFETCH(QString, expected);
    QFETCH(QString, gap);
    if (!gap.isEmpty())
        QEXPECT_FAIL("", qPrintable(gap), Continue);
    QCOMPARE(actual, expected);
}

} // namespace

class TestTypeInference : public QObject {
    Q_OBJECT
private slots:
    void expressionTypes_data() {
        QTest::addColumn<QString>("expr");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<QString>("gap"); // why the simulator differs from Spark here, if it does
        auto row = [](const char* e, const char* t, const char* gap = "") { addRow(e, e, t, gap); };
        // Integer literals: INT, else BIGINT (Databricks INT/BIGINT pages), else DECIMAL(digits, 0).
        row("1", "INT");
        row("2147483647", "INT");
        row("-2147483648", "INT");
        row("2147483648", "BIGINT");
        row("-2147483649", "BIGINT");     // doc: typeof(-2147483649) is BIGINT
        row("123456789012345", "BIGINT"); // doc
        row("9223372036854775807", "BIGINT");
        row("9223372036854775808", "DECIMAL(19,0)");
        row("1L", "BIGINT");
        row("1S", "SMALLINT");
        row("1Y", "TINYINT");
        // Fractional literals: DECIMAL(digits, digits after the point), DOUBLE with E or D, FLOAT with F.
        row("6.45", "DECIMAL(3,2)"); // doc: typeof(6.45)
        row("-6.45", "DECIMAL(3,2)");
        row("0.5", "DECIMAL(1,1)");
        row(".5", "DECIMAL(1,1)");
        row("0.05", "DECIMAL(2,2)");
        row("123.", "DECIMAL(3,0)");
        row("123.BD", "DECIMAL(3,0)");
        row("1BD", "DECIMAL(1,0)");
        row("5E3BD", "DECIMAL(4,0)");          // doc: 5000
        row("5.321E2BD", "DECIMAL(4,1)");      // doc: 532.1
        row("-.1234567E+2BD", "DECIMAL(7,5)"); // doc: -12.34567
        row("5E2", "DOUBLE");
        row("5D", "DOUBLE");
        row("12.578e-2d", "DOUBLE");
        row("2F", "FLOAT");
        row("'x'", "STRING");
        row("TRUE", "BOOLEAN");
        row("NULL", "VOID");
        row("DATE '2024-01-01'", "DATE");
        row("TIMESTAMP '2024-01-01 10:00:00'", "TIMESTAMP");
        row("TIMESTAMP_NTZ '2024-01-01 10:00:00'", "TIMESTAMP_NTZ");
        // Columns resolve case-insensitively, by their last name part.
        row("S", "STRING");
        row("t.i", "INT");
        row("nowhere", "?");
        // Arithmetic: the wider operand type; / is DOUBLE for non-decimals, DIV is BIGINT.
        row("i + 1", "INT");
        row("i + l", "BIGINT");
        row("sm + ti", "SMALLINT");
        row("i * d", "DOUBLE");
        row("i + f", "FLOAT");
        row("l - d", "DOUBLE");
        row("i / 2", "DOUBLE");
        row("l / l", "DOUBLE");
        row("i DIV 2", "BIGINT");
        row("i % 3", "INT");
        row("-i", "INT");
        row("-d", "DOUBLE");
        row("~i", "INT");
        row("i & 3", "INT");
        row("m + d", "DOUBLE");
        row("m + m", "DECIMAL(11,2)", "decimal arithmetic keeps the operand type");
        row("i + 1.5", "DECIMAL(12,1)", "INT and DECIMAL widen to the DECIMAL unchanged");
        row("m * 2", "DECIMAL(21,2)", "decimal arithmetic keeps the operand type");
        row("s || 1", "STRING");
        // Predicates are BOOLEAN.
        row("i = 1", "BOOLEAN");
        row("i <=> NULL", "BOOLEAN");
        row("NOT b", "BOOLEAN");
        row("b AND i > 0", "BOOLEAN");
        row("i IN (1, 2)", "BOOLEAN");
        row("i BETWEEN 1 AND 2", "BOOLEAN");
        row("s LIKE 'a%'", "BOOLEAN");
        row("s IS NULL", "BOOLEAN");
        row("i IS DISTINCT FROM 1", "BOOLEAN");
        row("EXISTS (SELECT 1)", "BOOLEAN");
        // CASE: the common type of its results.
        row("CASE WHEN b THEN 1 ELSE 2L END", "BIGINT");
        row("CASE WHEN b THEN 1 END", "INT");
        row("CASE WHEN b THEN 'a' ELSE NULL END", "STRING");
        row("CASE i WHEN 1 THEN d ELSE i END", "DOUBLE");
        row("CASE WHEN b THEN dt ELSE ts END", "TIMESTAMP");
        // CAST: the target type (DECIMAL defaults to DECIMAL(10,0), as the DECIMAL page shows).
        row("CAST(i AS STRING)", "STRING");
        row("CAST(s AS DECIMAL)", "DECIMAL(10,0)");
        row("CAST(s AS DECIMAL(2))", "DECIMAL(2,0)");
        row("i::BIGINT", "BIGINT");
        row("CAST(s AS ARRAY<INT>)", "ARRAY<INT>");
        row("(SELECT 1L)", "BIGINT");
        // Aggregates: count BIGINT; sum of integers BIGINT, of DECIMAL(p,s) DECIMAL(p+10,s); avg DOUBLE,
        // of DECIMAL(p,s) DECIMAL(p+4,s+4); min/max/first keep the type.
        row("count(*)", "BIGINT");
        row("count(DISTINCT s)", "BIGINT");
        row("sum(i)", "BIGINT");
        row("sum(l)", "BIGINT");
        row("sum(d)", "DOUBLE");
        row("sum(f)", "DOUBLE");
        row("sum(m)", "DECIMAL(20,2)");
        row("avg(i)", "DOUBLE");
        row("avg(m)", "DECIMAL(14,6)");
        row("min(s)", "STRING");
        row("max(ts)", "TIMESTAMP");
        row("first(m)", "DECIMAL(10,2)");
        // Conditional functions: the common type of their values.
        row("coalesce(i, l)", "BIGINT");
        row("coalesce(NULL, s)", "STRING");
        row("nvl(d, 0)", "DOUBLE");
        row("ifnull(i, 0)", "INT");
        row("if(b, i, d)", "DOUBLE");
        row("nullif(i, 0)", "INT");
        row("greatest(i, l)", "BIGINT");
        // String, date and collection functions.
        row("upper(s)", "STRING");
        row("concat(s, i)", "STRING");
        row("concat_ws('-', s)", "STRING");
        row("substring(s, 1, 2)", "STRING");
        row("regexp_extract(s, 'x', 1)", "STRING");
        row("date_format(ts, 'y')", "STRING");
        row("length(s)", "INT");
        row("year(dt)", "INT");
        row("month(ts)", "INT");
        row("datediff(dt, dt)", "INT");
        row("size(arr)", "INT");
        row("current_date", "DATE");
        row("current_timestamp()", "TIMESTAMP");
        row("now()", "TIMESTAMP");
        row("to_date(s)", "DATE");
        row("to_timestamp(s)", "TIMESTAMP");
        row("date_add(dt, 1)", "DATE");
        row("unix_timestamp()", "BIGINT");
        row("from_unixtime(l)", "STRING");
        row("isnull(i)", "BOOLEAN");
        row("array_contains(arr, 1)", "BOOLEAN");
        row("split(s, ',')", "ARRAY<STRING>");
        row("array(1, 2)", "ARRAY<INT>");
        row("array(1, 2L)", "ARRAY<BIGINT>");
        row("collect_list(s)", "ARRAY<STRING>");
        row("struct(i, s)", "STRUCT<i: INT, s: STRING>");
        row("struct(1, 'x')", "STRUCT<col1: INT, col2: STRING>");
        row("named_struct('a', 1, 'b', s)", "STRUCT<a: INT, b: STRING>");
        // Rounding: floor/ceil give BIGINT, or DECIMAL(p-s+1, 0); round keeps integers and DOUBLE and gives
        // DECIMAL(p-s+1+scale, scale) for scale below s.
        row("abs(i)", "INT");
        row("round(d)", "DOUBLE");
        row("round(i)", "INT");
        row("round(m)", "DECIMAL(9,0)");
        row("round(m, 1)", "DECIMAL(10,1)");
        row("round(m, 5)", "DECIMAL(11,2)");
        row("floor(d)", "BIGINT");
        row("ceil(d)", "BIGINT");
        row("floor(i)", "BIGINT");
        row("ceil(m)", "DECIMAL(9,0)");
        row("frobnicate(i)", "?");
        // Date arithmetic (Databricks "INTERVAL type", add_months, timestampadd): a DATE stays a DATE unless
        // the interval has a time part; timestampadd is a TIMESTAMP.
        row("DATE '2024-01-31' + INTERVAL 1 MONTH", "DATE");
        row("DATE '2024-01-31' - INTERVAL 2 WEEKS 1 DAY", "DATE");
        row("DATE '2024-01-31' + INTERVAL 2 HOURS", "TIMESTAMP");
        row("TIMESTAMP '2024-01-31 10:00:00' + INTERVAL 1 DAY", "TIMESTAMP");
        row("add_months(DATE '2024-01-31', 1)", "DATE");
        row("timestampadd(DAY, 1, DATE '2024-01-31')", "TIMESTAMP");
        row("row_number() OVER (ORDER BY i)", "INT");
    }
    void expressionTypes() {
        QFETCH(QString, expr);
        const std::string sql = expr.toStdString();
        auto e = Parser(sql, "expr").parseSingleExpression();
        QVERIFY2(e.ok(), e.ok() ? "" : e.error().format().c_str());
        compareRow(text(TypeInference(lookup).expr(*e, scope())));
    }

    void queryColumns_data() {
        QTest::addColumn<QString>("query");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<QString>("gap");
        auto row = [](const char* name, const char* q, const char* cols, const char* gap = "") {
            addRow(name, q, cols, gap);
        };
        row("columns and aliases", "SELECT id, name AS n FROM t", "id INT, n STRING");
        row("star", "SELECT * FROM t", "id INT, name STRING, amount DECIMAL(10,2)");
        row("aggregates", "SELECT count(*) AS n, sum(amount) AS total FROM t",
            "n BIGINT, total DECIMAL(20,2)");
        row("unknown table, named column", "SELECT id FROM nowhere", "id ?");
        row("unknown table, star", "SELECT * FROM nowhere", "unknown");
        row("values widen by column", "VALUES (1, 'a'), (2L, NULL)", "col1 BIGINT, col2 STRING");
        // The simulator's choice (Spark refuses a VOID column): a column of NULLs only is STRING.
        row("values of NULL", "VALUES (NULL)", "col1 STRING");
        row("values mixing INT and DECIMAL", "VALUES (1), (1.5)", "col1 DECIMAL(11,1)",
            "INT and DECIMAL widen to the DECIMAL unchanged");
        row("cte", "WITH a AS (SELECT 1 AS x) SELECT x FROM a", "x INT");
        row("cte column names", "WITH a (y) AS (SELECT 1L) SELECT y FROM a", "y BIGINT");
        row("subquery column aliases", "SELECT c FROM (VALUES (1)) AS v(c)", "c INT");
        row("qualified columns of a join", "SELECT u.id, t.name, v FROM t JOIN u ON t.id = u.id",
            "id BIGINT, name STRING, v DOUBLE");
        row("aliased tables", "SELECT b.id, a.id AS aid FROM t AS a, u b", "id BIGINT, aid INT");
        row("qualified star of a join", "SELECT u.* FROM t JOIN u ON t.id = u.id", "id BIGINT, v DOUBLE");
        row("star of a join", "SELECT * FROM t JOIN u ON t.id = u.id",
            "id INT, name STRING, amount DECIMAL(10,2), id BIGINT, v DOUBLE");
        row("star except", "SELECT * EXCEPT (NAME) FROM t", "id INT, amount DECIMAL(10,2)");
        row("qualified star except of a join", "SELECT u.* EXCEPT (v), t.name FROM t JOIN u ON t.id = u.id",
            "id BIGINT, name STRING");
        row("window functions",
            "SELECT row_number() OVER (ORDER BY id) AS rn, lag(amount) OVER (ORDER BY id) AS p FROM t",
            "rn INT, p DECIMAL(10,2)");
        row("qualify keeps the select list",
            "SELECT id FROM t QUALIFY rank() OVER (PARTITION BY name ORDER BY amount) = 1", "id INT");
        row("union widens", "SELECT 1 AS x UNION ALL SELECT 2L", "x BIGINT");
        row("scalar subquery", "SELECT (SELECT max(v) FROM u) AS m FROM t", "m DOUBLE");
        row("table function", "SELECT x FROM read_files('/x')", "x ?");
    }
    void queryColumns() {
        QFETCH(QString, query);
        const std::string sql = query.toStdString();
        auto q = Parser(sql, "q").parseSingleQuery();
        QVERIFY2(q.ok(), q.ok() ? "" : q.error().format().c_str());
        auto columns = TypeInference(lookup).queryColumns(*q);
        QStringList got;
        for (const auto& c : columns.value_or(std::vector<TypedColumn>{}))
            got << QString::fromStdString(c.name) + " " + text(c.type);
        compareRow(columns ? got.join(", ") : QStringLiteral("unknown"));
    }
};

QTEST_GUILESS_MAIN(TestTypeInference)
#include "tst_type_inference.moc"
