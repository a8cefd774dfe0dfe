// The SQL workbench and the main window shell: editor commands, squiggles, find / replace,
// modified marker and the unsaved-changes prompt.
#include "core/storage/Catalog.h"
#include "ui/model/CsvReader.h"
#include "ui/model/IssueListModel.h"
#include "ui/model/Project.h"
#include "ui/model/SourceRowsModel.h"
#include "ui/widgets/CodeEditor.h"
#include "ui/widgets/CsvImportDialog.h"
#include "ui/widgets/FindReplaceBar.h"
#include "ui/widgets/MainWindow.h"
#include "ui/widgets/ProjectController.h"
#include "ui/widgets/SourceSqlDialog.h"
#include "ui/widgets/SourcesPanel.h"
#include "ui/widgets/SqlLexer.h"
#include "ui/widgets/WorkbenchPanel.h"

#include <QTabWidget>

#include <QCloseEvent>
#include <QLineEdit>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace cdc;
using namespace cdc::ui;

class TestWorkbench : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("CDCStudioTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_workbench"));
        QStandardPaths::setTestModeEnabled(true);
    }

    void toggleCommentAddsAndRemoves() {
        CodeEditor editor;
        editor.setText(QStringLiteral("SELECT 1\nFROM t\nWHERE x"));
        editor.setSelection(0, 0, 1, 3);
        editor.toggleComment();
        QCOMPARE(editor.text(), QStringLiteral("-- SELECT 1\n-- FROM t\nWHERE x"));
        editor.setSelection(0, 0, 1, 3);
        editor.toggleComment();
        QCOMPARE(editor.text(), QStringLiteral("SELECT 1\nFROM t\nWHERE x"));
        editor.undo();
        QCOMPARE(editor.text(), QStringLiteral("-- SELECT 1\n-- FROM t\nWHERE x"));
    }

    void squigglesFollowDiagnostics() {
        CodeEditor editor;
        editor.setText(QStringLiteral("CREATE FLOW f AS AUTO CDC INTO t\nFROM s KEYZ (id)"));
        Diagnostic d = Diagnostic::error("PARSE", "expected KEYS", {"pipeline.sql", 2, 8, 40, 4});
        Diagnostic w = Diagnostic::warning("W", "just a warning", {"pipeline.sql", 1, 1, 0, 6});
        editor.setDiagnostics({d, w});
        QVERIFY(editor.hasIndicatorAt(CodeEditor::ErrorIndicator, 41));
        QVERIFY(!editor.hasIndicatorAt(CodeEditor::ErrorIndicator, 30));
        QVERIFY(editor.hasIndicatorAt(CodeEditor::WarningIndicator, 2));
        QVERIFY(editor.diagnosticAt(42) != nullptr);
        QCOMPARE(QString::fromStdString(editor.diagnosticAt(42)->message), QStringLiteral("expected KEYS"));
        QVERIFY(editor.diagnosticAt(20) == nullptr);
        editor.setDiagnostics({});
        QVERIFY(!editor.hasIndicatorAt(CodeEditor::ErrorIndicator, 41));
    }

    void pipelineKeywordsHaveTheirOwnStyle() {
        SqlLexer lexer;
        QVERIFY(QByteArray(lexer.keywords(5)).split(' ').contains("sequence"));
        QVERIFY(QByteArray(lexer.keywords(5)).split(' ').contains("cdc"));
        QVERIFY(QByteArray(lexer.keywords(1)).split(' ').contains("select"));
        lexer.setSchemaNames({QStringLiteral("users_cdf"), QStringLiteral("userId")});
        QVERIFY(QByteArray(lexer.keywords(7)).split(' ').contains("userid"));
    }

    void findAndReplace() {
        WorkbenchPanel panel;
        auto* editor = panel.editor();
        editor->setText(QStringLiteral("city city CITY"));
        panel.findBar()->showReplace();
        panel.findBar()->findEdit()->setText(QStringLiteral("city"));
        panel.findBar()->replaceEdit()->setText(QStringLiteral("town"));
        QCOMPARE(panel.findBar()->replaceAll(), 3);
        QCOMPARE(editor->text(), QStringLiteral("town town town"));
        editor->undo();
        QCOMPARE(editor->text(), QStringLiteral("city city CITY"));
        editor->setCursorPosition(0, 0);
        QVERIFY(panel.findBar()->findNext());
        QCOMPARE(editor->selectedText(), QStringLiteral("city"));
        panel.findBar()->findEdit()->setText(QStringLiteral("nowhere"));
        QVERIFY(!panel.findBar()->findNext());
    }

    void issuesDoubleClickJumpsToThePosition() {
        MainWindow window;
        window.workbench()->editor()->setText(QStringLiteral("line one\nline two has an error"));
        window.issuesModel()->setDiagnostics({Diagnostic::error("PARSE", "bad", {"p.sql", 2, 6, 14, 3})});
        const QModelIndex index = window.issuesModel()->index(0, IssueListModel::MessageColumn);
        QCOMPARE(index.data().toString(), QStringLiteral("bad"));
        emit window.issuesView()->doubleClicked(index);
        int line = -1, col = -1;
        window.workbench()->editor()->getCursorPosition(&line, &col);
        QCOMPARE(line, 1);
        QCOMPARE(window.workbench()->editor()->selectedText(), QStringLiteral("two"));
    }

    void csvParsingAndHeaderMapping() {
        const auto records = csvreader::parse(QStringLiteral("id,name\r\n1,\"Doe, \"\"J\"\"\"\n2,\n"));
        QCOMPARE(records.size(), 3);
        QCOMPARE(records[1], (QStringList{"1", "Doe, \"J\""}));
        QCOMPARE(records[2], (QStringList{"2", ""}));
        QCOMPARE(csvreader::guessSeparator(QStringLiteral("a\tb\n")), QChar('\t'));
        QCOMPARE(csvreader::mapByName({"SEQ", "Name", "x"}, {"name", "seq", "id"}), (QList<int>{1, 0, -1}));

        CsvImportDialog dialog(QStringLiteral("t"), {"id", "name", "seq"},
                               QStringLiteral("seq,id,name\n5,1,Ada\n6,2,Bob\n"));
        QCOMPARE(dialog.mapping(), (QList<int>{1, 2, 0}));
        QCOMPARE(dialog.records().size(), 2);
        dialog.setMapping(1, -1);
        QCOMPARE(dialog.mapping(), (QList<int>{1, -1, 0}));
    }

    void sourceSqlCreatesTablesAndPasteQueuesRows() {
        MainWindow window;
        SourceSqlDialog sql(window.project());
        sql.editor()->setText(
            QStringLiteral("CREATE TABLE shop.orders (id INT, status STRING, seq BIGINT);"));
        QVERIFY(sql.execute());
        QCOMPARE(window.sourcesPanel()->tabs()->count(), 1);
        auto* model = window.sourcesPanel()->currentModel();
        QVERIFY(model);
        QCOMPARE(model->columnNames(), (QStringList{"id", "status", "seq"}));

        // Pasted rows with a header in another column order land in the queue, mapped by name.
        window.sourcesPanel()->pasteText(QStringLiteral("seq\tid\tstatus\n7\t1\tnew\n8\t1\tpaid\n"));
        QCOMPARE(model->rowCount(), 2);
        QCOMPARE(model->data(model->index(1, 1)).toString(), QStringLiteral("paid"));
        QCOMPARE(model->data(model->index(1, 2)).toString(), QStringLiteral("8"));
        // A bad cell rejects the paste, naming the cell; nothing is added.
        window.sourcesPanel()->pasteText(QStringLiteral("x\ty\tz\n"));
        QCOMPARE(model->rowCount(), 2);

        // Rows written by SQL can be queued instead of written.
        sql.editor()->setText(QStringLiteral("INSERT INTO shop.orders VALUES (2, 'new', 1), (3, 'new', 1);"));
        QVERIFY(sql.queueAsEvents());
        QCOMPARE(model->rowCount(), 4);
        QCOMPARE(model->deliveredCount(), 0);
        // Bad SQL shows where and why and changes nothing.
        sql.editor()->setText(QStringLiteral("INSERT INTO nowhere VALUES (1);"));
        QVERIFY(!sql.execute());
        QVERIFY(!sql.editor()->diagnostics().empty());
        QCOMPARE(model->rowCount(), 4);
        window.project()->undoStack()->undo();
        QCOMPARE(model->rowCount(), 2);
    }

    void modifiedMarkerAndClosePrompt() {
        QTemporaryDir dir;
        MainWindow window;
        window.show();
        QVERIFY(!window.isWindowModified());
        window.workbench()->editor()->setText(QStringLiteral("CREATE OR REFRESH STREAMING TABLE t;"));
        QVERIFY(window.isWindowModified());
        QVERIFY(window.windowTitle().startsWith(QStringLiteral("Untitled")));

        int asked = 0;
        window.projectController()->setSavePrompt([&] {
            ++asked;
            return QMessageBox::Cancel;
        });
        QCloseEvent cancelled;
        QApplication::sendEvent(&window, &cancelled);
        QCOMPARE(asked, 1);
        QVERIFY(!cancelled.isAccepted());

        const QString path = dir.filePath(QStringLiteral("w.cdcstudio"));
        QVERIFY(window.projectController()->saveTo(path));
        QVERIFY(!window.isWindowModified());
        QVERIFY(window.windowTitle().startsWith(QStringLiteral("w.cdcstudio")));
        QVERIFY(window.projectController()->recentFiles().contains(QFileInfo(path).absoluteFilePath()));
        QCloseEvent accepted;
        QApplication::sendEvent(&window, &accepted);
        QCOMPARE(asked, 1); // nothing unsaved: no question
        QVERIFY(accepted.isAccepted());

        MainWindow reopened;
        QVERIFY(reopened.projectController()->openFile(path));
        QCOMPARE(reopened.workbench()->editor()->text(),
                 QStringLiteral("CREATE OR REFRESH STREAMING TABLE t;"));
        QVERIFY(!reopened.isWindowModified());
    }
};

QTEST_MAIN(TestWorkbench)
#include "tst_workbench.moc"
