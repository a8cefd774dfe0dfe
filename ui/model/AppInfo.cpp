// The version comes from CMake's project() through the CDC_VERSION definition on cdcuimodel, so it
// is kept out of the header.
#include "ui/model/AppInfo.h"

namespace cdc::ui {
QString AppInfo::version() {
    return QStringLiteral(CDC_VERSION);
}
} // namespace cdc::ui
