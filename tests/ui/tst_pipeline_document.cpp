// The pipeline document without any widget: the rules of its one history (typing merges, other edits are
// their own steps, undo restores the text exactly, the history is bounded) and its parse and validation.
#include "ui/model/PipelineDocument.h"
#include "ui/model/Project.h"

#include <QSignalSpy>
#include <QTest>
#include <QUndoStack>

using namespace cdc;
using namespace cdc::ui;

namespace {
const QString kTable = QStringLiteral("CREATE OR REFRESH STREAMING TABLE t;");

/// Types `text` into the document one character at a time at `position`, as the editor reports keystrokes.
void typeAt(PipelineDocument* doc, qsizetype position, const QString& text) {
    for (const QChar c : text) {
        QString next = doc->text();
        next.insert(position++, c);
        doc->type(next);
    }
}
} // namespace

class TestPipelineDocument : public QObject {
    Q_OBJECT
private slots:
    void spliceIsTheSmallestChange_data() {
        QTest::addColumn<QString>("before");
        QTest::addColumn<QString>("after");
        QTest::addColumn<int>("position");
        QTest::addColumn<QString>("removed");
        QTest::addColumn<QString>("inserted");
        QTest::newRow("insert") << "abc"
                                << "abXc" << 2 << ""
                                << "X";
        QTest::newRow("delete") << "abc"
                                << "ac" << 1 << "b"
                                << "";
        QTest::newRow("replace") << "a-b-c"
                                 << "a+b+c" << 1 << "-b-"
                                 << "+b+";
        QTest::newRow("repeated letters") << "aaa"
                                          << "aaaa" << 3 << ""
                                          << "a";
        QTest::newRow("same") << "abc"
                              << "abc" << 3 << ""
                              << "";
    }
    void spliceIsTheSmallestChange() {
        QFETCH(QString, before);
        QFETCH(QString, after);
        const TextSplice s = TextSplice::between(before, after);
        QTEST(int(s.position), "position");
        QTEST(s.removed, "removed");
        QTEST(s.inserted, "inserted");
    }

    // Keystrokes that follow each other are one step; a jump elsewhere starts another; undo gives back the
    // text before each step exactly, redo the text after it.
    void typingMergesUntilTheCaretJumps() {
        Project project;
        PipelineDocument* doc = project.document();
        QUndoStack* stack = project.undoStack();
        typeAt(doc, 0, kTable);
        QCOMPARE(stack->count(), 1);
        QCOMPARE(stack->undoText(), QStringLiteral("Edit SQL"));
        typeAt(doc, 0, QStringLiteral("-- users\n"));
        QCOMPARE(stack->count(), 2);
        QString backspaced = doc->text();
        backspaced.remove(8, 1); // backspace the newline, where the caret is: still the same step
        doc->type(backspaced);
        QCOMPARE(stack->count(), 2);
        QCOMPARE(doc->text(), QStringLiteral("-- users") + kTable);

        stack->undo();
        QCOMPARE(doc->text(), kTable);
        stack->undo();
        QCOMPARE(doc->text(), QString());
        stack->redo();
        stack->redo();
        QCOMPARE(doc->text(), QStringLiteral("-- users") + kTable);
    }

    void typingAfterAPauseIsANewStep() {
        Project project;
        PipelineDocument* doc = project.document();
        typeAt(doc, 0, QStringLiteral("CREATE"));
        QTest::qWait(PipelineDocument::kTypingPauseMs + 200);
        typeAt(doc, 6, QStringLiteral(" OR"));
        QCOMPARE(project.undoStack()->count(), 2);
        project.undoStack()->undo();
        QCOMPARE(doc->text(), QStringLiteral("CREATE"));
    }

    // Typed and then erased again: the step drops out of the history instead of undoing nothing.
    void typingThatCancelsOutLeavesNoStep() {
        Project project;
        PipelineDocument* doc = project.document();
        doc->replace(kTable, QStringLiteral("Add table t"));
        typeAt(doc, 0, QStringLiteral("x"));
        doc->type(kTable);
        QCOMPARE(project.undoStack()->count(), 1);
        QCOMPARE(project.undoStack()->undoText(), QStringLiteral("Add table t"));
    }

