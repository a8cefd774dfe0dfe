// The result grids driven like a user: header clicks sort (and a third click restores the order),
// the filter box filters, Ctrl+C and the context menu copy and export, the timeline sync survives a
// sort, and the Sources grid takes Tab / Enter / Escape while editing without losing the focus.
#include "UiTestInput.h"
#include "ui/UiTestSupport.h"
#include "ui/results/ResultFixtures.h"

#include "ui/model/GridProxyModel.h"
#include "ui/model/PipelineDocument.h"
#include "ui/model/Project.h"
#include "ui/model/SourceRowsModel.h"
#include "ui/model/UpdateLogModel.h"
#include "ui/model/results/TargetRowsModel.h"
#include "ui/model/results/TombstoneModel.h"
#include "ui/widgets/CodeEditor.h"
#include "ui/widgets/GridFilterBox.h"
#include "ui/widgets/GridTools.h"
#include "ui/widgets/MainWindow.h"
#include "ui/widgets/ProjectController.h"
#include "ui/widgets/SimulationController.h"
#include "ui/widgets/SourcesPanel.h"
#include "ui/widgets/WorkbenchPanel.h"
#include "ui/widgets/results/TargetSelector.h"
#include "ui/widgets/results/TargetTablePanel.h"
#include "ui/widgets/results/TombstonePanel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QFileDialog>
#include <QHeaderView>
#include <QLineEdit>
#include <QMenu>
#include <QScrollBar>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimeZone>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QtTest>

using namespace cdc;
using namespace cdc::ui;
using namespace cdc::test;
using uitest::press;
using uitest::settle;
using uitest::type;

namespace {

using uitest::answerFileDialog;
constexpr int kUserId = 0, kName = 1, kCity = 2;

QStringList columnTexts(const QTableView* view, int column) {
    QStringList out;
    for (int r = 0; r < view->model()->rowCount(); ++r)
        out << view->model()->index(r, column).data().toString();
    return out;
}

QPoint cellCenter(const QTableView* view, int row, int column) {
    return view->visualRect(view->model()->index(row, column)).center();
}

/// A double-click as the platform delivers it: a click, then the second press as a double-click.
void doubleClick(QTableView* view, int row, int column) {
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, cellCenter(view, row, column));
    QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, cellCenter(view, row, column));
}

void clickHeader(QTableView* view, int section) {
    QHeaderView* header = view->horizontalHeader();
    const QPoint p(header->sectionViewportPosition(section) + header->sectionSize(section) / 2,
                   header->height() / 2);
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, p);
}

/// Right-clicks a cell and clicks the context menu entry `text`; false when there is no such entry.
bool chooseFromContextMenu(QTableView* view, int row, int column, const QString& text) {
    const QPoint pos = cellCenter(view, row, column);
    QTest::mouseClick(view->viewport(), Qt::RightButton, {}, pos);
    QContextMenuEvent event(QContextMenuEvent::Mouse, pos, view->viewport()->mapToGlobal(pos));
    QApplication::sendEvent(view->viewport(), &event);
    auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
    if (!menu)
        return false;
    for (QAction* action : menu->actions())
        if (action->text() == text && action->isEnabled()) {
            QTest::mouseClick(menu, Qt::LeftButton, {}, menu->actionGeometry(action).center());
            return true;
        }
    menu->close();
    return false;
}

QString readFile(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll())
                                       : QStringLiteral("<cannot read %1>").arg(path);
}

bool focusInside(const QWidget* widget) {
    QWidget* focus = QApplication::focusWidget();
    return focus && (focus == widget || widget->isAncestorOf(focus));
}

/// What the user sees in a row of a grid, cells joined by '|'.
QString rowText(const QTableView* view, int row) {
    QStringList cells;
    for (int c = 0; c < view->model()->columnCount(); ++c)
        cells << view->model()->index(row, c).data().toString();
    return cells.join(QLatin1Char('|'));
}

