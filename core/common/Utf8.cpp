#include "core/common/Utf8.h"

#include <cstdio>

namespace cdc::utf8 {

std::size_t sequenceAt(std::string_view s, std::size_t at) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[at + i]); };
    const unsigned char b0 = byte(0);
    if (b0 < 0x80)
        return 1;
    // The second byte's allowed range excludes overlong forms (E0, F0), surrogates (ED) and code points
    // past U+10FFFF (F4), as RFC 3629's table does.
    std::size_t n = 0;
    unsigned char low = 0x80, high = 0xBF;
    if (b0 >= 0xC2 && b0 <= 0xDF)
        n = 2;
    else if (b0 >= 0xE0 && b0 <= 0xEF) {
        n = 3;
        low = b0 == 0xE0 ? 0xA0 : 0x80;
        high = b0 == 0xED ? 0x9F : 0xBF;
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        n = 4;
        low = b0 == 0xF0 ? 0x90 : 0x80;
        high = b0 == 0xF4 ? 0x8F : 0xBF;
    } else
        return 0;
    if (at + n > s.size() || byte(1) < low || byte(1) > high)
        return 0;
    for (std::size_t i = 2; i < n; ++i)
        if (byte(i) < 0x80 || byte(i) > 0xBF)
            return 0;
    return n;
}

std::size_t firstInvalid(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        // ASCII, the bulk of SQL text, a byte at a time without decoding (a million-row script is 50 MB).
        if (static_cast<unsigned char>(s[i]) < 0x80) {
            ++i;
            continue;
        }
        const std::size_t n = sequenceAt(s, i);
        if (n == 0)
            return i;
        i += n;
    }
    return std::string_view::npos;
}

std::string repaired(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t n = sequenceAt(s, i);
        if (n == 0) {
            out += "\xEF\xBF\xBD";
            ++i;
        } else {
            out += s.substr(i, n);
            i += n;
        }
    }
    return out;
}

LineColumn lineColumnAt(std::string_view s, std::size_t offset) {
    LineColumn at;
    for (std::size_t i = 0; i < offset && i < s.size(); ++i) {
        if (s[i] == '\n') {
            ++at.line;
            at.column = 1;
        } else {
            ++at.column;
        }
    }
    return at;
}

std::string describeByte(unsigned char byte) {
    if (byte == 0)
        return "the NUL byte";
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", byte);
    return std::string("the byte ") + hex;
}

} // namespace cdc::utf8
