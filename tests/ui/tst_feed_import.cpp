// Sources › Import Feed… driven like a user: the file chosen through the file dialog, the detected format
// and the preview checked, a column's mapping changed with the keyboard (and the preview following it), the
// import run with Import, then undone; a new table created from a DMS file; a malformed file named with its
// line and byte, with Import disabled.
#include "ui/UiTestSupport.h"

#include "ui/model/Project.h"
#include "ui/model/ProjectStore.h"
#include "ui/model/SampleLibrary.h"
#include "ui/model/SourceScripts.h"
#include "ui/widgets/FeedImportDialog.h"
#include "ui/widgets/SourcesPanel.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <functional>

using namespace cdc;
using namespace cdc::ui;

namespace {

const QString kFeeds = QStringLiteral(CDC_TESTS_DIR "/conformance/feeds");

int queued(Project& project) {
    auto events = projectstore::events(project.db());
    return events ? int(events->size()) : -1;
}

QStringList previewRow(const FeedImportDialog* dialog, int row) {
    QStringList out;
    for (int c = 0; c < dialog->previewTable()->columnCount(); ++c) {
        const QTableWidgetItem* item = dialog->previewTable()->item(row, c);
        out << (item ? item->text() : QString());
    }
    return out;
}

QComboBox* takesBox(const FeedImportDialog* dialog, const QString& column) {
    for (int r = 0; r < dialog->mappingTable()->rowCount(); ++r)
        if (dialog->mappingTable()->item(r, 0)->text() == column)
            return qobject_cast<QComboBox*>(dialog->mappingTable()->cellWidget(r, 2));
    return nullptr;
}

/// Chooses `text` in a combo box with the arrow keys, as a user does with the keyboard.
void chooseWithKeys(QComboBox* box, const QString& text) {
    const int target = box->findText(text);
    QVERIFY2(target >= 0, qPrintable(text));
    box->setFocus();
    while (box->currentIndex() != target)
        QTest::keyClick(box, box->currentIndex() < target ? Qt::Key_Down : Qt::Key_Up);
}

/// Runs `drive` on the Import Feed dialog once it is open (it runs modal).
void whenDialogOpens(SourcesPanel& panel, std::function<void(FeedImportDialog*)> drive) {
    auto connection = std::make_shared<QMetaObject::Connection>();
    *connection = QObject::connect(&panel, &SourcesPanel::feedDialogOpened, &panel,
                                   [connection, drive](FeedImportDialog* dialog) {
                                       QObject::disconnect(*connection);
                                       QTimer::singleShot(0, dialog, [dialog, drive] {
                                           dialog->activateWindow(); // keyboard focus moves as a user's does
                                           QVERIFY(QTest::qWaitForWindowActive(dialog));
                                           drive(dialog);
                                       });
                                   });
}

} // namespace

class TestFeedImport : public QObject {
    Q_OBJECT
private slots:
    void importDebeziumIntoTheSeedTableAndUndo() {
        Project project;
        QVERIFY(
            sourcescripts::installSample(project, samplelibrary::load(QStringLiteral("scd1-users"))).ok());
        const int before = queued(project);
        SourcesPanel panel(&project);
        panel.resize(900, 400);
        panel.show();
        QString status;
        connect(&panel, &SourcesPanel::statusMessage, this, [&](const QString& m) { status = m; });
        bool driven = false;
        whenDialogOpens(panel, [&](FeedImportDialog* dialog) {
            uitest::answerFileDialog(kFeeds + "/debezium-postgres/feed.json");
            QTest::mouseClick(dialog->browseButton(), Qt::LeftButton);
            QCOMPARE(dialog->file(), kFeeds + "/debezium-postgres/feed.json");
            QCOMPARE(dialog->formatBox()->currentText(), QStringLiteral("Debezium JSON"));
            QCOMPARE(dialog->table(), QStringLiteral("main.cdc_tutorial.users_cdf"));
            QCOMPARE(dialog->previewTable()->rowCount(), 8);
            QCOMPARE(previewRow(dialog, 0), (QStringList{"124", "Raul", "Oaxaca", "INSERT", "24023128"}));
            QCOMPARE(previewRow(dialog, 4), (QStringList{"123", "null", "null", "DELETE", "24023920"}));
            QVERIFY(dialog->messageLabel()->text().isEmpty());
            // Map city to NULL: the preview follows; then back.
            QComboBox* city = takesBox(dialog, "city");
            QVERIFY(city);
            QCOMPARE(city->currentText(), QStringLiteral("city"));
            chooseWithKeys(city, "(NULL)");
            QCOMPARE(previewRow(dialog, 0).at(2), QStringLiteral("null"));
            QCOMPARE(dialog->mapping().columns[2].source, feeds::ColumnSource::Null);
            chooseWithKeys(city, "city");
            QCOMPARE(previewRow(dialog, 0).at(2), QStringLiteral("Oaxaca"));
            uitest::saveScreenshot(*dialog, "feed-import-debezium.png");
            QVERIFY(dialog->importButton()->isEnabled());
            QTest::mouseClick(dialog->importButton(), Qt::LeftButton);
            driven = true;
        });
        QVERIFY(panel.importFeed());
        QVERIFY(driven);
        QCOMPARE(status, QStringLiteral("Imported 8 events into users_cdf (1 Kafka tombstones skipped)"));
        QCOMPARE(queued(project), before + 8);
        auto events = projectstore::events(project.db());
        const QueuedEvent& first = (*events)[before];
        QCOMPARE(first.source, QStringLiteral("main.cdc_tutorial.users_cdf"));
        QCOMPARE(first.values, (Row{std::int64_t(124), std::string("Raul"), std::string("Oaxaca"),
                                    std::string("INSERT"), std::int64_t(24023128)}));
        // One undoable step.
        QCOMPARE(project.undoStack()->undoText(),
                 QStringLiteral("Import Feed into main.cdc_tutorial.users_cdf"));
        project.undoStack()->undo();
        QCOMPARE(queued(project), before);
    }

