#pragma once
/// Importing a change feed in the GUI: the rows go to the event queue, not straight into the source table,
/// as every row a user adds does (they reach the table when the simulation delivers them), and the whole
/// import — the table it may create included — is one undoable change of the project.

#include "core/feeds/FeedImporter.h"

#include <QString>

namespace cdc::ui {

class Project;

namespace feedimport {

/// Imports the feed at `path` into the event queue of `table` (created from the mapping when missing) as one
/// undoable step, "Import Feed into TABLE". On any error, a cancel included, nothing changes.
Result<feeds::ImportReport> importIntoQueue(Project& project, const QString& path, feeds::FeedFormat format,
                                            const feeds::ReaderOptions& options, const QString& table,
                                            const feeds::FeedMapping& mapping,
                                            const feeds::ImportProgress& progress = {});

/// The status bar's sentence: "Imported 1,234 events into users (12 Kafka tombstones skipped)".
QString reportText(const feeds::ImportReport& report);

/// The first `limit` records of the file at `path` (a missing file is an error in the preview).
feeds::FeedPreview preview(const QString& path, feeds::FeedFormat format, const feeds::ReaderOptions& options,
                           std::size_t limit);

/// The format of the file at `path`, from its first 64 KiB.
feeds::FeedFormat detect(const QString& path);

} // namespace feedimport
} // namespace cdc::ui
