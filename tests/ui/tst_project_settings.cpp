// File › Project Settings…: the Volumes folder, driven through the real dialog. The files a pipeline's
// read_files reads come from the project's folder until the user chooses another one; a folder that does
// not exist is refused in the dialog; the choice is one undoable step.
#include "core/sql/SqlApi.h"
#include "ui/model/Project.h"
#include "ui/widgets/ProjectSettingsDialog.h"

#include <QApplication>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace cdc;
using namespace cdc::ui;

namespace {

/// `id` of the one row of /Volumes/main/s/v/a.csv as the project's connection reads it, or the error.
QString readId(Project& project) {
    auto rs = sql::runQuery(
        project.db(), "SELECT id FROM read_files('/Volumes/main/s/v/a.csv', format => 'csv', header => true)",
        "<query>");
    if (!rs)
        return QString::fromStdString(rs.error().code);
    return rs->rows.size() == 1 ? QString::fromStdString(displayText(rs->rows[0][0])) : QStringLiteral("?");
}

void writeVolumeFile(const QString& folder, const char* id) {
    QVERIFY(QDir().mkpath(folder + "/Volumes/main/s/v"));
    std::ofstream(QString(folder + "/Volumes/main/s/v/a.csv").toStdString()) << "id\n" << id << "\n";
}

QPushButton* okButton(ProjectSettingsDialog& dialog) {
    return dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
}

} // namespace

class TestProjectSettings : public QObject {
    Q_OBJECT
private slots:
    void volumesFolder();
};

void TestProjectSettings::volumesFolder() {
    QTemporaryDir projectDir, otherDir;
    QVERIFY(projectDir.isValid() && otherDir.isValid());
    writeVolumeFile(projectDir.path(), "1");
    writeVolumeFile(otherDir.path(), "2");
    Project project;
    QCOMPARE(readId(project), QString("VOLUMES_FOLDER_NOT_SET")); // unsaved: no folder yet
    QVERIFY(project.saveAs(projectDir.filePath("p.cdcstudio")).ok());
    QCOMPARE(readId(project), QString("1")); // the project's folder by default

    ProjectSettingsDialog dialog(&project);
    dialog.setFolderChooser([&](const QString& current) {
        // Browsing starts in the folder in use.
        if (current != projectDir.path() && current != otherDir.path())
            return QString();
        return otherDir.path();
    });
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QLineEdit* edit = dialog.volumesEdit();
    QCOMPARE(edit->text(), QString());
    QVERIFY2(edit->placeholderText().contains(projectDir.path()), qPrintable(edit->placeholderText()));
    QCOMPARE(dialog.previewLabel()->text(), QDir::toNativeSeparators(projectDir.path() + "/Volumes"));

    QTest::mouseClick(dialog.browseButton(), Qt::LeftButton);
    QCOMPARE(edit->text(), QDir::toNativeSeparators(otherDir.path()));
    QCOMPARE(dialog.previewLabel()->text(), QDir::toNativeSeparators(otherDir.path() + "/Volumes"));

    // A folder that does not exist: OK is refused, with the reason, and nothing changes.
    edit->setFocus();
    QTest::keyClick(edit, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(edit, otherDir.path() + "/missing");
    QTest::mouseClick(okButton(dialog), Qt::LeftButton);
    QVERIFY(dialog.isVisible());
    QVERIFY(dialog.errorLabel()->isVisible());
    QVERIFY2(dialog.errorLabel()->text().contains("is not a folder"),
             qPrintable(dialog.errorLabel()->text()));
    QCOMPARE(project.volumesSetting(), QString());

    QTest::mouseClick(dialog.defaultButton(), Qt::LeftButton);
    QCOMPARE(edit->text(), QString());
    QVERIFY(!dialog.errorLabel()->isVisible());
    QTest::mouseClick(dialog.browseButton(), Qt::LeftButton);
    if (qEnvironmentVariableIsSet("CDC_SCREENSHOT_DIR"))
        dialog.grab().save(qEnvironmentVariable("CDC_SCREENSHOT_DIR") + "/project-settings.png");
    QTest::keyClick(edit, Qt::Key_Return); // Enter accepts, like OK
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    QVERIFY(!dialog.isVisible());
    QCOMPARE(project.volumesSetting(), otherDir.path());
    QCOMPARE(readId(project), QString("2"));

    // One step on the project's history: undo returns to the project's folder.
    QCOMPARE(project.undoStack()->undoText(), QString("Set Volumes folder"));
    project.undoStack()->undo();
    QCOMPARE(project.volumesSetting(), QString());
    QCOMPARE(readId(project), QString("1"));
    project.undoStack()->redo();
    QCOMPARE(readId(project), QString("2"));
}

QTEST_MAIN(TestProjectSettings)
#include "tst_project_settings.moc"
