// Deeply nested input is a positioned error, never a crash (issue #16). Each row builds its input here at
// the deepest level allowed and one level deeper: at the limit every walk over the tree (print, tree print,
// type inference, translation, copy, comparison, destruction) runs on a 2 MiB thread — a worker thread's
// stack when RLIMIT_STACK is unlimited — and a query gives its value; one level deeper is exactly the error.
#include "core/common/NestingLimit.h"
#include "core/common/ResultSet.h"
#include "core/python/PythonPipelineReader.h"
#include "core/sql/Parser.h"
#include "core/sql/Printer.h"
#include "core/sql/SqlApi.h"
#include "core/sql/Translator.h"
#include "core/sql/TreePrinter.h"
#include "core/sql/TypeInference.h"
#include "core/storage/Database.h"

#include <QTest>
#include <QThread>

#include <functional>

using namespace cdc;

namespace {

/// prefix × n, core, suffix × n.
std::string nest(const std::string& prefix, const std::string& core, const std::string& suffix, int n) {
    std::string out;
    for (int i = 0; i < n; ++i)
        out += prefix;
    out += core;
    for (int i = 0; i < n; ++i)
        out += suffix;
    return out;
}

/// n terms joined by op.
std::string chain(const std::string& term, const std::string& op, int n) {
    std::string out = term;
    for (int i = 1; i < n; ++i)
        out += op + term;
    return out;
}

/// AddressSanitizer (the sanitized build, scripts/test) surrounds every local with redzones, so each frame
/// takes several times the stack it takes in a normal build: the parse at the limit overflows 2 MiB there.
/// The 2 MiB this test is about are a normal build's; the sanitized one checks the walks' memory at 8 MiB.
#if defined(__SANITIZE_ADDRESS__)
constexpr unsigned kStackScale = 4;
#else
constexpr unsigned kStackScale = 1;
#endif

/// Runs fn on a thread with a 2 MiB stack (QThread's when RLIMIT_STACK is unlimited): an overflow crashes.
void onWorkerStack(const std::function<void()>& fn) {
    QThread* thread = QThread::create(fn);
    thread->setStackSize(kStackScale * 2 * 1024 * 1024);
    thread->start();
    thread->wait();
    delete thread;
}

using Generator = std::function<std::string(int)>;

std::string limitError(const QString& where) {
    return where.toStdString() + ": error: expression nested too deeply (limit " +
           std::to_string(kMaxNestingDepth) + ")";
}

std::string sqliteLimitError(const QString& where) {
    return where.toStdString() + ": error: expression nested too deeply for SQLite (limit " +
           std::to_string(sql::Translator::kSqliteNestingLimit) + " levels of its parser)";
}

} // namespace

Q_DECLARE_METATYPE(Generator)

