#include "core/feeds/FeedRecord.h"

#include "core/common/Text.h"

namespace cdc::feeds {

std::string operationText(Operation op) {
    switch (op) {
    case Operation::Insert:
        return "INSERT";
    case Operation::Update:
        return "UPDATE";
    case Operation::Delete:
        return "DELETE";
    case Operation::Truncate:
        return "TRUNCATE";
    }
    return {};
}

const Value* FeedRecord::field(const std::string& name) const {
    for (const auto& [n, v] : fields)
        if (equalsIgnoreCase(n, name))
            return &v;
    return nullptr;
}

} // namespace cdc::feeds
