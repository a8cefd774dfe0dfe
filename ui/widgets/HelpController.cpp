// Topics are keyed by the objectNames MainWindow gives its docks and toolbars, so help needs no
// pointers into the window; a widget with no topic falls back to the guide's contents.
#include "ui/widgets/HelpController.h"

#include "ui/widgets/HelpWindow.h"

#include <QAction>
#include <QApplication>
#include <QCursor>
#include <QHash>
#include <QMainWindow>

namespace cdc::ui {

namespace {
/// Parts of the main window by objectName (MainWindow's docks and the editor) and the guide page on them.
const QHash<QString, QString>& topics() {
    static const QHash<QString, QString> map{
        {QStringLiteral("pipelineEditor"), QStringLiteral("sql.html")},
        {QStringLiteral("infoDock"), QStringLiteral("getting-started.html#project-info")},
        {QStringLiteral("timelineDock"), QStringLiteral("timeline.html")},
        {QStringLiteral("designerDock"), QStringLiteral("sql.html#designer")},
        {QStringLiteral("inspectorDock"), QStringLiteral("sql.html#inspector")},
        {QStringLiteral("queueDock"), QStringLiteral("replay.html#event-queue")},
        {QStringLiteral("targetsDock"), QStringLiteral("results.html#target-tables")},
        {QStringLiteral("scd2Dock"), QStringLiteral("results.html#scd2-timeline")},
        {QStringLiteral("tombstonesDock"), QStringLiteral("tombstones.html")},
        {QStringLiteral("predictionDock"), QStringLiteral("predict.html")},
        {QStringLiteral("sourcesDock"), QStringLiteral("getting-started.html#sources")},
        {QStringLiteral("issuesDock"), QStringLiteral("sql.html#issues")},
        {QStringLiteral("logDock"), QStringLiteral("timeline.html#update-log")},
        {QStringLiteral("simulationToolBar"), QStringLiteral("replay.html#controls")},
        {QStringLiteral("mainToolBar"), QStringLiteral("getting-started.html#projects")},
    };
    return map;
}
} // namespace

HelpController::HelpController(QMainWindow* window)
    : QObject(window), m_window(window), m_userGuide(new QAction(tr("&User Guide"), this)) {
    m_userGuide->setShortcut(QKeySequence(Qt::Key_F1));
    m_userGuide->setToolTip(tr("Open the user guide at the part of the window you are working in (F1)"));
    m_userGuide->setStatusTip(tr("Open the user guide at the part of the window you are working in"));
    connect(m_userGuide, &QAction::triggered, this, &HelpController::showContextHelp);
}

HelpWindow* HelpController::helpWindow() {
    if (!m_help)
        m_help = new HelpWindow(m_window);
    return m_help;
}

QUrl HelpController::topicFor(const QWidget* widget) const {
    for (const QWidget* w = widget; w; w = w->parentWidget()) {
        if (const auto it = topics().constFind(w->objectName()); it != topics().constEnd())
            return HelpWindow::homeUrl().resolved(QUrl(it.value()));
        // The find bar and anything else around the editor belong to the SQL workbench.
        if (w == m_window->centralWidget())
            return HelpWindow::homeUrl().resolved(QUrl(topics().value(QStringLiteral("pipelineEditor"))));
        if (w == m_window)
            break;
    }
    return {};
}

void HelpController::showContextHelp() {
    QUrl topic = topicFor(QApplication::focusWidget());
    if (topic.isEmpty())
        topic = topicFor(QApplication::widgetAt(QCursor::pos()));
    helpWindow()->showTopic(topic.isEmpty() ? HelpWindow::homeUrl() : topic);
}

} // namespace cdc::ui
