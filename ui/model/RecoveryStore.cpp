// The sidecar is what makes an entry: a copy without one (a crash between the two writes) is never offered.
// A live instance holds its entry's QLockFile, so a second window or instance does not offer, nor let
// anyone discard, work that is still open elsewhere.
#include "ui/model/RecoveryStore.h"

#include "ui/model/AtomicSave.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLockFile>
#include <QSaveFile>
#include <QStandardPaths>

#include <algorithm>

namespace cdc::ui::recoverystore {

namespace {
QString sidecarPath(const QString& id) {
    return QDir(folder()).filePath(id + QStringLiteral(".json"));
}

/// True when no running instance holds the entry's lock (a lock of a dead process is stale and taken).
bool isAbandoned(const QString& id) {
    QLockFile lock(lockPath(id));
    // Age alone must not make a lock stale: a session may stay open for days.
    lock.setStaleLockTime(0);
    return lock.tryLock(0);
}
} // namespace

QString folder() {
    const QString path =
        QDir(QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation)).filePath("recovery");
    QDir().mkpath(path);
    return path;
}

QString databasePath(const QString& id) {
    return QDir(folder()).filePath(id + QStringLiteral(".cdcstudio"));
}

QString lockPath(const QString& id) {
    return QDir(folder()).filePath(id + QStringLiteral(".lock"));
}

bool writeSidecar(const RecoveryEntry& entry) {
    const QJsonObject json{{"originalPath", entry.originalPath},
                           {"name", entry.name},
                           {"savedAt", entry.savedAt.toUTC().toString(Qt::ISODateWithMs)}};
    QSaveFile file(sidecarPath(entry.id));
    return file.open(QIODevice::WriteOnly) && file.write(QJsonDocument(json).toJson()) >= 0 && file.commit();
}

QList<RecoveryEntry> recoverable() {
    QList<RecoveryEntry> entries;
    const QFileInfoList sidecars =
        QDir(folder()).entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Time);
    for (const QFileInfo& sidecar : sidecars) {
        const QString id = sidecar.completeBaseName();
        QFile file(sidecar.filePath());
        if (!QFileInfo(databasePath(id)).isFile() || !file.open(QIODevice::ReadOnly) || !isAbandoned(id))
            continue;
        const QJsonObject json = QJsonDocument::fromJson(file.readAll()).object();
        entries.append({id, databasePath(id), json.value("originalPath").toString(),
                        json.value("name").toString(),
                        QDateTime::fromString(json.value("savedAt").toString(), Qt::ISODateWithMs)});
    }
    std::sort(entries.begin(), entries.end(),
              [](const RecoveryEntry& a, const RecoveryEntry& b) { return a.savedAt > b.savedAt; });
    return entries;
}

void remove(const QString& id) {
    const QString database = databasePath(id);
    for (const QString& path : {database, atomicsave::temporaryPathFor(database), sidecarPath(id)})
        QFile::remove(path);
}

} // namespace cdc::ui::recoverystore
