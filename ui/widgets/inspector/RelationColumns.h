#pragma once
/// What a flow can read and which columns each relation has, as the inspector offers them: the catalog's
/// tables (sources, and targets once built) and the pipeline's views and streaming tables.

#include <QStringList>

#include <string>

namespace cdc::ui {

class Project;

namespace relationcolumns {

/// Every relation a flow can name as its source, sorted, each once (case-insensitively).
QStringList relationNames(Project& project);
/// The columns of `relation`: a pipeline view's output columns when they are known statically, else the
/// catalog's. Empty when unknown.
QStringList columnsOf(Project& project, const std::string& relation);

} // namespace relationcolumns
} // namespace cdc::ui
