#pragma once
/// The YAML project files of an export, written with yaml-cpp's emitter (quoting is the library's job).

#include "core/export/ExportOptions.h"

#include <string>

namespace cdc::exporting {

/// databricks.yml: the bundle's name, `include` of resources/*.yml, the catalog and schema variables (their
/// defaults from the options) and a `dev` target (development mode, the default target).
std::string bundleYaml(const ExportOptions& options);

/// resources/<name>.pipeline.yml: `resources: pipelines: <name>:` with name, catalog and schema (the
/// bundle's variables), serverless, root_path and the transformations glob (paths relative to this file).
std::string bundlePipelineYaml(const ExportOptions& options);

/// spark-pipeline.yml: name, storage (where `spark-pipelines run` keeps checkpoints: `storageUri`), catalog,
/// database, configuration and the transformations glob.
std::string sparkPipelineYaml(const ExportOptions& options, const std::string& storageUri);

} // namespace cdc::exporting