bool sortedCaseInsensitive(QStringList list, bool descending) {
    QStringList expected = list;
    std::stable_sort(expected.begin(), expected.end(), [descending](const QString& a, const QString& b) {
        const int c = a.compare(b, Qt::CaseInsensitive);
        return descending ? c > 0 : c < 0;
    });
    return list == expected;
}

/// A result panel on screen, active, showing `snapshots`.
bool showPanel(ResultPanel& panel, const QList<TargetSnapshot>& snapshots, QSize size = {900, 300}) {
    panel.resize(size);
    panel.show();
    panel.setSnapshots(snapshots);
    return QTest::qWaitForWindowActive(&panel);
}

/// The main window as the application first shows it (the default dock layout, 1440×900), active,
/// with the sample `id` open.
bool showSample(MainWindow& w, const QString& id) {
    w.resetLayout();
    w.resize(1440, 900);
    w.show();
    return QTest::qWaitForWindowActive(&w) && w.projectController()->openSample(id);
}

/// Saves what the window shows (for docs/screenshots, see its README) into the temporary folder.
bool saveShot(QWidget& w, const QString& name) {
    for (int i = 0; i < 3; ++i) // nested layouts settle one level per pass
        QCoreApplication::processEvents();
    return w.grab().save(QDir::tempPath() + QStringLiteral("/cdc_grids_%1.png").arg(name));
}

QToolButton* toolButton(QWidget* panel, QAction* action) {
    for (auto* bar : panel->findChildren<QToolBar*>())
        if (auto* button = qobject_cast<QToolButton*>(bar->widgetForAction(action)))
            return button;
    return nullptr;
}
} // namespace

class TestGrids : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void materializedViewShownLikeATarget();
    void headerClicksSortAndThirdClickRestoresOrder();
    void filterBoxFiltersEveryColumnAndCounts();
    void selectionSyncMapsThroughSortAndFilter();
    void ctrlCCopiesSelectionAsTsv();
    void exportToCsvAndJsonFromContextMenu();
    void sortSurvivesUpdatesAndFiltersTheLog();
    void sortedAndFilteredInTheWindow();
    void sourcesGridTabEnterEscape();
    void sourcesColumnsFitTheirValues();
    void tombstoneStatusIsNotCutOff();
};

void TestGrids::initTestCase() {
    QCoreApplication::setOrganizationName(QStringLiteral("CDCStudioTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_grids"));
    QStandardPaths::setTestModeEnabled(true);
}

void TestGrids::headerClicksSortAndThirdClickRestoresOrder() {
    TargetTablePanel panel;
    QVERIFY(showPanel(panel, {scd1AfterDeletes()}));
    QTableView* view = panel.rowsView();
    const QStringList original = {"Oaxaca", "Guadalajara", "Cancun", "Puebla", "Monterrey"};
    QCOMPARE(columnTexts(view, kCity), original);

    clickHeader(view, kCity);
    QCOMPARE(columnTexts(view, kCity),
             (QStringList{"Cancun", "Guadalajara", "Monterrey", "Oaxaca", "Puebla"}));
    QCOMPARE(view->horizontalHeader()->sortIndicatorSection(), kCity);
    QCOMPARE(view->horizontalHeader()->sortIndicatorOrder(), Qt::AscendingOrder);
    // The highlight follows its row: Monterrey is the deleted (ghost) row.
    QCOMPARE(RowChange(view->model()->index(2, 0).data(RowChangeRole).toInt()), RowChange::Deleted);

    clickHeader(view, kCity);
    QCOMPARE(columnTexts(view, kCity),
             (QStringList{"Puebla", "Oaxaca", "Monterrey", "Guadalajara", "Cancun"}));
    QCOMPARE(view->horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);

    clickHeader(view, kCity);
    QCOMPARE(columnTexts(view, kCity), original);
    QCOMPARE(view->horizontalHeader()->sortIndicatorSection(), -1);

    // Numbers sort by value; the context menu offers the same and the way back.
    clickHeader(view, kUserId);
    QCOMPARE(columnTexts(view, kUserId), (QStringList{"123", "124", "125", "126", "127"}));
    QVERIFY(chooseFromContextMenu(view, 0, kName, QStringLiteral("Sort by name Descending")));
    QCOMPARE(columnTexts(view, kName), (QStringList{"Raul", "Mercedes", "Lily", "Isabel", "Ana"}));
    QVERIFY(chooseFromContextMenu(view, 0, kName, QStringLiteral("Original Order")));
    QCOMPARE(columnTexts(view, kCity), original);
}

