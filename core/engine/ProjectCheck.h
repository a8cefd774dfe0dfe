#pragma once
/// Whether a project file's engine state is what CDC Studio writes. A project someone sent is untrusted: its
/// bookkeeping tables could have been edited (a column count, an SCD type, a sequence key), and the engine
/// would compute from them without noticing. Each check is cheap (registry rows and table schemas, not
/// stored rows) and names what it found wrong.

#include "core/common/Diagnostic.h"
#include "core/storage/Database.h"

#include <string>
#include <vector>

namespace cdc::engine {

/// A target whose registry row or stored objects break what the engine relies on. A full refresh rebuilds it.
struct DamagedTarget {
    std::string name;
    std::string problem; ///< "the registry says 7 as its SCD type", ...
};

/// The bookkeeping tables (`__cdc_*`) the file holds, each against the columns CDC Studio creates:
/// PROJECT_DAMAGED naming the first that differs.
Status checkEngineTables(const storage::Database& db);

/// The targets of the registry (`__cdc_targets`) that break its invariants: a known kind and SCD type, a
/// column count that the catalog and the backing table agree with, key positions inside it, the public view
/// and change feed present, and sequence keys (truncate watermarks, snapshot versions) that decode.
Result<std::vector<DamagedTarget>> damagedTargets(const storage::Database& db);

/// TARGET_DAMAGED naming the targets and what is wrong with each, offering a full refresh.
Diagnostic damagedTargetsError(const std::vector<DamagedTarget>& targets);

} // namespace cdc::engine
