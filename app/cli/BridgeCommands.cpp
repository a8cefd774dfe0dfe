// export and import: the pipeline out to Databricks or Apache Spark, a real change feed in.

#include "CliSupport.h"
#include "Commands.h"

#include "core/export/PipelineExporter.h"
#include "core/feeds/FeedImporter.h"

#include <iostream>
#include <memory>

namespace cdc::cli {

namespace {

struct ExportArgs {
    std::string folder;
    std::vector<std::string> files; ///< none: the recorded pipeline
    std::string to = "bundle";
    std::string language = "sql";
    std::optional<std::string> name, catalog, schema, data;
    bool force = false;
    std::optional<std::string> pythonTimeout;
};

/// The options as ExportOptions, or nullopt after reporting the wrong one.
std::optional<cdc::exporting::ExportOptions> exportOptions(const ExportArgs& args) {
    using namespace cdc::exporting;
    ExportOptions o;
    if (args.to != "bundle" && args.to != "spark") {
        usageError("export supports --to bundle|spark");
        return std::nullopt;
    }
    o.kind = args.to == "bundle" ? ExportKind::Bundle : ExportKind::Spark;
    if (args.language != "sql" && args.language != "python") {
        usageError("export supports --language sql|python");
        return std::nullopt;
    }
    o.language = args.language == "sql" ? ExportLanguage::Sql : ExportLanguage::Python;
    o.name = args.name.value_or(o.name);
    o.catalog = args.catalog.value_or(o.catalog);
    o.schema = args.schema.value_or(o.schema);
    if (args.data) {
        const std::string& d = *args.data;
        if (d != "csv" && d != "sql" && d != "both") {
            usageError("export supports --data csv|sql|both");
            return std::nullopt;
        }
        o.csvData = d != "sql";
        o.insertData = d != "csv";
    }
    return o;
}

int runExport(const GlobalOptions& global, const ExportArgs& args) {
    if (args.folder.empty())
        return usageError("export needs an output FOLDER");
    if (args.files.size() > 1)
        return usageError("export takes one PIPELINE file");
    const auto options = exportOptions(args);
    if (!options)
        return kExitUsage;
    const std::vector<std::string>& files = args.files;

    // The project is read only for what it must give: the recorded pipeline when no file is named, the
    // source tables when they go along. A pipeline file alone exports without any project.
    std::optional<cdc::storage::Database> db;
    if (files.empty() || args.data) {
        auto opened = openExistingReadOnly(global);
        if (!opened)
            return userError(opened.error());
        db = std::move(*opened);
    }
    ReplayedPipeline read = files.empty() ? pipelineToReplay(global, *db, files, "export", args.pythonTimeout)
                                          : pipelineOfFiles(global, files, args.pythonTimeout);
    if (!read)
        return read.exit;

    cdc::exporting::ExportSource source;
    source.text = read.text;
    source.file = read.file;
    source.pipeline = std::move(*read.pipeline);
    source.data = db ? &*db : nullptr;
    auto plan = cdc::exporting::planExport(source, *options);
    if (!plan)
        return userError(plan.error());
    auto report = cdc::exporting::writeExport(*plan, args.folder, args.force);
    if (!report)
        return userError(report.error());
    // What the target cannot run is said, not dropped; the files are written all the same.
    for (const auto& w : report->warnings)
        std::cerr << w.format() << "\n";
    for (const auto& path : report->written)
        std::cout << path << "\n";
    return kExitOk;
}

struct ImportArgs {
    std::vector<std::string> files;
    std::optional<std::string> format;
    std::string into;
    std::optional<std::string> sequenceField;
    std::optional<std::string> separator;
    std::string operationColumn = "operation";
    std::string sequenceColumn = "sequence";
};

int runImport(const GlobalOptions& global, const ImportArgs& args) {
    if (args.files.size() != 1)
        return usageError("import needs exactly one FILE");
    if (args.into.empty())
        return usageError("import needs --into TABLE");
    cdc::feeds::FileImport request;
    request.path = args.files[0];
    request.table = args.into;
    if (args.format) {
        request.format = cdc::feeds::parseFormat(*args.format);
        if (!request.format)
            return usageError("import supports --format debezium|dms|cdf|flink|csv|jsonl");
    }
    if (args.sequenceField)
        request.reader.sequenceField = *args.sequenceField;
    if (args.separator) {
        const std::string& s = *args.separator;
        if (s == "\\t" || s == "tab")
            request.reader.separator = '\t';
        else if (s.size() == 1)
            request.reader.separator = s[0];
        else
            return usageError("--separator takes one character (or 'tab'), not '" + s + "'");
    }
    request.operationColumn = args.operationColumn;
    request.sequenceColumn = args.sequenceColumn;

    auto db = openDatabase(global);
    if (!db)
        return userError(db.error());
    auto report = cdc::feeds::importFile(*db, request);
    if (!report)
        return userError(report.error());
    // The format as --format names it: when it was detected, the user sees what to pass to be sure.
    std::cout << "imported " << report->imported << (report->imported == 1 ? " row" : " rows") << " into "
              << report->table << (report->created ? " (created)" : "") << " as --format "
              << cdc::feeds::formatName(report->format) << "\n";
    if (report->tombstones > 0)
        std::cout << "skipped " << report->tombstones << " Kafka tombstone record(s)\n";
    if (report->preimages > 0)
        std::cout << "skipped " << report->preimages << " update preimage or control record(s)\n";
    return kExitOk;
}

} // namespace

void addBridgeCommands(CommandLine& cli) {
    auto ex = std::make_shared<ExportArgs>();
    CLI::App* c = cli.add(
        "export", "write the pipeline as a Databricks Asset Bundle or a Spark Declarative Pipelines project",
        "The pipeline is PIPELINE (SQL or Python), else the one the last update recorded. Bundle: "
        "databricks.yml, resources/NAME.pipeline.yml, transformations/NAME.sql|.py (databricks bundle "
        "deploy). Spark: spark-pipeline.yml and transformations/ (spark-pipelines run). What the target "
        "cannot run is reported on stderr as file:line:col warnings. A folder that is not empty is refused "
        "unless --force. Prints the files written.",
        [&cli, ex] { return runExport(cli.global(), *ex); });
    c->add_option("FOLDER", ex->folder, "the output folder (created when missing)");
    c->add_option("PIPELINE", ex->files,
                  "the pipeline file (default: the pipeline the last update recorded)");
    c->add_option("--to", ex->to, "what to write: bundle (Databricks) or spark (default bundle)")
        ->option_text("bundle|spark");
    c->add_option("--language", ex->language, "the transformations' language (default sql)")
        ->option_text("sql|python");
    c->add_option("--name", ex->name, "the bundle's and pipeline's name, one word (default cdc_pipeline)")
        ->option_text("NAME");
    c->add_option("--catalog", ex->catalog, "the catalog (default main)")->option_text("CATALOG");
    c->add_option("--schema", ex->schema, "the schema, the Spark project's database (default default)")
        ->option_text("SCHEMA");
    c->add_option("--data", ex->data,
                  "the project's source tables along: data/TABLE.csv (csv), data/source_tables.sql with "
                  "CREATE TABLE and INSERTs (sql), or both")
        ->option_text("csv|sql|both");
    c->add_flag("--force", ex->force,
                "write into a folder that is not empty (the export's files replace theirs)");
    addPythonTimeoutOption(c, ex->pythonTimeout);

    auto im = std::make_shared<ImportArgs>();
    c = cli.add("import", "import a change feed file into a source table, in one transaction",
                "Formats: debezium (JSON change events), dms (AWS DMS CSV or JSON), cdf (Delta change data "
                "feed, CSV or JSON lines), flink (changelog CSV), csv, jsonl; detected from the file when "
                "--format is not given. A table that does not exist is created from the feed's columns, with "
                "the operation and sequence columns named by --operation-column and --sequence-column. A "
                "malformed record is reported with its line and byte offset, and nothing is imported.",
                [&cli, im] { return runImport(cli.global(), *im); });
    c->add_option("FILE", im->files, "the feed file");
    c->add_option("--into", im->into, "the source table (created when missing)")->option_text("TABLE");
    c->add_option("--format", im->format, "the feed's format (default: detected)")
        ->option_text("debezium|dms|cdf|flink|csv|jsonl");
    c->add_option(
         "--sequence-field", im->sequenceField,
         "where the sequence comes from: a field, or a dotted path into a JSON record (source.ts_ms)")
        ->option_text("PATH");
    c->add_option("--separator", im->separator, "CSV only: the field separator (default ,)")
        ->option_text("CHAR");
    c->add_option("--operation-column", im->operationColumn,
                  "a created table's operation column (default operation)")
        ->option_text("NAME");
    c->add_option("--sequence-column", im->sequenceColumn,
                  "a created table's sequence column (default sequence)")
        ->option_text("NAME");
}

} // namespace cdc::cli
