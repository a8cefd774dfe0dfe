#pragma once
/// Peak resident memory: of the whole process (getrusage), and of one phase where Linux lets us reset the
/// high-water mark (/proc/self/clear_refs).

#include <optional>

namespace cdc::bench {

double processPeakRssMb();

class PhasePeakMemory {
public:
    /// Resets the kernel's high-water mark; phasePeakMb() is empty when that is not possible.
    PhasePeakMemory();
    std::optional<double> phasePeakMb() const;

private:
    bool m_reset = false;
};

} // namespace cdc::bench
