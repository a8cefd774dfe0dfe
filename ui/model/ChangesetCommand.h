#pragma once
/// The undo step of an edit of a few rows (the event queue, a setting): the rows it changed, recorded by
/// storage::ChangeRecorder, instead of two copies of the whole project. A queue edit in a project with a
/// million events of history used to copy it twice (0.7 s and 0.5 GB per step).

#include "core/storage/Changeset.h"

#include <QUndoCommand>

#include <functional>

namespace cdc::ui {

class ChangesetCommand : public QUndoCommand {
public:
    using Restored = std::function<void()>;
    ChangesetCommand(const QString& text, storage::Database& db, storage::Changeset forward,
                     storage::Changeset backward, Restored onRestored);

    void undo() override;
    void redo() override;

private:
    void apply(const storage::Changeset& changes);
    storage::Database& m_db;
    storage::Changeset m_forward;
    storage::Changeset m_backward;
    Restored m_onRestored;
    bool m_firstRedo = true;
};

} // namespace cdc::ui
