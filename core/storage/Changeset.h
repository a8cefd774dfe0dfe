#pragma once
/// Row changes recorded with SQLite's session extension: what an edit of a few rows changed, as a value that
/// can be applied again (redo) or inverted (undo). An undo step then costs the rows it changed, not a copy of
/// the whole database. Only tables with a PRIMARY KEY are recorded, and no schema changes: callers name the
/// tables an edit writes, and those must qualify.

#include "core/common/Diagnostic.h"
#include "core/storage/Database.h"

#include <initializer_list>
#include <string_view>
#include <vector>

struct sqlite3_session;

namespace cdc::storage {

class Changeset {
public:
    Changeset() = default;
    explicit Changeset(std::vector<unsigned char> bytes) : m_bytes(std::move(bytes)) {}

    bool empty() const { return m_bytes.empty(); }
    std::size_t size() const { return m_bytes.size(); }
    /// The changes that take the database back (inserts become deletes, and so on).
    Result<Changeset> inverted() const;
    /// Applies the changes in one savepoint. Any conflict (a row not as the changeset expects it) aborts it
    /// and leaves the database as it was.
    Status applyTo(Database& db) const;

private:
    std::vector<unsigned char> m_bytes;
};

/// Records the changes made to `tables` through `db`'s connection from start() until finish().
class ChangeRecorder {
public:
    static Result<ChangeRecorder> start(Database& db, std::initializer_list<std::string_view> tables);
    ChangeRecorder(ChangeRecorder&& other) noexcept;
    ChangeRecorder& operator=(ChangeRecorder&&) = delete;
    ChangeRecorder(const ChangeRecorder&) = delete;
    ChangeRecorder& operator=(const ChangeRecorder&) = delete;
    ~ChangeRecorder();

    /// The changes recorded so far.
    Result<Changeset> changes() const;

private:
    explicit ChangeRecorder(sqlite3_session* session) : m_session(session) {}
    sqlite3_session* m_session;
};

} // namespace cdc::storage
