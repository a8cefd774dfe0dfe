#pragma once
/// Limits on the SQL one piece of work runs on a connection (a query, an update, a source script): a deadline
/// and a cancel flag that SQLite's progress handler checks while a statement runs, and a ceiling on the size
/// of one value. A project file is untrusted input: a view in it, or a query typed against it, may never end
/// (a recursive CTE, a cross join of big tables) or build values without bound.

#include "core/common/Diagnostic.h"
#include "core/storage/Database.h"

#include <atomic>
#include <chrono>
#include <optional>
#include <string>

namespace cdc::storage {

class QueryGuard {
public:
    /// A value (string, blob, row) larger than this is an error ("string or blob too big") instead of memory
    /// without bound. Set per connection (SQLITE_LIMIT_LENGTH): sqlite3_hard_heap_limit64 would be the
    /// process's, so a runaway query on the GUI's connection would make the update thread's allocations fail.
    /// CDC values are far smaller; an undo journal cuts its blobs at 1 MB (engine::UndoJournal).
    static constexpr int kMaxValueBytes = 64 * 1024 * 1024;

    struct Limits {
        std::chrono::milliseconds timeout{0};      ///< zero: no deadline
        const std::atomic<bool>* cancel = nullptr; ///< set from any thread to stop the work
    };

    /// Watches the SQL run on `db` until destroyed; `what` names the work in the stop message ("query",
    /// "update"). Nests: an inner guard watches until it ends, then the outer one again.
    QueryGuard(Database& db, std::string what, Limits limits);
    ~QueryGuard();
    QueryGuard(const QueryGuard&) = delete;
    QueryGuard& operator=(const QueryGuard&) = delete;

    /// Why the guard stopped the work: TIMEOUT ("query stopped after 30 s (the time limit) ...") or
    /// CANCELLED; nothing while it runs on.
    std::optional<Diagnostic> stopReason() const;
    /// `d` as the caller reports it: SQLite says only "interrupted" (or "string or blob too big"), so a
    /// failure the guard caused becomes its reason, keeping `d`'s location; any other `d` is returned as is.
    Diagnostic explain(Diagnostic d) const;
    template <class T> Result<T> explain(Result<T> r) const {
        if (r)
            return r;
        return explain(r.error());
    }

    /// Stops the guard's handler on `db` while it lives: a rollback must run to the end even after the
    /// guard stopped the work (Transaction uses it).
    class Pause {
    public:
        explicit Pause(Database& db);
        ~Pause();
        Pause(const Pause&) = delete;
        Pause& operator=(const Pause&) = delete;

    private:
        Database& m_db;
    };

private:
    enum class Stop { None, Timeout, Cancelled };
    static int onProgress(void* self);
    void install();

    Database& m_db;
    std::string m_what;
    Limits m_limits;
    std::chrono::steady_clock::time_point m_deadline;
    Stop m_stop = Stop::None;
    QueryGuard* m_outer = nullptr;
    int m_outerLength = 0;
};

} // namespace cdc::storage
