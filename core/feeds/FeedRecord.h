#pragma once
/// One change event read from a feed, in the terms every format maps onto: what happened (operation),
/// its place in the order of changes (sequence) and the row's values by field name.

#include "core/common/Value.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cdc::feeds {

/// The operations a flow tells apart. Their text (operationText) is what the samples' flows test:
/// `APPLY AS DELETE WHEN operation = "DELETE"`, `APPLY AS TRUNCATE WHEN operation = "TRUNCATE"`.
enum class Operation { Insert, Update, Delete, Truncate };

/// INSERT, UPDATE, DELETE, TRUNCATE.
std::string operationText(Operation op);

struct FeedRecord {
    /// Empty for plain CSV and JSON Lines, which carry no operation of their own.
    std::optional<Operation> operation;
    /// The format's sequence (Debezium's source.lsn or ts_ms, DMS's change sequence, Delta's
    /// _commit_version), or the record's ordinal (1, 2, ...) where the feed has none.
    Value sequence;
    /// The row's values in the order the record gives them.
    std::vector<std::pair<std::string, Value>> fields;
    std::size_t line = 0;     ///< 1-based line where the record begins
    std::uint64_t offset = 0; ///< byte offset where the record begins

    /// The value of field `name` (case-insensitive), or nullptr.
    const Value* field(const std::string& name) const;
};

} // namespace cdc::feeds