void TestGrids::filterBoxFiltersEveryColumnAndCounts() {
    TargetTablePanel panel;
    QVERIFY(showPanel(panel, {scd1AfterDeletes()}));
    QLineEdit* filter = panel.filterBox()->edit();
    QVERIFY(filter->isVisible());
    QCOMPARE(filter->placeholderText(), QStringLiteral("Filter rows…"));
    QTest::mouseClick(filter, Qt::LeftButton);
    QTest::keyClicks(filter, QStringLiteral("GUAD"));
    QCOMPARE(panel.rowsView()->model()->rowCount(), 1);
    QCOMPARE(rowText(panel.rowsView(), 0), QStringLiteral("125|Mercedes|Guadalajara"));
    QCOMPARE(panel.filterBox()->countText(), QStringLiteral("1 of 5 rows"));

    // Any column: "12" is in every id.
    filter->clear();
    QTest::keyClicks(filter, QStringLiteral("12"));
    QCOMPARE(panel.rowsView()->model()->rowCount(), 5);
    QTest::keyClicks(filter, QStringLiteral("7"));
    QCOMPARE(columnTexts(panel.rowsView(), kName), QStringList{"Ana"});

    // The change feed is filtered by the same box while it is on show.
    QTest::mouseClick(toolButton(&panel, panel.changeFeedAction()), Qt::LeftButton);
    QCOMPARE(columnTexts(panel.feedView(), 3), QStringList{"insert"});
    QCOMPARE(panel.filterBox()->countText(), QStringLiteral("1 of 4 rows"));

    // Esc in the box clears it; so does the context menu.
    QTest::keyClick(filter, Qt::Key_Escape);
    QCOMPARE(filter->text(), QString());
    QCOMPARE(panel.feedView()->model()->rowCount(), 4);
    QCOMPARE(panel.filterBox()->countText(), QString());
    QTest::keyClicks(filter, QStringLiteral("tijuana"));
    QCOMPARE(panel.feedView()->model()->rowCount(), 1);
    QVERIFY(chooseFromContextMenu(panel.feedView(), 0, 0, QStringLiteral("Clear Filter")));
    QCOMPARE(filter->text(), QString());
    QCOMPARE(panel.feedView()->model()->rowCount(), 4);
}

void TestGrids::selectionSyncMapsThroughSortAndFilter() {
    TargetTablePanel panel;
    QVERIFY(showPanel(panel, {scd2AfterUpdate2()}));
    QTableView* view = panel.rowsView();
    clickHeader(view, kCity); // Cancun, Chihuahua, Guadalajara, Mexicali, Monterrey, Oaxaca, Tijuana
    QCOMPARE(view->model()->index(3, kCity).data().toString(), QStringLiteral("Mexicali"));

    // The user's click announces the row of the target (TargetRowsModel numbering), not the view's.
    QSignalSpy selected(&panel, &TargetTablePanel::rowSelected);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, cellCenter(view, 3, kName));
    QCOMPARE(selected.size(), 1);
    QCOMPARE(selected[0][1].toInt(), 4);
    QCOMPARE(panel.rowsModel()->index(4, kCity).data().toString(), QStringLiteral("Mexicali"));

    // The timeline asks for target row 0 (Monterrey): the view selects where that row is shown.
    panel.selectRow(QStringLiteral("users_scd2"), 0);
    QCOMPARE(view->currentIndex().siblingAtColumn(kCity).data().toString(), QStringLiteral("Monterrey"));
    QVERIFY(view->selectionModel()->isRowSelected(view->currentIndex().row(), {}));

    // A row the filter hides: the filter gives way rather than selecting nothing.
    panel.filterBox()->edit()->setText(QStringLiteral("Raul"));
    panel.selectRow(QStringLiteral("users_scd2"), 1);
    QCOMPARE(panel.filterBox()->edit()->text(), QString());
    QCOMPARE(view->currentIndex().siblingAtColumn(kCity).data().toString(), QStringLiteral("Chihuahua"));
}

