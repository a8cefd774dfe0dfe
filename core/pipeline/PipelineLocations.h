#pragma once
/// One walk over every source position a Pipeline carries, for whoever must move them all: the Python
/// reader maps positions in the SQL it generated back into the .py file with it.

#include "core/pipeline/Pipeline.h"

#include <functional>

namespace cdc::pipeline {

/// Calls `visit` on every SourceLocation in `pipeline`, valid or not: each table's, view's and flow's own
/// location and those of the identifiers, column selections and column specs, expressions, queries and
/// the relations they read, and the warnings it holds. A field added to any of these structs stops the
/// build in PipelineLocations.cpp until it is visited or declared position-free there.
void forEachLocation(Pipeline& pipeline, const std::function<void(SourceLocation&)>& visit);

} // namespace cdc::pipeline
