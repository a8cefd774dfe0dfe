// The checks come in the order a user can act on them: a path that is not a volume path at all, then
// one that tries to climb out (`..`), then one that does not exist, then a symbolic link out of the folder.
#include "core/common/VolumeRoot.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <system_error>

namespace cdc {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kVolumes = "/Volumes/";

std::vector<std::string> segments(std::string_view path) {
    std::vector<std::string> out;
    std::size_t pos = 0;
    while (pos <= path.size()) {
        std::size_t end = path.find('/', pos);
        if (end == std::string_view::npos)
            end = path.size();
        if (end > pos)
            out.emplace_back(path.substr(pos, end - pos));
        pos = end + 1;
    }
    return out;
}

std::int64_t modificationMicros(const fs::path& p) {
    std::error_code ec;
    const auto t = fs::last_write_time(p, ec);
    if (ec)
        return 0;
    const auto sys = std::chrono::file_clock::to_sys(t);
    return std::chrono::duration_cast<std::chrono::microseconds>(sys.time_since_epoch()).count();
}

} // namespace

std::string timestampText(std::int64_t micros) {
    using namespace std::chrono;
    const sys_time<microseconds> t{microseconds{micros}};
    const auto day = floor<days>(t);
    const year_month_day ymd{day};
    const hh_mm_ss<microseconds> time{t - day};
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04d-%02u-%02u %02d:%02d:%02d", static_cast<int>(ymd.year()),
                  static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
                  static_cast<int>(time.hours().count()), static_cast<int>(time.minutes().count()),
                  static_cast<int>(time.seconds().count()));
    std::string out = buf;
    if (const auto fraction = time.subseconds().count()) {
        std::snprintf(buf, sizeof buf, ".%06lld", static_cast<long long>(fraction));
        out += buf;
    }
    return out;
}

Result<fs::path> VolumeRoot::resolve(std::string_view sparkPath, const SourceLocation& where) const {
    std::string_view path = sparkPath;
    if (path.substr(0, 5) == "dbfs:")
        path.remove_prefix(5);
    if (path.substr(0, kVolumes.size()) != kVolumes)
        return Diagnostic::error("PATH_OUTSIDE_VOLUMES",
                                 "'" + std::string(sparkPath) +
                                     "' is not a volume path: CDC Studio reads files only from "
                                     "/Volumes/<catalog>/<schema>/<volume>/...",
                                 where);
    const std::vector<std::string> parts = segments(path.substr(kVolumes.size()));
    if (std::any_of(parts.begin(), parts.end(), [](const std::string& s) { return s == "." || s == ".."; }))
        return Diagnostic::error("PATH_OUTSIDE_VOLUMES",
                                 "'" + std::string(sparkPath) +
                                     "' has a '.' or '..' segment; a volume path names its files from "
                                     "/Volumes/<catalog>/<schema>/<volume>/ down",
                                 where);
    if (parts.size() < 3)
        return Diagnostic::error(
            "INVALID_VOLUME_PATH",
            "'" + std::string(sparkPath) +
                "' does not name a volume: write /Volumes/<catalog>/<schema>/<volume>/...",
            where);
    if (empty())
        return Diagnostic::error("VOLUMES_FOLDER_NOT_SET",
                                 "no folder holds the volumes for '" + std::string(sparkPath) +
                                     "': save the project (its folder is the default), or choose one "
                                     "(--volumes DIR in the CLI, Project Settings in the app)",
                                 where);
    fs::path local = m_folder / "Volumes";
    for (const std::string& p : parts)
        local /= p; // POSIX paths are bytes: UTF-8 names pass through
    std::error_code ec;
    if (!fs::exists(local, ec))
        return Diagnostic::error("PATH_NOT_FOUND",
                                 "[PATH_NOT_FOUND] Path does not exist: " + std::string(sparkPath) +
                                     " (looked for " + local.string() + ")",
                                 where);
    if (!contains(fs::canonical(local, ec)) || ec)
        return Diagnostic::error("PATH_OUTSIDE_VOLUMES",
                                 "'" + std::string(sparkPath) + "' leads outside the volumes folder " +
                                     m_folder.string() +
                                     " through a symbolic link; nothing outside it is read",
                                 where);
    return local;
}

bool VolumeRoot::contains(const fs::path& local) const {
    std::error_code ec;
    const fs::path root = fs::canonical(m_folder, ec);
    if (ec || local.empty())
        return false;
    auto r = root.begin();
    auto l = local.begin();
    for (; r != root.end(); ++r, ++l)
        if (l == local.end() || *r != *l)
            return false;
    return true;
}

Result<VolumeRoot::Entry> VolumeRoot::entry(const fs::path& local, std::string path,
                                            const SourceLocation& where) const {
    std::error_code ec;
    const fs::path real = fs::canonical(local, ec);
    if (ec || !contains(real))
        return Diagnostic::error("PATH_OUTSIDE_VOLUMES",
                                 "'" + path + "' leads outside the volumes folder " + m_folder.string() +
                                     " through a symbolic link; nothing outside it is read",
                                 where);
    Entry e;
    e.local = local;
    e.folder = fs::is_directory(real, ec);
    e.name = local.filename().string();
    if (e.folder) {
        e.name += "/";
        if (path.empty() || path.back() != '/')
            path += "/";
    } else {
        e.size = static_cast<std::int64_t>(fs::file_size(real, ec));
    }
    e.path = std::move(path);
    e.modificationMicros = modificationMicros(real);
    return e;
}

Result<std::vector<VolumeRoot::Entry>> VolumeRoot::list(std::string_view sparkPath,
                                                        const SourceLocation& where) const {
    auto local = resolve(sparkPath, where);
    if (!local)
        return local.error();
    std::string base(sparkPath);
    if (base.substr(0, 5) == "dbfs:")
        base.erase(0, 5);
    std::error_code ec;
    std::vector<Entry> out;
    if (!fs::is_directory(*local, ec)) {
        auto one = entry(*local, base, where);
        if (!one)
            return one.error();
        out.push_back(std::move(one).value());
        return out;
    }
    if (base.back() != '/')
        base += "/";
    std::vector<fs::path> children;
    for (const auto& child : fs::directory_iterator(*local, ec)) {
        const std::string name = child.path().filename().string();
        if (!name.empty() && name[0] != '.' && name[0] != '_')
            children.push_back(child.path());
    }
    if (ec)
        return Diagnostic::error("PATH_NOT_FOUND", "cannot list " + base + ": " + ec.message(), where);
    std::sort(children.begin(), children.end(),
              [](const fs::path& a, const fs::path& b) { return a.filename() < b.filename(); });
    for (const fs::path& child : children) {
        auto one = entry(child, base + child.filename().string(), where);
        if (!one)
            return one.error();
        out.push_back(std::move(one).value());
    }
    return out;
}

} // namespace cdc
