// The parser against data, not hand-built ASTs: the seed pipelines must print back to themselves, the
// tree cases in conformance/sql/parse/ pin trees and diagnostics, and every prefix of a seed fails cleanly.
#include "core/sql/Parser.h"
#include "core/sql/Printer.h"
#include "core/sql/SqlApi.h"
#include "core/sql/TreePrinter.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTest>

using namespace cdc;
using namespace cdc::sql;

namespace {

QString readFile(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readAll());
}

QString conformanceDir() {
    return QStringLiteral(CDC_TESTS_DIR "/conformance/sql");
}

QString describe(const std::vector<Diagnostic>& diags) {
    QStringList out;
    for (const auto& d : diags)
        out << QString::fromStdString(d.format());
    return out.join('\n');
}

/// `line:col: severity: message`: a case's diagnostics leave the file name out.
QString withoutFile(const Diagnostic& d) {
    return QString::fromStdString(d.format()).mid(int(d.location.file.size()) + 1);
}

/// One case of a tests/conformance/sql/parse/ file (format in the README.md there).
struct ParseCase {
    QString kind, name, input, tree;
    QStringList diagnostics;
};

std::vector<ParseCase> readCases(const QString& path) {
    static const QRegularExpression diagnostic(QStringLiteral("^\\d+:\\d+: (error|warning): "));
    std::vector<ParseCase> cases;
    bool expected = false;
    QStringList input;
    auto finish = [&] {
        if (cases.empty())
            return;
        while (!input.isEmpty() && input.back().trimmed().isEmpty())
            input.removeLast();
        cases.back().input = input.join('\n');
        input.clear();
    };
    for (const QString& line : readFile(path).split('\n')) {
        if (line.startsWith(QStringLiteral("=== "))) {
            finish();
            const QStringList head = line.mid(4).split(' ', Qt::SkipEmptyParts);
            cases.push_back({head.value(0), head.mid(1).join(' '), {}, {}, {}});
            expected = false;
        } else if (cases.empty()) {
            continue; // the file's comment
        } else if (!expected && line == QStringLiteral("---")) {
            expected = true;
        } else if (!expected) {
            input << line;
        } else if (diagnostic.match(line).hasMatch()) {
            cases.back().diagnostics << line.trimmed();
        } else if (!line.startsWith('#')) {
            cases.back().tree += line + '\n';
        }
    }
    finish();
    return cases;
}

/// Tree text with layout removed: runs of blanks become one space, none after '(' or before ')'.
/// Quoted text ('...' with backslash escapes, `...`) is kept as it is.
QString normalized(const QString& tree) {
    QString out;
    QChar quote;
    bool blank = false;
    for (int i = 0; i < tree.size(); ++i) {
        const QChar c = tree[i];
        if (!quote.isNull()) {
            out += c;
            if (c == '\\' && quote == '\'' && i + 1 < tree.size())
                out += tree[++i];
            else if (c == quote)
                quote = QChar();
            continue;
        }
        if (c.isSpace()) {
            blank = true;
            continue;
        }
        if (blank && !out.isEmpty() && !out.endsWith('(') && c != ')')
            out += ' ';
        blank = false;
        if (c == '\'' || c == '`')
            quote = c;
        out += c;
    }
    return out;
}

} // namespace

class TestParser : public QObject {
    Q_OBJECT
private slots:
    void seedParsesAndRoundTrips_data() {
        QTest::addColumn<QString>("path");
        QDir dir(conformanceDir() + "/seeds");
        const auto files = dir.entryList({"*.sql"}, QDir::Files, QDir::Name);
        QVERIFY(files.size() >= 10);
        for (const auto& f : files)
            QTest::newRow(f.toUtf8().constData()) << dir.filePath(f);
    }
    void seedParsesAndRoundTrips() {
        QFETCH(QString, path);
        std::string text = readFile(path).toStdString();
        QVERIFY(!text.empty());
        ParsedScript script = Parser(text, path.toStdString()).parseScript();
        QVERIFY2(script.diagnostics.empty(), qPrintable(describe(script.diagnostics)));
        QVERIFY(!script.statements.empty());
        for (const auto& st : script.statements) {
            std::string printed = Printer::statement(st);
            ParsedScript again = Parser(printed, "<printed>").parseScript();
            QVERIFY2(again.diagnostics.empty(),
                     qPrintable(describe(again.diagnostics) + "\n" + QString::fromStdString(printed)));
            QCOMPARE(again.statements.size(), std::size_t(1));
            QVERIFY2(again.statements[0] == st, printed.c_str());
            QCOMPARE(QString::fromStdString(Printer::statement(again.statements[0])),
                     QString::fromStdString(printed));
        }
    }

