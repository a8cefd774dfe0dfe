#include "core/pipeline/Pipeline.h"

#include "core/storage/Catalog.h"

namespace cdc::pipeline {

const StreamingTable* Pipeline::findTable(const std::string& name) const {
    for (const auto& t : streamingTables)
        if (storage::equalsIgnoreCase(t.name.name, name))
            return &t;
    return nullptr;
}

const View* Pipeline::findView(const std::string& name) const {
    for (const auto& v : views)
        if (storage::equalsIgnoreCase(v.name.name, name))
            return &v;
    return nullptr;
}

} // namespace cdc::pipeline
