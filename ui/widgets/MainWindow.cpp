#include "ui/widgets/MainWindow.h"

#include "ui/model/AppInfo.h"

namespace cdc::ui {
MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(AppInfo::name());
    resize(1280, 800);
}
} // namespace cdc::ui
