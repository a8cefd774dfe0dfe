#pragma once
/// The project's key/value settings (`__cdc_project`): the pipeline text, the simulated clock, the
/// sample it came from. They live in core because the CLI writes them too: `cdcstudio-cli update`
/// records the pipeline it ran, so the app opens a CLI-made database with that pipeline in its editor.

#include "core/common/Diagnostic.h"
#include "core/storage/Database.h"

#include <optional>
#include <string>
#include <string_view>

namespace cdc::storage::projectsettings {

inline constexpr const char* kPipelineKey = "pipeline.sql";
/// The language of the pipeline text: "python" for a Python pipeline file; absent or "sql": pipeline SQL.
inline constexpr const char* kPipelineLanguageKey = "pipeline.language";
inline constexpr const char* kClockKey = "clock";            ///< simulated time, epoch seconds
inline constexpr const char* kClockTickKey = "clock.tick";   ///< seconds the clock moves per update
inline constexpr const char* kClockStartKey = "clock.start"; ///< the clock before the first update
inline constexpr const char* kReadmeKey = "readme.md";
inline constexpr const char* kSampleKey = "sample.id";
/// The folder whose Volumes/ the project's `/Volumes/...` paths lead into (read_files, list_files); absent
/// or empty: the folder of the project file.
inline constexpr const char* kVolumesKey = "volumes.folder";

/// Creates `__cdc_project` when missing (idempotent).
Status ensureSchema(Database& db);

/// The value of `key`; empty when the key or the whole table is missing.
std::optional<std::string> value(const Database& db, std::string_view key);
/// Inserts or replaces `key` (creates the table when missing).
Status setValue(Database& db, std::string_view key, std::string_view value);

} // namespace cdc::storage::projectsettings
