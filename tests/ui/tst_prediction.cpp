// Predict, then see (issue 17 §4), as a learner drives it: open a sample, step to just before the late event,
// Predict Next Update (Ctrl+Shift+P), type a wrong city into the grid, Step (F10), and read the grade — the
// wrong cell red with the provenance of the late event, the others green; Add Row / edits undone with Ctrl+Z
// in the grid without touching the project's history; the sample's lesson asking before an update and
// explaining after it; lesson files with mistakes refused with their place.
#include "UiTestInput.h"

#include "ui/model/Lesson.h"
#include "ui/model/PredictionModel.h"
#include "ui/model/Project.h"
#include "ui/widgets/MainWindow.h"
#include "ui/widgets/PredictionPanel.h"
#include "ui/widgets/ProjectController.h"
#include "ui/widgets/SimulationController.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QLabel>
#include <QListWidget>
#include <QStandardPaths>
#include <QTableView>
#include <QToolButton>
#include <QUndoStack>
#include <QtTest>

using namespace cdc;
using namespace cdc::ui;
using namespace uitest;

namespace {

/// Opens `sample` in a shown window and steps it `updates` times with F10.
void openAndStep(MainWindow& w, const QString& sample, int updates) {
    w.resize(1440, 900);
    w.show();
    QApplication::setActiveWindow(&w);
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QVERIFY(w.projectController()->openSample(sample));
    for (int u = 0; u < updates; ++u) {
        QTest::keyClick(&w, Qt::Key_F10);
        w.simulation()->waitForFinished();
        QTRY_VERIFY(!w.project()->isBusy());
    }
}

/// F10 once more, and waits until the prediction is graded and explained.
void stepAndGrade(MainWindow& w) {
    PredictionPanel* panel = w.predictionPanel();
    QTest::keyClick(&w, Qt::Key_F10);
    w.simulation()->waitForFinished();
    QTRY_VERIFY(!w.project()->isBusy());
    QTRY_VERIFY_WITH_TIMEOUT(panel->model()->isGraded(), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(!panel->isExplaining() && panel->explanationList()->count() > 0 &&
                                 !panel->explanationList()->item(0)->text().startsWith("Replaying"),
                             30000);
}

/// The grid's row (view order) whose first cell reads `key`.
int viewRow(QTableView* view, const QString& key) {
    for (int r = 0; r < view->model()->rowCount(); ++r)
        if (view->model()->index(r, 0).data().toString() == key)
            return r;
    return -1;
}

PredictionModel::Grade gradeAt(QTableView* view, int row, int column) {
    return static_cast<PredictionModel::Grade>(
        view->model()->index(row, column).data(PredictionModel::GradeRole).toInt());
}

void clickCell(QTableView* view, int row, int column) {
    const QModelIndex at = view->model()->index(row, column);
    view->scrollTo(at);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(at).center());
    settle();
}

QToolButton* toolButton(QWidget* parent, QAction* action) {
    for (auto* button : parent->findChildren<QToolButton*>())
        if (button->defaultAction() == action)
            return button;
    return nullptr;
}

} // namespace

