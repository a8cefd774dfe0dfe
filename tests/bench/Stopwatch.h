#pragma once
/// Shared by every phase of cdcstudio-bench and the GUI refresh figure so they all time the same way;
/// header-only, as it is two clock reads.

#include <chrono>
#include <ctime>

namespace cdc::bench {

/// Wall time (what the user waits) and the process's CPU time (what a shared, loaded machine distorts
/// least: waiting for the disk or for another process's turn on the CPU does not count).
class Stopwatch {
public:
    Stopwatch() : m_start(std::chrono::steady_clock::now()), m_cpuStart(cpuNow()) {}
    double seconds() const {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
    }
    double cpuSeconds() const { return cpuNow() - m_cpuStart; }

private:
    static double cpuNow() {
        timespec ts{};
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
        return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
    }
    std::chrono::steady_clock::time_point m_start;
    double m_cpuStart;
};

} // namespace cdc::bench
