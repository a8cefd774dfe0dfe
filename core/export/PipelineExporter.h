#pragma once
/// Exports a pipeline as a project another engine deploys: planExport builds every file in memory (the GUI
/// previews them), writeExport puts them in a folder.

#include "core/export/ExportOptions.h"
#include "core/pipeline/Pipeline.h"
#include "core/storage/Database.h"

#include <string>

namespace cdc::exporting {

/// The pipeline to export: its file as the user wrote it (SQL or Python), and the model it parsed into.
struct ExportSource {
    std::string text;
    std::string file; ///< its name: `.py` means Python, anything else SQL
    pipeline::Pipeline pipeline;
    /// The project whose source tables go along (ExportOptions::csvData / insertData); may be null.
    storage::Database* data = nullptr;
};

/// The files of the export and its warnings. SQL is the pipeline text in canonical Databricks SQL
/// (sql::formatSql; a Python file through its static reading); Python is printPython of the model. A
/// pipeline that does not parse, or a Python file that only running can read, is an error.
Result<ExportPlan> planExport(const ExportSource& source, const ExportOptions& options);

/// Writes the plan under `folder` (created if missing). A folder that has anything in it is refused unless
/// `overwrite`; then the plan's files replace theirs and nothing else there is touched.
Result<ExportReport> writeExport(const ExportPlan& plan, const std::string& folder, bool overwrite);

/// The file name the pipeline gets under transformations/.
std::string transformationFile(const ExportOptions& options);

} // namespace cdc::exporting
