#pragma once
/// What a user would write without CDC Studio: SCD1 as an upsert that keeps the highest sequence per key
/// (deletes kept as flagged rows so that late events cannot resurrect a key), SCD2 recomputed after every
/// update from the whole event log with LEAD() over each key's history.

#include "UpdateApplier.h"

namespace cdc::bench {

class HandwrittenScd1 final : public UpdateApplier {
public:
    Status setUp(storage::Database& db) override;
    Status apply(storage::Database& db) override;
    Result<std::int64_t> visibleRows(storage::Database& db) override;

private:
    std::int64_t m_checkpoint = 0; ///< last source rowid consumed
};

class HandwrittenScd2 final : public UpdateApplier {
public:
    Status setUp(storage::Database& db) override;
    Status apply(storage::Database& db) override;
    Result<std::int64_t> visibleRows(storage::Database& db) override;
};

/// `SELECT count(*) FROM ...` style helper shared by the appliers.
Result<std::int64_t> queryInt(storage::Database& db, const std::string& sql);

} // namespace cdc::bench
