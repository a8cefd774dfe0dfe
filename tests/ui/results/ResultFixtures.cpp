// The rows are written out by hand from the doc example rather than produced by the engine, so the
// view tests compare with known answers and do not depend on the engine being right.
#include "ResultFixtures.h"

namespace cdc::test {

QStringList rowTexts(const cdc::ResultSet& rs) {
    QStringList out;
    for (const cdc::Row& r : rs.rows) {
        QStringList cells;
        for (const cdc::Value& v : r)
            cells << QString::fromStdString(cdc::displayText(v));
        out << cells.join(QLatin1Char(' '));
    }
    return out;
}

cdc::ResultSet resultSet(std::vector<std::string> columns, std::vector<std::string> types,
                         std::vector<cdc::Row> rows) {
    cdc::ResultSet rs;
    rs.columns = std::move(columns);
    for (const std::string& t : types)
        rs.types.push_back(t.empty() ? std::nullopt : cdc::DataType::parse(t));
    rs.rows = std::move(rows);
    return rs;
}

namespace {

const std::vector<std::string> kUserCols = {"userId", "name", "city"};
const std::vector<std::string> kUserTypes = {"INT", "STRING", "STRING"};
const std::vector<std::string> kScd2Cols = {"userId", "name", "city", "__START_AT", "__END_AT"};
const std::vector<std::string> kScd2Types = {"INT", "STRING", "STRING", "BIGINT", "BIGINT"};
const std::int64_t kDeletedAt = 1767225600; ///< 2026-01-01 00:00:00 UTC
const std::int64_t kGcDueAt = 1767398400;   ///< 2026-01-03 00:00:00 UTC

std::vector<std::string> feedColumns(std::vector<std::string> cols) {
    cols.insert(cols.end(), {"_change_type", "_commit_version", "_commit_timestamp"});
    return cols;
}
std::vector<std::string> feedTypes(std::vector<std::string> types) {
    types.insert(types.end(), {"STRING", "BIGINT", "TIMESTAMP"});
    return types;
}
cdc::Row feedRow(cdc::Row row, const char* type, std::int64_t version) {
    row.insert(row.end(), {S(type), I(version), S("2026-01-01 00:00:00")});
    return row;
}

ui::TargetSnapshot users(bool scd2) {
    ui::TargetSnapshot s;
    s.target = scd2 ? QStringLiteral("users_scd2") : QStringLiteral("users");
    s.scd2 = scd2;
    s.keyColumns = {QStringLiteral("userId")};
    s.sequenceType = QStringLiteral("BIGINT");
    const std::vector<std::string> tombCols = {"userId", "__SEQUENCE", "__DELETED_AT", "__GC_DUE_AT"};
    const std::vector<std::string> tombTypes = {"INT", "BIGINT", "TIMESTAMP", "TIMESTAMP"};
    s.tombstones = resultSet(tombCols, tombTypes, {});
    std::vector<std::string> collCols = tombCols, collTypes = tombTypes;
    collCols.push_back("__COLLECTED_IN");
    collTypes.push_back("BIGINT");
    s.collected = resultSet(collCols, collTypes, {});
    return s;
}

} // namespace

ui::TargetSnapshot scd1AfterDeletes() {
    ui::TargetSnapshot s = users(false);
    s.updateId = 2;
    s.rows = resultSet(kUserCols, kUserTypes,
                       {{I(124), S("Raul"), S("Oaxaca")},
                        {I(125), S("Mercedes"), S("Guadalajara")},
                        {I(126), S("Lily"), S("Cancun")},
                        {I(127), S("Ana"), S("Puebla")}});
    s.changes = resultSet(feedColumns(kUserCols), feedTypes(kUserTypes),
                          {feedRow({I(123), S("Isabel"), S("Monterrey")}, "delete", 2),
                           feedRow({I(125), S("Mercedes"), S("Tijuana")}, "update_preimage", 2),
                           feedRow({I(125), S("Mercedes"), S("Guadalajara")}, "update_postimage", 2),
                           feedRow({I(127), S("Ana"), S("Puebla")}, "insert", 2)});
    // In epoch seconds, as engine::tombstones gives them.
    s.tombstones.rows = {{I(123), I(6), I(kDeletedAt), I(kGcDueAt)}};
    return s;
}

ui::TargetSnapshot scd1AfterGc() {
    ui::TargetSnapshot s = scd1AfterDeletes();
    s.updateId = 3;
    s.changes.rows.clear();
    s.tombstones.rows.clear();
    s.collected.rows = {{I(123), I(6), I(kDeletedAt), I(kGcDueAt), I(3)}};
    return s;
}

ui::TargetSnapshot scd2AfterUpdate2() {
    ui::TargetSnapshot s = users(true);
    s.updateId = 2;
    s.rows = resultSet(kScd2Cols, kScd2Types,
                       {{I(123), S("Isabel"), S("Monterrey"), I(1), I(5)},
                        {I(123), S("Isabel"), S("Chihuahua"), I(5), I(6)},
                        {I(124), S("Raul"), S("Oaxaca"), I(1), N()},
                        {I(125), S("Mercedes"), S("Tijuana"), I(2), I(5)},
                        {I(125), S("Mercedes"), S("Mexicali"), I(5), I(6)},
                        {I(125), S("Mercedes"), S("Guadalajara"), I(6), N()},
                        {I(126), S("Lily"), S("Cancun"), I(2), N()}});
    s.changes = resultSet(feedColumns(kScd2Cols), feedTypes(kScd2Types),
                          {feedRow({I(123), S("Isabel"), S("Monterrey"), I(1), N()}, "update_preimage", 2),
                           feedRow({I(123), S("Isabel"), S("Monterrey"), I(1), I(5)}, "update_postimage", 2),
                           feedRow({I(123), S("Isabel"), S("Chihuahua"), I(5), I(6)}, "insert", 2),
                           feedRow({I(125), S("Mercedes"), S("Tijuana"), I(2), N()}, "update_preimage", 2),
                           feedRow({I(125), S("Mercedes"), S("Tijuana"), I(2), I(5)}, "update_postimage", 2),
                           feedRow({I(125), S("Mercedes"), S("Mexicali"), I(5), I(6)}, "insert", 2),
                           feedRow({I(125), S("Mercedes"), S("Guadalajara"), I(6), N()}, "insert", 2)});
    return s;
}

ui::TargetSnapshot scd2StartMovedEarlier() {
    ui::TargetSnapshot s = scd2AfterUpdate2();
    s.updateId = 3;
    s.rows.rows.back() = {I(126), S("Lily"), S("Cancun"), I(1), N()};
    s.changes.rows = {feedRow({I(126), S("Lily"), S("Cancun"), I(2), N()}, "delete", 3),
                      feedRow({I(126), S("Lily"), S("Cancun"), I(1), N()}, "insert", 3)};
    return s;
}

ui::TargetSnapshot scd2Timestamps() {
    ui::TargetSnapshot s;
    s.target = QStringLiteral("devices");
    s.scd2 = true;
    s.keyColumns = {QStringLiteral("id")};
    s.sequenceType = QStringLiteral("TIMESTAMP");
    s.updateId = 1;
    const std::vector<std::string> cols = {"id", "status", "__START_AT", "__END_AT"};
    s.rows = resultSet(cols, {"INT", "STRING", "TIMESTAMP", "TIMESTAMP"},
                       {{I(1), S("ACTIVE"), S("2026-03-01 10:00:00"), S("2026-03-01 12:30:00")},
                        {I(1), S("SUSPENDED"), S("2026-03-01 12:30:00"), N()},
                        {I(2), S("PENDING"), S("2026-03-01 11:15:30.250000"), N()}});
    return s;
}

ui::TargetSnapshot scd2Struct() {
    ui::TargetSnapshot s;
    s.target = QStringLiteral("orders");
    s.scd2 = true;
    s.keyColumns = {QStringLiteral("order_id")};
    s.sequenceType = QStringLiteral("STRUCT<ts: BIGINT, id: INT>");
    s.updateId = 1;
    const std::vector<std::string> cols = {"order_id", "state", "__START_AT", "__END_AT"};
    const std::string t = "STRUCT<ts: BIGINT, id: INT>";
    // Written so that text order differs from sequence order: ts 10 < ts 9 as text, and the
    // field order (ts first) differs from alphabetical (id first).
    s.rows = resultSet(cols, {"INT", "STRING", t, t},
                       {{I(7), S("placed"), S("{\"ts\":9,\"id\":5}"), S("{\"ts\":10,\"id\":1}")},
                        {I(7), S("shipped"), S("{\"ts\":10,\"id\":1}"), S("{\"ts\":10,\"id\":2}")},
                        {I(7), S("delivered"), S("{\"ts\":10,\"id\":2}"), N()}});
    return s;
}

ui::TargetSnapshot scd2Large(int keys, int versionsPerKey) {
    ui::TargetSnapshot s;
    s.target = QStringLiteral("big");
    s.scd2 = true;
    s.keyColumns = {QStringLiteral("id")};
    s.sequenceType = QStringLiteral("BIGINT");
    s.updateId = 9;
    s.rows =
        resultSet({"id", "value", "__START_AT", "__END_AT"}, {"BIGINT", "STRING", "BIGINT", "BIGINT"}, {});
    s.rows.rows.reserve(static_cast<std::size_t>(keys) * versionsPerKey);
    for (int k = 0; k < keys; ++k)
        for (int v = 0; v < versionsPerKey; ++v) {
            const std::int64_t start = k % 7 + v * 10;
            const bool last = v + 1 == versionsPerKey;
            s.rows.rows.push_back(
                {I(k), S(("v" + std::to_string(v)).c_str()), I(start), last ? N() : I(start + 10)});
        }
    s.changes = resultSet({"id", "value", "__START_AT", "__END_AT", "_change_type"},
                          {"BIGINT", "STRING", "BIGINT", "BIGINT", "STRING"},
                          {{I(0), S("v0"), I(0), N(), S("insert")}});
    return s;
}

} // namespace cdc::test
