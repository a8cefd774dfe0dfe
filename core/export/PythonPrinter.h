#pragma once
/// The pipeline model as a Python pipeline file written with `from pyspark import pipelines as dp`: the
/// inverse of python::parsePythonPipeline. Queries travel as their canonical Spark SQL inside spark.sql(...)
/// (or spark.readStream.table / spark.read.table when they only read one table), expressions inside
/// expr(...), so reading the file back gives the same model.

#include "core/common/Diagnostic.h"
#include "core/pipeline/Pipeline.h"

#include <string>
#include <vector>

namespace cdc::exporting {

struct PythonText {
    std::string text;
    /// What the Python API cannot say, each at the construct's position in the pipeline text (the construct
    /// is then written as a comment, never left out silently).
    std::vector<Diagnostic> warnings;
};

PythonText printPython(const pipeline::Pipeline& pipeline);

/// A Python string literal holding `s` (double quotes; backslashes, quotes and control characters escaped).
std::string pythonString(const std::string& s);

} // namespace cdc::exporting
