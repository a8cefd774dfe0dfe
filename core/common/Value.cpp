#include "core/common/Value.h"

#include <charconv>

namespace cdc {

std::string displayText(const Value& v) {
    struct Visitor {
        std::string operator()(std::monostate) const { return "null"; }
        std::string operator()(std::int64_t i) const { return std::to_string(i); }
        std::string operator()(double d) const {
            char buf[64];
            auto res = std::to_chars(buf, buf + sizeof buf, d);
            std::string s(buf, res.ptr);
            // Spark prints whole doubles with a trailing ".0".
            if (s.find_first_of(".eEn") == std::string::npos)
                s += ".0";
            return s;
        }
        std::string operator()(const std::string& s) const { return s; }
        std::string operator()(const Blob& b) const {
            static const char* hex = "0123456789ABCDEF";
            std::string s = "X'";
            for (unsigned char c : b.bytes) {
                s += hex[c >> 4];
                s += hex[c & 15];
            }
            return s + "'";
        }
    };
    return std::visit(Visitor{}, v);
}

} // namespace cdc
