#pragma once
/// Saving a database to a file so that the file is always either the old one or the complete new one:
/// the copy goes to a temporary file beside the target, is flushed to disk, and then renamed over it.
/// A failed or interrupted save leaves the previous file byte for byte as it was.

#include "core/common/Diagnostic.h"
#include "core/storage/Database.h"

#include <QString>

#include <functional>

namespace cdc::ui::atomicsave {

/// The temporary file a save to `targetPath` writes first (beside it, so the rename stays on one file
/// system). A file left there by an interrupted save is replaced by the next one.
QString temporaryPathFor(const QString& targetPath);

/// Opens a new, empty temporary database for a save to `targetPath`. Fill it, then commit() or cancel().
Result<storage::Database> begin(const QString& targetPath);
/// Sets `copy` to journal mode DELETE (the saved file is a single file), closes it, flushes it to disk and
/// renames it over `targetPath`; on failure cancels.
Status commit(storage::Database copy, const QString& targetPath);
/// Closes `copy` (if any) and deletes the temporary file; `targetPath` is not touched.
void cancel(const QString& targetPath);

/// begin(), every page of `from`, `finish` (which may still change the copy), commit().
/// `from` is only read.
Status writeCopy(storage::Database& from, const QString& targetPath,
                 const std::function<Status(storage::Database&)>& finish = {});

} // namespace cdc::ui::atomicsave
