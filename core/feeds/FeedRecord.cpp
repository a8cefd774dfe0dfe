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
    // The exact spelling first: it is what a mapping drafted from the file holds, and it costs no case
    // folding per character on every record of a large import.
    for (const auto& [n, v] : fields)
        if (n == name)
            return &v;
    for (const auto& [n, v] : fields)
        if (equalsIgnoreCase(n, name))
            return &v;
    return nullptr;
}

} // namespace cdc::feeds
