#include "ui/model/AppInfo.h"

namespace cdc::ui {
QString AppInfo::version() { return QStringLiteral(CDC_VERSION); }
} // namespace cdc::ui
