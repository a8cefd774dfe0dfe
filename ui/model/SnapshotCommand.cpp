// Restoring is a backup-API copy into the working connection; the first redo is skipped because the
// change was made before the command was pushed.
#include "ui/model/SnapshotCommand.h"

#include "core/storage/Backup.h"

#include <QDebug>

namespace cdc::ui {

SnapshotCommand::SnapshotCommand(const QString& text, storage::Database& db,
                                 std::shared_ptr<storage::Database> before,
                                 std::shared_ptr<storage::Database> after, Restored onRestored)
    : m_db(db), m_before(std::move(before)), m_after(std::move(after)), m_onRestored(std::move(onRestored)) {
    setText(text);
}

SnapshotCommand::SnapshotCommand(const QString& text, storage::Database& db,
                                 std::shared_ptr<storage::Database> before, Replay replay,
                                 Restored onRestored)
    : m_db(db), m_before(std::move(before)), m_replay(std::move(replay)),
      m_onRestored(std::move(onRestored)) {
    setText(text);
}

void SnapshotCommand::undo() {
    restore(*m_before);
}

void SnapshotCommand::redo() {
    // The change already happened when the command was pushed.
    if (std::exchange(m_firstRedo, false))
        return;
    if (m_after) {
        restore(*m_after);
        return;
    }
    auto tx = storage::Transaction::begin(m_db, "cdc_redo");
    Status replayed = tx ? m_replay(m_db) : Status(tx.error());
    if (replayed && tx)
        replayed = tx->commit();
    if (!replayed)
        qWarning("cannot redo the change: %s", replayed.error().message.c_str());
    if (m_onRestored)
        m_onRestored();
}

void SnapshotCommand::restore(storage::Database& from) {
    if (auto st = storage::copyDatabase(from, m_db); !st)
        qWarning("cannot restore the project state: %s", st.error().message.c_str());
    if (m_onRestored)
        m_onRestored();
}

} // namespace cdc::ui