class TestNestingLimits : public QObject {
    Q_OBJECT
private slots:
    // The parser's limit: every construct at its deepest parses and every walk over it fits the stack.
    void parserWalks_data() {
        QTest::addColumn<Generator>("query");
        QTest::addColumn<int>("deepest");
        QTest::addColumn<QString>("errorAt");
        // The query and its select item are two levels; each row's construct adds one per step.
        const auto row = [](const char* name, Generator g, int deepest, const char* at) {
            QTest::newRow(name) << g << deepest << QString(at);
        };
        row(
            "parentheses", [](int n) { return "SELECT " + nest("(", "1", ")", n); }, 98, "<query>:1:107");
        row(
            "function calls", [](int n) { return "SELECT " + nest("abs(", "1", ")", n); }, 98,
            "<query>:1:404");
        row(
            "CASE", [](int n) { return "SELECT " + nest("CASE WHEN TRUE THEN ", "1", " END", n); }, 98,
            "<query>:1:1978");
        row(
            "unary minus", [](int n) { return "SELECT " + nest("- ", "1", "", n); }, 98, "<query>:1:206");
        row(
            "NOT", [](int n) { return "SELECT " + nest("NOT ", "TRUE", "", n); }, 98, "<query>:1:404");
        row(
            "scalar subqueries", [](int n) { return "SELECT " + nest("(SELECT ", "1", ")", n); }, 49,
            "<query>:1:401");
        row(
            "FROM subqueries",
            [](int n) { return "SELECT * FROM " + nest("(SELECT * FROM ", "t", ") AS s", n); }, 98,
            "<query>:1:1493");
        row(
            "OR chain", [](int n) { return "SELECT " + chain("x", " OR ", n + 1); }, 98, "<query>:1:503");
        row(
            "+ chain", [](int n) { return "SELECT " + chain("1", " + ", n + 1); }, 98, "<query>:1:404");
        row(
            "|| chain", [](int n) { return "SELECT " + chain("'a'", " || ", n + 1); }, 98, "<query>:1:701");
        row(
            "10000-term AND chain",
            [](int n) { return "SELECT " + chain("x", " AND ", n == 98 ? 99 : 10000); }, 98, "<query>:1:602");
        row(
            "UNION chain", [](int n) { return chain("SELECT 1", " UNION ALL ", n + 1); }, 98,
            "<query>:1:1889");
        row(
            "join chain",
            [](int n) {
                return "SELECT * FROM " + chain("t", " JOIN t USING (x)", 1) +
                       chain("", " CROSS JOIN t", n + 1);
            },
            99, "<query>:1:1315");
        row(
            "nested types",
            [](int n) { return "SELECT CAST(NULL AS " + nest("ARRAY<", "INT", ">", n) + ")"; }, 97,
            "<query>:1:609");
    }
    void parserWalks() {
        QFETCH(Generator, query);
        QFETCH(int, deepest);
        QFETCH(QString, errorAt);
        bool walked = false;
        onWorkerStack([&] {
            const std::string text = query(deepest);
            auto parsed = sql::Parser(text, "<query>").parseSingleQuery();
            if (!parsed) {
                qWarning("%s", parsed.error().format().c_str());
                return;
            }
            const sql::Query& q = *parsed;
            auto reparsed = sql::Parser(sql::Printer::query(q), "<printed>").parseSingleQuery();
            if (!reparsed || !(*reparsed == q))
                return;
            if (sql::TreePrinter::query(q).empty())
                return;
            sql::TypeInference inference([](const std::string&) { return std::nullopt; });
            (void)inference.queryColumns(q);
            (void)sql::Translator::translateQuery(q); // may refuse what SQLite cannot nest, never crash
            sql::Query copy = q;
            walked = copy == q;
        });
        QVERIFY2(walked, "a walk failed at the deepest level allowed");

        auto deeper = sql::Parser(query(deepest + 1), "<query>").parseSingleQuery();
        QVERIFY(!deeper);
        QCOMPARE(QString::fromStdString(deeper.error().format()),
                 QString::fromStdString(limitError(errorAt)));
        QCOMPARE(deeper.error().code, std::string("NESTING"));
    }

