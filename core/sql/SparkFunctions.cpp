#include "core/sql/SqlApi.h"

namespace cdc::sql {
// Filled in by the SQL front end work; the connection hook exists from the start.
void registerSparkFunctions(sqlite3*) {}
} // namespace cdc::sql
