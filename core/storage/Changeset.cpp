// The session extension is compiled into Debian's libsqlite3 (SQLITE_ENABLE_SESSION and
// SQLITE_ENABLE_PREUPDATE_HOOK); its declarations in sqlite3.h are behind the same macros.
#define SQLITE_ENABLE_SESSION 1
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#include "core/storage/Changeset.h"

#include <sqlite3.h>

#include <string>
#include <utility>

namespace cdc::storage {

namespace {
Diagnostic sessionError(int rc, const char* what) {
    return Diagnostic::error("SQLITE", std::string(what) + ": " + sqlite3_errstr(rc));
}
} // namespace

Result<Changeset> Changeset::inverted() const {
    if (m_bytes.empty())
        return Changeset();
    int size = 0;
    void* out = nullptr;
    const int rc = sqlite3changeset_invert(static_cast<int>(m_bytes.size()), m_bytes.data(), &size, &out);
    if (rc != SQLITE_OK)
        return sessionError(rc, "cannot invert the recorded changes");
    const auto* bytes = static_cast<const unsigned char*>(out);
    Changeset inverse(std::vector<unsigned char>(bytes, bytes + size));
    sqlite3_free(out);
    return inverse;
}

Status Changeset::applyTo(Database& db) const {
    if (m_bytes.empty())
        return Status::success();
    // Undo and redo replay changes onto the very state they were recorded against: anything else is a bug,
    // and a partial application would be worse than none.
    const auto abortOnConflict = [](void*, int, sqlite3_changeset_iter*) { return SQLITE_CHANGESET_ABORT; };
    const int rc =
        sqlite3changeset_apply(db.handle(), static_cast<int>(m_bytes.size()),
                               const_cast<unsigned char*>(m_bytes.data()), nullptr, abortOnConflict, nullptr);
    if (rc != SQLITE_OK)
        return db.lastError("cannot apply the recorded changes");
    return Status::success();
}

Result<ChangeRecorder> ChangeRecorder::start(Database& db, std::initializer_list<std::string_view> tables) {
    sqlite3_session* session = nullptr;
    if (const int rc = sqlite3session_create(db.handle(), "main", &session); rc != SQLITE_OK)
        return sessionError(rc, "cannot record changes");
    ChangeRecorder recorder(session);
    for (std::string_view table : tables)
        if (const int rc = sqlite3session_attach(session, std::string(table).c_str()); rc != SQLITE_OK)
            return sessionError(rc, "cannot record the changes of a table");
    return recorder;
}

ChangeRecorder::ChangeRecorder(ChangeRecorder&& other) noexcept
    : m_session(std::exchange(other.m_session, nullptr)) {}

ChangeRecorder::~ChangeRecorder() {
    if (m_session)
        sqlite3session_delete(m_session);
}

Result<Changeset> ChangeRecorder::changes() const {
    int size = 0;
    void* out = nullptr;
    if (const int rc = sqlite3session_changeset(m_session, &size, &out); rc != SQLITE_OK)
        return sessionError(rc, "cannot read the recorded changes");
    const auto* bytes = static_cast<const unsigned char*>(out);
    Changeset changes(std::vector<unsigned char>(bytes, bytes + size));
    sqlite3_free(out);
    return changes;
}

} // namespace cdc::storage
