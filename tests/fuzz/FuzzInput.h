#pragma once
/// What the fuzz targets share: the input as text, and the entry point libFuzzer (or the replay program,
/// ReplayMain.cpp) calls once per input.

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace cdc::fuzz {

/// The input's bytes as text; the parsers take any bytes (invalid UTF-8 included).
inline std::string_view text(const std::uint8_t* data, std::size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

} // namespace cdc::fuzz
