#pragma once
/// Text helpers for Spark names, which compare case-insensitively (ASCII only, as Spark's resolver does).

#include <string>
#include <string_view>

namespace cdc {

/// ASCII lower-case.
std::string toLower(std::string_view s);
/// Equal when lower-cased (ASCII).
bool equalsIgnoreCase(std::string_view a, std::string_view b);

} // namespace cdc
