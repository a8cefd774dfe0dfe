// Linux-specific, like the benchmark: when /proc/self/clear_refs cannot be written (a restricted
// container) the phase figure is left out rather than guessed from the process-wide peak.
#include "PeakMemory.h"

#include <fstream>
#include <string>

#include <sys/resource.h>

namespace cdc::bench {

double processPeakRssMb() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0; // kilobytes on Linux
}

PhasePeakMemory::PhasePeakMemory() {
    std::ofstream clear("/proc/self/clear_refs");
    clear << "5"; // resets VmHWM to the current RSS
    clear.flush();
    m_reset = clear.good();
}

std::optional<double> PhasePeakMemory::phasePeakMb() const {
    if (!m_reset)
        return std::nullopt;
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmHWM:", 0) == 0)
            return std::stod(line.substr(6)) / 1024.0;
    return std::nullopt;
}

} // namespace cdc::bench
