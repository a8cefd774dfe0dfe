// Graphviz lays every sample (and a wider hand-written pipeline) out readably: node rectangles never
// overlap, every edge runs left to right in data-flow order, and pinned nodes stay where they were put.
#include "core/pipeline/PipelineGraph.h"
#include "core/python/PythonPipelineReader.h"
#include "core/sql/SqlApi.h"
#include "ui/designer/DesignerScene.h"
#include "ui/designer/GraphLayout.h"
#include "ui/designer/NodeItem.h"
#include "ui/model/SampleLibrary.h"

#include <QtTest>

using namespace cdc;
using namespace cdc::ui;

namespace {

const char* const kWide = R"(
CREATE TEMPORARY VIEW cleaned AS SELECT * FROM STREAM(raw.events) WHERE id IS NOT NULL;
CREATE VIEW enriched AS SELECT c.*, d.name FROM cleaned c JOIN dim.names d ON c.id = d.id;
CREATE OR REFRESH STREAMING TABLE events_current;
CREATE FLOW events_flow AS AUTO CDC INTO events_current FROM stream(enriched) KEYS (id) SEQUENCE BY seq
  STORED AS SCD TYPE 1;
CREATE OR REFRESH STREAMING TABLE events_history;
CREATE FLOW events_history_flow AS AUTO CDC INTO events_history FROM stream(enriched) KEYS (id)
  SEQUENCE BY seq STORED AS SCD TYPE 2;
CREATE FLOW events_west AS AUTO CDC INTO events_history FROM stream(west.events) KEYS (id)
  SEQUENCE BY seq STORED AS SCD TYPE 2;
CREATE MATERIALIZED VIEW events_summary AS SELECT COUNT(*) AS n FROM events_current;
)";

/// The graph of a pipeline text: SQL, or a Python file read by the static reader (nothing runs here).
pipeline::PipelineGraph graphOf(const QString& text, bool python = false) {
    const std::string t = text.toStdString();
    return pipeline::buildGraph(python ? python::parsePythonPipeline(t, "pipeline.py").pipeline
                                       : sql::parsePipeline(t, "pipeline.sql").pipeline);
}

QMap<QString, QSizeF> sizesOf(const pipeline::PipelineGraph& g) {
    QMap<QString, QSizeF> sizes;
    for (const auto& n : g.nodes)
        sizes.insert(QString::fromStdString(n.id), NodeItem::sizeFor(n));
    return sizes;
}

QRectF rectOf(const GraphLayoutResult& layout, const QMap<QString, QSizeF>& sizes, const QString& id) {
    const QSizeF s = sizes.value(id);
    const QPointF c = layout.centres.value(id);
    return QRectF(c.x() - s.width() / 2, c.y() - s.height() / 2, s.width(), s.height());
}

} // namespace

class TestGraphLayout : public QObject {
    Q_OBJECT
private slots:
    void readable_data() {
        QTest::addColumn<QString>("sql");
        QTest::addColumn<bool>("python");
        for (const QString& id : samplelibrary::ids()) {
            const SampleInfo sample = samplelibrary::load(id);
            QTest::newRow(qPrintable(id)) << sample.pipeline << sample.python;
        }
        QTest::newRow("wide") << QString::fromUtf8(kWide) << false;
    }

    void readable() {
        QFETCH(QString, sql);
        QFETCH(bool, python);
        const auto graph = graphOf(sql, python);
        QVERIFY(!graph.nodes.empty());
        const auto sizes = sizesOf(graph);
        const GraphLayoutResult layout = layoutGraph(graph, sizes);
        QCOMPARE(layout.centres.size(), qsizetype(graph.nodes.size()));
        QCOMPARE(layout.edges.size(), graph.edges.size());
        const QStringList ids = layout.centres.keys();
        for (int i = 0; i < ids.size(); ++i) {
            QVERIFY(layout.bounds.contains(rectOf(layout, sizes, ids[i])));
            for (int j = 0; j < i; ++j)
                QVERIFY2(!rectOf(layout, sizes, ids[i]).intersects(rectOf(layout, sizes, ids[j])),
                         qPrintable(ids[i] + QLatin1String(" overlaps ") + ids[j]));
        }
        for (const LaidOutEdge& e : layout.edges) {
            const QRectF from = rectOf(layout, sizes, e.from), to = rectOf(layout, sizes, e.to);
            QVERIFY2(from.right() < to.left(), qPrintable(e.from + QLatin1String(" -> ") + e.to));
            // The spline leaves its source and ends at its target (the arrow head's tip on the border).
            QVERIFY(!e.path.isEmpty());
            QVERIFY(std::abs(e.path.pointAtPercent(0).x() - from.right()) < 2);
            QVERIFY(std::abs(e.path.pointAtPercent(1).x() - to.left()) < 2);
        }
        // The same input gives the same picture (re-parsing must not shuffle the graph).
        QCOMPARE(layoutGraph(graph, sizes).centres, layout.centres);

        // With CDC_SCREENSHOT_DIR set, the canvas's picture of each case goes there, to be looked at.
        if (const QString dir = qEnvironmentVariable("CDC_SCREENSHOT_DIR"); !dir.isEmpty()) {
            DesignerScene scene;
            scene.setGraph(graph);
            QVERIFY(scene.exportPng(
                dir + QStringLiteral("/graph-%1.png").arg(QLatin1String(QTest::currentDataTag()))));
        }
    }

    void pinnedNodesKeepTheirPlace() {
        const auto graph = graphOf(QString::fromUtf8(kWide));
        const auto sizes = sizesOf(graph);
        const QMap<QString, QPointF> pins{{"view:enriched", QPointF(-500, 900)},
                                          {"table:events_current", QPointF(1234, -40)}};
        const GraphLayoutResult layout = layoutGraph(graph, sizes, pins);
        QCOMPARE(layout.centres.value("view:enriched"), QPointF(-500, 900));
        QCOMPARE(layout.centres.value("table:events_current"), QPointF(1234, -40));
        QVERIFY(layout.bounds.contains(rectOf(layout, sizes, "view:enriched")));
        // Edges of a pinned node run from its right side to the next node's left side.
        for (const LaidOutEdge& e : layout.edges)
            if (e.from == QLatin1String("view:enriched"))
                QCOMPARE(e.path.pointAtPercent(0), QPointF(-500 + sizes.value(e.from).width() / 2, 900));
    }

    void emptyGraph() {
        const GraphLayoutResult layout = layoutGraph({}, {});
        QVERIFY(layout.centres.isEmpty());
        QVERIFY(layout.bounds.isNull());
    }
};

QTEST_MAIN(TestGraphLayout)
#include "tst_graph_layout.moc"
