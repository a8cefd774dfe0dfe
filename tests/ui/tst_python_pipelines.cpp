// Python pipelines in the app, driven as a user does: File › Open of a .py file opens it WITHOUT running it
// (a banner says the graph is a preview), the first run asks whether to trust the file (a real message box,
// answered by clicking), a trusted file runs for real (its loop-built graph, its snapshot function called
// per update), the answer is remembered per file, and the samples' Python runs without asking. Python runs
// in a worker: this test program is that worker too (see main()).
#include "core/python/PythonRunner.h"
#include "core/sql/SqlApi.h"
#include "ui/designer/DesignerController.h"
#include "ui/designer/DesignerPanel.h"
#include "ui/designer/DesignerScene.h"
#include "ui/model/IssueListModel.h"
#include "ui/model/Project.h"
#include "ui/model/PythonTrust.h"
#include "ui/model/SimulationRunner.h"
#include "ui/model/results/TargetRowsModel.h"
#include "ui/widgets/CodeEditor.h"
#include "ui/widgets/EditorController.h"
#include "ui/widgets/MainWindow.h"
#include "ui/widgets/NoticeBanner.h"
#include "ui/widgets/ProjectController.h"
#include "ui/widgets/PythonTrustController.h"
#include "ui/widgets/SimulationController.h"
#include "ui/widgets/WorkbenchPanel.h"
#include "ui/widgets/results/TargetTablePanel.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QFile>
#include <QMessageBox>
#include <QPushButton>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolButton>
#include <QtTest>

#include <functional>

using namespace cdc;
using namespace cdc::ui;

namespace {

QString conformance(const QString& path) {
    return QStringLiteral(CDC_TESTS_DIR "/conformance/") + path;
}

void copyFile(const QString& from, const QString& to) {
    QDir().mkpath(QFileInfo(to).absolutePath());
    QFile::remove(to);
    QVERIFY2(QFile::copy(from, to), qPrintable(from + " -> " + to));
}

void writeFile(const QString& path, const QByteArray& text) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(text);
}

/// The answer the user gives to the next trust question: clicks "Trust and Run" (with the remember box
/// as `remember`) or Cancel. `asked` counts the questions seen.
void answerTrustPrompt(bool trust, bool remember, int* asked) {
    QTimer::singleShot(0, [=] {
        QTRY_VERIFY(qobject_cast<QMessageBox*>(QApplication::activeModalWidget()) != nullptr);
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        QCOMPARE(box->objectName(), QStringLiteral("pythonTrustPrompt"));
        ++*asked;
        auto* rememberBox = box->findChild<QCheckBox*>(QStringLiteral("rememberTrust"));
        QVERIFY(rememberBox);
        if (rememberBox->isChecked() != remember)
            QTest::mouseClick(rememberBox, Qt::LeftButton, {}, QPoint(4, rememberBox->height() / 2));
        QCOMPARE(rememberBox->isChecked(), remember);
        QAbstractButton* button =
            trust ? static_cast<QAbstractButton*>(box->findChild<QPushButton*>(QStringLiteral("trustButton")))
                  : box->button(QMessageBox::Cancel);
        QVERIFY(button);
        QTest::mouseClick(button, Qt::LeftButton);
    });
}

/// What the target table shows for `target` after the last update: "cells|..." per row.
QStringList targetGrid(MainWindow& w, const QString& target) {
    w.targetTablePanel()->selectRow(target, 0);
    const TargetRowsModel* model = w.targetTablePanel()->rowsModel();
    QStringList lines;
    for (int r = 0; r < model->rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < model->columnCount(); ++c)
            cells << model->index(r, c).data().toString();
        lines << cells.join(QLatin1Char('|'));
    }
    return lines;
}

