// cdcstudio: argument handling only; the work is done by the window's controllers. --sample, --step,
// --show-dock and --screenshot exist so any state can be pictured from the command line (docs, reviews),
// with the default layout so the pictures are reproducible. Exit status: 0 success, 1 error, 2 wrong usage.
#include "core/python/PythonRunner.h"
#include "core/sql/SqlApi.h"
#include "ui/model/AppInfo.h"
#include "ui/model/Autosave.h"
#include "ui/model/SampleLibrary.h"
#include "ui/model/TerminationSignals.h"
#include "ui/widgets/MainWindow.h"
#include "ui/widgets/ProjectController.h"
#include "ui/widgets/SimulationController.h"
#include "ui/widgets/ThemeManager.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QTimer>

#include <cstdio>
#include <utility>

int main(int argc, char** argv) {
    // The Python worker: this program started again to run one pipeline file (core/python/PythonRunner.h).
    if (argc == 2 && argv[1] == cdc::python::kWorkerFlag)
        return cdc::python::runPythonWorker();
    cdc::sql::installSparkFunctions(); // on every connection, before the project's is opened
    QApplication app(argc, argv);
    QApplication::setApplicationName(cdc::ui::AppInfo::name());
    QApplication::setOrganizationName(cdc::ui::AppInfo::organization());
    QApplication::setApplicationVersion(cdc::ui::AppInfo::version());
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/cdcstudio.svg")));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Design and simulate Databricks AUTO CDC pipelines offline."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(
        QStringLiteral("project"),
        QStringLiteral("A .cdcstudio project, or a pipeline file (.sql, .py) to open."),
        QStringLiteral("[project]"));
    const QCommandLineOption projectOption(QStringLiteral("project"),
                                           QStringLiteral("Open the project file P."), QStringLiteral("P"));
    const QCommandLineOption screenshotOption(
        QStringLiteral("screenshot"), QStringLiteral("Write a PNG of the main window to FILE and quit."),
        QStringLiteral("FILE"));
    const QCommandLineOption sampleOption(QStringLiteral("sample"),
                                          QStringLiteral("Open the sample project ID (%1).")
                                              .arg(cdc::ui::samplelibrary::ids().join(QLatin1String(", "))),
                                          QStringLiteral("ID"));
    const QCommandLineOption stepOption(QStringLiteral("step"),
                                        QStringLiteral("Deliver N events, one update each, before showing."),
                                        QStringLiteral("N"));
    const QCommandLineOption dockOption(
        QStringLiteral("show-dock"),
        QStringLiteral(
            "Bring the dock NAME to the front: scd2Dock (the SCD2 timeline), timelineDock (the update "
            "timeline), designerDock (the pipeline graph), targetsDock, tombstonesDock, queueDock, "
            "sourcesDock, issuesDock, logDock, infoDock."),
        QStringLiteral("NAME"));
    const QCommandLineOption themeOption(
        QStringLiteral("theme"), QStringLiteral("Use the light, dark or system theme for this run only."),
        QStringLiteral("THEME"));
    parser.addOptions({projectOption, sampleOption, stepOption, screenshotOption, dockOption, themeOption});
    parser.process(app);

    cdc::ui::MainWindow window;
    // A kill, logout or shutdown ends the session through the event loop: the unsaved work is kept for
    // recovery and the working copy (in RAM when there was room) is removed with the window.
    cdc::ui::TerminationSignals terminationSignals;
    int terminatedBy = 0; // a signal that came while a nested event loop ran (opening a large project)
    QObject::connect(&terminationSignals, &cdc::ui::TerminationSignals::received, &window,
                     [&window, &terminatedBy](int signalNumber) {
                         if (std::exchange(terminatedBy, signalNumber))
                             return;
                         window.endSessionKeepingWork();
                         QCoreApplication::exit(128 + signalNumber);
                     });
    // An unknown dock name is a typo to report, not something to ignore silently.
    for (const QString& dock : parser.values(dockOption))
        if (!window.dock(dock)) {
            std::fprintf(stderr, "error: no dock '%s' (docks: %s)\n", qPrintable(dock),
                         qPrintable(window.dockNames().join(QLatin1String(", "))));
            return 2;
        }
    if (parser.isSet(themeOption)) {
        const auto theme = cdc::ui::ThemeManager::fromName(parser.value(themeOption));
        if (!theme) {
            std::fprintf(stderr, "error: --theme takes light, dark or system\n");
            return 2;
        }
        cdc::ui::ThemeManager::instance()->setTheme(*theme, false);
    }
    QString projectPath = parser.value(projectOption);
    if (projectPath.isEmpty() && !parser.positionalArguments().isEmpty())
        projectPath = parser.positionalArguments().first();
    // The window is up before a project is copied into its working copy: a large one shows its progress
    // there, with Cancel. A screenshot shows the window only once it is complete.
    if (!parser.isSet(screenshotOption))
        window.show();
    if (!projectPath.isEmpty() && !window.projectController()->openFile(projectPath)) {
        std::fprintf(stderr, "error: cannot open '%s'\n", qPrintable(projectPath));
        if (parser.isSet(screenshotOption))
            return 1;
    }

    if (parser.isSet(sampleOption) && !window.projectController()->openSample(parser.value(sampleOption))) {
        std::fprintf(stderr, "error: no sample '%s' (samples: %s)\n", qPrintable(parser.value(sampleOption)),
                     qPrintable(cdc::ui::samplelibrary::ids().join(QLatin1String(", "))));
        return 2;
    }
    bool stepsOk = true;
    const int steps = parser.value(stepOption).toInt(&stepsOk);
    if (parser.isSet(stepOption) && (!stepsOk || steps < 0)) {
        std::fprintf(stderr, "error: --step needs a number of events\n");
        return 2;
    }
    for (int i = 0; parser.isSet(stepOption) && i < steps; ++i) {
        if (!window.simulation()->step())
            break;
        window.simulation()->waitForFinished();
    }
    if (parser.isSet(screenshotOption)) {
        // Screenshots are reproducible: the default layout and size, not the user's saved ones.
        window.resetLayout();
        window.resize(1440, 900);
    }
    for (const QString& dock : parser.values(dockOption))
        window.raiseDock(dock);

    if (parser.isSet(screenshotOption)) {
        // A picture is no session: nothing it changed is left in the recovery folder.
        window.autosave()->discard();
        window.show();
        QApplication::processEvents();
        if (!window.grab().save(parser.value(screenshotOption))) {
            std::fprintf(stderr, "error: cannot write '%s'\n", qPrintable(parser.value(screenshotOption)));
            return 1;
        }
        return 0;
    }
    if (terminatedBy)
        return 128 + terminatedBy;
    window.show();
    // Work a crashed session left behind is offered once the window is up.
    QTimer::singleShot(0, &window, [&window] { window.offerRecovery(); });
    return QApplication::exec();
}
