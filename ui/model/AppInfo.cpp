// The version comes from CMake's project() through the generated CdcVersion.h, so it is kept out of the
// header: a new version recompiles this file only.
#include "ui/model/AppInfo.h"

#include "CdcVersion.h"

namespace cdc::ui {
QString AppInfo::version() {
    return QString::fromLatin1(cdc::kVersion);
}
} // namespace cdc::ui
