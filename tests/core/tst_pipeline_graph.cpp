// The pipeline graph of every sample and of hand-written pipelines: exact node ids, kinds and edges, so a
// change of the id scheme (which pinned designer positions depend on) or of a dependency shows here.
#include "core/pipeline/PipelineGraph.h"
#include "core/sql/SqlApi.h"

#include <QFile>
#include <QtTest>

using namespace cdc;
using namespace cdc::pipeline;

namespace {

QString pipelineText(const QString& sqlOrSample) {
    if (!sqlOrSample.startsWith(QLatin1String("sample:")))
        return sqlOrSample;
    QFile file(QStringLiteral(CDC_SOURCE_DIR "/samples/%1/pipeline.sql").arg(sqlOrSample.mid(7)));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
}

QStringList nodeList(const PipelineGraph& g) {
    QStringList out;
    for (const auto& n : g.nodes)
        out << QStringLiteral("%1=%2").arg(
            QString::fromStdString(n.id),
            QString::fromLatin1(nodeKindName(n.kind).data(), qsizetype(nodeKindName(n.kind).size())));
    return out;
}

QStringList edgeList(const PipelineGraph& g) {
    QStringList out;
    for (const auto& e : g.edges)
        out << QStringLiteral("%1>%2").arg(QString::fromStdString(e.from), QString::fromStdString(e.to));
    return out;
}

PipelineGraph graphOf(const QString& sqlOrSample) {
    const auto parse = sql::parsePipeline(pipelineText(sqlOrSample).toStdString(), "pipeline.sql");
    if (parse.hasErrors())
        qWarning("%s", parse.firstError()->message.c_str());
    return buildGraph(parse.pipeline);
}

const char* const kTwoFlows = R"(
CREATE OR REFRESH STREAMING TABLE Customers;
CREATE FLOW west AS AUTO CDC INTO customers FROM stream(crm.west_cdf) KEYS (id, region) SEQUENCE BY seq
  STORED AS SCD TYPE 2;
CREATE FLOW east AS AUTO CDC INTO LIVE.customers FROM stream(crm.EAST_cdf) KEYS (id, region) SEQUENCE BY seq
  STORED AS SCD TYPE 2;
)";

const char* const kViewChain = R"(
CREATE TEMPORARY VIEW cleaned AS SELECT * FROM STREAM(raw.events) WHERE id IS NOT NULL;
CREATE VIEW enriched AS SELECT c.*, d.name FROM cleaned c JOIN dim.names d ON c.id = d.id;
CREATE OR REFRESH STREAMING TABLE events_current;
CREATE FLOW events_flow AS AUTO CDC INTO events_current FROM stream(enriched) KEYS (id)
  SEQUENCE BY STRUCT(ts, seq) STORED AS SCD TYPE 1;
CREATE MATERIALIZED VIEW events_summary AS SELECT COUNT(*) AS n FROM events_current;
CREATE OR REFRESH STREAMING TABLE audit;
CREATE FLOW audit_flow AS INSERT INTO audit BY NAME SELECT * FROM table_changes('events_current', 1);
CREATE FLOW backfill AS INSERT INTO ONCE audit BY NAME SELECT * FROM old.audit;
)";

const char* const kSnapshot = R"(
CREATE OR REFRESH STREAMING TABLE products;
CREATE FLOW products_snapshot AS AUTO CDC INTO products FROM SNAPSHOT (SELECT * FROM erp.products_snap)
  KEYS (sku) STORED AS SCD TYPE 2;
)";

// The version query reads a table and the flow's own progress; only the table is a node.
const char* const kVersionedSnapshot = R"(
CREATE OR REFRESH STREAMING TABLE products;
CREATE FLOW products_snapshot AS AUTO CDC INTO products
  FROM SNAPSHOT (SELECT * FROM erp.products_snap WHERE v = (SELECT version FROM current_snapshot_version()))
  WITH VERSION (SELECT v FROM erp.versions
                WHERE NOT EXISTS (SELECT 1 FROM last_snapshot_version())
                   OR v > (SELECT version FROM last_snapshot_version()))
  KEYS (sku);
)";

} // namespace

