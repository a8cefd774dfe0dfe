// Kept in QSettings (the user's configuration), keyed by canonical path: the decision belongs to the
// person at this computer, not to the file.
#include "ui/model/PythonTrust.h"

#include <QFileInfo>
#include <QSettings>

namespace cdc::ui::pythontrust {

namespace {
const QString kSettingsKey = QStringLiteral("trust/pythonFiles");

void store(const QStringList& files) {
    QSettings().setValue(kSettingsKey, files);
}
} // namespace

QString keyFor(const QString& filePath) {
    if (filePath.isEmpty())
        return {};
    const QFileInfo info(filePath);
    const QString canonical = info.canonicalFilePath();
    // A file not written yet (Save As to a new name) has no canonical path: its absolute one will be.
    return canonical.isEmpty() ? info.absoluteFilePath() : canonical;
}

QStringList trustedFiles() {
    return QSettings().value(kSettingsKey).toStringList();
}

bool isTrusted(const QString& filePath) {
    const QString key = keyFor(filePath);
    return !key.isEmpty() && trustedFiles().contains(key);
}

void trust(const QString& filePath) {
    const QString key = keyFor(filePath);
    QStringList files = trustedFiles();
    if (key.isEmpty() || files.contains(key))
        return;
    files << key;
    store(files);
}

void forget(const QString& filePath) {
    QStringList files = trustedFiles();
    if (files.removeAll(keyFor(filePath)) > 0)
        store(files);
}

} // namespace cdc::ui::pythontrust
