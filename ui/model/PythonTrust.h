#pragma once
/// Which Python pipeline files the user trusts to run. A Python pipeline is a program: opening one never
/// runs it, and the first run asks (like an editor's workspace trust). The answer is remembered per file —
/// the project file, or the .py file a project was opened from — in the user's settings, never in the
/// project, so a file someone sent cannot declare itself trusted.

#include <QString>
#include <QStringList>

namespace cdc::ui::pythontrust {

/// The name a file is remembered by: its canonical absolute path (symbolic links resolved), so two ways
/// of naming one file share one answer. Empty for an empty path.
QString keyFor(const QString& filePath);
/// True when the user chose to trust `filePath` (and has not withdrawn it since).
bool isTrusted(const QString& filePath);
/// Remembers that the user trusts `filePath`.
void trust(const QString& filePath);
/// Forgets `filePath`: the next run asks again.
void forget(const QString& filePath);
/// Every remembered file, as keys.
QStringList trustedFiles();

} // namespace cdc::ui::pythontrust
