#pragma once
/// One way of turning the source events into an SCD1 / SCD2 target, update by update: the CDC Studio
/// engine or a hand-written SQL baseline. The scenario runner times only apply().

#include "core/common/Diagnostic.h"
#include "core/storage/Database.h"

#include <cstdint>
#include <string>

namespace cdc::bench {

enum class Scd { Type1 = 1, Type2 = 2 };

class UpdateApplier {
public:
    virtual ~UpdateApplier() = default;
    /// Creates whatever the method needs once the source table exists.
    virtual Status setUp(storage::Database& db) = 0;
    /// Consumes the source rows appended since the previous call.
    virtual Status apply(storage::Database& db) = 0;
    /// Rows a reader of the target sees (SCD1: live keys; SCD2: every version): a cross-check between
    /// methods.
    virtual Result<std::int64_t> visibleRows(storage::Database& db) = 0;
};

} // namespace cdc::bench
