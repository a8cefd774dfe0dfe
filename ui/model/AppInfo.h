#pragma once
#include <QString>

namespace cdc::ui {
/// Product facts shown in the title bar and the About dialog.
struct AppInfo {
    static QString name() { return QStringLiteral("CDC Studio"); }
    static QString version();
    static QString organization() { return QStringLiteral("CDCStudio"); }
};
} // namespace cdc::ui
