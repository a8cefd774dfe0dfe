#include "core/storage/TargetTables.h"

#include "core/common/Text.h"
#include "core/storage/Catalog.h"

namespace cdc::storage {

TargetTables::TargetTables(std::string_view target) {
    const std::string base = toLower(target);
    view = Catalog::sqliteNameFor(target);
    backing = "__acs_" + base;
    changeFeed = "__cdf_" + base;
    changeFeedRows = "__cdfr_" + base;
    undo = "__acu_" + base;
    gcLog = "__acg_" + base;
    legacyLog = "__acl_" + base;
    legacyUndoLog = "__acv_" + base;
}

std::vector<std::string> TargetTables::all() const {
    return {view, changeFeed, changeFeedRows, backing, legacyLog, undo, legacyUndoLog, gcLog};
}

} // namespace cdc::storage
