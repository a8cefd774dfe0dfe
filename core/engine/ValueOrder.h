#pragma once
/// SQLite's ordering of values (NULL < numbers < text < blob; BINARY collation), used where the engine
/// compares stored sequence keys in C++ exactly as the indexes order them.

#include "core/common/Value.h"

#include <cstring>

namespace cdc::engine {

inline int valueClass(const Value& v) {
    switch (v.index()) {
    case 0:
        return 0;
    case 1:
    case 2:
        return 1;
    case 3:
        return 2;
    default:
        return 3;
    }
}

inline int compareValues(const Value& a, const Value& b) {
    int ca = valueClass(a), cb = valueClass(b);
    if (ca != cb)
        return ca < cb ? -1 : 1;
    switch (ca) {
    case 0:
        return 0;
    case 1: {
        if (a.index() == 1 && b.index() == 1) {
            auto x = std::get<std::int64_t>(a), y = std::get<std::int64_t>(b);
            return x < y ? -1 : x > y ? 1 : 0;
        }
        double x = a.index() == 1 ? static_cast<double>(std::get<std::int64_t>(a)) : std::get<double>(a);
        double y = b.index() == 1 ? static_cast<double>(std::get<std::int64_t>(b)) : std::get<double>(b);
        return x < y ? -1 : x > y ? 1 : 0;
    }
    case 2: {
        int c = std::get<std::string>(a).compare(std::get<std::string>(b));
        return c < 0 ? -1 : c > 0 ? 1 : 0;
    }
    default: {
        const auto& x = std::get<Blob>(a).bytes;
        const auto& y = std::get<Blob>(b).bytes;
        return x < y ? -1 : x > y ? 1 : 0;
    }
    }
}

/// Equality for change detection: NULL equals NULL here (a column that stays NULL did not change).
inline bool sameValue(const Value& a, const Value& b) {
    return compareValues(a, b) == 0;
}

} // namespace cdc::engine
