#pragma once
/// Source-side SQL in the GUI: scripts that create tables run as they are; scripts that write rows
/// can instead be captured as events for the queue (nothing reaches the tables until delivered).

#include "core/common/Diagnostic.h"
#include "core/storage/Database.h"
#include "ui/model/ProjectStore.h"

#include <QList>
#include <QString>

namespace cdc::ui {

class Project;
struct SampleInfo;

namespace sourcescripts {

/// Runs `script` in a savepoint that is rolled back, and returns the rows it added to source
/// tables, in table order then insertion order. Catalog changes are rolled back too.
Result<QList<QueuedEvent>> captureEvents(storage::Database& db, const QString& script, const QString& file);

/// A step for the queue: the whole script as one event (the next snapshot of a table, a correction, a
/// truncate), delivered by running it. It may only write rows of existing source tables; it is tried in
/// a rolled-back savepoint so an error shows now, at its position. Its label is its first comment line
/// (else its first line).
Result<QueuedEvent> captureStep(storage::Database& db, const QString& script, const QString& file);

/// Replaces the project by a sample: its source tables, its events and then its steps in the queue, its
/// pipeline text and explanation. The result is an untitled, unmodified project.
Status installSample(Project& project, const SampleInfo& sample);

} // namespace sourcescripts
} // namespace cdc::ui
