#pragma once
/// The Spark types of a query's computed result columns (`amount * 2`, `max(ts)`), which only a type
/// inference over the query's expressions knows once the columns of the relations it reads are known. The
/// SQL front end has that inference; the engine, which does not use the front end, knows the relations when
/// it plans an update. So the front end installs its inference here (sql::installSparkFunctions) and the
/// engine asks for it, with the columns it resolved: a materialized view's or an append flow's computed
/// column then has its real type instead of none.

#include "core/common/DataType.h"
#include "core/pipeline/Pipeline.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace cdc::pipeline {

struct NamedColumn {
    std::string name;
    DataType type;
};

/// The columns of a relation the query reads, by the name it reads it with; nullopt when unknown.
using RelationColumns = std::function<std::optional<std::vector<NamedColumn>>(const std::string& name)>;

/// Per result column of `query`, its Spark type where the inference decides one; empty when the column
/// list itself is unknown.
using OutputTypeInference =
    std::function<std::vector<std::optional<DataType>>(const Query& query, const RelationColumns& relations)>;

/// Installs the inference (once, before any update runs; later calls replace it).
void setOutputTypeInference(OutputTypeInference inference);

/// The installed inference, or an empty function.
const OutputTypeInference& outputTypeInference();

} // namespace cdc::pipeline
