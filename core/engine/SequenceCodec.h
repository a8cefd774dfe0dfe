#pragma once
/// Order-preserving storage of SEQUENCE BY values. SQLite compares INTEGER, REAL and TEXT natively in
/// the order Spark does for integral, floating, string and date sequences, so those are stored as they
/// are. Timestamps are canonicalised to fixed-width UTC text, and STRUCT sequences become one BLOB whose
/// byte order is the lexicographic field order, so a single indexed column orders every sequence type.

#include "core/common/DataType.h"

#include <string>
#include <string_view>
#include <vector>

struct sqlite3;

namespace cdc::engine {

/// Registers `cdc_seq_key(...)` (STRUCT encoding) and `cdc_ts_key(x)` (timestamp canon) on a connection.
void registerSequenceFunctions(sqlite3* db);

/// SQL that encodes one sequence field of the given Spark type for comparison.
std::string encodeFieldSql(const std::string& sql, const DataType& type);

/// SQL for the comparable key of a whole sequence (one field, or the STRUCT fields in order).
std::string encodeSequenceSql(const std::vector<std::string>& fieldSql, const std::vector<DataType>& types,
                              bool isStruct);

/// SQL for the value shown as __START_AT / __END_AT / __SEQUENCE (a STRUCT becomes a JSON object).
std::string displaySequenceSql(const std::vector<std::string>& fieldSql,
                               const std::vector<std::string>& names, bool isStruct);

/// Whether `bytes` is a STRUCT sequence key cdc_seq_key wrote: each field a tag (1 NULL, 2 number with its
/// 16 bytes, 3 text / 4 blob escaped up to a 0 0 end) and nothing after the last. A project file is checked
/// with it (engine::verifyProject): a key that does not decode would order events wrongly, silently.
bool validSequenceKey(std::string_view bytes);

/// Canonical `YYYY-MM-DD HH:MM:SS.ffffff` for a stored timestamp text; other text is returned unchanged.
std::string canonicalTimestamp(const std::string& text);

} // namespace cdc::engine
