#pragma once
/// The least SQLite work an exact AUTO CDC engine with a change feed does, none of its logic:
/// SCD1 — the hand-written upsert of every event into a key table plus one change-feed row per event;
/// SCD2 — every event into a history clustered on (key, sequence) (a late event must be able to re-split a
/// key's history, so every event is kept by key) plus one change-feed row per event. Set-based statements
/// over each update's rows. `floor ÷ speed limit` bounds what any design on this storage reaches;
/// `engine ÷ floor` is what the engine's own decisions (versions, tombstones, pre-images, rewind) cost.

#include "UpdateApplier.h"

namespace cdc::bench {

class StorageFloor final : public UpdateApplier {
public:
    explicit StorageFloor(Scd scd) : m_scd(scd) {}
    Status setUp(storage::Database& db) override;
    Status apply(storage::Database& db) override;
    /// SCD1: live keys; SCD2: history rows (it builds no versions).
    Result<std::int64_t> visibleRows(storage::Database& db) override;

private:
    Scd m_scd;
    std::int64_t m_checkpoint = 0; ///< last source rowid consumed
    std::int64_t m_update = 0;
};

} // namespace cdc::bench
