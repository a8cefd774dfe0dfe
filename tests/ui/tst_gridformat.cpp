// The grid's model layer: clipboard and export text (TSV, CSV, JSON) and the sorting / filtering
// proxy, over a plain item model that answers CellValueRole like the result models do.
#include "core/common/DataType.h"
#include "core/common/ResultSet.h"
#include "ui/model/GridFormat.h"
#include "ui/model/GridProxyModel.h"

#include <QAbstractItemModelTester>
#include <QStandardItemModel>
#include <QtTest>

using namespace cdc;
using namespace cdc::ui;

Q_DECLARE_METATYPE(cdc::ui::GridTable)

namespace {
CellValue I(std::int64_t v) {
    return {v, DataType::parse("BIGINT")};
}
CellValue D(double v) {
    return {v, DataType::parse("DOUBLE")};
}
CellValue S(const char* v) {
    return {std::string(v), DataType::parse("STRING")};
}
CellValue B(bool v) {
    return {std::int64_t(v ? 1 : 0), DataType::parse("BOOLEAN")};
}
CellValue T(const char* v) {
    return {std::string(v), DataType::parse("TIMESTAMP")};
}
CellValue N() {
    return {};
}

/// Rows of (value, display) cells, as a result model shows them.
QStandardItemModel* model(const QStringList& headers, const QList<QList<CellValue>>& rows, QObject* parent) {
    auto* m = new QStandardItemModel(int(rows.size()), int(headers.size()), parent);
    m->setHorizontalHeaderLabels(headers);
    for (int r = 0; r < rows.size(); ++r)
        for (int c = 0; c < rows[r].size(); ++c) {
            const CellValue& cell = rows[r][c];
            m->setData(m->index(r, c), QString::fromStdString(displayValue(cell.value, cell.type)));
            m->setData(m->index(r, c), cellValue(cell.value, cell.type), CellValueRole);
        }
    return m;
}

QStringList column(const QAbstractItemModel* m, int c) {
    QStringList out;
    for (int r = 0; r < m->rowCount(); ++r)
        out << m->index(r, c).data().toString();
    return out;
}

/// A model that hands out its rows 2 at a time, like TargetRowsModel's fetchMore.
class LazyModel : public QStandardItemModel {
public:
    using QStandardItemModel::QStandardItemModel;
    int fetched = 2;
    int rowCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() ? 0 : std::min(fetched, QStandardItemModel::rowCount());
    }
    bool canFetchMore(const QModelIndex& parent) const override {
        return !parent.isValid() && fetched < QStandardItemModel::rowCount();
    }
    void resetToFirstBatch() {
        beginResetModel();
        fetched = 2;
        endResetModel();
    }
    void fetchMore(const QModelIndex& parent) override {
        const int to = std::min(fetched + 2, QStandardItemModel::rowCount());
        beginInsertRows(parent, fetched, to - 1);
        fetched = to;
        endInsertRows();
    }
};
} // namespace

class TestGridFormat : public QObject {
    Q_OBJECT
private slots:
    void tsv_data();
    void tsv();
    void csvQuotesAsRfc4180();
    void jsonIsTypedAndKeepsColumnOrder();
    void proxySortsByTypedValue_data();
    void proxySortsByTypedValue();
    void proxyFiltersAcrossColumnsIgnoringCase();
    void proxyFetchesEverythingBeforeSortingOrFiltering();
};

void TestGridFormat::tsv_data() {
    QTest::addColumn<GridTable>("table");
    QTest::addColumn<bool>("headers");
    QTest::addColumn<QString>("expected");
    const GridTable plain{{"id", "name"}, {{I(1), S("Ada")}, {I(2), N()}}};
    QTest::newRow("NULL is an empty cell") << plain << false << QStringLiteral("1\tAda\n2\t");
    QTest::newRow("with headers") << plain << true << QStringLiteral("id\tname\n1\tAda\n2\t");
    QTest::newRow("tab, newline and quote are quoted")
        << GridTable{{"a", "b"}, {{S("x\ty"), S("say \"hi\"\nbye")}}} << false
        << QStringLiteral("\"x\ty\"\t\"say \"\"hi\"\"\nbye\"");
    QTest::newRow("booleans and reals as shown")
        << GridTable{{"ok", "r"}, {{B(true), D(2.5)}}} << false << QStringLiteral("true\t2.5");
    QTest::newRow("one cell, no line break") << GridTable{{"id"}, {{I(42)}}} << false << QStringLiteral("42");
}

void TestGridFormat::tsv() {
    QFETCH(GridTable, table);
    QFETCH(bool, headers);
    QFETCH(QString, expected);
    QCOMPARE(GridFormat::tsv(table, headers), expected);
}

void TestGridFormat::csvQuotesAsRfc4180() {
    const GridTable table{
        {"id", "name, full", "note"},
        {{I(1), S("Doe, J"), S("said \"no\"")}, {I(2), N(), S("two\nlines")}, {I(3), S(""), S("plain")}}};
    QCOMPARE(GridFormat::csv(table), QStringLiteral("id,\"name, full\",note\r\n"
                                                    "1,\"Doe, J\",\"said \"\"no\"\"\"\r\n"
                                                    "2,,\"two\nlines\"\r\n"
                                                    "3,,plain\r\n"));
    QCOMPARE(GridFormat::csv(GridTable{{"id"}, {}}), QStringLiteral("id\r\n"));
}

