#pragma once
/// Product facts in one place, so the title bar, the About dialog and QSettings (organization and
/// application name) cannot disagree.

#include <QString>

namespace cdc::ui {
/// Product facts shown in the title bar and the About dialog.
struct AppInfo {
    static QString name() { return QStringLiteral("CDC Studio"); }
    static QString version();
    static QString organization() { return QStringLiteral("CDCStudio"); }
};
} // namespace cdc::ui
