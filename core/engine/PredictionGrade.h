#pragma once
/// "Predict, then see": a learner's guess of a target table after the next update, graded against the table
/// the update left, cell by cell. Rows are matched by their identity — the key columns, and for SCD2 also
/// __START_AT, as a key has one row per version — never by position, so a prediction in any row order grades
/// the same. Pure values: the GUI grades, the tests grade, and provenance explains the wrong cells.

#include "core/common/DataType.h"
#include "core/common/Value.h"
#include "core/engine/Provenance.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace cdc::engine {

/// What became of one predicted row.
struct GradedRow {
    /// The actual row of the same identity; -1: an extra row (the table has no such row, or an earlier
    /// predicted row already claimed it).
    int actual = -1;
    /// Per column, whether the predicted cell equals the actual one (all false for an extra row).
    std::vector<bool> right;
    bool extra() const { return actual < 0; }
    bool allRight() const;
};

struct PredictionGrade {
    std::vector<GradedRow> rows; ///< one per predicted row, in the prediction's order
    std::vector<int> missing;    ///< actual rows no predicted row matched, in the table's order
    int rightCells = 0;          ///< over the matched rows
    int wrongCells = 0;          ///< over the matched rows
    int extraRows() const;
    bool perfect() const { return wrongCells == 0 && missing.empty() && extraRows() == 0; }
};

/// Grades `predicted` against `actual`; both rows have the table's columns, in its order, and `identity`
/// names the columns that tell rows apart (the keys, plus __START_AT for SCD2). Values compare exactly (a
/// typed cell parses to what the table stores), NULL equal to NULL.
PredictionGrade gradePrediction(const std::vector<Row>& predicted, const std::vector<Row>& actual,
                                const std::vector<std::size_t>& identity);

/// "7 of 9 cells right, 1 row missing, 1 extra row" (or "Every cell right: …").
std::string gradeSummary(const PredictionGrade& grade);

/// Why a predicted cell is wrong, from the key's provenance: "city: you said Mexicali, it is Guadalajara —
/// set by sequence 6 (update 6); the event with Mexicali (sequence 5 (update 7)) is stale: arrived in update
/// 7, after sequence 6 had been applied". For an SCD2 version, `versionStart` (its __START_AT) names the
/// event that opened it, whose reason tells where the version ends and why.
std::string explainWrongCell(const Explanation& key, const std::string& column, const Value& predicted,
                             const Value& actual, const std::optional<DataType>& type,
                             const std::optional<Value>& versionStart = std::nullopt);

/// Why the table has a row the prediction left out (`missing`), or lacks one it predicted: the event that
/// opened the SCD2 version starting at `versionStart`, else the key's summary.
std::string explainRow(const Explanation& key, bool missing,
                       const std::optional<Value>& versionStart = std::nullopt);

} // namespace cdc::engine
