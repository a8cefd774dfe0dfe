#pragma once
/// What an export writes (a Databricks Asset Bundle or an Apache Spark Declarative Pipelines project, in SQL
/// or Python, with or without the source data) and what it gives back: the files, planned in memory first so
/// the GUI can preview them, and the warnings, each at its position in the pipeline text.

#include "core/common/Diagnostic.h"

#include <string>
#include <vector>

namespace cdc::exporting {

enum class ExportKind {
    Bundle, ///< databricks.yml + resources/<name>.pipeline.yml + transformations/, for `databricks bundle
            ///< deploy`
    Spark,  ///< spark-pipeline.yml + transformations/, for open-source `spark-pipelines run`
};

enum class ExportLanguage { Sql, Python };

struct ExportOptions {
    ExportKind kind = ExportKind::Bundle;
    ExportLanguage language = ExportLanguage::Sql;
    std::string name = "cdc_pipeline"; ///< bundle / pipeline name (also the resource key and file names)
    std::string catalog = "main";
    std::string schema = "default"; ///< the Spark project's `database`
    bool csvData = false;           ///< the source tables as data/<table>.csv
    bool insertData = false;        ///< the source tables as data/source_tables.sql (CREATE TABLE + INSERT)
};

/// One file of an export: its path relative to the output folder and its content.
struct ExportFile {
    std::string path;
    std::string content;
    bool operator==(const ExportFile&) const = default;
};

/// An export as it will be written.
struct ExportPlan {
    std::vector<ExportFile> files;
    /// What the target cannot run or the language cannot say, at its file:line:col in the pipeline text.
    std::vector<Diagnostic> warnings;
};

/// What writeExport did.
struct ExportReport {
    std::string folder;
    std::vector<std::string> written; ///< full paths, in plan order
    std::vector<Diagnostic> warnings;
};

std::string kindName(ExportKind kind);
std::string languageName(ExportLanguage language);

} // namespace cdc::exporting
