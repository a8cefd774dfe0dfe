#pragma once
// The Python source of the pipeline runtime (core/python internal), generated from runtime/cdc_runtime.py.

namespace cdc::python {

/// Defines `main(request_json) -> reply_json` and installs our pyspark.pipelines, dlt and pyspark.sql
/// modules.
extern const char* const kRuntimeSource;

} // namespace cdc::python