    // A named edit (Format SQL, a graph edit) is its own step, never merged with typing around it, and is
    // parsed at once; undo parses the old text at once too.
    void editsAreNamedStepsParsedAtOnce() {
        Project project;
        PipelineDocument* doc = project.document();
        typeAt(doc, 0, QStringLiteral("CREATE OR REFRESH STREAMING TABLE a;"));
        QVERIFY(doc->parsePending());
        doc->reparseNow();
        QCOMPARE(doc->pipeline().streamingTables.size(), std::size_t(1));
        const QString typed = doc->text();
        QSignalSpy parsed(doc, &PipelineDocument::parsed);
        doc->replace(typed + QStringLiteral("\nCREATE OR REFRESH STREAMING TABLE b;"),
                     QStringLiteral("Add table b"));
        QVERIFY(!doc->parsePending());
        QCOMPARE(parsed.count(), 1);
        QCOMPARE(doc->pipeline().streamingTables.size(), std::size_t(2));
        QCOMPARE(doc->pipeline().streamingTables[1].name.name, std::string("b"));
        typeAt(doc, doc->text().size(), QStringLiteral(" "));
        QCOMPARE(project.undoStack()->count(), 3);
        project.undoStack()->undo();
        project.undoStack()->undo();
        QCOMPARE(doc->text(), typed);
        QCOMPARE(doc->pipeline().streamingTables.size(), std::size_t(1));
    }

    // A pipeline that reads a source the catalog does not have is an error while typing, before any run.
    void validationAgainstTheCatalogGivesPositionedErrors() {
        Project project;
        PipelineDocument* doc = project.document();
        doc->replace(QStringLiteral("CREATE OR REFRESH STREAMING TABLE t;\n"
                                    "CREATE FLOW f AS AUTO CDC INTO t FROM STREAM(nowhere) KEYS (id) "
                                    "SEQUENCE BY seq;"),
                     QStringLiteral("Add flow f"));
        QVERIFY(doc->hasErrors());
        const auto issues = doc->issues();
        QVERIFY(!issues.empty());
        QVERIFY2(issues.front().format().find("nowhere") != std::string::npos,
                 issues.front().format().c_str());
        QCOMPARE(issues.front().location.line, 2);
        doc->replace(QStringLiteral("CREATE FLOW f AS AUTO CDC INTO"), QStringLiteral("Break it"));
        QVERIFY(doc->hasErrors());
        QCOMPARE(doc->pipeline().cdcFlows.size(), std::size_t(0));
    }

    // The history keeps the last steps only: a long session cannot grow memory without bound, and the
    // oldest text is simply no longer reachable.
    void historyIsBounded() {
        Project project;
        PipelineDocument* doc = project.document();
        for (int i = 0; i < 150; ++i)
            doc->replace(QStringLiteral("-- %1").arg(i), QStringLiteral("Edit %1").arg(i));
        QUndoStack* stack = project.undoStack();
        QVERIFY(stack->undoLimit() > 0);
        QCOMPARE(stack->count(), stack->undoLimit());
        while (stack->canUndo())
            stack->undo();
        QCOMPARE(doc->text(), QStringLiteral("-- %1").arg(149 - stack->undoLimit()));
    }

    // Modified follows the one history: typing and undoing it back is unmodified again.
    void modifiedFollowsTheHistory() {
        Project project;
        QVERIFY(!project.isModified());
        typeAt(project.document(), 0, QStringLiteral("x"));
        QVERIFY(project.isModified());
        project.undoStack()->undo();
        QVERIFY(!project.isModified());
    }

    // A new project replaces the text without a step: nothing to undo into the previous project.
    void newProjectResetsTheTextWithoutAStep() {
        Project project;
        typeAt(project.document(), 0, kTable);
        QVERIFY(project.newProject().ok());
        QCOMPARE(project.document()->text(), QString());
        QVERIFY(!project.undoStack()->canUndo());
        QVERIFY(!project.isModified());
    }
};

QTEST_GUILESS_MAIN(TestPipelineDocument)
#include "tst_pipeline_document.moc"
