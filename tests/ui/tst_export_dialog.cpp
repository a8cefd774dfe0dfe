// File › Export Pipeline…, as a user drives it: the scd1-truncate sample open, the dialog previews the bundle
// (databricks.yml, the resource, the SQL) with no warnings; switched to Spark and Python by keyboard it lists
// open-source Spark's warnings, and a click on the TRUNCATE one moves the editor to its line; Browse… picks
// the folder, Export writes the files (checked on disk, with the source data) and the status bar says where.
#include "ui/model/PipelineDocument.h"
#include "ui/model/Project.h"
#include "ui/widgets/CodeEditor.h"
#include "ui/widgets/ExportDialog.h"
#include "ui/widgets/MainWindow.h"
#include "ui/widgets/ProjectController.h"
#include "ui/widgets/WorkbenchPanel.h"

#include "ui/UiTestSupport.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

using namespace cdc;
using namespace cdc::ui;

namespace {

QStringList items(const QListWidget* list) {
    QStringList out;
    for (int i = 0; i < list->count(); ++i)
        out << list->item(i)->text();
    return out;
}

QString readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

} // namespace

class TestExportDialog : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("QT_FILE_DIALOG_NATIVE", "0");
    }

    void exportsABundleAndASparkProject() {
        MainWindow w;
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.projectController()->openSample(QStringLiteral("scd1-truncate")));

        w.exportPipelineAction()->trigger();
        ExportDialog* dialog = w.exportDialog();
        QVERIFY(dialog);
        QTRY_VERIFY(dialog->isVisible());
        QCOMPARE(items(dialog->fileList()),
                 (QStringList{"databricks.yml", "resources/cdc_pipeline.pipeline.yml",
                              "transformations/cdc_pipeline.sql"}));
        // The transformation is shown first: the sample's pipeline in canonical SQL.
        QCOMPARE(dialog->fileList()->currentItem()->text(),
                 QStringLiteral("transformations/cdc_pipeline.sql"));
        QVERIFY(dialog->preview()->toPlainText().contains("APPLY AS TRUNCATE WHEN"));
        QCOMPARE(dialog->warningList()->count(), 0);
        QVERIFY(!dialog->exportButton()->isEnabled()); // no folder yet

        // The name, typed; the YAML follows it.
        dialog->nameEdit()->selectAll();
        QTest::keyClicks(dialog->nameEdit(), "users_truncate");
        QVERIFY(items(dialog->fileList()).contains("resources/users_truncate.pipeline.yml"));
        dialog->fileList()->setCurrentRow(0);
        QVERIFY(dialog->preview()->toPlainText().contains("name: users_truncate"));

        // Spark, Python: the kind and language boxes by keyboard.
        dialog->kindBox()->setFocus();
        QTest::keyClick(dialog->kindBox(), Qt::Key_Down);
        QCOMPARE(dialog->kindBox()->currentIndex(), 1);
        dialog->languageBox()->setFocus();
        QTest::keyClick(dialog->languageBox(), Qt::Key_Down);
        QCOMPARE(dialog->languageBox()->currentIndex(), 1);
        QCOMPARE(items(dialog->fileList()),
                 (QStringList{"spark-pipeline.yml", "transformations/users_truncate.py"}));
        QVERIFY(dialog->preview()->toPlainText().contains("dp.create_auto_cdc_flow("));
        QVERIFY(dialog->preview()->toPlainText().contains("apply_as_truncates=expr("));
        const QStringList warnings = items(dialog->warningList());
        QVERIFY2(warnings.size() >= 2, qPrintable(warnings.join('\n')));
        int truncate = -1;
        for (int i = 0; i < warnings.size(); ++i)
            if (warnings[i].contains("APPLY AS TRUNCATE WHEN is Databricks only"))
                truncate = i;
        QVERIFY2(truncate >= 0, qPrintable(warnings.join('\n')));
        const auto& flow = w.project()->document()->pipeline().cdcFlows.at(0);
        const int truncateLine = flow.applyAsTruncate->location.line;
        QVERIFY(warnings[truncate].startsWith(QStringLiteral("pipeline.sql:%1:").arg(truncateLine)));

        // A click on the warning: the editor's cursor goes to its line.
        QListWidgetItem* item = dialog->warningList()->item(truncate);
        QTest::mouseClick(dialog->warningList()->viewport(), Qt::LeftButton, {},
                          dialog->warningList()->visualItemRect(item).center());
        int line = -1, index = -1;
        w.workbench()->editor()->getCursorPosition(&line, &index);
        QCOMPARE(line + 1, truncateLine);

        // Source data along, both forms.
        QTest::mouseClick(dialog->csvBox(), Qt::LeftButton);
        QTest::mouseClick(dialog->insertsBox(), Qt::LeftButton);
        QVERIFY(items(dialog->fileList()).contains("data/source_tables.sql"));
        uitest::saveScreenshot(*dialog, QStringLiteral("export-dialog.png"));

        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("spark-export"));
        QVERIFY(QDir().mkpath(folder));
        uitest::answerFileDialog(folder);
        QTest::mouseClick(dialog->browseButton(), Qt::LeftButton);
        QTRY_COMPARE(QDir::cleanPath(dialog->folderEdit()->text()), QDir::cleanPath(folder));
        QVERIFY(dialog->exportButton()->isEnabled());
        const int files = dialog->fileList()->count();
        QTest::mouseClick(dialog->exportButton(), Qt::LeftButton);
        QTRY_VERIFY(!dialog->isVisible());
        QCOMPARE(w.statusBar()->currentMessage(),
                 QStringLiteral("Exported %1 files to %2").arg(files).arg(QDir::toNativeSeparators(folder)));
        QVERIFY(readAll(folder + "/spark-pipeline.yml").contains("name: users_truncate"));
        QVERIFY(readAll(folder + "/transformations/users_truncate.py")
                    .contains("from pyspark import pipelines as dp"));
        QVERIFY(readAll(folder + "/data/source_tables.sql").contains("CREATE TABLE IF NOT EXISTS"));
    }
};

QTEST_MAIN(TestExportDialog)
#include "tst_export_dialog.moc"