    void parseTree_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("tree");
        QTest::addColumn<QStringList>("diagnostics");
        QDir dir(conformanceDir() + "/parse");
        const auto files = dir.entryList({"*.txt"}, QDir::Files, QDir::Name);
        QVERIFY2(!files.isEmpty(), "no parse-tree case files");
        int count = 0;
        for (const auto& file : files) {
            const auto cases = readCases(dir.filePath(file));
            QVERIFY2(!cases.empty(), qPrintable(file + " holds no case"));
            for (const auto& c : cases) {
                QVERIFY2(c.kind == "sql" || c.kind == "expr" || c.kind == "sql-spans" ||
                             c.kind == "expr-spans",
                         qPrintable(file + ": unknown kind '" + c.kind + "' of " + c.name));
                QVERIFY2(!c.tree.trimmed().isEmpty() || !c.diagnostics.isEmpty(),
                         qPrintable(file + ": case " + c.name + " expects nothing (missing '---'?)"));
                QTest::newRow(qPrintable(file.chopped(4) + "/" + c.name))
                    << c.kind << c.input << c.tree << c.diagnostics;
                ++count;
            }
        }
        QVERIFY(count >= 150);
    }
    // The parser's tree (TreePrinter) and diagnostics equal the case's, and what parses prints back
    // to the same tree.
    void parseTree() {
        QFETCH(QString, kind);
        QFETCH(QString, input);
        QFETCH(QString, tree);
        QFETCH(QStringList, diagnostics);
        const std::string text = input.toStdString();
        TreePrinter::Options options;
        options.positions = kind.endsWith("-spans");
        QStringList trees, got;
        if (kind.startsWith("expr")) {
            auto e = Parser(text, "case.sql").parseSingleExpression();
            if (e) {
                trees << QString::fromStdString(TreePrinter::expr(*e, options));
                const std::string printed = Printer::expr(*e);
                auto again = Parser(printed, "<printed>").parseSingleExpression();
                QVERIFY2(again.ok(), qPrintable(QString::fromStdString(printed)));
                QVERIFY2(*again == *e,
                         qPrintable("printed as " + QString::fromStdString(printed) + " and parsed as " +
                                    QString::fromStdString(TreePrinter::expr(*again))));
            } else {
                got << withoutFile(e.error());
            }
        } else {
            ParsedScript script = Parser(text, "case.sql").parseScript();
            for (const auto& st : script.statements) {
                trees << QString::fromStdString(TreePrinter::statement(st, options));
                const std::string printed = Printer::statement(st);
                ParsedScript again = Parser(printed, "<printed>").parseScript();
                QVERIFY2(again.diagnostics.empty() && again.statements.size() == 1,
                         qPrintable(describe(again.diagnostics) + "\n" + QString::fromStdString(printed)));
                QVERIFY2(again.statements[0] == st,
                         qPrintable("printed as\n" + QString::fromStdString(printed) + "\nand parsed as\n" +
                                    QString::fromStdString(TreePrinter::statement(again.statements[0]))));
            }
            for (const auto& d : script.diagnostics)
                got << withoutFile(d);
        }
        const QString actual = trees.join('\n');
        QVERIFY2(normalized(actual) == normalized(tree), qPrintable("parse tree:\n" + actual));
        QCOMPARE(got, diagnostics);
    }

    void everyPrefixOfEverySeedFailsCleanly() {
        // Never a crash, never an error without a position, whatever the cut.
        QDir dir(conformanceDir() + "/seeds");
        int parses = 0;
        for (const auto& f : dir.entryList({"*.sql"}, QDir::Files, QDir::Name)) {
            std::string text = readFile(dir.filePath(f)).toStdString();
            for (std::size_t cut = 0; cut <= text.size(); ++cut) {
                std::string prefix = text.substr(0, cut);
                ParsedScript script = Parser(prefix, "cut.sql").parseScript();
                for (const auto& d : script.diagnostics) {
                    QVERIFY2(d.location.valid(), d.format().c_str());
                    QVERIFY(d.location.offset <= prefix.size());
                    QVERIFY(!d.message.empty());
                }
                for (const auto& st : script.statements) {
                    ParsedScript again = Parser(Printer::statement(st), "<printed>").parseScript();
                    QVERIFY(again.diagnostics.empty() && again.statements.size() == 1);
                    QVERIFY(again.statements[0] == st);
                }
                for (const auto& d : parsePipeline(prefix, "cut.sql").diagnostics)
                    QVERIFY2(d.location.valid(), d.format().c_str());
                ++parses;
            }
        }
        QVERIFY(parses > 3000);
    }
};

QTEST_GUILESS_MAIN(TestParser)
#include "tst_parser.moc"
