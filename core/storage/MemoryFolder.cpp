#include "core/storage/MemoryFolder.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

#ifdef __linux__
#include <linux/magic.h>
#include <sys/statfs.h>
#include <unistd.h>
#endif

namespace cdc::storage {

namespace {

#ifdef __linux__
/// MemAvailable of /proc/meminfo in bytes (what can be given to new pages without swapping); nullopt when
/// unreadable.
std::optional<std::uint64_t> memoryAvailable() {
    std::ifstream meminfo("/proc/meminfo");
    std::string line;
    while (std::getline(meminfo, line)) {
        if (line.rfind("MemAvailable:", 0) != 0)
            continue;
        std::istringstream fields(line.substr(13));
        std::uint64_t kib = 0;
        if (fields >> kib)
            return kib * 1024;
    }
    return std::nullopt;
}

bool ramBacked(const struct statfs& fs) {
    return static_cast<unsigned long>(fs.f_type) == TMPFS_MAGIC ||
           static_cast<unsigned long>(fs.f_type) == RAMFS_MAGIC;
}
#endif

} // namespace

std::vector<std::string> memoryFolderCandidates() {
    std::vector<std::string> folders;
    if (const char* runtime = std::getenv("XDG_RUNTIME_DIR"); runtime && *runtime)
        folders.emplace_back(runtime);
    folders.emplace_back("/dev/shm");
    return folders;
}

std::optional<std::string> memoryBackedFolder(std::uint64_t bytesNeeded,
                                              const std::vector<std::string>& candidates) {
#ifdef __linux__
    const auto available = memoryAvailable();
    if (!available || *available < bytesNeeded)
        return std::nullopt;
    std::optional<std::string> best;
    std::uint64_t bestFree = 0;
    for (const std::string& folder : candidates) {
        struct statfs fs {};
        if (statfs(folder.c_str(), &fs) != 0 || !ramBacked(fs) || access(folder.c_str(), W_OK | X_OK) != 0)
            continue;
        // ramfs reports no size: it grows until memory runs out, which MemAvailable already bounds.
        const std::uint64_t free =
            static_cast<unsigned long>(fs.f_type) == RAMFS_MAGIC
                ? *available
                : static_cast<std::uint64_t>(fs.f_bavail) * static_cast<std::uint64_t>(fs.f_bsize);
        if (free >= bytesNeeded && (!best || free > bestFree)) {
            best = folder;
            bestFree = free;
        }
    }
    return best;
#else
    (void)bytesNeeded;
    (void)candidates;
    return std::nullopt;
#endif
}

bool isMemoryBacked(const std::string& path) {
#ifdef __linux__
    struct statfs fs {};
    return statfs(path.c_str(), &fs) == 0 && ramBacked(fs);
#else
    (void)path;
    return false;
#endif
}

std::uint64_t workingCopyRoom(std::uint64_t databaseBytes) {
    return 2 * databaseBytes + (std::uint64_t(256) << 20);
}

} // namespace cdc::storage
