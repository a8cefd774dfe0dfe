// The pipeline document without any widget: the rules of its one history (typing merges, other edits are
// their own steps, undo restores the text exactly, the history is bounded) and its parse and validation.
#include "ui/model/EventQueueModel.h"
#include "ui/model/NodePositions.h"
#include "ui/model/PipelineDocument.h"
#include "ui/model/Project.h"
#include "ui/model/SampleLibrary.h"
#include "ui/model/SimulationRunner.h"
#include "ui/model/SourceScripts.h"
#include "ui/model/UpdateTimelineModel.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
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

    // Running and rewinding need no widget: the runner runs the document's pipeline as it is now (typed a
    // moment ago, not yet parsed), refuses one with errors, and leaves the run's issues in the document.
    void runAndRewindAreModelOperations() {
        Project project;
        QVERIFY(
            sourcescripts::installSample(project, samplelibrary::load(QStringLiteral("scd1-users"))).ok());
        PipelineDocument* doc = project.document();
        SimulationRunner runner(&project);
        UpdateTimelineModel timeline(&project);
        EventQueueModel queue(&project);
        QCOMPARE(queue.rowCount(), 8);

        const QString good = doc->text();
        doc->type(good + QStringLiteral("\nCREATE FLOW"));
        QVERIFY(doc->parsePending());
        Diagnostic error;
        QVERIFY(!runner.start({1}, QStringLiteral("Step"), &error));
        QCOMPARE(error.code, std::string("PIPELINE_HAS_ERRORS"));
        QVERIFY(!doc->parsePending());
        QCOMPARE(queue.rowCount(), 8);

        doc->type(good);
        QVERIFY(runner.start({1, 1, 1}, QStringLiteral("Run three"), &error));
        runner.waitForFinished();
        QCOMPARE(timeline.lastUpdateId(), qint64(3));
        QCOMPARE(queue.rowCount(), 5);
        QCOMPARE(project.undoStack()->undoText(), QStringLiteral("Run three"));

        QVERIFY(project.rewindTo(1).ok());
        QCOMPARE(timeline.lastUpdateId(), qint64(1));
        QCOMPARE(queue.rowCount(), 7);
        QCOMPARE(project.undoStack()->undoText(), QStringLiteral("Rewind to update 1"));
        project.undoStack()->undo();
        QCOMPARE(timeline.lastUpdateId(), qint64(3));
        QVERIFY(!project.rewindTo(-1).ok());
    }

    // A run's warnings join the document's issues and go when the text changes.
    void runWarningsBecomeIssuesUntilTheTextChanges() {
        Project project;
        PipelineDocument* doc = project.document();
        doc->replace(QStringLiteral("CREATE OR REFRESH STREAMING TABLE t;"), QStringLiteral("Add table t"));
        const std::size_t parsedIssues = doc->issues().size();
        doc->setRuntimeDiagnostics({Diagnostic::warning("SEQUENCE_TIE", "two events tie", {}),
                                    Diagnostic::warning("SEQUENCE_TIE", "two events tie", {})});
        QCOMPARE(doc->issues().size(), parsedIssues + 1);
        QCOMPARE(doc->runtimeWarningCount(), 1);
        doc->type(doc->text() + QStringLiteral(" "));
        QCOMPARE(doc->issues().size(), parsedIssues);
    }

    // A drag is one step named after the node; undo puts the node back, and the positions travel in the
    // project file, rounded so that they read back exactly.
    void nodeMovesAreStepsKeptInTheFile() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("p.cdcstudio"));
        {
            Project project;
            project.document()->replace(kTable, QStringLiteral("Add table t"));
            NodePositions* positions = project.nodePositions();
            positions->move({{QStringLiteral("table:t"), QPointF(10.4, 20.6)}});
            QCOMPARE(project.undoStack()->undoText(), QStringLiteral("Move node t"));
            positions->move(
                {{QStringLiteral("table:t"), QPointF(50, 60)}, {QStringLiteral("flow:f"), QPointF(1, 2)}});
            QCOMPARE(project.undoStack()->undoText(), QStringLiteral("Move 2 nodes"));
            project.undoStack()->undo();
            QCOMPARE(positions->positions(),
                     (NodePositions::Map{{QStringLiteral("table:t"), QPointF(10, 21)}}));
            QVERIFY(project.saveAs(path).ok());
        }
        Project reopened;
        QVERIFY(reopened.open(path).ok());
        QCOMPARE(reopened.nodePositions()->positions(),
                 (NodePositions::Map{{QStringLiteral("table:t"), QPointF(10, 21)}}));
        QVERIFY(!reopened.undoStack()->canUndo());
        reopened.nodePositions()->unpin({QStringLiteral("table:t")});
        QVERIFY(reopened.nodePositions()->positions().isEmpty());
        reopened.undoStack()->undo();
        QCOMPARE(reopened.nodePositions()->positions().size(), 1);
    }

    // Saving, reopening and saving again writes the same bytes: nothing is rewritten that did not change.
    void saveReopenSaveGivesAnIdenticalFile() {
        QTemporaryDir dir;
        const QString first = dir.filePath(QStringLiteral("first.cdcstudio"));
        const QString second = dir.filePath(QStringLiteral("second.cdcstudio"));
        {
            Project project;
            QVERIFY(sourcescripts::installSample(project, samplelibrary::load(QStringLiteral("scd2-users")))
                        .ok());
            SimulationRunner runner(&project);
            QVERIFY(runner.start({2, 2}, QStringLiteral("Run")));
            runner.waitForFinished();
            project.nodePositions()->move({{QStringLiteral("table:users_history"), QPointF(300, 40)}});
            QVERIFY(project.saveAs(first).ok());
        }
        Project reopened;
        QVERIFY(reopened.open(first).ok());
        QVERIFY(reopened.saveAs(second).ok());
        QFile a(first), b(second);
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        const QByteArray bytesA = a.readAll();
        QVERIFY(bytesA.size() > 0);
        QVERIFY2(bytesA == b.readAll(), "the second save differs from the first");
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
