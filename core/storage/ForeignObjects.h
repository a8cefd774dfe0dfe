#pragma once
/// Triggers and views in a project file that CDC Studio did not make. A project is a SQLite file someone may
/// have sent: a trigger in it runs inside our own writes (one that deletes source rows would make an update
/// compute from data nobody entered), a view in it runs whenever it is read. CDC Studio makes no triggers and
/// only two views per target of the pipeline (its public view and its change feed), so anything else is
/// refused by name rather than run; `cdcstudio-cli repair` drops it.

#include "core/common/Diagnostic.h"
#include "core/storage/Database.h"

#include <string>
#include <vector>

namespace cdc::storage {

struct ForeignObject {
    std::string type; ///< "trigger" or "view"
    std::string name;
    std::string table; ///< what a trigger fires on
};

/// Every trigger, and every view that is not a registered target's public view or change feed.
Result<std::vector<ForeignObject>> foreignObjects(const Database& db);

/// FOREIGN_OBJECTS naming each of them when there are any.
Status checkForeignObjects(const Database& db);

/// Drops them (in the caller's transaction, if any); returns what it dropped.
Result<std::vector<ForeignObject>> dropForeignObjects(Database& db);

/// "trigger wipe on main.cdc.users, view v": the objects as a message names them.
std::string describe(const std::vector<ForeignObject>& objects);

} // namespace cdc::storage
