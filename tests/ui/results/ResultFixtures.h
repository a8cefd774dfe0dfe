#pragma once
/// Hand-made target snapshots for the result-view tests, after the Databricks doc example
/// (users 123..126: Monterrey [1,5), Chihuahua [5,6) ...), split into updates.

#include "ui/model/results/TargetSnapshot.h"

#include <QStringList>

namespace cdc::test {

inline cdc::Value I(std::int64_t v) {
    return cdc::Value{v};
}
inline cdc::Value S(const char* v) {
    return cdc::Value{std::string(v)};
}
inline cdc::Value N() {
    return cdc::Value{};
}

/// Every row as its cells' display text joined by spaces: compact, order-preserving comparisons.
QStringList rowTexts(const cdc::ResultSet& rs);

cdc::ResultSet resultSet(std::vector<std::string> columns, std::vector<std::string> types,
                         std::vector<cdc::Row> rows);

/// SCD1 users after update 2 of: {124@1, 123@1, 125 Tijuana@2, 126@2} then {123 DELETE@6,
/// 125 Guadalajara@6, 125 Mexicali@5, 123 Chihuahua@5, 127 Puebla@3}: 123 deleted (tombstone),
/// 125 changed, 127 inserted.
ui::TargetSnapshot scd1AfterDeletes();
/// The same target after update 3, which ran past the tombstone's GC time and collected it.
ui::TargetSnapshot scd1AfterGc();
/// SCD2 users after update 2 of the same events (no 127): the doc's table plus 126; Monterrey and
/// Tijuana closed, Chihuahua / Mexicali / Guadalajara inserted, 123 closed by the delete at 6.
ui::TargetSnapshot scd2AfterUpdate2();
/// Update 3: a late 126 Lily Cancun@1 moves the start of 126's version from 2 to 1 (delete + insert).
ui::TargetSnapshot scd2StartMovedEarlier();
/// An SCD2 target sequenced by TIMESTAMP (ISO text) with two keys.
ui::TargetSnapshot scd2Timestamps();
/// An SCD2 target sequenced by STRUCT(ts, id), stored as JSON objects.
ui::TargetSnapshot scd2Struct();
/// `keys` keys with `versionsPerKey` versions each, integer sequence (the benchmark's 100,000 rows).
ui::TargetSnapshot scd2Large(int keys, int versionsPerKey);

} // namespace cdc::test
