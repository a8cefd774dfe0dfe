#pragma once
/// The project's only kind of undo command (pushed by Project for edits and by SimulationRunner for
/// runs): a whole-database copy stays right for changes the engine makes, which no hand-written inverse
/// would follow.

#include "core/storage/Database.h"

#include <QUndoCommand>

#include <functional>
#include <memory>

namespace cdc::ui {

/// An undoable change of the project database, kept as the whole database before and after it
/// (in-memory copies through the backup API). Exact for any change — queue edits, updates, rewinds —
/// which is what "undo a rewind" needs.
class SnapshotCommand : public QUndoCommand {
public:
    using Restored = std::function<void()>;
    /// Makes the change again on the state before it (one transaction).
    using Replay = std::function<Status(storage::Database&)>;
    SnapshotCommand(const QString& text, storage::Database& db, std::shared_ptr<storage::Database> before,
                    std::shared_ptr<storage::Database> after, Restored onRestored);
    /// For a change that is cheap to make again and exact to repeat (a rewind: what it costs is what it
    /// undoes): redo replays it instead of keeping a second whole copy.
    SnapshotCommand(const QString& text, storage::Database& db, std::shared_ptr<storage::Database> before,
                    Replay replay, Restored onRestored);

    void undo() override;
    void redo() override;

private:
    void restore(storage::Database& from);
    storage::Database& m_db;
    std::shared_ptr<storage::Database> m_before;
    std::shared_ptr<storage::Database> m_after;
    Replay m_replay;
    Restored m_onRestored;
    bool m_firstRedo = true;
};

} // namespace cdc::ui
