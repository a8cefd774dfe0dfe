#pragma once
/// What a database holds of one AUTO CDC target, read without the pipeline: the target registry
/// (`__cdc_targets`) and the catalog are the one place a target's stored identity is read from. Rewind,
/// the tombstone listing and the app's result views all take it from here, so they agree with what the
/// engine wrote even when the pipeline text has changed since (or no longer parses).

#include "core/common/DataType.h"
#include "core/common/Diagnostic.h"
#include "core/engine/DatasetKind.h"
#include "core/pipeline/Pipeline.h"
#include "core/storage/Catalog.h"
#include "core/storage/Database.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cdc::engine {

/// `__cdc_targets.scd_type` of append targets and materialized views (AUTO CDC targets hold 1 or 2).
inline constexpr std::int64_t kAppendKindCode = 0;
inline constexpr std::int64_t kMaterializedKindCode = 3;

struct StoredTarget {
    std::string name; ///< as declared (the catalog's name)
    DatasetKind kind = DatasetKind::AutoCdc;
    pipeline::ScdType scdType = pipeline::ScdType::Type1;
    std::vector<storage::ColumnInfo>
        columns;               ///< public data columns, keys included, without __START_AT/__END_AT
    std::vector<int> keyIndex; ///< positions of the keys in `columns`
    std::vector<bool> tracked; ///< per column: takes part in SCD2 history (all true for SCD1)
    DataType sequenceType;
    std::map<std::string, std::string> properties; ///< TBLPROPERTIES, keys lower-cased
    std::int64_t createdIn = 0;                    ///< the update that created (or last rebuilt) its objects
    /// Written by this version's storage layout; an older layout needs a full refresh before the next update.
    bool currentLayout = true;
    /// What must stay equal between updates for the stored rows to remain valid (TargetPlan::signature).
    std::string signature;

    bool scd2() const { return scdType == pipeline::ScdType::Type2; }
    bool autoCdc() const { return kind == DatasetKind::AutoCdc; }
    std::vector<std::string> keyNames() const;
    /// The non-key columns outside TRACK HISTORY (SCD2 updates them in place); empty when all are tracked.
    std::vector<std::string> untrackedColumns() const;
};

/// Every AUTO CDC target the database holds, by name.
Result<std::vector<StoredTarget>> storedTargets(const storage::Database& db);
/// One target by (possibly partial) name as the catalog resolves it; empty when it has no engine state.
Result<std::optional<StoredTarget>> findStoredTarget(const storage::Database& db, std::string_view name);

} // namespace cdc::engine
