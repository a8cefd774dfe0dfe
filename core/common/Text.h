#pragma once
/// Text helpers for Spark names, which compare case-insensitively (ASCII only, as Spark's resolver does).

#include <string>
#include <string_view>

namespace cdc {

/// ASCII lower-case.
std::string toLower(std::string_view s);
/// ASCII upper-case.
std::string toUpper(std::string_view s);
/// Without leading and trailing white space (std::isspace).
std::string_view trim(std::string_view s);
/// Equal when lower-cased (ASCII).
bool equalsIgnoreCase(std::string_view a, std::string_view b);

} // namespace cdc
