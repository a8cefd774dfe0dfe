#include "ui/model/AppInfo.h"
#include "ui/widgets/MainWindow.h"
#include "ui/widgets/ProjectController.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QTimer>

#include <cstdio>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(cdc::ui::AppInfo::name());
    QApplication::setOrganizationName(cdc::ui::AppInfo::organization());
    QApplication::setApplicationVersion(cdc::ui::AppInfo::version());
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/cdcstudio.svg")));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Design and simulate Databricks AUTO CDC pipelines offline."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("project"), QStringLiteral("A .cdcstudio project to open."), QStringLiteral("[project]"));
    const QCommandLineOption projectOption(QStringLiteral("project"), QStringLiteral("Open the project file P."), QStringLiteral("P"));
    const QCommandLineOption screenshotOption(QStringLiteral("screenshot"),
                                              QStringLiteral("Write a PNG of the main window to FILE and quit."), QStringLiteral("FILE"));
    parser.addOptions({projectOption, screenshotOption});
    parser.process(app);

    cdc::ui::MainWindow window;
    QString projectPath = parser.value(projectOption);
    if (projectPath.isEmpty() && !parser.positionalArguments().isEmpty())
        projectPath = parser.positionalArguments().first();
    if (!projectPath.isEmpty() && !window.projectController()->openFile(projectPath)) {
        std::fprintf(stderr, "error: cannot open '%s'\n", qPrintable(projectPath));
        if (parser.isSet(screenshotOption))
            return 1;
    }

    if (parser.isSet(screenshotOption)) {
        window.show();
        QApplication::processEvents();
        if (!window.grab().save(parser.value(screenshotOption))) {
            std::fprintf(stderr, "error: cannot write '%s'\n", qPrintable(parser.value(screenshotOption)));
            return 1;
        }
        return 0;
    }
    window.show();
    return QApplication::exec();
}
