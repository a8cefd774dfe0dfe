#include "core/export/ProjectYaml.h"

#include <yaml-cpp/yaml.h>

namespace cdc::exporting {

namespace {

/// `libraries: - glob: include: <pattern>`, the shape both Databricks and Spark read.
void libraries(YAML::Emitter& out, const std::string& pattern) {
    out << YAML::Key << "libraries" << YAML::Value << YAML::BeginSeq;
    out << YAML::BeginMap << YAML::Key << "glob" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "include" << YAML::Value << pattern;
    out << YAML::EndMap << YAML::EndMap << YAML::EndSeq;
}

std::string finish(YAML::Emitter& out, const std::string& comment) {
    return comment + out.c_str() + "\n";
}

} // namespace

std::string bundleYaml(const ExportOptions& o) {
    YAML::Emitter out;
    out << YAML::BeginMap;
    out << YAML::Key << "bundle" << YAML::Value << YAML::BeginMap << YAML::Key << "name" << YAML::Value
        << o.name << YAML::EndMap;
    out << YAML::Key << "include" << YAML::Value << YAML::BeginSeq << "resources/*.yml" << YAML::EndSeq;
    out << YAML::Key << "variables" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "catalog" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "description" << YAML::Value << "The catalog the pipeline publishes its tables to";
    out << YAML::Key << "default" << YAML::Value << o.catalog << YAML::EndMap;
    out << YAML::Key << "schema" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "description" << YAML::Value << "The schema the pipeline publishes its tables to";
    out << YAML::Key << "default" << YAML::Value << o.schema << YAML::EndMap;
    out << YAML::EndMap;
    out << YAML::Key << "targets" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "dev" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "mode" << YAML::Value << "development";
    out << YAML::Key << "default" << YAML::Value << true;
    out << YAML::EndMap << YAML::EndMap;
    out << YAML::EndMap;
    return finish(
        out, "# Databricks Asset Bundle exported by CDC Studio: `databricks bundle deploy` deploys it.\n");
}

std::string bundlePipelineYaml(const ExportOptions& o) {
    YAML::Emitter out;
    out << YAML::BeginMap << YAML::Key << "resources" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "pipelines" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << o.name << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << o.name;
    out << YAML::Key << "catalog" << YAML::Value << "${var.catalog}";
    out << YAML::Key << "schema" << YAML::Value << "${var.schema}";
    out << YAML::Key << "serverless" << YAML::Value << true;
    // Paths in a resource file are relative to the file: the bundle's root is one folder up.
    out << YAML::Key << "root_path" << YAML::Value << "..";
    libraries(out, "../transformations/**");
    out << YAML::EndMap << YAML::EndMap << YAML::EndMap << YAML::EndMap;
    return finish(out, "# The pipeline of the bundle (included by databricks.yml).\n");
}

std::string sparkPipelineYaml(const ExportOptions& o, const std::string& storageUri) {
    YAML::Emitter out;
    out << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << o.name;
    out << YAML::Key << "storage" << YAML::Value << storageUri;
    out << YAML::Key << "catalog" << YAML::Value << o.catalog;
    out << YAML::Key << "database" << YAML::Value << o.schema;
    out << YAML::Key << "configuration" << YAML::Value << YAML::BeginMap;
    // One shuffle partition: the exported project is a test run on one machine, as CDC Studio's is.
    out << YAML::Key << "spark.sql.shuffle.partitions" << YAML::Value << "1";
    out << YAML::EndMap;
    libraries(out, "transformations/**");
    out << YAML::EndMap;
    return finish(
        out, "# Apache Spark Declarative Pipelines project exported by CDC Studio: `spark-pipelines run`.\n");
}

} // namespace cdc::exporting
