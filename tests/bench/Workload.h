#pragma once
/// The benchmark's deterministic CDC workload: N change events over K keys, a fixed share of deletes and
/// of events arriving out of order (their sequence lower than the key's previous event), produced in
/// arrival order by a fixed-seed PRNG so that every run and every baseline sees the same rows.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cdc::bench {

enum class Operation : std::uint8_t { Insert, Update, Delete };

std::string_view operationName(Operation op);

/// One source row, kept compact (names and cities index small pools) so a whole update fits in memory
/// cheaply.
struct Event {
    std::int64_t id = 0;
    std::int64_t seq = 0;
    std::uint32_t nameIndex = 0;
    std::uint16_t cityIndex = 0;
    Operation operation = Operation::Insert;
};

struct WorkloadSpec {
    std::int64_t events = 1'000'000;
    std::int64_t keys = 100'000;
    int updates = 10;
    double deleteFraction = 0.05;
    double outOfOrderFraction = 0.2;
    std::uint64_t seed = 20260529;
};

/// splitmix64: tiny, fast and identical on every platform (std::mt19937 distributions are not portable).
class Prng {
public:
    explicit Prng(std::uint64_t seed) : m_state(seed) {}
    std::uint64_t next();
    /// Uniform in [0, bound).
    std::uint64_t below(std::uint64_t bound) { return next() % bound; }
    double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

private:
    std::uint64_t m_state;
};

class WorkloadGenerator {
public:
    explicit WorkloadGenerator(const WorkloadSpec& spec);

    /// The next `count` events in arrival order; the stream continues across calls.
    std::vector<Event> next(std::int64_t count);

    std::int64_t generated() const { return m_generated; }
    std::int64_t deletes() const { return m_deletes; }
    std::int64_t outOfOrder() const { return m_outOfOrder; }

    static const std::string& name(std::uint32_t index);
    static const std::string& city(std::uint16_t index);

private:
    Event makeEvent();
    std::int64_t pickKeyWithHistory();

    WorkloadSpec m_spec;
    Prng m_prng;
    /// Sequence of each key's previous event (0 = no event yet) and whether its current state is deleted.
    std::vector<std::int64_t> m_lastSeq;
    std::vector<bool> m_deleted;
    /// Recently used keys: out-of-order events need a key with history, even early in the stream.
    std::vector<std::int64_t> m_recentKeys;
    std::int64_t m_generated = 0;
    std::int64_t m_deletes = 0;
    std::int64_t m_outOfOrder = 0;
};

} // namespace cdc::bench