class TestPrediction : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    /// SCD1 seed: before update 7 (Mexicali at 5, after Guadalajara at 6) the learner says Mexicali. After
    /// F10 that cell is wrong — explained by the late event being stale — and every other cell right.
    void gradesWrongCellWithProvenance() {
        MainWindow w;
        openAndStep(w, QStringLiteral("scd1-users"), 6);
        if (QTest::currentTestFailed())
            return;
        PredictionPanel* panel = w.predictionPanel();
        // The lesson asks before update 7.
        QTRY_VERIFY(panel->lessonLabel()->isVisible());
        QVERIFY2(panel->lessonLabel()->text().contains("Before update 7:") &&
                     panel->lessonLabel()->text().contains("Mexicali"),
                 qPrintable(panel->lessonLabel()->text()));

        QTest::keyClick(&w, Qt::Key_P, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_VERIFY(panel->isVisible());
        QTableView* grid = panel->gridView();
        QCOMPARE(grid->model()->rowCount(), 3);
        const int mercedes = viewRow(grid, QStringLiteral("125"));
        QVERIFY(mercedes >= 0);
        QCOMPARE(grid->model()->index(mercedes, 2).data().toString(), QStringLiteral("Guadalajara"));

        // Type the wrong city over the cell: the first key opens the editor, Enter commits.
        clickCell(grid, mercedes, 2);
        type(QStringLiteral("Mexicali"));
        press(Qt::Key_Return);
        QCOMPARE(grid->model()->index(mercedes, 2).data().toString(), QStringLiteral("Mexicali"));
        QCOMPARE(panel->model()->undoStack()->count(), 1);

        stepAndGrade(w);
        QCOMPARE(gradeAt(grid, mercedes, 2), PredictionModel::Grade::Wrong);
        for (int r = 0; r < grid->model()->rowCount(); ++r)
            for (int c = 0; c < grid->model()->columnCount(); ++c)
                if (r != mercedes || c != 2)
                    QCOMPARE(gradeAt(grid, r, c), PredictionModel::Grade::Right);
        // Green and red as the user sees them: the backgrounds of a right and the wrong cell differ.
        QVERIFY(grid->model()->index(mercedes, 2).data(Qt::BackgroundRole) !=
                grid->model()->index(mercedes, 1).data(Qt::BackgroundRole));
        QVERIFY2(panel->summaryLabel()->text().contains("8 of 9 cells right"),
                 qPrintable(panel->summaryLabel()->text()));
        QCOMPARE(panel->explanationList()->count(), 1);
        const QString why = panel->explanationList()->item(0)->text();
        QVERIFY2(
            why.startsWith("userId = 125 · city: you said Mexicali, it is Guadalajara — set by sequence 6 "
                           "(update 6); the event with Mexicali (sequence 5 (update 7)) is stale: arrived"),
            qPrintable(why));
        QVERIFY2(why.contains("after sequence 6 had been applied"), qPrintable(why));
        QCOMPARE(grid->model()->index(mercedes, 2).data(Qt::ToolTipRole).toString(),
                 why.mid(why.indexOf("city:")));
        // The lesson explains update 7 now and asks about update 8.
        QVERIFY2(panel->lessonLabel()->text().contains("After update 7:") &&
                     panel->lessonLabel()->text().contains("stale") &&
                     panel->lessonLabel()->text().contains("Before update 8:"),
                 qPrintable(panel->lessonLabel()->text()));
        // A graded prediction is read-only.
        QVERIFY(!(grid->model()->flags(grid->model()->index(0, 1)) & Qt::ItemIsEditable));
        w.resizeDocks({w.dock(QStringLiteral("predictionDock"))}, {420}, Qt::Vertical);
        saveScreenshot(w, QStringLiteral("predict.png"));
    }

    /// Isabel comes back in the learner's guess (an extra row) and Raul is deleted (a missing row): both are
    /// marked and explained. The edits are undone with Ctrl+Z in the grid first, off the project's history.
    void marksMissingAndExtraRowsAndUndoes() {
        MainWindow w;
        openAndStep(w, QStringLiteral("scd1-users"), 7);
        if (QTest::currentTestFailed())
            return;
        PredictionPanel* panel = w.predictionPanel();
        QVERIFY(panel->predictAction()->isEnabled());
        panel->predictAction()->trigger();
        QTableView* grid = panel->gridView();
        QTRY_VERIFY(grid->isVisible());
        QCOMPARE(grid->model()->rowCount(), 3);
        const int projectSteps = w.project()->undoStack()->index();

        // Add Row, type into it, then undo both with Ctrl+Z in the grid and redo the row with Ctrl+Shift+Z.
        QToolButton* addRow = toolButton(panel, panel->addRowAction());
        QVERIFY(addRow);
        clickCell(grid, 2, 0);
        QTest::mouseClick(addRow, Qt::LeftButton);
        QCOMPARE(grid->model()->rowCount(), 4);
        clickCell(grid, 3, 1);
        type(QStringLiteral("Zed"));
        press(Qt::Key_Return);
        QCOMPARE(grid->model()->index(3, 1).data().toString(), QStringLiteral("Zed"));
        grid->setFocus();
        press(Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(grid->model()->index(3, 1).data().toString(), QStringLiteral("null"));
        press(Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(grid->model()->rowCount(), 3);
        press(Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(grid->model()->rowCount(), 4);
        QCOMPARE(w.project()->undoStack()->index(), projectSteps); // the project's history untouched

        // Isabel (123) back in Chihuahua: the new row's cells typed with Tab between them.
        clickCell(grid, 3, 0);
        for (const QString& cell :
             {QStringLiteral("123"), QStringLiteral("Isabel"), QStringLiteral("Chihuahua")}) {
            type(cell);
            press(cell == QStringLiteral("Chihuahua") ? Qt::Key_Return : Qt::Key_Tab);
        }
        // Raul deleted.
        clickCell(grid, viewRow(grid, QStringLiteral("124")), 0);
        panel->deleteRowsAction()->trigger();
        QCOMPARE(grid->model()->rowCount(), 3);

        stepAndGrade(w);
        const int isabel = viewRow(grid, QStringLiteral("123"));
        const int raul = viewRow(grid, QStringLiteral("124"));
        QVERIFY(isabel >= 0 && raul >= 0);
        QCOMPARE(gradeAt(grid, isabel, 1), PredictionModel::Grade::Extra);
        QCOMPARE(gradeAt(grid, raul, 1), PredictionModel::Grade::Missing);
        QCOMPARE(grid->model()->headerData(raul, Qt::Vertical).toString(), QStringLiteral("missing"));
        QVERIFY2(panel->summaryLabel()->text().contains("6 of 6 cells right, 1 row missing, 1 extra row"),
                 qPrintable(panel->summaryLabel()->text()));
        QStringList texts;
        for (int i = 0; i < panel->explanationList()->count(); ++i)
            texts << panel->explanationList()->item(i)->text();
        QVERIFY2(texts.size() == 2 && texts[0].startsWith("userId = 123 · not in the table — ") &&
                     texts[0].contains("is deleted") &&
                     texts[1].startsWith("userId = 124 · missing from your prediction"),
                 qPrintable(texts.join('\n')));
    }

    /// SCD2 seed: before update 7 the lesson asks how many versions Mercedes will have; the unchanged guess
    /// misses the version the late event splits off, and the explanation comes after the update.
    void scd2LessonAsksThenExplains() {
        MainWindow w;
        openAndStep(w, QStringLiteral("scd2-users"), 6);
        if (QTest::currentTestFailed())
            return;
        PredictionPanel* panel = w.predictionPanel();
        QCOMPARE(panel->lesson().steps.size(), 3);
        QTRY_VERIFY(panel->lessonLabel()->text().contains("How many versions will Mercedes have"));
        QVERIFY(!panel->lessonLabel()->text().contains("Three."));
        QTest::keyClick(&w, Qt::Key_P, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_VERIFY(panel->model()->isStarted());
        stepAndGrade(w);
        QVERIFY2(panel->lessonLabel()->text().contains("After update 7:</b> Three."),
                 qPrintable(panel->lessonLabel()->text()));
        QVERIFY2(panel->summaryLabel()->text().contains("1 row missing"),
                 qPrintable(panel->summaryLabel()->text()));
        QTableView* grid = panel->gridView();
        const int missing = grid->model()->rowCount() - 1;
        QCOMPARE(gradeAt(grid, missing, 0), PredictionModel::Grade::Missing);
        QCOMPARE(grid->model()->index(missing, 2).data().toString(), QStringLiteral("Mexicali"));
        // Tijuana's end and the missing Mexicali version, each explained by the event that opened its
        // version.
        QStringList texts;
        for (int i = 0; i < panel->explanationList()->count(); ++i)
            texts << panel->explanationList()->item(i)->text();
        QVERIFY2(
            texts.size() == 2 && texts[0].contains("__END_AT: you said 6, it is 5") &&
                texts[0].contains("opened the version [2, 5)") &&
                texts[1].contains("missing from your prediction — sequence 5 (update 7): opened the version "
                                  "[5, 6)") &&
                texts[1].contains("arrived late"),
            qPrintable(texts.join('\n')));
        w.resizeDocks({w.dock(QStringLiteral("predictionDock"))}, {420}, Qt::Vertical);
        saveScreenshot(w, QStringLiteral("predict-scd2.png"));
    }

    /// A lesson file with a mistake is refused with where it is.
    void lessonErrors_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("error");
        QTest::newRow("syntax") << QByteArray("{\"title\": \"t\",\n \"steps\": [1,]}")
                                << "x/lesson.json:2:14: error: not valid JSON";
        QTest::newRow("no title") << QByteArray(R"({"steps": []})") << "\"title\" must be a non-empty string";
        QTest::newRow("no question")
            << QByteArray(R"({"title": "t", "steps": [{"step": 1, "question": "q", "explanation": "e"},
                                                     {"step": 2, "explanation": "e"}]})")
            << "steps[1].question must be a non-empty string";
        QTest::newRow("step twice")
            << QByteArray(R"({"title": "t", "steps": [{"step": 3, "question": "q", "explanation": "e"},
                                                     {"step": 3, "question": "q", "explanation": "e"}]})")
            << "steps[1].step: update 3 has a step already";
        QTest::newRow("step zero")
            << QByteArray(R"({"title": "t", "steps": [{"step": 0, "question": "q", "explanation": "e"}]})")
            << "steps[0].step must be the number of an update";
    }
    void lessonErrors() {
        QFETCH(QByteArray, json);
        QFETCH(QString, error);
        const auto lesson = parseLesson(json, QStringLiteral("x/lesson.json"));
        QVERIFY(!lesson.ok());
        QCOMPARE(lesson.error().code, std::string("LESSON"));
        QVERIFY2(QString::fromStdString(lesson.error().format()).contains(error),
                 lesson.error().format().c_str());
    }
};

QTEST_MAIN(TestPrediction)
#include "tst_prediction.moc"
