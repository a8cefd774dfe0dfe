#pragma once
/// Conformance cases reuse the verbatim seed files instead of copying them: a case folder holds either its
/// own `NAME` or `NAME.ref`, one line naming the shared file relative to tests/conformance/ (for example
/// `sql/seeds/001_create_sample_data.sql`). Used by every data-driven conformance test.

#include <QDir>
#include <QFile>
#include <QString>

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

} // namespace cdc::test