void TestGrids::ctrlCCopiesSelectionAsTsv() {
    TargetTablePanel panel;
    QVERIFY(showPanel(panel, {scd2AfterUpdate2()}));
    QTableView* view = panel.rowsView();
    clickHeader(view, kCity);
    clickHeader(view, kCity); // descending: Tijuana, Oaxaca, Monterrey, ...
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, cellCenter(view, 0, kName));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::ShiftModifier, cellCenter(view, 1, kName));
    QTest::keyClick(view, Qt::Key_C, Qt::ControlModifier);
    // View order; the open version's __END_AT (NULL, shown "null") is an empty cell.
    QCOMPARE(QApplication::clipboard()->text(),
             QStringLiteral("125\tMercedes\tTijuana\t2\t5\n124\tRaul\tOaxaca\t1\t"));

    QVERIFY(chooseFromContextMenu(view, 1, kName, QStringLiteral("Copy with Headers")));
    QCOMPARE(QApplication::clipboard()->text(),
             QStringLiteral("userId\tname\tcity\t__START_AT\t__END_"
                            "AT\n125\tMercedes\tTijuana\t2\t5\n124\tRaul\tOaxaca\t1\t"));

    // Ctrl+click adds a row apart: only the selected rows are copied, still in view order.
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, cellCenter(view, 4, kName));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::ControlModifier, cellCenter(view, 0, kName));
    QTest::keyClick(view, Qt::Key_C, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("userId\tname\tcity\t__START_AT\t__END_AT\n"
                                                               "125\tMercedes\tTijuana\t2\t5\n"
                                                               "125\tMercedes\tGuadalajara\t6\t"));
    // Select All takes every row.
    QTest::keyClick(view, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClick(view, Qt::Key_C, Qt::ControlModifier);
    QCOMPARE(QApplication::clipboard()->text().count(QLatin1Char('\n')), 6);
}

void TestGrids::exportToCsvAndJsonFromContextMenu() {
    QTemporaryDir dir;
    TargetTablePanel panel;
    QVERIFY(showPanel(panel, {scd2AfterUpdate2()}));
    QTableView* view = panel.rowsView();
    panel.filterBox()->edit()->setText(QStringLiteral("mercedes"));
    clickHeader(view, kCity); // Guadalajara, Mexicali, Tijuana

    const QString csv = dir.filePath(QStringLiteral("mercedes.csv"));
    answerFileDialog(csv);
    QVERIFY(chooseFromContextMenu(view, 0, kCity, QStringLiteral("Export to CSV…")));
    QCOMPARE(readFile(csv), QStringLiteral("userId,name,city,__START_AT,__END_AT\r\n"
                                           "125,Mercedes,Guadalajara,6,\r\n"
                                           "125,Mercedes,Mexicali,5,6\r\n"
                                           "125,Mercedes,Tijuana,2,5\r\n"));

    const QString json = dir.filePath(QStringLiteral("mercedes.json"));
    answerFileDialog(json);
    QVERIFY(chooseFromContextMenu(view, 0, kCity, QStringLiteral("Export to JSON…")));
    QCOMPARE(readFile(json), QStringLiteral("[\n"
                                            "  {\"userId\": 125, \"name\": \"Mercedes\", \"city\": "
                                            "\"Guadalajara\", \"__START_AT\": 6, \"__END_AT\": null},\n"
                                            "  {\"userId\": 125, \"name\": \"Mercedes\", \"city\": "
                                            "\"Mexicali\", \"__START_AT\": 5, \"__END_AT\": 6},\n"
                                            "  {\"userId\": 125, \"name\": \"Mercedes\", \"city\": "
                                            "\"Tijuana\", \"__START_AT\": 2, \"__END_AT\": 5}\n"
                                            "]\n"));
}