void TestGridFormat::jsonIsTypedAndKeepsColumnOrder() {
    const GridTable table{{"z_id", "name", "score", "active", "at", "gone"},
                          {{I(7), S("Ada \"A\""), D(2.5), B(true), T("2024-01-02 03:04:05"), N()},
                           {I(-1), S("42"), D(1e20), B(false), N(), N()}}};
    QCOMPARE(GridFormat::json(table),
             QStringLiteral(
                 "[\n"
                 "  {\"z_id\": 7, \"name\": \"Ada \\\"A\\\"\", \"score\": 2.5, \"active\": true, "
                 "\"at\": \"2024-01-02T03:04:05Z\", \"gone\": null},\n"
                 "  {\"z_id\": -1, \"name\": \"42\", \"score\": 1e+20, \"active\": false, \"at\": null, "
                 "\"gone\": null}\n"
                 "]\n"));
    QCOMPARE(GridFormat::json(GridTable{{"id"}, {}}), QStringLiteral("[]\n"));
}

void TestGridFormat::proxySortsByTypedValue_data() {
    QTest::addColumn<int>("column");
    QTest::addColumn<int>("order");
    QTest::addColumn<QStringList>("expected");
    // Display text would put "10" before "9" and "bob" after "Zoe".
    QTest::newRow("numbers by value, NULL first")
        << 0 << int(Qt::AscendingOrder) << QStringList{"null", "2", "9", "10"};
    QTest::newRow("descending") << 0 << int(Qt::DescendingOrder) << QStringList{"10", "9", "2", "null"};
    QTest::newRow("text ignoring case")
        << 1 << int(Qt::AscendingOrder) << QStringList{"ada", "bob", "Carl", "Zoe"};
    QTest::newRow("original order") << -1 << int(Qt::AscendingOrder) << QStringList{"10", "9", "null", "2"};
}

void TestGridFormat::proxySortsByTypedValue() {
    QFETCH(int, column);
    QFETCH(int, order);
    QFETCH(QStringList, expected);
    QObject owner;
    auto* source = model({"n", "name"},
                         {{I(10), S("Zoe")}, {I(9), S("bob")}, {N(), S("ada")}, {I(2), S("Carl")}}, &owner);
    GridProxyModel proxy;
    QAbstractItemModelTester tester(&proxy);
    proxy.setSourceModel(source);
    proxy.sort(1, Qt::DescendingOrder); // a sort before: -1 must undo it
    proxy.sort(column, Qt::SortOrder(order));
    QCOMPARE(::column(&proxy, column >= 0 ? column : 0), expected);
    QCOMPARE(proxy.isSorted(), column >= 0);
}

void TestGridFormat::proxyFiltersAcrossColumnsIgnoringCase() {
    QObject owner;
    auto* source = model({"id", "city"},
                         {{I(123), S("Monterrey")}, {I(124), S("Oaxaca")}, {I(1250), S("Tijuana")}}, &owner);
    GridProxyModel proxy;
    QAbstractItemModelTester tester(&proxy);
    proxy.setSourceModel(source);
    QSignalSpy changed(&proxy, &GridProxyModel::filterTextChanged);
    proxy.setFilterText(QStringLiteral("OAX"));
    QCOMPARE(column(&proxy, 0), QStringList{"124"});
    proxy.setFilterText(QStringLiteral("12")); // any column: the ids
    QCOMPARE(column(&proxy, 1), (QStringList{"Monterrey", "Oaxaca", "Tijuana"}));
    proxy.setFilterText(QStringLiteral("125"));
    QCOMPARE(column(&proxy, 1), QStringList{"Tijuana"});
    QVERIFY(proxy.isFiltering());
    proxy.setFilterText({});
    QCOMPARE(proxy.rowCount(), 3);
    QCOMPARE(changed.size(), 4);
    // Rows that change keep to the filter.
    proxy.setFilterText(QStringLiteral("cancun"));
    QCOMPARE(proxy.rowCount(), 0);
    source->setData(source->index(1, 1), QStringLiteral("Cancun"));
    QCOMPARE(column(&proxy, 0), QStringList{"124"});
}

void TestGridFormat::proxyFetchesEverythingBeforeSortingOrFiltering() {
    QObject owner;
    auto* source = new LazyModel(6, 1, &owner);
    for (int r = 0; r < 6; ++r) {
        source->setData(source->index(r, 0), QString::number(r));
        source->setData(source->index(r, 0), cellValue(std::int64_t(r), std::nullopt), CellValueRole);
    }
    GridProxyModel proxy;
    proxy.setSourceModel(source);
    QCOMPARE(proxy.rowCount(), 2);
    proxy.sort(0, Qt::DescendingOrder);
    QCOMPARE(column(&proxy, 0), (QStringList{"5", "4", "3", "2", "1", "0"}));

    // A reset hands out the first batch again: a sorted grid reads the rest.
    source->resetToFirstBatch();
    QCOMPARE(proxy.rowCount(), 6);
    QCOMPARE(proxy.index(0, 0).data().toString(), QStringLiteral("5"));

    proxy.sort(-1);
    auto* other = new LazyModel(6, 1, &owner);
    for (int r = 0; r < 6; ++r)
        other->setData(other->index(r, 0), QStringLiteral("row %1").arg(r));
    proxy.setSourceModel(other);
    QCOMPARE(proxy.rowCount(), 2);
    proxy.setFilterText(QStringLiteral("row 5"));
    QCOMPARE(column(&proxy, 0), QStringList{"row 5"});
}

QTEST_MAIN(TestGridFormat)
#include "tst_gridformat.moc"
