#pragma once
/// Where a working copy (a scratch database: the project file and autosave keep the work, not the copy)
/// should live. In a RAM-backed folder (tmpfs) a dirty page costs a memory copy instead of a filesystem
/// write and its block bookkeeping; WAL keeps working there, so the update thread still writes while the
/// GUI reads. Measured on the benchmark: a 10,000-event SCD1 update on 1M events of history 188 → 107 ms,
/// the whole replay a quarter faster (docs/performance.md).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cdc::storage {

/// The RAM-backed folders to try, in order: $XDG_RUNTIME_DIR (the user's own, usually tmpfs), then
/// /dev/shm.
std::vector<std::string> memoryFolderCandidates();

/// Of the candidates that are RAM-backed filesystems (tmpfs, ramfs), writable, with at least `bytesNeeded`
/// free, the one with the most room (a tmpfs is often sized at a tenth of the memory, /dev/shm at half) —
/// when that much memory is available too (MemAvailable): nullopt when none is, or on systems without such
/// folders. A full tmpfs would fail updates, so callers ask for room to grow.
std::optional<std::string>
memoryBackedFolder(std::uint64_t bytesNeeded,
                   const std::vector<std::string>& candidates = memoryFolderCandidates());

/// Whether the file or folder at `path` is on a RAM-backed filesystem.
bool isMemoryBacked(const std::string& path);

/// Room a working copy of a `databaseBytes` database asks for: the copy, a WAL that may grow to its size
/// during one large update, and 256 MiB for what the session adds.
std::uint64_t workingCopyRoom(std::uint64_t databaseBytes);

} // namespace cdc::storage