void TestGrids::materializedViewShownLikeATarget() {
    // A materialized view typed into the sample's pipeline is recomputed by the window's updates and listed
    // in the Target Table panel's selector with its own icon and label; its rows are the target's, grouped.
    MainWindow w;
    QVERIFY(showSample(w, QStringLiteral("scd1-users")));
    CodeEditor* editor = w.workbench()->editor();
    editor->setFocus();
    // At the top, before the table it reads: the update computes datasets in dependency order. (Typed where
    // the caret stays inside the offscreen screen: QScintilla places its completion list by screen.)
    editor->setCursorPosition(0, 0);
    for (const char* line : {"CREATE MATERIALIZED VIEW city_counts AS", "SELECT city, count(*) AS users",
                             "FROM users_current GROUP BY city;", ""}) {
        QTest::keyClicks(editor, QString::fromLatin1(line));
        QTest::keyClick(editor, Qt::Key_Escape); // closes a completion list, as a user would
        QTest::keyClick(editor, Qt::Key_Return);
    }
    QTRY_COMPARE(w.project()->document()->pipeline().views.size(), std::size_t(1));
    while (w.simulation()->step())
        w.simulation()->waitForFinished();

    TargetTablePanel* panel = w.targetTablePanel();
    TargetSelector* selector = panel->targetSelector();
    QCOMPARE(selector->currentText(), QStringLiteral("users_current"));
    QStringList perCity = columnTexts(panel->rowsView(), kCity);
    std::map<QString, int> expected;
    for (const QString& city : perCity)
        ++expected[city];

    const int mv = selector->findText(QStringLiteral("city_counts"));
    QVERIFY(mv >= 0);
    QCOMPARE(selector->itemData(mv, Qt::ToolTipRole).toString(), QStringLiteral("Materialized view"));
    QVERIFY(!selector->itemIcon(mv).isNull());
    QVERIFY(selector->itemIcon(mv).cacheKey() != selector->itemIcon(selector->currentIndex()).cacheKey());
    selector->setFocus();
    while (selector->currentIndex() != mv) {
        const int before = selector->currentIndex();
        QTest::keyClick(selector, before < mv ? Qt::Key_Down : Qt::Key_Up);
        QVERIFY(selector->currentIndex() != before);
    }
    QTableView* view = panel->rowsView();
    QCOMPARE(view->model()->headerData(0, Qt::Horizontal).toString(), QStringLiteral("city"));
    QCOMPARE(view->model()->headerData(1, Qt::Horizontal).toString(), QStringLiteral("users"));
    QStringList shown;
    for (int r = 0; r < view->model()->rowCount(); ++r)
        shown << view->model()->index(r, 0).data().toString() + "=" +
                     view->model()->index(r, 1).data().toString();
    shown.sort();
    QStringList want;
    for (const auto& [city, n] : expected)
        want << city + "=" + QString::number(n);
    QCOMPARE(shown, want);
    QVERIFY2(panel->summaryText().startsWith(QStringLiteral("Materialized view · update ")),
             qPrintable(panel->summaryText()));
    QVERIFY(saveShot(w, QStringLiteral("materialized_view")));
}

