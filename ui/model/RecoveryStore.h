#pragma once
/// The recovery folder (AppLocalDataLocation/recovery): for each open project with unsaved changes, an
/// autosaved copy of its working copy `<id>.cdcstudio`, a sidecar `<id>.json` naming the original project
/// and the time, and `<id>.lock` held by the running instance. An entry whose lock nobody holds any more
/// (the instance crashed or was killed) can be recovered. Plain functions, like projectstore.

#include <QDateTime>
#include <QList>
#include <QString>

namespace cdc::ui {

/// One autosaved working copy.
struct RecoveryEntry {
    QString id;
    QString databasePath; ///< the autosaved copy
    QString originalPath; ///< the project file it belongs to; empty for an untitled project
    QString name;         ///< what the window called the project
    QDateTime savedAt;    ///< when the copy was written (UTC)
};

namespace recoverystore {

/// The folder (created on demand).
QString folder();
QString databasePath(const QString& id);
QString lockPath(const QString& id);
/// Writes the sidecar of `entry` (atomically).
bool writeSidecar(const RecoveryEntry& entry);
/// The entries left by instances that are no longer running, newest first.
QList<RecoveryEntry> recoverable();
/// Deletes an entry's copy and sidecar.
void remove(const QString& id);

} // namespace recoverystore
} // namespace cdc::ui
