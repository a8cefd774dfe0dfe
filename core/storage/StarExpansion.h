#pragma once
/// Star forms whose columns only the database knows: `* EXCEPT (a, b)`, `t.* EXCEPT (...)`, and the
/// translator's own "every column but its helper" selections (QUALIFY). SQL is translated without a
/// schema, so the translator writes a marker around a probe query (`SELECT t.* FROM <the FROM clause>`);
/// whoever binds the relations expands it, once the probe can be prepared, into the quoted column list.
/// Positions are carried inside the marker, so an unknown EXCEPT column is a positioned error.

#include "core/common/Diagnostic.h"
#include "core/storage/Database.h"

#include <functional>
#include <string>
#include <vector>

namespace cdc::storage {

struct StarSelection {
    std::string qualifier; ///< `t` of `t.*`; empty for `*`
    /// `s.*` of a STRUCT column: its SQL (a JSON object). The probe is then `SELECT <structSql> AS
    /// "__cdc_struct" FROM ...` and the fields are those of the first value that is not NULL.
    std::string structSql;
    std::vector<std::string> except; ///< column names left out (matched case-insensitively)
    SourceLocation location;         ///< the star, for errors
};

/// The marker for `selection` over `probeSql` (a SELECT whose result columns are the star's columns).
std::string starMarker(const StarSelection& selection, const std::string& probeSql);

/// True when `sql` holds a marker still to expand.
bool hasStarMarker(const std::string& sql);

/// Replaces every marker (innermost first) by its column list. `probeFixup`, when given, rewrites a probe
/// before it is prepared (the engine's stream range placeholders). Errors: UNRESOLVED_COLUMN for an EXCEPT
/// name the relation lacks, EXCEPT_OVERLAPPING_COLUMNS for a name given twice, the probe's own failure, and
/// for `s.*` a struct with no value yet to read its fields from.
/// `mirror`, when given, is a second SQL text with the same markers in the same places (the engine's runnable
/// SQL beside the probe it lists columns from, whose datasets may be stand-ins): each marker expanded in
/// `sql` is replaced in `mirror` by the same column list.
Result<std::string> expandStarMarkers(const Database& db, std::string sql,
                                      const std::function<std::string(std::string)>& probeFixup = {},
                                      std::string* mirror = nullptr);

} // namespace cdc::storage
