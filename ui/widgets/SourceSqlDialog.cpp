// Execute goes through Project::change, so a whole script is one undo step. Queue as Events captures
// rows only of tables that existed before the script ran, so it says so when it finds none.
#include "ui/widgets/SourceSqlDialog.h"

#include "core/sql/SqlApi.h"
#include "ui/model/Project.h"
#include "ui/model/SourceScripts.h"
#include "ui/model/ThemeColors.h"
#include "ui/widgets/CodeEditor.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace cdc::ui {

SourceSqlDialog::SourceSqlDialog(Project* project, QWidget* parent)
    : QDialog(parent), m_project(project), m_editor(new CodeEditor(this)), m_message(new QLabel(this)) {
    setWindowTitle(tr("Source SQL"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(
        tr("Spark SQL for the source side: CREATE SCHEMA, CREATE TABLE, INSERT, UPDATE, DELETE, "
           "TRUNCATE, DROP TABLE. <b>Queue as Events</b> puts the inserted rows in the event queue "
           "instead of the tables; <b>Queue as Step</b> queues the whole script as one event, such as the "
           "next snapshot of a table."),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    layout->addWidget(m_editor, 1);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_message);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto* queue = buttons->addButton(tr("Queue as Events"), QDialogButtonBox::ActionRole);
    auto* step = buttons->addButton(tr("Queue as Step"), QDialogButtonBox::ActionRole);
    step->setObjectName(QStringLiteral("queueAsStepButton"));
    step->setToolTip(
        tr("Deliver this whole script as one event, in queue order (Step runs it, then an update)"));
    auto* run = buttons->addButton(tr("Execute"), QDialogButtonBox::ActionRole);
    run->setDefault(true);
    connect(run, &QPushButton::clicked, this, [this] {
        if (execute())
            accept();
    });
    connect(queue, &QPushButton::clicked, this, [this] {
        if (queueAsEvents())
            accept();
    });
    connect(step, &QPushButton::clicked, this, [this] {
        if (queueAsStep())
            accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    m_editor->setText(
        QStringLiteral("CREATE TABLE my_source (id INT, value STRING, op STRING, seq BIGINT);\n"));
    resize(720, 420);
}

bool SourceSqlDialog::report(const Status& status) {
    if (status) {
        m_message->clear();
        m_editor->setDiagnostics({});
        return true;
    }
    m_message->setText(QStringLiteral("<span style='color:%1'>%2</span>")
                           .arg(themecolors::error(palette()).name(),
                                QString::fromStdString(status.error().format()).toHtmlEscaped()));
    m_editor->setDiagnostics({status.error()});
    m_editor->goToLocation(status.error().location);
    return false;
}

storage::QueryGuard SourceSqlDialog::guardScript() {
    // What is typed here may never end (a recursive CTE): it runs on the GUI thread, so under a short limit.
    return storage::QueryGuard(m_project->db(), "source SQL", {Project::kScriptTimeout, nullptr});
}

bool SourceSqlDialog::execute() {
    const std::string text = m_editor->text().toStdString();
    const auto guard = guardScript();
    return report(guard.explain(m_project->change(tr("Run source SQL"), [&text](storage::Database& db) {
        return sql::executeSourceScript(db, text, "source.sql");
    })));
}

bool SourceSqlDialog::queueAsEvents() {
    const auto guard = guardScript();
    auto events = guard.explain(
        sourcescripts::captureEvents(m_project->db(), m_editor->text(), QStringLiteral("source.sql")));
    if (!events)
        return report(events.error());
    if (events->isEmpty())
        return report(Diagnostic::error("NO_ROWS", "the SQL inserts no rows into existing source tables"));
    return report(m_project->appendEvents(*events, tr("Queue %n event(s)", nullptr, int(events->size()))));
}

bool SourceSqlDialog::queueAsStep() {
    const auto guard = guardScript();
    auto step = guard.explain(
        sourcescripts::captureStep(m_project->db(), m_editor->text(), QStringLiteral("source.sql")));
    if (!step)
        return report(step.error());
    return report(m_project->appendEvents({*step}, tr("Queue step")));
}

} // namespace cdc::ui
