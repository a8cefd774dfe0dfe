#include "ui/model/ChangesetCommand.h"

#include <QDebug>

#include <utility>

namespace cdc::ui {

ChangesetCommand::ChangesetCommand(const QString& text, storage::Database& db, storage::Changeset forward,
                                   storage::Changeset backward, Restored onRestored)
    : m_db(db), m_forward(std::move(forward)), m_backward(std::move(backward)),
      m_onRestored(std::move(onRestored)) {
    setText(text);
}

void ChangesetCommand::undo() {
    apply(m_backward);
}

void ChangesetCommand::redo() {
    // The edit already happened when the command was pushed.
    if (std::exchange(m_firstRedo, false))
        return;
    apply(m_forward);
}

void ChangesetCommand::apply(const storage::Changeset& changes) {
    if (auto st = changes.applyTo(m_db); !st)
        qWarning("cannot restore the project state: %s", st.error().message.c_str());
    if (m_onRestored)
        m_onRestored();
}

} // namespace cdc::ui
