#pragma once
/// Where Unity Catalog volume paths lead on this machine. A pipeline reads files by their Databricks path,
/// `/Volumes/<catalog>/<schema>/<volume>/...`; CDC Studio maps it to `<folder>/Volumes/<catalog>/<schema>/
/// <volume>/...` under one local folder (by default the one holding the project file, `--volumes DIR` in
/// the CLI, the project's Volumes setting in the app) and reads nothing outside that folder.
///
/// Used by read_files / list_files (core/storage/FileTableFunctions) and meant for anything else that
/// takes a volume path (the Python pipelines' `spark.read...load(path)` and `dbutils.fs.ls`).

#include "core/common/Diagnostic.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace cdc {

class VolumeRoot {
public:
    /// No folder: every volume path is refused with VOLUMES_FOLDER_NOT_SET.
    VolumeRoot() = default;
    explicit VolumeRoot(std::filesystem::path folder) : m_folder(std::move(folder)) {}

    bool empty() const { return m_folder.empty(); }
    const std::filesystem::path& folder() const { return m_folder; }

    /// The local file or folder `sparkPath` names (`dbfs:/Volumes/...` is accepted too). Refused, with an
    /// error at `where`: a path that is not under /Volumes/<catalog>/<schema>/<volume> (PATH_OUTSIDE_VOLUMES,
    /// INVALID_VOLUME_PATH), a `.` or `..` segment, a symbolic link that leads outside the folder
    /// (PATH_OUTSIDE_VOLUMES), a path that does not exist (PATH_NOT_FOUND).
    Result<std::filesystem::path> resolve(std::string_view sparkPath, const SourceLocation& where = {}) const;

    /// One file or folder as `list` reports it.
    struct Entry {
        std::filesystem::path local;
        std::string path; ///< the volume path (`/Volumes/...`; a folder's ends with `/`)
        std::string name; ///< the last segment (a folder's ends with `/`)
        bool folder = false;
        std::int64_t size = 0;               ///< bytes; 0 for a folder
        std::int64_t modificationMicros = 0; ///< last modification, microseconds since the epoch (UTC)
    };
    /// What `sparkPath` holds, as Databricks' LIST and `dbutils.fs.ls` show it: the entries of a folder
    /// (not recursive; names starting with `.` or `_` left out, as Spark's file readers skip them) sorted
    /// by name, or the one file it names. An entry that is a symbolic link out of the folder is refused.
    Result<std::vector<Entry>> list(std::string_view sparkPath, const SourceLocation& where = {}) const;

private:
    /// Whether `local` (canonical) lies inside the canonical folder.
    bool contains(const std::filesystem::path& local) const;
    Result<Entry> entry(const std::filesystem::path& local, std::string path,
                        const SourceLocation& where) const;

    std::filesystem::path m_folder;
};

/// A TIMESTAMP as the storage convention writes it: 'YYYY-MM-DD HH:MM:SS' plus '.ffffff' for a fraction.
std::string timestampText(std::int64_t microsSinceEpoch);

} // namespace cdc
