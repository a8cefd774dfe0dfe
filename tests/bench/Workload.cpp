// Everything is fixed (the name and city pools, the seed, splitmix64) so runs on other machines and days
// compare; late events reuse recently touched keys so they occur from the first update on.
#include "Workload.h"

#include <array>

namespace cdc::bench {

namespace {
// In-order sequences advance by this stride, leaving room below each for late events of the same key:
// a chain of more than kSeqStride consecutive late events for one key would be needed to collide.
constexpr std::int64_t kSeqStride = 1000;
constexpr std::size_t kRecentKeys = 1024;

std::vector<std::string> makeNames() {
    static constexpr std::array first{"Alice", "Bob",   "Chloe", "David", "Emma",   "Felix", "Grace", "Hugo",
                                      "Iris",  "Jonas", "Kenji", "Lena",  "Marta",  "Nadia", "Oscar", "Paula",
                                      "Quinn", "Rosa",  "Sam",   "Tomas", "Ursula", "Vera",  "Wei",   "Yuki"};
    static constexpr std::array last{"Adams",    "Bernard", "Chen",   "Dubois",   "Evans",
                                     "Fischer",  "Garcia",  "Haddad", "Ito",      "Jensen",
                                     "Kowalski", "Lopez",   "Martin", "Nakamura", "Okafor",
                                     "Petit",    "Rossi",   "Sato",   "Tanaka",   "Weber"};
    std::vector<std::string> names;
    for (const char* f : first)
        for (const char* l : last)
            names.push_back(std::string(f) + ' ' + l);
    return names;
}

std::vector<std::string> makeCities() {
    return {"Tokyo",  "Osaka",   "Kyoto",    "Sapporo", "Paris",   "Lyon",     "Marseille", "Lille",
            "Berlin", "Munich",  "Hamburg",  "Madrid",  "Seville", "Lisbon",   "Porto",     "Rome",
            "Milan",  "Vienna",  "Prague",   "Warsaw",  "Oslo",    "Helsinki", "Dublin",    "London",
            "Boston", "Chicago", "Denver",   "Seattle", "Austin",  "Toronto",  "Montreal",  "Mexico City",
            "Lima",   "Bogota",  "Santiago", "Sydney",  "Perth",   "Auckland", "Seoul",     "Busan",
            "Taipei", "Manila",  "Hanoi",    "Bangkok", "Mumbai",  "Delhi",    "Cairo",     "Nairobi",
            "Lagos",  "Accra"};
}
} // namespace

std::string_view operationName(Operation op) {
    switch (op) {
    case Operation::Insert:
        return "INSERT";
    case Operation::Update:
        return "UPDATE";
    case Operation::Delete:
        return "DELETE";
    }
    return "INSERT";
}

std::uint64_t Prng::next() {
    std::uint64_t z = (m_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

WorkloadGenerator::WorkloadGenerator(const WorkloadSpec& spec)
    : m_spec(spec), m_prng(spec.seed), m_lastSeq(static_cast<std::size_t>(spec.keys), 0),
      m_deleted(static_cast<std::size_t>(spec.keys), false) {
    m_recentKeys.reserve(kRecentKeys);
}

const std::string& WorkloadGenerator::name(std::uint32_t index) {
    static const std::vector<std::string> names = makeNames();
    return names[index % names.size()];
}

const std::string& WorkloadGenerator::city(std::uint16_t index) {
    static const std::vector<std::string> cities = makeCities();
    return cities[index % cities.size()];
}

std::vector<Event> WorkloadGenerator::next(std::int64_t count) {
    std::vector<Event> events;
    events.reserve(static_cast<std::size_t>(count));
    for (std::int64_t i = 0; i < count; ++i)
        events.push_back(makeEvent());
    return events;
}

std::int64_t WorkloadGenerator::pickKeyWithHistory() {
    if (m_recentKeys.empty())
        return -1;
    return m_recentKeys[m_prng.below(m_recentKeys.size())];
}

Event WorkloadGenerator::makeEvent() {
    ++m_generated;
    Event e;
    std::int64_t key = static_cast<std::int64_t>(m_prng.below(static_cast<std::uint64_t>(m_spec.keys)));
    const bool late = m_prng.unit() < m_spec.outOfOrderFraction;
    // A late event needs a key with history; early in the stream most keys have none yet.
    if (late && m_lastSeq[static_cast<std::size_t>(key)] == 0 && !m_recentKeys.empty())
        key = pickKeyWithHistory();
    const auto slot = static_cast<std::size_t>(key);
    const bool hadHistory = m_lastSeq[slot] > 0;
    if (late && hadHistory) {
        e.seq = m_lastSeq[slot] - 1; // lower than the key's previous event, above everything older
        ++m_outOfOrder;
    } else {
        e.seq = m_generated * kSeqStride;
    }
    m_lastSeq[slot] = e.seq;

    if (m_prng.unit() < m_spec.deleteFraction) {
        e.operation = Operation::Delete;
        ++m_deletes;
    } else {
        e.operation = (!hadHistory || m_deleted[slot]) ? Operation::Insert : Operation::Update;
    }
    m_deleted[slot] = e.operation == Operation::Delete;
    e.id = key + 1;
    e.nameIndex = static_cast<std::uint32_t>(m_prng.next() >> 32);
    e.cityIndex = static_cast<std::uint16_t>(m_prng.next() >> 48);

    if (m_recentKeys.size() < kRecentKeys)
        m_recentKeys.push_back(key);
    else
        m_recentKeys[static_cast<std::size_t>(m_generated) % kRecentKeys] = key;
    return e;
}

} // namespace cdc::bench
