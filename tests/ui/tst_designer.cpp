// The Designer dock driven as a user drives it: the graph of the open sample, typing in the real SQL
// editor (a syntax error keeps the graph, a new view adds its node), wheel and keyboard zoom, Fit, dragging
// a node onto the grid, double-clicking a table, and the SVG / PNG exports read back.
#include "core/engine/Engine.h"
#include "core/pipeline/PipelineGraph.h"
#include "core/sql/SqlApi.h"
#include "sql/PipelineTestSupport.h"
#include "ui/designer/DesignerController.h"
#include "ui/designer/DesignerPanel.h"
#include "ui/designer/DesignerScene.h"
#include "ui/designer/DesignerView.h"
#include "ui/designer/EdgeItem.h"
#include "ui/designer/NodeItem.h"
#include "ui/designer/NodeState.h"
#include "ui/model/NodePositions.h"
#include "ui/model/PipelineDocument.h"
#include "ui/model/Project.h"
#include "ui/model/SampleLibrary.h"
#include "ui/model/UpdateTimelineModel.h"
#include "ui/widgets/CodeEditor.h"
#include "ui/widgets/MainWindow.h"
#include "ui/widgets/ProjectController.h"
#include "ui/widgets/SimulationController.h"
#include "ui/widgets/ThemeManager.h"
#include "ui/widgets/TimelinePanel.h"
#include "ui/widgets/WorkbenchPanel.h"
#include "ui/widgets/inspector/ColumnChoiceEditor.h"
#include "ui/widgets/inspector/ColumnPicker.h"
#include "ui/widgets/inspector/InspectorForm.h"
#include "ui/widgets/inspector/InspectorPanel.h"
#include "ui/widgets/results/TargetTablePanel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QImage>
#include <QLineEdit>
#include <QListWidget>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QSvgRenderer>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolBar>
#include <QToolButton>
#include <QToolTip>
#include <QUndoStack>
#include <QWheelEvent>
#include <QtTest>

using namespace cdc;
using namespace cdc::ui;

namespace {

void openShown(MainWindow& w, const QString& sample) {
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QVERIFY(w.projectController()->openSample(sample));
}

/// "id=name" of every node item in the scene, sorted.
QStringList shownNodes(const DesignerScene* scene) {
    QStringList out;
    for (QGraphicsItem* item : scene->items())
        if (item->type() == NodeItem::kType) {
            const auto* node = static_cast<NodeItem*>(item);
            out << node->id() + QLatin1Char('=') + QString::fromStdString(node->node().name);
        }
    out.sort();
    return out;
}

QStringList shownEdges(const DesignerScene* scene) {
    QStringList out;
    for (QGraphicsItem* item : scene->items())
        if (item->type() == EdgeItem::kType)
            out << static_cast<EdgeItem*>(item)->from() + QLatin1Char('>') +
                       static_cast<EdgeItem*>(item)->to();
    out.sort();
    return out;
}

const QStringList kScd2Nodes{"flow:apply_cdc=apply_cdc",
                             "source:main.cdc_tutorial.users_cdf=main.cdc_tutorial.users_cdf",
                             "table:users_history=users_history"};

/// Types into the SQL editor like a user, after `moves` (navigation keys), then waits until the debounced
/// parse has run.
void typeInEditor(MainWindow& w, const QList<QKeyCombination>& moves, const QString& text) {
    CodeEditor* editor = w.workbench()->editor();
    editor->setFocus();
    QVERIFY(QTest::qWaitFor([editor] { return QApplication::focusWidget() == editor; }));
    for (const QKeyCombination& key : moves)
        QTest::keyClick(editor, key.key(), key.keyboardModifiers());
    QSignalSpy parsed(w.project()->document(), &PipelineDocument::parsed);
    QTest::keyClicks(editor, text);
    QTest::qWait(PipelineDocument::kDebounceMs + 50);
    QVERIFY(parsed.count() > 0 || parsed.wait(2000));
}

QPoint viewPointOf(const DesignerView* view, const QGraphicsItem* item) {
    return view->mapFromScene(item->sceneBoundingRect().center());
}

/// Clicks a node on the canvas (Ctrl adds it to the selection), as the mouse would.
void clickNode(MainWindow& w, const QString& id, Qt::KeyboardModifiers modifiers = {}) {
    DesignerView* view = w.designer()->view();
    NodeItem* item = w.designer()->scene()->node(id);
    QVERIFY2(item, qPrintable(id));
    view->ensureVisible(item);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, modifiers, viewPointOf(view, item));
    QVERIFY(item->isSelected());
}

/// Clicks the designer tool bar's button for `action`.
void clickToolButton(MainWindow& w, QAction* action) {
    auto* button = qobject_cast<QToolButton*>(w.designer()->toolBar()->widgetForAction(action));
    QVERIFY(button && button->isEnabled());
    QTest::mouseClick(button, Qt::LeftButton);
}

/// Runs one update as F10 does and waits for it.
void step(MainWindow& w) {
    QVERIFY(w.simulation()->step());
    w.simulation()->waitForFinished();
}

