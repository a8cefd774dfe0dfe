#include "core/storage/QueryGuard.h"

#include <sqlite3.h>

#include <cstdio>

namespace cdc::storage {

namespace {

/// VM instructions between two looks at the clock and the flag: a few microseconds of work, so a stop
/// lands at once, while the look itself (an atomic load, a clock read) stays far below 1 % of a run.
constexpr int kProgressOps = 1000;

std::string secondsText(std::chrono::milliseconds ms) {
    char text[32];
    if (ms.count() % 1000 == 0)
        std::snprintf(text, sizeof text, "%lld s", static_cast<long long>(ms.count() / 1000));
    else
        std::snprintf(text, sizeof text, "%.1f s", static_cast<double>(ms.count()) / 1000.0);
    return text;
}

} // namespace

QueryGuard::QueryGuard(Database& db, std::string what, Limits limits)
    : m_db(db), m_what(std::move(what)), m_limits(limits),
      m_deadline(std::chrono::steady_clock::now() + limits.timeout), m_outer(db.m_guard) {
    m_outerLength = sqlite3_limit(db.handle(), SQLITE_LIMIT_LENGTH, kMaxValueBytes);
    db.m_guard = this;
    install();
}

QueryGuard::~QueryGuard() {
    sqlite3_limit(m_db.handle(), SQLITE_LIMIT_LENGTH, m_outerLength);
    m_db.m_guard = m_outer;
    if (m_outer)
        m_outer->install();
    else
        sqlite3_progress_handler(m_db.handle(), 0, nullptr, nullptr);
}

void QueryGuard::install() {
    sqlite3_progress_handler(m_db.handle(), kProgressOps, &QueryGuard::onProgress, this);
}

int QueryGuard::onProgress(void* self) {
    auto* guard = static_cast<QueryGuard*>(self);
    // Once stopped, every statement after it stops too, so that work which ignores one failure cannot run on.
    if (guard->m_stop != Stop::None)
        return 1;
    if (guard->m_limits.cancel && guard->m_limits.cancel->load(std::memory_order_relaxed))
        guard->m_stop = Stop::Cancelled;
    else if (guard->m_limits.timeout.count() > 0 && std::chrono::steady_clock::now() >= guard->m_deadline)
        guard->m_stop = Stop::Timeout;
    return guard->m_stop != Stop::None;
}

std::optional<Diagnostic> QueryGuard::stopReason() const {
    switch (m_stop) {
    case Stop::None:
        return std::nullopt;
    case Stop::Cancelled:
        return Diagnostic::error("CANCELLED", m_what + " cancelled; it changed nothing");
    case Stop::Timeout:
        break;
    }
    return Diagnostic::error("TIMEOUT", m_what + " stopped after " + secondsText(m_limits.timeout) +
                                            " (the time limit) — it was still running; it changed nothing");
}

Diagnostic QueryGuard::explain(Diagnostic d) const {
    if (auto reason = stopReason()) {
        reason->location = d.location;
        return *reason;
    }
    if (d.code == "SQLITE" && d.message.find("string or blob too big") != std::string::npos)
        return Diagnostic::error("VALUE_TOO_LARGE",
                                 m_what + " stopped: a value grew past " +
                                     std::to_string(kMaxValueBytes / (1024 * 1024)) +
                                     " MB (the size limit of one value); it changed nothing",
                                 d.location);
    return d;
}

QueryGuard::Pause::Pause(Database& db) : m_db(db) {
    if (m_db.m_guard)
        sqlite3_progress_handler(m_db.handle(), 0, nullptr, nullptr);
}

QueryGuard::Pause::~Pause() {
    if (m_db.m_guard)
        m_db.m_guard->install();
}

} // namespace cdc::storage
