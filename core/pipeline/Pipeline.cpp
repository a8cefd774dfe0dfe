#include "core/pipeline/Pipeline.h"

#include "core/common/Text.h"

namespace cdc::pipeline {

const StreamingTable* Pipeline::findTable(const std::string& name) const {
    for (const auto& t : streamingTables)
        if (equalsIgnoreCase(t.name.name, name))
            return &t;
    return nullptr;
}

const View* Pipeline::findView(const std::string& name) const {
    for (const auto& v : views)
        if (equalsIgnoreCase(v.name.name, name))
            return &v;
    return nullptr;
}

} // namespace cdc::pipeline