    // What SQLite's parser can nest is less: the translator stops first, at the node, and the deepest query
    // it lets through runs and gives its value.
    void sqliteQueries_data() {
        QTest::addColumn<Generator>("query");
        QTest::addColumn<int>("deepest");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("errorAt");
        const auto row = [](const char* name, Generator g, int deepest, const char* value, const char* at) {
            QTest::newRow(name) << g << deepest << QString(value) << QString(at);
        };
        row(
            "CASE", [](int n) { return "SELECT " + nest("CASE WHEN 1 = 1 THEN ", "7", " END", n); }, 16, "7",
            "<query>:1:354");
        row(
            "scalar subqueries", [](int n) { return "SELECT " + nest("(SELECT ", "7", ")", n); }, 14, "7",
            "<query>:1:121");
        row(
            "FROM subqueries",
            [](int n) { return "SELECT x FROM " + nest("(SELECT x FROM ", "(SELECT 7 AS x)", ") AS s", n); },
            11, "7", "<query>:1:195");
        row(
            "EXISTS", [](int n) { return "SELECT " + nest("EXISTS (SELECT ", "7", ")", n); }, 10, "true",
            "<query>:1:166");
        row(
            "function calls", [](int n) { return "SELECT " + nest("abs(", "-7", ")", n); }, 28, "7",
            "<query>:1:120");
        row(
            "coalesce", [](int n) { return "SELECT " + nest("coalesce(", "7", ", 2)", n); }, 28, "7",
            "<query>:1:260");
        row(
            "unary minus", [](int n) { return "SELECT " + nest("- ", "7", "", n); }, 42, "7", "<query>:1:92");
        row(
            "right operands", [](int n) { return "SELECT " + nest("1 + (", "1", ")", n); }, 28, "29",
            "<query>:1:147");
        row(
            "IS NULL", [](int n) { return "SELECT " + nest("(", "7", " IS NULL)", n); }, 42, "false",
            "<query>:1:50");
        row(
            "+ chain", [](int n) { return "SELECT " + chain("1", " + ", n); }, 84, "84", "<query>:1:8");
        row(
            "OR chain", [](int n) { return "SELECT " + chain("FALSE", " OR ", n - 1) + " OR TRUE"; }, 84,
            "true", "<query>:1:8");
        row(
            "^ chain", [](int n) { return "SELECT " + chain("3", " ^ ", n); }, 29, "3", "<query>:1:8");
    }
    void sqliteQueries() {
        QFETCH(Generator, query);
        QFETCH(int, deepest);
        QFETCH(QString, value);
        QFETCH(QString, errorAt);
        auto db = storage::Database::openMemory();
        QVERIFY(db);
        auto rs = sql::runQuery(*db, query(deepest));
        QVERIFY2(rs, rs ? "" : rs.error().format().c_str());
        QCOMPARE(QString::fromStdString(toCsv(*rs)).split('\n').value(1), value);

        auto deeper = sql::runQuery(*db, query(deepest + 1));
        QVERIFY(!deeper);
        QCOMPARE(QString::fromStdString(deeper.error().format()),
                 QString::fromStdString(sqliteLimitError(errorAt)));
    }

    // The Python reader (the GUI's preview of a file it has not run): lists, calls and call chains.
    void pythonReader_data() {
        QTest::addColumn<Generator>("file");
        QTest::addColumn<int>("deepest");
        QTest::addColumn<QString>("errorAt");
        const auto row = [](const char* name, Generator g, int deepest, const char* at) {
            QTest::newRow(name) << g << deepest << QString(at);
        };
        const std::string head = "from pyspark import pipelines as dp\n";
        row(
            "lists",
            [=](int n) { return head + "dp.create_streaming_table(" + nest("[", "1", "]", n) + ")\n"; }, 98,
            "p.py:2:126");
        row(
            "calls",
            [=](int n) { return head + "dp.create_streaming_table(" + nest("f(", "1", ")", n) + ")\n"; }, 98,
            "p.py:2:225");
        row(
            "dicts",
            [=](int n) { return head + "dp.create_streaming_table(" + nest("{'a': ", "1", "}", n) + ")\n"; },
            98, "p.py:2:616");
        row(
            "call chain",
            [=](int n) { return head + "dp.create_streaming_table(x" + chain("", ".a()", n + 2) + ")\n"; },
            98, "p.py:2:424");
    }
    void pythonReader() {
        QFETCH(Generator, file);
        QFETCH(int, deepest);
        QFETCH(QString, errorAt);
        onWorkerStack([&] {
            auto atLimit = python::translateToSql(file(deepest), "p.py");
            // Whatever the reader makes of it, the nesting is not what it refuses.
            QVERIFY(atLimit || atLimit.error().code != "NESTING");
        });
        auto deeper = python::translateToSql(file(deepest + 1), "p.py");
        QVERIFY(!deeper);
        QCOMPARE(QString::fromStdString(deeper.error().format()),
                 QString::fromStdString(limitError(errorAt)));
    }
};

QTEST_GUILESS_MAIN(TestNestingLimits)
#include "tst_nesting_limits.moc"