void TestGrids::sortSurvivesUpdatesAndFiltersTheLog() {
    MainWindow w;
    QVERIFY(showSample(w, QStringLiteral("scd1-users")));
    for (int i = 0; i < 3; ++i) {
        QVERIFY(w.simulation()->step());
        w.simulation()->waitForFinished();
    }
    TargetTablePanel* panel = w.targetTablePanel();
    QTableView* view = panel->rowsView();
    QCOMPARE(panel->rowsModel()->headerData(kCity, Qt::Horizontal).toString(), QStringLiteral("city"));
    clickHeader(view, kCity);
    clickHeader(view, kCity);
    QVERIFY(sortedCaseInsensitive(columnTexts(view, kCity), true));

    // Each later update patches the shown rows: the user's sort stays, with every row in it.
    for (int i = 0; i < 3; ++i) {
        QVERIFY(w.simulation()->step());
        w.simulation()->waitForFinished();
        QCOMPARE(view->horizontalHeader()->sortIndicatorSection(), kCity);
        QCOMPARE(view->horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
        QCOMPARE(view->model()->rowCount(), panel->rowsModel()->rowCount());
        QVERIFY2(sortedCaseInsensitive(columnTexts(view, kCity), true),
                 qPrintable(columnTexts(view, kCity).join(',')));
    }
    QStringList shown = columnTexts(view, kCity), rows;
    for (int r = 0; r < panel->rowsModel()->rowCount(); ++r)
        rows << panel->rowsModel()->index(r, kCity).data().toString();
    shown.sort();
    rows.sort();
    QCOMPARE(shown, rows);

    // The update log: a grid with the same tools and its own filter box.
    QTableView* log = w.updateLogView();
    GridTools* grid = GridTools::of(log);
    QVERIFY(grid);
    auto* box = log->parentWidget()->findChild<GridFilterBox*>();
    QVERIFY(box);
    QCOMPARE(log->model()->rowCount(), w.updateLogModel()->rowCount());
    const int total = log->model()->rowCount();
    QVERIFY(total >= 6);
    QTest::keyClicks(box->edit(), QStringLiteral("no-such-flow"));
    QCOMPARE(log->model()->rowCount(), 0);
    QCOMPARE(box->countText(), QStringLiteral("0 of %1 rows").arg(total));
    box->edit()->clear();
    clickHeader(log, 0);
    clickHeader(log, 0); // update ids, newest first
    QVERIFY(log->model()->index(0, 0).data().toLongLong() >
            log->model()->index(total - 1, 0).data().toLongLong());
}

void TestGrids::sortedAndFilteredInTheWindow() {
    MainWindow w;
    QVERIFY(showSample(w, QStringLiteral("scd2-users")));
    while (w.simulation()->step())
        w.simulation()->waitForFinished();
    TargetTablePanel* panel = w.targetTablePanel();
    QTableView* view = panel->rowsView();
    clickHeader(view, kCity);
    QTest::mouseClick(panel->filterBox()->edit(), Qt::LeftButton);
    QTest::keyClicks(panel->filterBox()->edit(), QStringLiteral("mercedes"));
    QCOMPARE(columnTexts(view, kCity), (QStringList{"Guadalajara", "Mexicali", "Tijuana"}));
    QCOMPARE(columnTexts(view, kName), (QStringList{"Mercedes", "Mercedes", "Mercedes"}));
    QCOMPARE(panel->filterBox()->countText(),
             QStringLiteral("3 of %1 rows").arg(panel->rowsModel()->rowCount()));
    QVERIFY(saveShot(w, QStringLiteral("grid-sorted-filtered")));
}

void TestGrids::sourcesGridTabEnterEscape() {
    MainWindow w;
    QVERIFY(showSample(w, QStringLiteral("scd1-users")));
    w.raiseDock(QStringLiteral("sourcesDock"));
    SourcesPanel* panel = w.sourcesPanel();
    QTableView* view = panel->currentView();
    SourceRowsModel* model = panel->currentModel();
    QVERIFY(view && model);
    const QString sql = w.workbench()->editor()->text();
    const int before = view->model()->rowCount();

    // The grid is filtered: the new row would be hidden, so the filter gives way.
    QTest::mouseClick(panel->filterBox()->edit(), Qt::LeftButton);
    QTest::keyClicks(panel->filterBox()->edit(), QStringLiteral("mercedes"));
    QCOMPARE(view->model()->rowCount(), 3);
    QCOMPARE(panel->filterBox()->countText(), QStringLiteral("3 of %1 rows").arg(before));
    QToolButton* addRow = toolButton(panel, panel->addRowAction());
    QVERIFY(addRow);
    QTest::mouseClick(addRow, Qt::LeftButton);
    QCOMPARE(panel->filterBox()->edit()->text(), QString());
    QCOMPARE(view->model()->rowCount(), before + 1);
    const int row = before;
    QCOMPARE(view->currentIndex(), view->model()->index(row, 0)); // ready for typing
    QCOMPARE(QApplication::focusWidget(), view);

    // Double-click the new row's first cell, then type and Tab from cell to cell.
    doubleClick(view, row, 0);
    QVERIFY(QApplication::focusWidget() != view && focusInside(view)); // the cell editor
    // The report's steps: 1, Tab, Tab, type — the keys must stay in the grid, not reach the SQL editor.
    type(QStringLiteral("1"));
    press(Qt::Key_Tab);
    press(Qt::Key_Tab);
    type(QStringLiteral("Lima"));
    QCOMPARE(w.workbench()->editor()->text(), sql);
    QVERIFY(focusInside(view));
    QCOMPARE(view->model()->index(row, 2).data().toString(), QStringLiteral("null")); // still editing it
    press(Qt::Key_Escape);
    doubleClick(view, row, 0);
    const QStringList typed = {"1", "Ada", "Lima", "INSERT", "7"};
    for (int c = 0; c < typed.size(); ++c) {
        type(typed[c]);
        press(c + 1 < typed.size() ? Qt::Key_Tab : Qt::Key_Return);
        QVERIFY2(focusInside(view), qPrintable(QStringLiteral("focus left the grid after cell %1").arg(c)));
        QCOMPARE(view->model()->index(row, c).data().toString(), typed[c]);
        if (c + 1 < typed.size())
            QCOMPARE(view->currentIndex(), view->model()->index(row, c + 1));
    }
    QCOMPARE(rowText(view, row), QStringLiteral("1|Ada|Lima|INSERT|7"));
    QCOMPARE(w.workbench()->editor()->text(), sql);

    // Escape leaves the old value.
    doubleClick(view, row, 1);
    QVERIFY(QApplication::focusWidget() != view && focusInside(view)); // the cell editor
    type(QStringLiteral("Zed"));
    press(Qt::Key_Escape);
    QCOMPARE(view->model()->index(row, 1).data().toString(), QStringLiteral("Ada"));
    QVERIFY(focusInside(view));

    // Tab past the last column wraps to the next row; Enter commits and moves down; Shift+Tab goes back.
    QTest::mouseClick(addRow, Qt::LeftButton);
    doubleClick(view, row, 4);
    type(QStringLiteral("8"));
    press(Qt::Key_Tab);
    QCOMPARE(view->currentIndex(), view->model()->index(row + 1, 0));
    QVERIFY(QApplication::focusWidget() != view && focusInside(view)); // editing the wrapped-to cell
    type(QStringLiteral("2"));
    press(Qt::Key_Tab);
    press(Qt::Key_Backtab, Qt::ShiftModifier); // Shift+Tab, as the platform reports it
    QCOMPARE(view->currentIndex(), view->model()->index(row + 1, 0));
    press(Qt::Key_Escape);
    doubleClick(view, row, 2);
    type(QStringLiteral("Cusco"));
    press(Qt::Key_Return);
    QCOMPARE(view->currentIndex(), view->model()->index(row + 1, 2));
    QVERIFY(focusInside(view));
    // Typing on the current cell edits it.
    type(QStringLiteral("Quito"));
    press(Qt::Key_Return);
    QCOMPARE(rowText(view, row), QStringLiteral("1|Ada|Cusco|INSERT|8"));
    QCOMPARE(rowText(view, row + 1), QStringLiteral("2|null|Quito|null|null"));
    QCOMPARE(model->index(row + 1, 2).data().toString(), QStringLiteral("Quito"));
    QVERIFY(focusInside(view));
    QCOMPARE(w.workbench()->editor()->text(), sql);
    // Every edit is one undoable step.
    w.project()->undoStack()->undo();
    QCOMPARE(rowText(view, row + 1), QStringLiteral("2|null|null|null|null"));

    // For the screenshot: a third row typed in, Tab by Tab, the last cell still being edited.
    QTest::mouseClick(addRow, Qt::LeftButton);
    doubleClick(view, row + 2, 0);
    for (const char* value : {"3", "Bea", "Quito", "INSERT"}) {
        type(QString::fromLatin1(value));
        press(Qt::Key_Tab);
    }
    type(QStringLiteral("9"));
    QCOMPARE(rowText(view, row + 2), QStringLiteral("3|Bea|Quito|INSERT|null"));
    QVERIFY(saveShot(w, QStringLiteral("sources-tab-editing")));
    // The last column stretches to the edge, and shrank again when the vertical scroll bar came.
    QCOMPARE(view->horizontalHeader()->length(), view->viewport()->width());
    press(Qt::Key_Return);
    QCOMPARE(rowText(view, row + 2), QStringLiteral("3|Bea|Quito|INSERT|9"));
}

void TestGrids::sourcesColumnsFitTheirValues() {
    MainWindow w;
    QVERIFY(showSample(w, QStringLiteral("scd1-users")));
    w.raiseDock(QStringLiteral("sourcesDock"));
    SourcesPanel* panel = w.sourcesPanel();
    QTableView* view = panel->currentView();
    panel->pasteText(QStringLiteral("userId\tname\tcity\toperation\tsequenceNum\n"
                                    "100200300\tMaximiliano\tSan Cristóbal de las Casas\tUPDATE\t123456\n"));
    const QFontMetrics fm = view->fontMetrics();
    for (int c = 0; c < view->model()->columnCount(); ++c) {
        const QString header = view->model()->headerData(c, Qt::Horizontal).toString();
        QVERIFY2(view->columnWidth(c) >= fm.horizontalAdvance(header) + 8, qPrintable(header));
        for (int r = 0; r < view->model()->rowCount(); ++r) {
            const QString text = view->model()->index(r, c).data().toString();
            QVERIFY2(
                view->columnWidth(c) >= fm.horizontalAdvance(text) + 8,
                qPrintable(QStringLiteral("%1: '%2' in %3 px").arg(header, text).arg(view->columnWidth(c))));
        }
    }
}

void TestGrids::tombstoneStatusIsNotCutOff() {
    TombstonePanel panel;
    QFont large = panel.font(); // a large font, as some users need: "Due for GC" outgrows "Status"
    large.setPointSizeF(large.pointSizeF() * 3);
    panel.setFont(large);
    QVERIFY(showPanel(panel, {scd1AfterDeletes()}, {1000, 240}));
    QTableView* view = panel.view();
    const int status = view->model()->columnCount() - 1;
    QCOMPARE(view->model()->index(0, status).data().toString(), QStringLiteral("Live"));
    panel.setSimulatedNow(QDateTime(QDate(2026, 2, 1), QTime(0, 0), QTimeZone::utc()).toSecsSinceEpoch());
    QCOMPARE(view->model()->index(0, status).data().toString(), QStringLiteral("Due for GC"));
    // As wide as its delegate asks: not elided to "Due for…".
    const QModelIndex cell = view->model()->index(0, status);
    QVERIFY2(view->columnWidth(status) >= view->sizeHintForIndex(cell).width(),
             qPrintable(QStringLiteral("%1 px for %2")
                            .arg(view->columnWidth(status))
                            .arg(view->sizeHintForIndex(cell).width())));
}

QTEST_MAIN(TestGrids)
#include "tst_grids.moc"