    void importCreatesANewTable() {
        Project project;
        SourcesPanel panel(&project);
        panel.show();
        QString status;
        connect(&panel, &SourcesPanel::statusMessage, this, [&](const QString& m) { status = m; });
        whenDialogOpens(panel, [&](FeedImportDialog* dialog) {
            QCOMPARE(dialog->formatBox()->currentText(), QStringLiteral("AWS DMS (CSV or JSON)"));
            QCOMPARE(dialog->table(), QStringLiteral("feed")); // named after the file
            dialog->tableBox()->setFocus();
            dialog->tableBox()->lineEdit()->selectAll();
            QTest::keyClicks(dialog->tableBox()->lineEdit(), "crm.users_changes");
            QTest::keyClick(dialog->tableBox()->lineEdit(), Qt::Key_Tab); // leaving the box takes the name
            QVERIFY2(dialog->findChild<QLabel*>("feedSummary")
                         ->text()
                         .contains("creates the source table crm.users_changes"),
                     qPrintable(dialog->findChild<QLabel*>("feedSummary")->text()));
            QStringList columns;
            for (int r = 0; r < dialog->mappingTable()->rowCount(); ++r)
                columns << dialog->mappingTable()->item(r, 0)->text();
            QCOMPARE(columns, (QStringList{"userId", "name", "city", "operation", "sequence"}));
            auto* type = qobject_cast<QComboBox*>(dialog->mappingTable()->cellWidget(0, 1));
            QVERIFY(type);
            QCOMPARE(type->currentText(), QStringLiteral("BIGINT"));
            type->setFocus();
            type->lineEdit()->selectAll();
            QTest::keyClicks(type->lineEdit(), "INT");
            QCOMPARE(dialog->mapping().columns[0].type.toString(), std::string("INT"));
            QCOMPARE(previewRow(dialog, 4),
                     (QStringList{"123", "null", "null", "DELETE", "20260101100006000000000000000000007"}));
            uitest::saveScreenshot(*dialog, "feed-import-new-table.png");
            QTest::mouseClick(dialog->importButton(), Qt::LeftButton);
        });
        QVERIFY(panel.importFeed(kFeeds + "/dms-csv/feed.csv"));
        QCOMPARE(status, QStringLiteral("Imported 8 events into users_changes (created the source table "
                                        "crm.users_changes)"));
        auto table = storage::Catalog::find(project.db(), "crm.users_changes");
        QVERIFY(table.ok() && *table);
        QCOMPARE((*table)->columns[0].type.toString(), std::string("INT"));
        QCOMPARE(queued(project), 8);
        project.undoStack()->undo(); // the table goes too
        table = storage::Catalog::find(project.db(), "crm.users_changes");
        QVERIFY(table.ok() && !*table);
    }

    void malformedFileIsNamedAndNotImported() {
        QTemporaryDir dir;
        const QString path = dir.filePath("bad.json");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"after":{"userId":1},"op":"c","source":{"lsn":1}})"
                "\n"
                R"({"after":{"userId":2},"op":"z","source":{"lsn":2}})"
                "\n");
        f.close();
        Project project;
        QVERIFY(
            sourcescripts::installSample(project, samplelibrary::load(QStringLiteral("scd1-users"))).ok());
        const int before = queued(project);
        SourcesPanel panel(&project);
        panel.show();
        whenDialogOpens(panel, [&](FeedImportDialog* dialog) {
            QCOMPARE(dialog->messageLabel()->text(),
                     QStringLiteral("line 2, byte 51: unknown Debezium op 'z' (expected c, u, d, r or t)"));
            QVERIFY(!dialog->importButton()->isEnabled());
            uitest::saveScreenshot(*dialog, "feed-import-error.png");
            QTest::keyClick(dialog, Qt::Key_Escape);
        });
        QVERIFY(!panel.importFeed(path));
        QCOMPARE(queued(project), before);
    }
};

QTEST_MAIN(TestFeedImport)
#include "tst_feed_import.moc"
