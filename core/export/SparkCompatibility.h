#pragma once
/// What open-source Apache Spark Declarative Pipelines (Spark 4.1, `spark-pipelines run`) cannot run of a
/// pipeline. Spark 4.1 has streaming tables, materialized views, temporary views and append flows; AUTO CDC
/// is a Databricks feature whose open-source port (SPARK-56956 and the SPIP it implements) is unreleased, so
/// every AUTO CDC flow is reported, and what even that port leaves out (FROM SNAPSHOT, TRUNCATE, ONCE, SCD
/// type 2 history) besides. The export keeps each construct in the files and reports it here.

#include "core/common/Diagnostic.h"
#include "core/pipeline/Pipeline.h"

#include <vector>

namespace cdc::exporting {

/// One warning per construct, at its position in the pipeline text (code SPARK_UNSUPPORTED).
std::vector<Diagnostic> sparkUnsupported(const pipeline::Pipeline& pipeline);

} // namespace cdc::exporting
