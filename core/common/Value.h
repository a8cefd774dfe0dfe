#pragma once
/// A SQLite value as the engine moves it around: NULL, integer, real, text or blob.

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace cdc {

struct Blob {
    std::vector<unsigned char> bytes;
    bool operator==(const Blob&) const = default;
    auto operator<=>(const Blob&) const = default;
};

using Value = std::variant<std::monostate, std::int64_t, double, std::string, Blob>;

inline bool isNull(const Value& v) {
    return std::holds_alternative<std::monostate>(v);
}

/// Debug / table rendering: NULL as "null", reals in shortest round-trip form.
std::string displayText(const Value& v);

using Row = std::vector<Value>;

} // namespace cdc
