#pragma once
// Text helpers shared by the Parser*.cpp files (one class split by statement family); not part of the
// parser's interface, so no other file includes this.

#include <cctype>
#include <string>
#include <string_view>

namespace cdc::sql::detail {

/// ASCII upper case: SQL keywords and operators are compared and printed in upper case.
inline std::string upper(std::string_view s) {
    std::string out(s);
    for (auto& c : out)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

} // namespace cdc::sql::detail
