#pragma once
/// The SQLite objects behind an AUTO CDC target, named in one place for every layer that touches them:
/// the engine creates, writes, rewinds and drops them; the query runner reads the change feed and maps
/// their columns back to the catalog's types.

#include <string>
#include <string_view>
#include <vector>

namespace cdc::storage {

/// The names of the objects behind the AUTO CDC target `target` (its catalog name, any case). Each is the
/// lower-cased name behind a prefix of its own, so that no user table can be one of them.
struct TargetTables {
    TargetTables() = default;
    explicit TargetTables(std::string_view target);

    std::string view;           ///< the public view (exactly the public columns): the catalog's sqliteName
    std::string backing;        ///< `__acs_`: SCD1 rows or the SCD2 events and versions, tombstones included
    std::string changeFeed;     ///< `__cdf_`: the change feed view, as table_changes() shows it
    std::string changeFeedRows; ///< `__cdfr_`: the table behind it (engine::ChangeFeedWriter)
    std::string undo;           ///< `__acu_`: the undo journal that makes rewind exact (engine::UndoJournal)
    std::string gcLog;          ///< `__acg_`: the tombstones each update garbage-collected
    std::string legacyLog;      ///< `__acl_`: an older storage layout's log, dropped with the rest
    std::string legacyUndoLog;  ///< `__acv_`: the same for its undo log

    /// Every object above, views before the tables they show: the order to drop them in.
    std::vector<std::string> all() const;
};

} // namespace cdc::storage
