#pragma once
/// A test bound on how long something takes that the sanitized build does not meet is multiplied by
/// `CDC_TEST_TIME_SCALE` (a factor, 1 when unset) where it is used. The sanitized build sets it
/// (tests/CMakeLists.txt): AddressSanitizer makes our programs about three times slower — one Python worker
/// run takes 1.1 s there, 0.37 s in the plain build — so a bound sized for the plain build would fail there
/// for that reason alone. Only bounds scale; a time limit given to the code under test to see it stop
/// (`--timeout 1`) does not.

#include <chrono>
#include <cstdlib>

namespace cdc::test {

inline double timeScale() {
    const char* text = std::getenv("CDC_TEST_TIME_SCALE");
    const double factor = text ? std::atof(text) : 1.0;
    return factor >= 1.0 ? factor : 1.0;
}

/// `bound` times timeScale().
inline std::chrono::milliseconds scaled(std::chrono::milliseconds bound) {
    return std::chrono::milliseconds(
        static_cast<std::chrono::milliseconds::rep>(bound.count() * timeScale()));
}

} // namespace cdc::test
