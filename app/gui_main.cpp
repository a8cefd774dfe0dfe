#include "ui/model/AppInfo.h"
#include "ui/widgets/MainWindow.h"

#include <QApplication>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(cdc::ui::AppInfo::name());
    QApplication::setOrganizationName(cdc::ui::AppInfo::organization());
    QApplication::setApplicationVersion(cdc::ui::AppInfo::version());
    cdc::ui::MainWindow window;
    window.show();
    return QApplication::exec();
}
