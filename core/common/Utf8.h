#pragma once
/// UTF-8 well-formedness, for text that enters the project (SQL text, files read by read_files) and text
/// that leaves it as JSON: the project stores only valid UTF-8, so every output can be valid JSON.

#include <cstddef>
#include <string>
#include <string_view>

namespace cdc::utf8 {

/// The offset of the first byte of `s` that is not part of well-formed UTF-8 (RFC 3629: no overlong forms,
/// no surrogates, nothing past U+10FFFF), or std::string_view::npos when all of it is.
std::size_t firstInvalid(std::string_view s);

/// The length of the well-formed sequence at `s[at]`, or 0 when the bytes there are not one.
std::size_t sequenceAt(std::string_view s, std::size_t at);

/// `s` with each byte that is not well-formed UTF-8 replaced by U+FFFD (as a decoder shows it).
std::string repaired(std::string_view s);

/// Line and column (1-based; the column counts bytes, as SourceLocation does) of `offset` in `s`.
struct LineColumn {
    int line = 1;
    int column = 1;
};
LineColumn lineColumnAt(std::string_view s, std::size_t offset);

/// How an error names a byte that is not text: "the NUL byte" or "the byte 0xFF".
std::string describeByte(unsigned char byte);

} // namespace cdc::utf8