/// The expected rows of a conformance .tsv file in the grid's form.
QStringList tsvRows(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return {QStringLiteral("<cannot read %1>").arg(path)};
    QStringList lines;
    for (const QString& line : QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        lines << line.split(QLatin1Char('\t')).join(QLatin1Char('|'));
    return lines;
}

QStringList graphNodes(MainWindow& w) {
    QStringList ids;
    for (const auto& node : w.designer()->scene()->graph().nodes)
        ids << QString::fromStdString(node.id);
    ids.sort();
    return ids;
}

bool hasIssue(const MainWindow& w, const QString& code) {
    for (const Diagnostic& d : w.project()->document()->issues())
        if (QString::fromStdString(d.code) == code)
            return true;
    return false;
}

/// With CDC_SCREENSHOT_DIR set, writes what the window shows there.
void saveScreenshot(QWidget& window, const QString& name) {
    const QString dir = qEnvironmentVariable("CDC_SCREENSHOT_DIR");
    if (dir.isEmpty())
        return;
    QApplication::processEvents(); // layouts settle on posted events
    QVERIFY(window.grab().save(dir + QLatin1Char('/') + name));
}

/// Ctrl+Return (Run Update) in the window, active again after any dialog.
void runUpdateByKey(MainWindow& w) {
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QTest::keyClick(&w, Qt::Key_Return, Qt::ControlModifier);
}

} // namespace

class TestPythonPipelines : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("CDCStudioPythonTests"));
        QStandardPaths::setTestModeEnabled(true);
    }
    void init() {
        QSettings().clear(); // no file trusted from an earlier test
    }

    void openingNeverRunsAndTheFirstRunAsks();
    void cancelledQuestionRunsNothing();
    void trustIsRememberedPerFile();
    void seedVersionedFilesRunInTheApp();
    void pythonSampleRunsWithoutAsking();
    void graphAndInspectorAreReadOnly();
};

/// A .py file that leaves a mark when it runs: opening it must not run it; trusting it does.
void TestPythonPipelines::openingNeverRunsAndTheFirstRunAsks() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString marker = dir.filePath("ran.txt");
    const QString py = dir.filePath("loop.py");
    QFile loop(conformance("python/run/loop_over_tables/pipeline.py"));
    QVERIFY(loop.open(QIODevice::ReadOnly));
    writeFile(py, "open(" + QByteArray("'") + marker.toUtf8() + "', 'w').write('ran')\n" + loop.readAll());

    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.projectController()->openFile(py));
    QVERIFY(w.project()->document()->isPython());
    QVERIFY(w.workbench()->editor()->isPython());
    QVERIFY(!w.project()->isPythonTrusted());
    NoticeBanner* banner = w.pythonTrust()->banner();
    QVERIFY(banner->isVisible());
    QVERIFY2(banner->text().contains("has not been run"), qPrintable(banner->text()));
    QVERIFY2(w.statusBar()->currentMessage().contains("without running it"),
             qPrintable(w.statusBar()->currentMessage()));
    // The static preview cannot read a loop: a warning that says how to find out, not an error.
    QVERIFY(hasIssue(w, "PYTHON_PREVIEW"));
    QVERIFY(!w.project()->document()->hasErrors());
    QTest::qWait(300);
    QVERIFY(!w.project()->document()->runPending());
    QVERIFY2(!QFile::exists(marker), "opening a Python file ran it");
    saveScreenshot(w, "python-untrusted.png");

    // The change feeds it reads (a user makes them with Source SQL).
    QFile sources(conformance("python/run/loop_over_tables/source.sql"));
    QVERIFY(sources.open(QIODevice::ReadOnly));
    const std::string script = sources.readAll().toStdString();
    QVERIFY(w.project()
                ->change(
                    QStringLiteral("Create sources"),
                    [&](storage::Database& db) { return sql::executeSourceScript(db, script, "source.sql"); })
                .ok());

    // The banner's button asks; trusting runs the file, whose graph replaces the preview.
    int asked = 0;
    answerTrustPrompt(true, true, &asked);
    QTest::mouseClick(banner->button(), Qt::LeftButton);
    QCOMPARE(asked, 1);
    QVERIFY(w.project()->isPythonTrusted());
    QVERIFY(!banner->isVisible());
    w.project()->document()->waitForRun();
    QVERIFY(QFile::exists(marker));
    QVERIFY(!hasIssue(w, "PYTHON_PREVIEW"));
    QVERIFY(!w.project()->document()->hasErrors());
    const QStringList nodes = graphNodes(w);
    for (const char* id : {"customers_current", "orders_current", "products_current"})
        QVERIFY2(std::any_of(nodes.begin(), nodes.end(), [&](const QString& n) { return n.contains(id); }),
                 qPrintable(nodes.join(", ")));
}