/// Hovers the node's top-right corner (its badge) and returns the tooltip that comes up.
QString hoverBadge(MainWindow& w, const QString& id) {
    DesignerView* view = w.designer()->view();
    NodeItem* item = w.designer()->scene()->node(id);
    if (!item)
        return {};
    view->ensureVisible(item);
    const qreal chevron = item->node().kind == pipeline::NodeKind::StreamingTable ? 0 : 12;
    const QPoint at =
        view->mapFromScene(item->mapToScene(item->rect().topRight() + QPointF(-chevron - 4, 4)));
    QTest::mouseMove(view->viewport(), at);
    QHelpEvent help(QEvent::ToolTip, at, view->viewport()->mapToGlobal(at));
    QApplication::sendEvent(view->viewport(), &help);
    if (!QTest::qWaitFor([] { return QToolTip::isVisible(); }))
        return {};
    const QString text = QToolTip::text();
    QToolTip::hideText();
    return text;
}

} // namespace

class TestDesigner : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("CDCStudioDesignerTests"));
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    // Opening the SCD2 sample shows its graph in the Designer dock: source → flow → table, all in sight.
    void sampleGraphIsShown() {
        MainWindow w;
        openShown(w, QStringLiteral("scd2-users"));
        QDockWidget* dock = w.dock(QStringLiteral("designerDock"));
        QVERIFY(dock && dock->isVisible() && !dock->visibleRegion().isEmpty());
        QVERIFY(w.dockNames().contains(QStringLiteral("designerDock")));
        DesignerScene* scene = w.designer()->scene();
        QCOMPARE(shownNodes(scene), kScd2Nodes);
        QCOMPARE(shownEdges(scene), (QStringList{"flow:apply_cdc>table:users_history",
                                                 "source:main.cdc_tutorial.users_cdf>flow:apply_cdc"}));
        QCOMPARE(scene->node("table:users_history")->node().details,
                 (std::vector<std::string>{"SCD TYPE 2", "KEYS userId"}));
        QCOMPARE(scene->node("flow:apply_cdc")->node().details,
                 (std::vector<std::string>{"KEYS userId", "SEQUENCE BY sequenceNum"}));
        QVERIFY(scene->node("table:users_history")->toolTip().contains(QLatin1String("users_history")));
        // Left to right in data-flow order, and the whole graph fits the view.
        QVERIFY(scene->node("source:main.cdc_tutorial.users_cdf")->x() < scene->node("flow:apply_cdc")->x());
        QVERIFY(scene->node("flow:apply_cdc")->x() < scene->node("table:users_history")->x());
        DesignerView* view = w.designer()->view();
        for (NodeItem* node : scene->nodeItems())
            QVERIFY2(view->viewport()->rect().contains(
                         view->mapFromScene(node->sceneBoundingRect()).boundingRect()),
                     qPrintable(node->id()));
        // The View menu can bring the dock back.
        dock->toggleViewAction()->trigger();
        QVERIFY(!dock->isVisible());
        dock->toggleViewAction()->trigger();
        QVERIFY(dock->isVisible());
    }

    // Half-typed SQL keeps the graph (the same items); a complete new view adds its node and edge.
    void typingUpdatesTheGraph() {
        MainWindow w;
        openShown(w, QStringLiteral("scd2-users"));
        DesignerScene* scene = w.designer()->scene();
        NodeItem* table = scene->node("table:users_history");
        QVERIFY(table);
        const QPointF tablePos = table->pos();

        // A stray letter before CREATE FLOW: the parse loses the flow, the graph does not.
        typeInEditor(w, {Qt::CTRL | Qt::Key_Home, Qt::Key_Down, Qt::Key_Down}, QStringLiteral("X"));
        QVERIFY(w.project()->document()->hasErrors());
        QCOMPARE(shownNodes(scene), kScd2Nodes);
        QCOMPARE(scene->node("table:users_history"), table);
        QCOMPARE(table->pos(), tablePos);
        typeInEditor(w, {Qt::Key_Backspace}, QString());
        QVERIFY(!w.project()->document()->hasErrors());

        typeInEditor(w, {Qt::CTRL | Qt::Key_End},
                     QStringLiteral("CREATE VIEW recent AS SELECT * FROM users_history;"));
        QVERIFY(!w.project()->document()->hasErrors());
        QCOMPARE(shownNodes(scene), (kScd2Nodes + QStringList{"view:recent=recent"}));
        QVERIFY(shownEdges(scene).contains(QLatin1String("table:users_history>view:recent")));
        QCOMPARE(scene->node("view:recent")->node().kind, pipeline::NodeKind::View);
        QCOMPARE(scene->node("table:users_history"), table); // kept, not rebuilt
        QVERIFY(scene->node("view:recent")->x() > table->x());
    }

    // The wheel zooms around the pointer, Ctrl++ zooms in, and Fit (F) brings the whole graph back.
    void zoomAndFit() {
        MainWindow w;
        openShown(w, QStringLiteral("scd2-users"));
        DesignerView* view = w.designer()->view();
        const qreal fitted = view->zoom();
        QVERIFY(view->isFollowingGraph());
        const QPoint at = view->viewport()->rect().center() + QPoint(40, 10);
        const QPointF sceneAt = view->mapToScene(at);
        QWheelEvent wheel(at, view->viewport()->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(view->viewport(), &wheel);
        QCOMPARE(view->zoom(), fitted * 1.2);
        QVERIFY((view->mapToScene(at) - sceneAt).manhattanLength() < 2); // the point under the pointer stays
        QVERIFY(!view->isFollowingGraph());

        view->setFocus();
        QVERIFY(QTest::qWaitFor([view] { return QApplication::focusWidget() == view; }));
        QTest::keyClick(view, Qt::Key_Plus, Qt::ControlModifier);
        QCOMPARE(view->zoom(), fitted * 1.2 * 1.25);
        QTest::keyClick(view, Qt::Key_F);
        QCOMPARE(view->zoom(), fitted);
        QVERIFY(view->isFollowingGraph());
        QTest::keyClick(view, Qt::Key_Minus, Qt::ControlModifier);
        QCOMPARE(view->zoom(), fitted / 1.25);
        w.designer()->fitAction()->trigger();
        QCOMPARE(view->zoom(), fitted);
    }

    // Dragging a node puts its centre on the grid, reports the move, and a later graph keeps it there.
    void draggingSnapsToTheGrid() {
        MainWindow w;
        openShown(w, QStringLiteral("scd2-users"));
        DesignerScene* scene = w.designer()->scene();
        DesignerView* view = w.designer()->view();
        NodeItem* flow = scene->node("flow:apply_cdc");
        QSignalSpy moved(scene, &DesignerScene::nodesMoved);
        const QPoint from = viewPointOf(view, flow);
        QTest::mousePress(view->viewport(), Qt::LeftButton, {}, from);
        QTest::mouseMove(view->viewport(), from + QPoint(13, 20));
        QTest::mouseMove(view->viewport(), from + QPoint(37, 53));
        QTest::mouseRelease(view->viewport(), Qt::LeftButton, {}, from + QPoint(37, 53));
        QCOMPARE(moved.count(), 1);
        const auto centres = moved.at(0).at(0).value<QMap<QString, QPointF>>();
        QCOMPARE(centres.keys(), QStringList{"flow:apply_cdc"});
        const QPointF p = flow->pos();
        QCOMPARE(centres.value("flow:apply_cdc"), p);
        QCOMPARE(std::fmod(p.x(), DesignerScene::kGrid), 0.0);
        QCOMPARE(std::fmod(p.y(), DesignerScene::kGrid), 0.0);
        QVERIFY(p.y() > 20); // it went down with the mouse (the layout's row is near y = 0)
        QVERIFY(flow->isSelected());
        // Its edges follow it.
        EdgeItem* out = scene->edge("flow:apply_cdc", "table:users_history");
        QVERIFY(std::abs(out->path().pointAtPercent(0).y() - p.y()) < 1);

        // The next parse lays the graph out again but keeps the user's position.
        scene->setGraph(scene->graph());
        QCOMPARE(flow->pos(), p);
        QCOMPARE(scene->pins().value("flow:apply_cdc"), p);
    }

    // A drag is one undo step that the project keeps: Ctrl+Z puts the node back where the layout had it.
    void draggingIsOneUndoStepKeptByTheProject() {
        MainWindow w;
        openShown(w, QStringLiteral("scd2-users"));
        DesignerScene* scene = w.designer()->scene();
        DesignerView* view = w.designer()->view();
        NodeItem* table = scene->node("table:users_history");
        const QPointF laidOut = table->pos();
        const QPoint from = viewPointOf(view, table);
        QTest::mousePress(view->viewport(), Qt::LeftButton, {}, from);
        for (int step = 1; step <= 5; ++step)
            QTest::mouseMove(view->viewport(), from + QPoint(0, 14 * step));
        QTest::mouseRelease(view->viewport(), Qt::LeftButton, {}, from + QPoint(0, 70));
        QUndoStack* stack = w.project()->undoStack();
        QCOMPARE(stack->count(), 1);
        QCOMPARE(stack->undoText(), QStringLiteral("Move node users_history"));
        const QPointF moved = table->pos();
        QVERIFY(moved.y() > laidOut.y() + 40);
        QCOMPARE(w.project()->nodePositions()->positions().value("table:users_history"), moved);
        view->setFocus();
        QTest::keyClick(view, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(table->pos(), laidOut);
        QVERIFY(w.project()->nodePositions()->positions().isEmpty());
        QTest::keyClick(view, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(table->pos(), moved);
    }

    // The palette adds nodes as SQL the editor shows at once; each addition is one step that undo takes back
    // to the exact text.
    void paletteAddsNodesAsSql() {
        MainWindow w;
        openShown(w, QStringLiteral("scd2-users"));
        PipelineDocument* doc = w.project()->document();
        const QString before = doc->text();
        DesignerController* designer = w.designerController();

        clickToolButton(w, designer->addTableAction());
        QVERIFY(doc->text().contains(QStringLiteral("CREATE OR REFRESH STREAMING TABLE table_1")));
        QCOMPARE(w.workbench()->editor()->text(), doc->text());
        QVERIFY(w.designer()->scene()->node("table:table_1")->isSelected());

        clickNode(w, "source:main.cdc_tutorial.users_cdf");
        clickNode(w, "table:table_1", Qt::ControlModifier);
        clickToolButton(w, designer->addFlowAction());
        QVERIFY(!doc->hasErrors());
        QCOMPARE(doc->pipeline().cdcFlows.size(), std::size_t(2));
        const pipeline::AutoCdcFlow& added = doc->pipeline().cdcFlows.back();
        QCOMPARE(added.name.name, std::string("flow_1"));
        QCOMPARE(added.target.name, std::string("table_1"));
        QCOMPARE(added.source.name, std::string("main.cdc_tutorial.users_cdf"));
        QCOMPARE(added.keys.front().name, std::string("userId"));
        QCOMPARE(added.sequenceBy.front().columnName.value_or(""), std::string("sequenceNum"));
        QVERIFY(shownEdges(w.designer()->scene()).contains("flow:flow_1>table:table_1"));

        QUndoStack* stack = w.project()->undoStack();
        QCOMPARE(stack->count(), 2);
        const QString after = doc->text();
        stack->undo();
        stack->undo();
        QCOMPARE(doc->text(), before);
        QCOMPARE(shownNodes(w.designer()->scene()), kScd2Nodes);
        stack->redo();
        stack->redo();
        QCOMPARE(doc->text(), after);
        QVERIFY(shownEdges(w.designer()->scene()).contains("flow:flow_1>table:table_1"));
    }

    // Delete on the canvas removes the selected nodes' statements as one step; a source table is refused.
    void deleteRemovesTheStatements() {
        MainWindow w;
        openShown(w, QStringLiteral("scd2-users"));
        PipelineDocument* doc = w.project()->document();
        const QString before = doc->text();
        clickNode(w, "source:main.cdc_tutorial.users_cdf");
        QVERIFY(!w.designerController()->deleteAction()->isEnabled());
        clickNode(w, "flow:apply_cdc");
        QTest::keyClick(w.designer()->view(), Qt::Key_Delete);
        QVERIFY(!doc->text().contains(QStringLiteral("apply_cdc")));
        QVERIFY(doc->text().contains(QStringLiteral("STREAMING TABLE users_history")));
        QCOMPARE(shownNodes(w.designer()->scene()), QStringList{"table:users_history=users_history"});
        QCOMPARE(w.project()->undoStack()->count(), 1);
        const QString removed = doc->text();
        QTest::keyClick(w.designer()->view(), Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(doc->text(), before);
        QCOMPARE(shownNodes(w.designer()->scene()), kScd2Nodes);
        QTest::keyClick(w.designer()->view(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(doc->text(), removed);
    }

    // The seed SCD type 2 pipeline built with the canvas and the inspector only, from an empty pipeline: the
    // SQL in the editor parses to the seed's pipeline, and the seed's events give the seed's table.
    void buildTheSeedPipelineWithTheDesignerAndInspector() {
        MainWindow w;
        openShown(w, QStringLiteral("scd2-users"));
        PipelineDocument* doc = w.project()->document();
        const QString seedSql = samplelibrary::load(QStringLiteral("scd2-users")).pipeline;
        // Empty the editor as a user would.
        CodeEditor* editor = w.workbench()->editor();
        editor->setFocus();
        QTest::keyClick(editor, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClick(editor, Qt::Key_Delete);
        doc->reparseNow();
        QCOMPARE(doc->text(), QString());
        QVERIFY(w.designer()->scene()->nodeItems().isEmpty());

        // Add Flow with nothing selected reads the project's source into a new table.
        clickToolButton(w, w.designerController()->addFlowAction());
        QCOMPARE(doc->pipeline().cdcFlows.size(), std::size_t(1));
        QVERIFY(w.designer()->scene()->node("flow:flow_1")->isSelected());
        InspectorPanel* inspector = w.inspector();
        QCOMPARE(inspector->subjectName(), QStringLiteral("flow_1"));
        const auto flowField = [&](const char* name) {
            auto* found =
                inspector->form(InspectorKind::AutoCdcFlow)->findChild<QWidget*>(QLatin1String(name));
            if (!found)
                qFatal("no field %s", name);
            return found;
        };
        const auto typeInto = [](QWidget* widget, const QString& text) {
            auto* edit = qobject_cast<QLineEdit*>(widget);
            QVERIFY(edit);
            edit->setFocus();
            edit->selectAll();
            QTest::keyClick(edit, Qt::Key_Backspace);
            QTest::keyClicks(edit, text);
            QTest::keyClick(edit, Qt::Key_Return);
        };
        typeInto(flowField("name"), QStringLiteral("apply_cdc"));
        QCOMPARE(inspector->subjectName(), QStringLiteral("apply_cdc"));
        typeInto(flowField("deleteCondition"), QStringLiteral("operation = \"DELETE\""));
        auto* columns = qobject_cast<ColumnChoiceEditor*>(flowField("columns"));
        QVERIFY(columns);
        QComboBox* mode = columns->modeCombo();
        mode->setFocus();
        QTest::keyClick(mode, Qt::Key_Down);
        QTest::keyClick(mode, Qt::Key_Down); // "all except"
        for (const QString& column : {QStringLiteral("operation"), QStringLiteral("sequenceNum")}) {
            QListWidget* list = columns->picker()->list();
            list->setFocus();
            list->setCurrentItem(list->findItems(column, Qt::MatchFixedString).value(0));
            QTest::keyClick(list, Qt::Key_Space);
        }
        auto* scd = qobject_cast<QComboBox*>(flowField("scdType"));
        QVERIFY(scd);
        scd->setFocus();
        QTest::keyClick(scd, Qt::Key_Down); // SCD type 2
        // The table: renamed on its own form, the flow follows.
        clickNode(w, "table:table_1");
        auto* tableName =
            inspector->form(InspectorKind::StreamingTable)->findChild<QLineEdit*>(QStringLiteral("name"));
        QVERIFY(tableName);
        typeInto(tableName, QStringLiteral("users_history"));

        QVERIFY2(!doc->hasErrors(), qPrintable(doc->text()));
        QCOMPARE(editor->text(), doc->text());
        QString errors;
        const auto built = pipelinetest::positionless(doc->text().toStdString(), &errors);
        QVERIFY2(errors.isEmpty(), qPrintable(errors));
        QVERIFY2(pipelinetest::equal(built, pipelinetest::positionless(seedSql.toStdString())),
                 qPrintable(doc->text()));
        QCOMPARE(shownEdges(w.designer()->scene()),
                 (QStringList{"flow:apply_cdc>table:users_history",
                              "source:main.cdc_tutorial.users_cdf>flow:apply_cdc"}));

        // The seed's events give the seed's table.
        QVERIFY(w.simulation()->runToEnd());
        w.simulation()->waitForFinished();
        auto rows = sql::runQuery(w.project()->db(),
                                  "SELECT userId, name, city, __START_AT, __END_AT FROM users_history "
                                  "ORDER BY userId, __START_AT");
        QVERIFY2(rows.ok(), rows.ok() ? "" : rows.error().format().c_str());
        QStringList shown;
        for (const Row& row : rows->rows) {
            QStringList cells;
            for (const Value& v : row)
                cells << QString::fromStdString(displayText(v));
            shown << cells.join(QLatin1Char(' '));
        }
        QCOMPARE(shown, (QStringList{"123 Isabel Monterrey 1 5", "123 Isabel Chihuahua 5 6",
                                     "124 Raul Oaxaca 1 null", "125 Mercedes Tijuana 2 5",
                                     "125 Mercedes Mexicali 5 6", "125 Mercedes Guadalajara 6 null",
                                     "126 Lily Cancun 2 null"}));
    }

    // Ctrl+D duplicates the selected nodes under free names (the flow then writes the new table), Ctrl+C puts
    // their SQL on the clipboard and Ctrl+V adds it again; each is one step that undo takes back exactly.
    void copyPasteAndDuplicate() {
        MainWindow w;
        openShown(w, QStringLiteral("scd2-users"));
        PipelineDocument* doc = w.project()->document();
        const QString before = doc->text();
        clickNode(w, "flow:apply_cdc");
        clickNode(w, "table:users_history", Qt::ControlModifier);
        DesignerView* view = w.designer()->view();
        QTest::keyClick(view, Qt::Key_D, Qt::ControlModifier);
        QVERIFY2(!doc->hasErrors(), qPrintable(doc->text()));
        QCOMPARE(doc->pipeline().cdcFlows.size(), std::size_t(2));
        QCOMPARE(doc->pipeline().cdcFlows[1].name.name, std::string("apply_cdc_2"));
        QCOMPARE(doc->pipeline().cdcFlows[1].target.name, std::string("users_history_2"));
        QVERIFY(doc->text().startsWith(before.trimmed()));
        QCOMPARE(w.project()->undoStack()->undoText(),
                 QStringLiteral("Duplicate users_history_2, apply_cdc_2"));
        QVERIFY(shownEdges(w.designer()->scene()).contains("flow:apply_cdc_2>table:users_history_2"));
        QTest::keyClick(view, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(doc->text(), before);

        clickNode(w, "flow:apply_cdc");
        QTest::keyClick(view, Qt::Key_C, Qt::ControlModifier);
        QVERIFY(QGuiApplication::clipboard()->text().startsWith(QStringLiteral("CREATE FLOW apply_cdc")));
        QTest::keyClick(view, Qt::Key_V, Qt::ControlModifier);
        QVERIFY2(!doc->hasErrors(), qPrintable(doc->text()));
        QCOMPARE(doc->pipeline().cdcFlows.size(), std::size_t(2));
        QCOMPARE(doc->pipeline().cdcFlows[1].name.name, std::string("apply_cdc_2"));
        QCOMPARE(doc->pipeline().cdcFlows[1].target.name,
                 std::string("users_history")); // a second flow into it
        QTest::keyClick(view, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(doc->text(), before);
    }

    // Dragging from a node's output port onto another connects them in SQL: a flow dropped on a table writes
    // it, a source dropped on a table gets a new flow into it; a connection that cannot be is refused with
    // the reason and changes nothing.
    void draggingFromAPortConnects() {
        MainWindow w;
        openShown(w, QStringLiteral("scd2-users"));
        PipelineDocument* doc = w.project()->document();
        clickToolButton(w, w.designerController()->addTableAction());
        DesignerScene* scene = w.designer()->scene();
        DesignerView* view = w.designer()->view();
        const auto drag = [&](const QString& from, const QString& to) {
            NodeItem* a = scene->node(from);
            NodeItem* b = scene->node(to);
            QVERIFY(a && b);
            const QPoint start = view->mapFromScene(a->mapToScene(a->outputPort()));
            const QPoint end = viewPointOf(view, b);
            QTest::mousePress(view->viewport(), Qt::LeftButton, {}, start);
            QTest::mouseMove(view->viewport(), (start + end) / 2);
            QTest::mouseMove(view->viewport(), end);
            QTest::mouseRelease(view->viewport(), Qt::LeftButton, {}, end);
        };
        drag("flow:apply_cdc", "table:table_1");
        QVERIFY2(doc->pipeline().cdcFlows.at(0).target.name == "table_1",
                 qPrintable(w.statusBar()->currentMessage()));
        QVERIFY(w.project()->nodePositions()->positions().isEmpty()); // a connection is no move
        QCOMPARE(w.project()->undoStack()->undoText(), QStringLiteral("Set target of apply_cdc to table_1"));
        QVERIFY(shownEdges(scene).contains("flow:apply_cdc>table:table_1"));

        drag("source:main.cdc_tutorial.users_cdf", "table:users_history");
        QCOMPARE(doc->pipeline().cdcFlows.size(), std::size_t(2));
        QCOMPARE(doc->pipeline().cdcFlows.at(1).target.name, std::string("users_history"));

        const QString before = doc->text();
        const int steps = w.project()->undoStack()->count();
        drag("table:users_history", "source:main.cdc_tutorial.users_cdf");
        QCOMPARE(doc->text(), before);
        QCOMPARE(w.project()->undoStack()->count(), steps);
        QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("source table")),
                 qPrintable(w.statusBar()->currentMessage()));
    }

    // Through the main window: a project with designer edits and a moved node, saved, reopened and saved
    // again, gives an identical file, with the graph and the positions as they were.
    void saveReopenSaveThroughTheWindowIsIdentical() {
        QTemporaryDir dir;
        const QString first = dir.filePath(QStringLiteral("first.cdcstudio"));
        const QString second = dir.filePath(QStringLiteral("second.cdcstudio"));
        MainWindow w;
        openShown(w, QStringLiteral("scd2-users"));
        clickToolButton(w, w.designerController()->addTableAction());
        w.project()->nodePositions()->move({{QStringLiteral("table:table_1"), QPointF(400, 160)}});
        QVERIFY(w.simulation()->step());
        w.simulation()->waitForFinished();
        const QStringList nodes = shownNodes(w.designer()->scene());
        QVERIFY(w.projectController()->saveTo(first));
        QVERIFY(w.projectController()->openFile(first));
        QCOMPARE(shownNodes(w.designer()->scene()), nodes);
        QCOMPARE(w.designer()->scene()->node("table:table_1")->pos(), QPointF(400, 160));
        QVERIFY(w.projectController()->saveTo(second));
        QFile a(first), b(second);
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        QVERIFY2(a.readAll() == b.readAll(), "the second save differs from the first");
    }

    // Clicking a node shows it in the Inspector, which comes forward; clicking the background clears it.
    void clickingANodeInspectsIt() {
        MainWindow w;
        openShown(w, QStringLiteral("scd2-users"));
        InspectorPanel* inspector = w.inspector();
        QVERIFY(!inspector->showsSubject());
        clickNode(w, "flow:apply_cdc");
        QCOMPARE(inspector->subjectKind(), InspectorKind::AutoCdcFlow);
        QCOMPARE(inspector->subjectName(), QStringLiteral("apply_cdc"));
        QVERIFY(inspector->showsSubject());
        QVERIFY(inspector->isVisible());
        // With CDC_SCREENSHOT_DIR set, the docs' picture of the designer with the inspector is written here.
        if (const QString dir = qEnvironmentVariable("CDC_SCREENSHOT_DIR"); !dir.isEmpty())
            QVERIFY(w.grab().save(dir + QStringLiteral("/designer-inspector.png")));
        clickNode(w, "table:users_history");
        QCOMPARE(inspector->subjectKind(), InspectorKind::StreamingTable);
        clickNode(w, "source:main.cdc_tutorial.users_cdf");
        QCOMPARE(inspector->subjectKind(), InspectorKind::SourceTable);
        w.designer()->scene()->clearSelection();
        QVERIFY(!inspector->showsSubject());
    }

    // Selecting an issue in the Issues list selects the node whose statement it is about.
    void selectingAnIssueSelectsItsNode() {
        MainWindow w;
        openShown(w, QStringLiteral("scd2-users"));
        // A key the source does not have: validation reports it at the flow's KEYS clause.
        PipelineDocument* doc = w.project()->document();
        doc->replace(doc->text().replace(QStringLiteral("(userId)"), QStringLiteral("(nobody)")),
                     QStringLiteral("Break the key"));
        QVERIFY(doc->hasErrors());
        auto* issues = w.findChild<QTableView*>(QStringLiteral("issuesView"));
        QVERIFY(issues);
        w.designer()->scene()->clearSelection();
        issues->setFocus();
        QTest::mouseClick(issues->viewport(), Qt::LeftButton, {},
                          issues->visualRect(issues->model()->index(0, 0)).center());
        QVERIFY(w.designer()->scene()->node("flow:apply_cdc")->isSelected());
        QVERIFY(!w.designer()->scene()->node("table:users_history")->isSelected());
    }

    // Dragging the background selects what the band touches; the middle button drags the canvas instead.
    void rubberBandAndPan() {
        MainWindow w;
        openShown(w, QStringLiteral("scd2-users"));
        DesignerScene* scene = w.designer()->scene();
        DesignerView* view = w.designer()->view();
        const QRect source =
            view->mapFromScene(scene->node("source:main.cdc_tutorial.users_cdf")->sceneBoundingRect())
                .boundingRect();
        const QRect flow =
            view->mapFromScene(scene->node("flow:apply_cdc")->sceneBoundingRect()).boundingRect();
        // From above-left of the source to the middle of the flow: the table is not touched.
        const QPoint from = source.topLeft() - QPoint(6, 6);
        QTest::mousePress(view->viewport(), Qt::LeftButton, {}, from);
        QTest::mouseMove(view->viewport(), from + QPoint(30, 30));
        QTest::mouseMove(view->viewport(), flow.center());
        QTest::mouseRelease(view->viewport(), Qt::LeftButton, {}, flow.center());
        QStringList selected;
        for (QGraphicsItem* item : scene->selectedItems())
            if (item->type() == NodeItem::kType)
                selected << static_cast<NodeItem*>(item)->id();
        selected.sort();
        QCOMPARE(selected, (QStringList{"flow:apply_cdc", "source:main.cdc_tutorial.users_cdf"}));

        const QPoint centre = view->viewport()->rect().center();
        const QPointF before = view->mapToScene(centre);
        const QPointF nodeBefore = scene->node("flow:apply_cdc")->pos();
        QTest::mousePress(view->viewport(), Qt::MiddleButton, {}, flow.center());
        QTest::mouseMove(view->viewport(), flow.center() + QPoint(50, 20));
        QTest::mouseRelease(view->viewport(), Qt::MiddleButton, {}, flow.center() + QPoint(50, 20));
        const QPointF moved = (view->mapToScene(centre) - before) * view->zoom();
        QVERIFY2((moved - QPointF(-50, -20)).manhattanLength() < 3,
                 qPrintable(QStringLiteral("%1,%2").arg(moved.x()).arg(moved.y())));
        QCOMPARE(scene->node("flow:apply_cdc")->pos(), nodeBefore); // the canvas moved, not the node
        QVERIFY(!view->isFollowingGraph());
    }

    // Double-clicking a streaming table brings up its rows in Target Tables.
    void doubleClickShowsTheTable() {
        MainWindow w;
        openShown(w, QStringLiteral("scd2-users"));
        QVERIFY(w.simulation()->step());
        w.simulation()->waitForFinished();
        QTRY_COMPARE(w.targetTablePanel()->currentTarget(), QStringLiteral("users_history"));
        w.raiseDock(QStringLiteral("scd2Dock"));
        QTRY_VERIFY(w.dock(QStringLiteral("targetsDock"))->visibleRegion().isEmpty());
        DesignerView* view = w.designer()->view();
        QTest::mouseDClick(view->viewport(), Qt::LeftButton, {},
                           viewPointOf(view, w.designer()->scene()->node("table:users_history")));
        QTRY_VERIFY(!w.dock(QStringLiteral("targetsDock"))->visibleRegion().isEmpty());
    }

    // After each update the table node shows its rows and live tombstones and the flow node the last
    // update's counts, the same figures Target Tables and the Update Timeline show; undoing an update
    // brings the previous figures back, and rewinding to the start takes them away.
    void nodesShowTheLastUpdate() {
        MainWindow w;
        openShown(w, QStringLiteral("scd2-users"));
        DesignerScene* scene = w.designer()->scene();
        NodeItem* table = scene->node("table:users_history");
        NodeItem* flow = scene->node("flow:apply_cdc");
        QVERIFY(table && flow);
        QVERIFY(!table->state().rows && !flow->state().counts); // nothing has run yet
        const QSizeF before = table->rect().size();
        QAbstractItemModel* rows = w.targetTablePanel()->rowsView()->model();
        const auto checkFigures = [&] {
            const UpdateTimelineModel::Entry last = w.timelineModel()->entries().last();
            QVERIFY(last.updateId > 0);
            QTRY_COMPARE(w.targetTablePanel()->currentTarget(), QStringLiteral("users_history"));
            QTRY_COMPARE(table->state().rows.value_or(-1), qint64(rows->rowCount()));
            const auto tombstones = engine::tombstones(w.project()->db(), "users_history");
            QVERIFY(tombstones.ok());
            QCOMPARE(table->state().tombstones.value_or(-1), qint64(tombstones->rows.size()));
            QVERIFY(flow->state().counts.has_value());
            QCOMPARE(*flow->state().counts, (FlowCounts{last.read, last.upserted, last.deleted, last.stale}));
            const QString tableLine = nodeFigures(table->state());
            QVERIFY2(tableLine.startsWith(QStringLiteral("%1 row").arg(rows->rowCount())),
                     qPrintable(tableLine));
            QCOMPARE(nodeFigures(flow->state()),
                     QStringLiteral("read %1 · upserted %2 · deleted %3 · stale %4")
                         .arg(last.read)
                         .arg(last.upserted)
                         .arg(last.deleted)
                         .arg(last.stale));
            QVERIFY(table->toolTip().contains(tableLine));
        };
        for (int i = 0; i < 3; ++i)
            step(w);
        checkFigures();
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(nodeFigures(table->state()), QStringLiteral("3 rows · 0 tombstones"));
        QVERIFY(table->rect().height() > before.height()); // the figures got a line of their own
        for (int i = 0; i < 5; ++i)
            step(w);
        checkFigures();
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(nodeFigures(table->state()), QStringLiteral("7 rows · 1 tombstone"));
        QCOMPARE(nodeFigures(flow->state()), QStringLiteral("read 1 · upserted 2 · deleted 0 · stale 0"));

        w.project()->undoStack()->undo();
        QCOMPARE(w.timelineModel()->lastUpdateId(), 7);
        checkFigures();
        if (QTest::currentTestFailed())
            return;
        QVERIFY(w.timelinePanel()->rewindTo(0).ok());
        QTRY_VERIFY(!table->state().rows.has_value());
        QVERIFY(!flow->state().counts.has_value());
        QCOMPARE(table->rect().size(), before);
    }

    // A key the source does not have puts an error badge on the flow, whose tooltip says why; fixing the
    // text (undo) takes the badge away.
    void issueBadgeOnItsNode() {
        MainWindow w;
        openShown(w, QStringLiteral("scd2-users"));
        DesignerScene* scene = w.designer()->scene();
        NodeItem* flow = scene->node("flow:apply_cdc");
        QVERIFY(flow->badgeKind().isEmpty());
        QVERIFY(hoverBadge(w, "flow:apply_cdc").indexOf(QLatin1String("error:")) < 0);
        PipelineDocument* doc = w.project()->document();
        doc->replace(doc->text().replace(QStringLiteral("(userId)"), QStringLiteral("(nobody)")),
                     QStringLiteral("Break the key"));
        QVERIFY(doc->hasErrors());
        QString message;
        for (const Diagnostic& d : doc->issues())
            if (d.severity == Severity::Error)
                message = QString::fromStdString(d.message);
        QVERIFY(message.contains(QLatin1String("nobody")));
        QCOMPARE(flow->badgeKind(), QStringLiteral("error"));
        QCOMPARE(flow->state().errors, 1);
        QVERIFY(scene->node("table:users_history")->badgeKind().isEmpty());
        const QString tip = hoverBadge(w, "flow:apply_cdc");
        QVERIFY2(tip.contains(QStringLiteral("error: %1").arg(message.toHtmlEscaped())), qPrintable(tip));

        w.project()->undoStack()->undo();
        QTRY_VERIFY(!doc->hasErrors());
        QVERIFY(flow->badgeKind().isEmpty());
        QVERIFY(!flow->toolTip().contains(message.toHtmlEscaped()));
    }

    // A run's warning (a tie at one sequence value) puts an amber warning badge on the flow it is about, with
    // the message on hover; the next text change clears it with the run's other issues.
    void warningBadgeOnItsNode() {
        MainWindow w;
        openShown(w, QStringLiteral("scd2-users"));
        PipelineDocument* doc = w.project()->document();
        const pipeline::AutoCdcFlow& flow = doc->pipeline().cdcFlows.at(0);
        doc->setRuntimeDiagnostics({Diagnostic::warning(
            "SEQUENCE_TIE", "two events of key 123 tie at sequence 5", flow.sequenceBy.at(0).location)});
        NodeItem* item = w.designer()->scene()->node("flow:apply_cdc");
        QCOMPARE(item->badgeKind(), QStringLiteral("warning"));
        QCOMPARE(item->state().warnings, 1);
        QVERIFY(w.designer()->scene()->node("table:users_history")->badgeKind().isEmpty());
        const QString tip = hoverBadge(w, "flow:apply_cdc");
        QVERIFY2(tip.contains(QStringLiteral("warning: two events of key 123 tie at sequence 5")),
                 qPrintable(tip));
        doc->replace(doc->text() + QStringLiteral("\n"), QStringLiteral("Add a line"));
        QVERIFY(item->badgeKind().isEmpty());
    }

    // A live theme switch reaches the canvas: the nodes and the grid are painted from the new palette.
    void followsTheTheme() {
        MainWindow w;
        openShown(w, QStringLiteral("scd2-users"));
        DesignerScene* scene = w.designer()->scene();
        QTemporaryDir dir;
        const auto cornerOfExport = [&] {
            const QString path = dir.filePath(QStringLiteral("theme.png"));
            return scene->exportPng(path) ? QImage(path).pixelColor(1, 1) : QColor();
        };
        ThemeManager::instance()->setTheme(ThemeManager::Theme::Light, false);
        QTRY_VERIFY(cornerOfExport().lightness() > 200);
        ThemeManager::instance()->setTheme(ThemeManager::Theme::Dark, false);
        QTRY_VERIFY(cornerOfExport().lightness() < 80);
        QCOMPARE(scene->palette().color(QPalette::Base), QApplication::palette().color(QPalette::Base));
        const QImage view = w.designer()->view()->grab().toImage();
        const auto viewCorner = [&w] {
            const QImage view = w.designer()->view()->grab().toImage();
            return view.pixelColor(view.width() - 3, view.height() - 3);
        };
        QTRY_VERIFY(viewCorner().lightness() < 80);
        ThemeManager::instance()->setTheme(ThemeManager::Theme::Light, false);
    }

    // Both exports write files that read back as the graph.
    void exportsReadBack() {
        MainWindow w;
        openShown(w, QStringLiteral("scd2-users"));
        DesignerScene* scene = w.designer()->scene();
        scene->node("table:users_history")->setSelected(true);
        QTemporaryDir dir;
        const QString svgPath = dir.filePath(QStringLiteral("graph.svg"));
        const QString pngPath = dir.filePath(QStringLiteral("graph.png"));
        QVERIFY(w.designer()->exportTo(svgPath));
        QVERIFY(w.designer()->exportTo(pngPath));
        const QSize expected = scene->graphBounds().adjusted(-24, -24, 24, 24).size().toSize();
        QSvgRenderer svg(svgPath);
        QVERIFY(svg.isValid());
        QCOMPARE(svg.viewBoxF().size().toSize(), expected);
        QFile svgFile(svgPath);
        QVERIFY(svgFile.open(QIODevice::ReadOnly));
        const QByteArray svgText = svgFile.readAll();
        for (const char* label : {"users_history", "apply_cdc", "main.cdc_tutorial.users_cdf", "SCD TYPE 2"})
            QVERIFY2(svgText.contains(label), label);
        const QImage png(pngPath);
        QVERIFY(!png.isNull());
        QCOMPARE(png.size(), expected * 2);
        // The picture has the canvas's colour at its corner and something else where the table is.
        const QColor base = w.designer()->scene()->palette().color(QPalette::Base);
        QCOMPARE(png.pixelColor(1, 1), base);
        QVERIFY(scene->node("table:users_history")->isSelected()); // the export did not lose the selection
        QVERIFY(!w.designer()->exportTo(dir.filePath(QStringLiteral("missing/graph.png"))));
    }
};

QTEST_MAIN(TestDesigner)
#include "tst_designer.moc"