class TestPipelineGraph : public QObject {
    Q_OBJECT
private slots:
    void graph_data() {
        QTest::addColumn<QString>("pipeline");
        QTest::addColumn<QStringList>("nodes");
        QTest::addColumn<QStringList>("edges");
        const QStringList usersEdges{"source:main.cdc_tutorial.users_cdf>flow:apply_cdc"};
        QTest::newRow("scd1-users") << "sample:scd1-users"
                                    << QStringList{"table:users_current=StreamingTable",
                                                   "flow:apply_cdc=AutoCdcFlow",
                                                   "source:main.cdc_tutorial.users_cdf=SourceTable"}
                                    << (usersEdges + QStringList{"flow:apply_cdc>table:users_current"});
        QTest::newRow("scd1-truncate")
            << "sample:scd1-truncate"
            << QStringList{"table:users_current=StreamingTable", "flow:apply_cdc=AutoCdcFlow",
                           "source:main.cdc_tutorial.users_cdf=SourceTable"}
            << (usersEdges + QStringList{"flow:apply_cdc>table:users_current"});
        for (const char* sample : {"scd2-users", "scd2-track-history"})
            QTest::newRow(sample) << QStringLiteral("sample:%1").arg(QLatin1String(sample))
                                  << QStringList{"table:users_history=StreamingTable",
                                                 "flow:apply_cdc=AutoCdcFlow",
                                                 "source:main.cdc_tutorial.users_cdf=SourceTable"}
                                  << (usersEdges + QStringList{"flow:apply_cdc>table:users_history"});
        QTest::newRow("out-of-order-lab")
            << "sample:out-of-order-lab"
            << QStringList{"table:orders_current=StreamingTable", "table:orders_history=StreamingTable",
                           "flow:orders_current_flow=AutoCdcFlow", "flow:orders_history_flow=AutoCdcFlow",
                           "source:lab.orders_cdf=SourceTable"}
            << QStringList{"source:lab.orders_cdf>flow:orders_current_flow",
                           "flow:orders_current_flow>table:orders_current",
                           "source:lab.orders_cdf>flow:orders_history_flow",
                           "flow:orders_history_flow>table:orders_history"};
        QTest::newRow("tombstone-gc-lab")
            << "sample:tombstone-gc-lab"
            << QStringList{"table:accounts=StreamingTable", "flow:accounts_flow=AutoCdcFlow",
                           "source:lab.accounts_cdf=SourceTable"}
            << QStringList{"source:lab.accounts_cdf>flow:accounts_flow", "flow:accounts_flow>table:accounts"};
        // Names compare case-insensitively and without LIVE.: both flows meet in one table node.
        QTest::newRow("two flows into one target")
            << kTwoFlows
            << QStringList{"table:customers=StreamingTable", "flow:west=AutoCdcFlow", "flow:east=AutoCdcFlow",
                           "source:crm.west_cdf=SourceTable", "source:crm.east_cdf=SourceTable"}
            << QStringList{"source:crm.west_cdf>flow:west", "flow:west>table:customers",
                           "source:crm.east_cdf>flow:east", "flow:east>table:customers"};
        QTest::newRow("view chain, table_changes, append flows")
            << kViewChain
            << QStringList{"table:events_current=StreamingTable",  "table:audit=StreamingTable",
                           "view:cleaned=TemporaryView",           "view:enriched=View",
                           "view:events_summary=MaterializedView", "flow:events_flow=AutoCdcFlow",
                           "flow:audit_flow=AppendFlow",           "flow:backfill=AppendFlow",
                           "source:raw.events=SourceTable",        "source:dim.names=SourceTable",
                           "source:old.audit=SourceTable"}
            << QStringList{"source:raw.events>view:cleaned",       "view:cleaned>view:enriched",
                           "source:dim.names>view:enriched",       "table:events_current>view:events_summary",
                           "view:enriched>flow:events_flow",       "flow:events_flow>table:events_current",
                           "table:events_current>flow:audit_flow", "flow:audit_flow>table:audit",
                           "source:old.audit>flow:backfill",       "flow:backfill>table:audit"};
        QTest::newRow("snapshot flow")
            << kSnapshot
            << QStringList{"table:products=StreamingTable", "flow:products_snapshot=AutoCdcSnapshotFlow",
                           "source:erp.products_snap=SourceTable"}
            << QStringList{"source:erp.products_snap>flow:products_snapshot",
                           "flow:products_snapshot>table:products"};
        QTest::newRow("versioned snapshot flow")
            << kVersionedSnapshot
            << QStringList{"table:products=StreamingTable", "flow:products_snapshot=AutoCdcSnapshotFlow",
                           "source:erp.products_snap=SourceTable", "source:erp.versions=SourceTable"}
            << QStringList{"source:erp.products_snap>flow:products_snapshot",
                           "source:erp.versions>flow:products_snapshot",
                           "flow:products_snapshot>table:products"};
    }

