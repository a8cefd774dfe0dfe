#include "ui/model/WorkingCopyFolder.h"

#include "core/storage/MemoryFolder.h"

#include <QDir>

namespace cdc::ui {

namespace {
const QString kPattern = QStringLiteral("cdcstudio-");
const QString kLockName = QStringLiteral("owner.lock");
} // namespace

WorkingCopyFolder::WorkingCopyFolder(const QString& templatePath, bool inMemory)
    : m_dir(templatePath), m_lock(m_dir.isValid() ? m_dir.filePath(kLockName) : QString()),
      m_inMemory(inMemory) {}

int WorkingCopyFolder::removeAbandoned(const QString& parent) {
    int removed = 0;
    const QDir dir(parent);
    for (const QString& name :
         dir.entryList({kPattern + QLatin1Char('*')}, QDir::Dirs | QDir::NoDotAndDotDot)) {
        QDir folder(dir.filePath(name));
        if (!folder.exists(kLockName))
            continue; // being made right now, or not ours
        // tryLock takes over a lock whose process is gone (QLockFile's stale-lock check), never a live one.
        QLockFile lock(folder.filePath(kLockName));
        lock.setStaleLockTime(0);
        if (!lock.tryLock(0))
            continue;
        lock.unlock();
        removed += folder.removeRecursively();
    }
    return removed;
}

std::unique_ptr<WorkingCopyFolder> WorkingCopyFolder::create(std::uint64_t databaseBytes,
                                                             const std::vector<std::string>& memoryFolders) {
    for (const std::string& candidate : memoryFolders)
        removeAbandoned(QString::fromStdString(candidate));
    removeAbandoned(QDir::tempPath());
    std::unique_ptr<WorkingCopyFolder> folder;
    if (auto memory = storage::memoryBackedFolder(storage::workingCopyRoom(databaseBytes), memoryFolders)) {
        folder.reset(new WorkingCopyFolder(
            QString::fromStdString(*memory) + QLatin1Char('/') + kPattern + QStringLiteral("XXXXXX"), true));
        if (folder->m_dir.isValid() && folder->m_lock.tryLock(0))
            return folder;
    }
    folder.reset(new WorkingCopyFolder(
        QDir::tempPath() + QLatin1Char('/') + kPattern + QStringLiteral("XXXXXX"), false));
    if (!folder->m_dir.isValid())
        return nullptr;
    folder->m_lock.tryLock(0); // on disk the folder is removed with the temporary files anyway
    return folder;
}

std::unique_ptr<WorkingCopyFolder> WorkingCopyFolder::create(std::uint64_t databaseBytes) {
    return create(databaseBytes, storage::memoryFolderCandidates());
}

} // namespace cdc::ui
