#include "core/export/PipelineExporter.h"

#include "core/export/ProjectYaml.h"
#include "core/export/PythonPrinter.h"
#include "core/export/SourceDataExporter.h"
#include "core/export/SparkCompatibility.h"
#include "core/python/PythonPipelineReader.h"
#include "core/sql/SqlApi.h"

#include <filesystem>
#include <fstream>
#include <system_error>

namespace cdc::exporting {

namespace fs = std::filesystem;

std::string kindName(ExportKind kind) {
    return kind == ExportKind::Bundle ? "bundle" : "spark";
}

std::string languageName(ExportLanguage language) {
    return language == ExportLanguage::Sql ? "sql" : "python";
}

std::string transformationFile(const ExportOptions& options) {
    return "transformations/" + options.name + (options.language == ExportLanguage::Sql ? ".sql" : ".py");
}

namespace {

bool isPython(const std::string& file) {
    return file.size() >= 3 && file.compare(file.size() - 3, 3, ".py") == 0;
}

/// The pipeline in canonical Databricks SQL.
Result<std::string> pipelineSql(const ExportSource& source) {
    std::string text = source.text;
    if (isPython(source.file)) {
        auto translated = python::translateToSql(source.text, source.file);
        if (!translated)
            return Diagnostic::error("EXPORT_SQL",
                                     "this Python file can only be read by running it, so it has no SQL "
                                     "form to export: export it in Python (" +
                                         translated.error().message + ")",
                                     translated.error().location);
        text = *translated;
    }
    return sql::formatSql(text, source.file);
}

} // namespace

Result<ExportPlan> planExport(const ExportSource& source, const ExportOptions& options) {
    if (options.name.empty() || options.name.find_first_of("/\\ \t\n") != std::string::npos)
        return Diagnostic::error("EXPORT_NAME",
                                 "the export's name must be one word (no spaces or slashes): '" +
                                     options.name + "'");
    ExportPlan plan;
    std::string transformations;
    if (options.language == ExportLanguage::Sql) {
        auto sql = pipelineSql(source);
        if (!sql)
            return sql.error();
        transformations =
            "-- Exported by CDC Studio from " + fs::path(source.file).filename().string() + ".\n" + *sql;
    } else {
        PythonText py = printPython(source.pipeline);
        transformations = std::move(py.text);
        plan.warnings = std::move(py.warnings);
    }
    if (!transformations.empty() && transformations.back() != '\n')
        transformations += '\n';

    if (options.kind == ExportKind::Bundle) {
        plan.files.push_back({"databricks.yml", bundleYaml(options)});
        plan.files.push_back({"resources/" + options.name + ".pipeline.yml", bundlePipelineYaml(options)});
    } else {
        plan.files.push_back({"spark-pipeline.yml", sparkPipelineYaml(options, "file:///tmp/" + options.name +
                                                                                   "-pipeline-storage")});
        auto unsupported = sparkUnsupported(source.pipeline);
        plan.warnings.insert(plan.warnings.end(), unsupported.begin(), unsupported.end());
    }
    plan.files.push_back({transformationFile(options), transformations});

    if ((options.csvData || options.insertData) && source.data) {
        auto data = exportSourceData(*source.data, options.csvData, options.insertData);
        if (!data)
            return data.error();
        plan.files.insert(plan.files.end(), data->begin(), data->end());
    }
    return plan;
}

Result<ExportReport> writeExport(const ExportPlan& plan, const std::string& folder, bool overwrite) {
    std::error_code ec;
    fs::path root(folder);
    if (fs::exists(root, ec) && !fs::is_directory(root, ec))
        return Diagnostic::error("EXPORT_FOLDER", "'" + folder + "' is a file, not a folder");
    if (fs::is_directory(root, ec) && !fs::is_empty(root, ec) && !overwrite)
        return Diagnostic::error("EXPORT_FOLDER_NOT_EMPTY",
                                 "'" + folder +
                                     "' is not empty: choose an empty folder, or overwrite (--force)");
    ExportReport report;
    report.folder = folder;
    report.warnings = plan.warnings;
    for (const auto& f : plan.files) {
        fs::path path = root / f.path;
        fs::create_directories(path.parent_path(), ec);
        if (ec)
            return Diagnostic::error("EXPORT_WRITE",
                                     "cannot create '" + path.parent_path().string() + "': " + ec.message());
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out << f.content;
        out.close();
        if (!out)
            return Diagnostic::error("EXPORT_WRITE", "cannot write '" + path.string() + "'");
        report.written.push_back(path.string());
    }
    return report;
}

} // namespace cdc::exporting
