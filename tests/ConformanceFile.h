#pragma once
/// Conformance cases reuse the verbatim seed files instead of copying them: a case folder holds either its
/// own `NAME` or `NAME.ref`, one line naming the shared file relative to tests/conformance/ (for example
/// `sql/seeds/001_create_sample_data.sql`). Used by every data-driven conformance test.

#include <algorithm>

#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QString>
#include <QStringList>

namespace cdc::test {

/// Path of `name` for the case in `caseDir`: its own file, else the file its `name.ref` names, else empty.
inline QString conformanceFile(const QString& caseDir, const QString& name) {
    const QDir dir(caseDir);
    if (dir.exists(name))
        return dir.filePath(name);
    QFile ref(dir.filePath(name + ".ref"));
    if (!ref.open(QIODevice::ReadOnly))
        return {};
    return QStringLiteral(CDC_TESTS_DIR "/conformance/") + QString::fromUtf8(ref.readAll()).trimmed();
}

/// The update before which a case's volume file (path relative to the case folder) arrives: N when the
/// case's `volumes.N` lists it (one path per line), else 1.
inline int volumeArrival(const QString& caseDir, const QString& relative) {
    const QDir dir(caseDir);
    for (const QString& list : dir.entryList({QStringLiteral("volumes.*")}, QDir::Files)) {
        QFile f(dir.filePath(list));
        if (f.open(QIODevice::ReadOnly) &&
            QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts).contains(relative))
            return list.section('.', 1).toInt();
    }
    return 1;
}

/// The last update before which a volume file arrives (0 when the case has no `Volumes/` folder).
inline int lastVolumeStep(const QString& caseDir) {
    int last = 0;
    for (QDirIterator it(caseDir + QStringLiteral("/Volumes"), QDir::Files, QDirIterator::Subdirectories);
         it.hasNext();) {
        QString relative = QDir(caseDir).relativeFilePath(it.next());
        if (relative.endsWith(QStringLiteral(".ref")))
            relative.chop(4);
        last = std::max(last, volumeArrival(caseDir, relative));
    }
    return last;
}

/// Copies the case's volume files that arrive before update `step` (its `Volumes/` folder; a `NAME.ref`
/// there stands for the shared file it names) into `root`, each last modified at `modified` so that
/// list_files and `_metadata` give the same times on every run. False when one cannot be copied.
inline bool copyVolumeFiles(const QString& caseDir, int step, const QString& root,
                            const QDateTime& modified) {
    for (QDirIterator it(caseDir + QStringLiteral("/Volumes"), QDir::Files, QDirIterator::Subdirectories);
         it.hasNext();) {
        QString relative = QDir(caseDir).relativeFilePath(it.next());
        if (relative.endsWith(QStringLiteral(".ref")))
            relative.chop(4);
        if (volumeArrival(caseDir, relative) != step)
            continue;
        const QString from =
            conformanceFile(QFileInfo(caseDir + '/' + relative).path(), QFileInfo(relative).fileName());
        const QString to = root + '/' + relative;
        if (from.isEmpty() || !QDir().mkpath(QFileInfo(to).path()) || !QFile::copy(from, to))
            return false;
        QFile copied(to);
        if (!copied.open(QIODevice::ReadWrite) ||
            !copied.setFileTime(modified, QFileDevice::FileModificationTime))
            return false;
    }
    return true;
}

} // namespace cdc::test