    void graph() {
        QFETCH(QString, pipeline);
        QFETCH(QStringList, nodes);
        QFETCH(QStringList, edges);
        const PipelineGraph g = graphOf(pipeline);
        QCOMPARE(nodeList(g), nodes);
        QCOMPARE(edgeList(g), edges);
        for (const auto& n : g.nodes) {
            QCOMPARE(g.find(n.id), &n);
            QVERIFY2(n.location.valid(), n.id.c_str());
        }
        QCOMPARE(g.find("table:nope"), nullptr);
    }

    // What the nodes show under their names: a table its SCD type and keys, a flow its keys and sequence.
    void details() {
        const PipelineGraph two = graphOf(QString::fromUtf8(kTwoFlows));
        QCOMPARE(two.find("table:customers")->details,
                 (std::vector<std::string>{"SCD TYPE 2", "KEYS id, region"}));
        QCOMPARE(two.find("table:customers")->name, "Customers");
        QCOMPARE(two.find("source:crm.east_cdf")->name, "crm.EAST_cdf");
        QCOMPARE(two.find("flow:east")->details,
                 (std::vector<std::string>{"KEYS id, region", "SEQUENCE BY seq"}));
        const PipelineGraph chain = graphOf(QString::fromUtf8(kViewChain));
        QCOMPARE(chain.find("flow:events_flow")->details,
                 (std::vector<std::string>{"KEYS id", "SEQUENCE BY STRUCT(ts, seq)"}));
        QCOMPARE(chain.find("table:events_current")->details,
                 (std::vector<std::string>{"SCD TYPE 1", "KEYS id"}));
        QCOMPARE(chain.find("table:audit")->details, std::vector<std::string>{"APPEND ONLY"});
        QCOMPARE(chain.find("flow:backfill")->details, std::vector<std::string>{"ONCE"});
        QCOMPARE(graphOf(QString::fromUtf8(kSnapshot)).find("flow:products_snapshot")->details,
                 std::vector<std::string>{"KEYS sku"});
    }

    // Ids depend on names only: re-parsing an edited pipeline keeps the ids of what was not renamed.
    void idsSurviveEdits() {
        const PipelineGraph before = graphOf(QStringLiteral("sample:scd2-users"));
        const PipelineGraph after = graphOf(pipelineText(QStringLiteral("sample:scd2-users")) +
                                            "\nCREATE VIEW recent AS SELECT * FROM users_history;");
        for (const auto& n : before.nodes)
            QVERIFY2(after.find(n.id), n.id.c_str());
        QCOMPARE(after.nodes.size(), before.nodes.size() + 1);
        QVERIFY(after.find("view:recent"));
    }
};

QTEST_GUILESS_MAIN(TestPipelineGraph)
#include "tst_pipeline_graph.moc"
