#pragma once
/// Reads pipeline definitions written with the `pyspark.pipelines` Python API (and the legacy `dlt`
/// module) WITHOUT executing Python: a small tokenizer and parser recognise the declarative subset
/// (create_streaming_table, @view / @temporary_view / @table / @materialized_view functions that return a
/// table read, create_auto_cdc_flow / apply_changes, append_flow) and turn it into the equivalent pipeline
/// SQL, which the SQL front end then parses. Diagnostics point into the .py file. Running a file
/// (PythonRunner.h) is a trust decision; this reader is the preview of a file not yet trusted.

#include "core/sql/SqlApi.h"

#include <string>
#include <string_view>

namespace cdc::python {

/// The pipeline SQL equivalent of a Python pipeline file, or the first error (with its .py position).
Result<std::string> translateToSql(std::string_view pythonText, const std::string& file);

/// parsePipeline for Python files: every diagnostic is reported at its position in the .py file.
sql::PipelineParse parsePythonPipeline(std::string_view pythonText, const std::string& file);

} // namespace cdc::python