void TestPythonPipelines::cancelledQuestionRunsNothing() {
    QTemporaryDir dir;
    const QString py = dir.filePath("versioned.py");
    copyFile(conformance("python/snapshot/seed_versioned_snapshot.py"), py);
    copyFile(conformance("python/snapshot/snapshot_1.csv"),
             dir.filePath("Volumes/main/cdc_tutorial/snapshots/snapshot_1.csv"));
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.projectController()->openFile(py));
    int asked = 0;
    answerTrustPrompt(false, true, &asked);
    runUpdateByKey(w);
    QCOMPARE(asked, 1);
    QVERIFY(!w.simulation()->runner()->isRunning());
    QVERIFY(!w.project()->isPythonTrusted());
    QVERIFY(!pythontrust::isTrusted(py));
    QVERIFY2(w.statusBar()->currentMessage().contains("not trusted"),
             qPrintable(w.statusBar()->currentMessage()));
    QVERIFY(w.pythonTrust()->banner()->isVisible());
    QCOMPARE(w.project()->undoStack()->count(), 0); // no update ran
}

void TestPythonPipelines::trustIsRememberedPerFile() {
    QTemporaryDir dir;
    const QString first = dir.filePath("first.py");
    const QString second = dir.filePath("second.py");
    copyFile(conformance("python/run/seed_periodic_snapshot/pipeline.py"), first);
    copyFile(conformance("python/run/seed_periodic_snapshot/pipeline.py"), second);
    {
        MainWindow w;
        QVERIFY(w.projectController()->openFile(first));
        int asked = 0;
        answerTrustPrompt(true, true, &asked);
        QTest::mouseClick(w.pythonTrust()->banner()->button(), Qt::LeftButton);
        QCOMPARE(asked, 1);
        QVERIFY(pythontrust::isTrusted(first));
        // Saved as a project, the same work stays trusted: the user ran it.
        QVERIFY(w.projectController()->saveTo(dir.filePath("mine.cdcstudio")));
        w.project()->document()->waitForRun();
    }
    MainWindow w;
    QVERIFY(w.projectController()->openFile(first));
    QVERIFY(w.project()->isPythonTrusted());
    QVERIFY(w.pythonTrust()->banner()->isHidden());
    QVERIFY(w.projectController()->openFile(dir.filePath("mine.cdcstudio")));
    QVERIFY(w.project()->document()->isPython());
    QVERIFY(w.project()->isPythonTrusted());
    // Another file with the same text is another file: it asks.
    QVERIFY(w.projectController()->openFile(second));
    QVERIFY(!w.project()->isPythonTrusted());
    QVERIFY(!w.pythonTrust()->banner()->isHidden());
    // Not remembering trusts for this session only.
    int asked = 0;
    answerTrustPrompt(true, false, &asked);
    QTest::mouseClick(w.pythonTrust()->banner()->button(), Qt::LeftButton);
    QCOMPARE(asked, 1);
    QVERIFY(w.project()->isPythonTrusted());
    QVERIFY(!pythontrust::isTrusted(second));
    w.project()->document()->waitForRun();
}

