#pragma once
/// Source tables and rows are test data, not pipeline, so they get their own SQL box and the editor
/// holds only what Databricks would run. Queue as Events lets one script seed the queue, not the tables;
/// Queue as Step queues the whole script as one event (the next snapshot of a table, say).

#include "core/common/Diagnostic.h"
#include "core/storage/Database.h"

#include <QDialog>

#include <functional>

class QLabel;

namespace cdc::ui {

class CodeEditor;
class Project;

/// Runs source-side Spark SQL against the project (CREATE SCHEMA / TABLE, INSERT...): either
/// executed as is, or with the rows it inserts captured into the event queue instead.
class SourceSqlDialog : public QDialog {
    Q_OBJECT
public:
    SourceSqlDialog(Project* project, QWidget* parent = nullptr);
    CodeEditor* editor() const { return m_editor; }
    /// Executes the text; rows written go straight to the tables. Undoable. False on error (shown).
    bool execute();
    /// Runs the text in a rolled-back savepoint and queues the rows it would insert. Undoable.
    bool queueAsEvents();
    /// Checks the text in a rolled-back savepoint and queues it whole as one step. Undoable.
    bool queueAsStep();

private:
    /// Runs `work` on a connection of its own to the working copy, on a worker thread, while a progress
    /// dialog with Cancel waits (shown when it takes longer than a moment): what is typed here may take long
    /// (a million-row INSERT) or never end (a join without a condition). The project is busy meanwhile, so
    /// nothing else writes it.
    template <class R> R runCancellable(const QString& label, std::function<R(storage::Database&)> work);
    bool report(const Status& status);
    Project* m_project;
    CodeEditor* m_editor;
    QLabel* m_message;
};

} // namespace cdc::ui
