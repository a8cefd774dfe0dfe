#pragma once
/// The folder a project's working copy lives in, for as long as the project is open: in a RAM-backed folder
/// when one has room for it (storage/MemoryFolder.h: every update then writes at memory speed), else in the
/// temporary folder. A lock file names the owning process, so the next start removes the folders of a
/// session that crashed — in RAM they would otherwise hold memory until the machine restarts, on disk a copy
/// of the project each (the work itself is in the recovery folder: Autosave).

#include <QLockFile>
#include <QString>
#include <QTemporaryDir>

#include <cstdint>
#include <memory>
#include <vector>

namespace cdc::ui {

class WorkingCopyFolder {
public:
    /// A fresh folder for a working copy of a `databaseBytes` database (0: a new project); nullptr when no
    /// folder could be made. Removes the folders crashed sessions left in `memoryFolders` and in the
    /// temporary folder first.
    static std::unique_ptr<WorkingCopyFolder> create(std::uint64_t databaseBytes,
                                                     const std::vector<std::string>& memoryFolders);
    static std::unique_ptr<WorkingCopyFolder> create(std::uint64_t databaseBytes);

    /// Folders of the form `cdcstudio-*` in `parent` whose lock file is stale (its process is gone) are
    /// removed with what they hold; folders without a lock file, or whose owner lives, are left alone.
    /// Returns how many were removed.
    static int removeAbandoned(const QString& parent);

    QString filePath(const QString& name) const { return m_dir.filePath(name); }
    QString path() const { return m_dir.path(); }
    bool inMemory() const { return m_inMemory; }

private:
    WorkingCopyFolder(const QString& templatePath, bool inMemory);

    QTemporaryDir m_dir;
    QLockFile m_lock;
    bool m_inMemory;
};

} // namespace cdc::ui