/// Seed 001's versioned-files example in Python, verbatim (its own next_snapshot_and_version lists the
/// volume with dbutils.fs.ls): opened from the folder that holds its Volumes/, two updates, the seed tables.
void TestPythonPipelines::seedVersionedFilesRunInTheApp() {
    QTemporaryDir dir;
    const QString py = dir.filePath("snapshot_files_pipeline.py");
    copyFile(conformance("python/snapshot/seed_versioned_snapshot.py"), py);
    const QString volume = dir.filePath("Volumes/main/cdc_tutorial/snapshots/");
    copyFile(conformance("python/snapshot/snapshot_1.csv"), volume + "snapshot_1.csv");
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.projectController()->openFile(py));
    QCOMPARE(w.project()->volumesFolder(), dir.path());

    int asked = 0;
    answerTrustPrompt(true, true, &asked);
    runUpdateByKey(w);
    QCOMPARE(asked, 1);
    w.simulation()->waitForFinished();
    for (const Diagnostic& d : w.project()->document()->issues())
        QVERIFY2(d.severity != Severity::Error, d.format().c_str());
    QCOMPARE(targetGrid(w, "main.cdc_tutorial.target_versioned"),
             tsvRows(conformance("python/snapshot/expected_after_1.tsv")));

    // The next file arrives; the next update (asks no more) processes it.
    copyFile(conformance("python/snapshot/snapshot_2.csv"), volume + "snapshot_2.csv");
    w.project()->document()->waitForRun();
    runUpdateByKey(w);
    QCOMPARE(asked, 1);
    // The update re-parses the document: the same file's declaration is re-validated, not run again.
    QVERIFY(!w.project()->document()->runPending());
    QVERIFY(!hasIssue(w, "PYTHON_PREVIEW"));
    w.simulation()->waitForFinished();
    QCOMPARE(targetGrid(w, "main.cdc_tutorial.target_versioned"),
             tsvRows(conformance("python/snapshot/expected_after_2.tsv")));
    // The graph is the one the run declared: the snapshot function's flow into its target.
    w.project()->document()->waitForRun();
    QCOMPARE(graphNodes(w), (QStringList{"flow:target_versioned", "function:next_snapshot_and_version",
                                         "table:main.cdc_tutorial.target_versioned"}));
    saveScreenshot(w, "python-pipeline.png");
}

/// The sample's Python (the seed's periodic snapshot example) runs without a question: it ships with the app.
void TestPythonPipelines::pythonSampleRunsWithoutAsking() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.projectController()->openSample(QStringLiteral("snapshot-users-python")));
    QVERIFY(w.project()->document()->isPython());
    QVERIFY(w.project()->isPythonTrusted());
    QVERIFY(!w.pythonTrust()->banner()->isVisible());
    // Any question would be seen (and refused) here.
    int asked = 0;
    QTimer watch;
    connect(&watch, &QTimer::timeout, [&] {
        if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
            ++asked;
            box->reject();
        }
    });
    watch.start(10);
    for (int step = 0; step < 2; ++step) {
        QTest::keyClick(&w, Qt::Key_F10);
        w.simulation()->waitForFinished();
    }
    QCOMPARE(asked, 0);
    // Periodic snapshots are versioned by the update's time: compare keys, cities and which are open.
    const QStringList grid = targetGrid(w, "target");
    QStringList shape;
    for (const QString& row : grid) {
        const QStringList cells = row.split(QLatin1Char('|'));
        shape << cells.mid(0, 2).join(QLatin1Char('|')) + (cells.last().isEmpty() || cells.last() == "null"
                                                               ? QStringLiteral(" open")
                                                               : QStringLiteral(" closed"));
    }
    QCOMPARE(shape, (QStringList{"1|Oaxaca closed", "2|Monterrey closed", "2|Carmel open", "3|Tijuana closed",
                                 "3|Los Angeles open", "4|Death Valley open", "6|Kings Canyon open"}));
}

/// The graph and the inspector edit pipeline SQL: with a Python pipeline they show and do not edit.
void TestPythonPipelines::graphAndInspectorAreReadOnly() {
    MainWindow w;
    QVERIFY(w.projectController()->openSample(QStringLiteral("snapshot-users-python")));
    w.project()->document()->waitForRun();
    QVERIFY(!graphNodes(w).isEmpty());
    const QString before = w.project()->document()->text();
    QVERIFY(!w.designerController()->addTableAction()->isEnabled());
    QVERIFY(!w.designerController()->addFlowAction()->isEnabled());
    // Toggle Comment in Python writes Python comments.
    CodeEditor* editor = w.workbench()->editor();
    editor->setFocus();
    editor->setCursorPosition(0, 0);
    w.workbench()->toggleCommentAction()->trigger();
    QVERIFY2(editor->text(0).startsWith("# from pyspark"), qPrintable(editor->text(0)));
    QVERIFY(!w.editorController()->formatAction()->isEnabled());
    QCOMPARE(w.project()->document()->text(), editor->text());
    QVERIFY(w.project()->document()->text() != before);
}

int main(int argc, char** argv) {
    // The Python worker: this program started again to run one pipeline file.
    if (argc == 2 && argv[1] == python::kWorkerFlag)
        return python::runPythonWorker();
    sql::installSparkFunctions();
    QApplication app(argc, argv);
    TestPythonPipelines test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_python_pipelines.moc"
