// The temporary name is fixed (not random) so that a stale one from a crash is found and replaced rather
// than accumulating, and so that a save fails cleanly when it cannot be created at all.
#include "ui/model/AtomicSave.h"

#include "core/storage/Backup.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStringList>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace cdc::ui::atomicsave {

namespace {

Diagnostic ioError(const QString& what, const QString& path) {
    return Diagnostic::error("IO",
                             what.toStdString() + " '" + path.toStdString() + "': " + std::strerror(errno));
}

/// Flushes a file or a directory (the rename itself lives in the directory) to the disk.
Status syncPath(const QString& path, bool directory) {
    const int fd = ::open(QFile::encodeName(path).constData(), directory ? O_RDONLY | O_DIRECTORY : O_RDWR);
    if (fd < 0)
        return ioError(QStringLiteral("cannot open"), path);
    const int rc = ::fsync(fd);
    ::close(fd);
    if (rc != 0)
        return ioError(QStringLiteral("cannot flush"), path);
    return {};
}

/// The temporary file and the files SQLite may keep beside it.
QStringList temporaryFiles(const QString& temp) {
    return {temp, temp + QStringLiteral("-journal"), temp + QStringLiteral("-wal"),
            temp + QStringLiteral("-shm")};
}

QString absolute(const QString& path) {
    return QFileInfo(path).absoluteFilePath();
}

} // namespace

QString temporaryPathFor(const QString& targetPath) {
    const QFileInfo target(targetPath);
    return target.absoluteDir().filePath(QStringLiteral(".%1.saving").arg(target.fileName()));
}

Result<storage::Database> begin(const QString& targetPath) {
    const QString target = absolute(targetPath);
    if (QFileInfo(target).isDir())
        return Diagnostic::error("IO", "'" + target.toStdString() + "' is a folder");
    const QString temp = temporaryPathFor(target);
    // Leftovers of an interrupted save (and their journal) would otherwise be read as a database.
    for (const QString& stale : temporaryFiles(temp))
        if (QFileInfo(stale).isFile() && !QFile::remove(stale))
            return ioError(QStringLiteral("cannot remove the stale temporary file"), stale);
    if (QFileInfo::exists(temp))
        return Diagnostic::error("IO", "cannot create the temporary file '" + temp.toStdString() +
                                           "': something else is in its place");
    auto copy = storage::Database::open(temp.toStdString(), storage::Database::Mode::ReadWriteCreate);
    if (!copy)
        return copy.error();
    return copy;
}

Status commit(storage::Database copy, const QString& targetPath) {
    const QString target = absolute(targetPath);
    const QString temp = temporaryPathFor(target);
    // The pages came with the working copy's WAL flag: the saved file is a single rollback-journal file.
    if (auto st = copy.exec("PRAGMA journal_mode = DELETE"); !st) {
        { storage::Database closing = std::move(copy); }
        cancel(target);
        return st;
    }
    // Closed before the flush and the rename: no connection may see the file move under it.
    { storage::Database closing = std::move(copy); }
    if (QFileInfo::exists(target))
        QFile::setPermissions(temp, QFile::permissions(target));
    Status written = syncPath(temp, false);
    if (written &&
        std::rename(QFile::encodeName(temp).constData(), QFile::encodeName(target).constData()) != 0)
        written = ioError(QStringLiteral("cannot replace"), target);
    if (!written) {
        cancel(target);
        return written;
    }
    return syncPath(QFileInfo(target).absolutePath(), true);
}

void cancel(const QString& targetPath) {
    for (const QString& file : temporaryFiles(temporaryPathFor(absolute(targetPath))))
        QFile::remove(file);
}

Status writeCopy(storage::Database& from, const QString& targetPath,
                 const std::function<Status(storage::Database&)>& finish) {
    auto copy = begin(targetPath);
    if (!copy)
        return copy.error();
    Status filled = storage::copyDatabase(from, *copy);
    if (filled && finish)
        filled = finish(*copy);
    if (!filled) {
        { storage::Database closing = std::move(copy).value(); }
        cancel(targetPath);
        return filled;
    }
    return commit(std::move(copy).value(), targetPath);
}

} // namespace cdc::ui::atomicsave
