// The first redo of a typing step does nothing: the document already holds what the editor typed, and
// re-applying it would re-parse on every keystroke instead of after the debounce.
#include "ui/model/PipelineTextCommand.h"

namespace cdc::ui {

PipelineTextCommand::PipelineTextCommand(PipelineDocument* document, QString before, QString after, Kind kind,
                                         const QString& description)
    : QUndoCommand(description), m_document(document), m_before(std::move(before)), m_after(std::move(after)),
      m_kind(kind), m_lastSplice(TextSplice::between(m_before, m_after)), m_lastTime(Clock::now()) {}

void PipelineTextCommand::undo() {
    m_document->applyCommandText(m_before);
}

void PipelineTextCommand::redo() {
    const bool typed = m_firstRedo && m_kind == Kind::Typing;
    m_firstRedo = false;
    if (!typed)
        m_document->applyCommandText(m_after);
}

int PipelineTextCommand::id() const {
    return m_kind == Kind::Typing ? kTypingId : -1;
}

bool PipelineTextCommand::continues(const PipelineTextCommand& next) const {
    const auto pause = std::chrono::duration_cast<std::chrono::milliseconds>(next.m_lastTime - m_lastTime);
    if (pause.count() > PipelineDocument::kTypingPauseMs)
        return false;
    const TextSplice& key = next.m_lastSplice;
    const qsizetype end = m_lastSplice.position + m_lastSplice.inserted.size();
    // Typing on at the caret, or backspacing from it.
    return key.position == end || (key.inserted.isEmpty() && key.position + key.removed.size() == end);
}

bool PipelineTextCommand::mergeWith(const QUndoCommand* other) {
    const auto* next = dynamic_cast<const PipelineTextCommand*>(other);
    if (!next || next->m_kind != Kind::Typing || m_kind != Kind::Typing || next->m_before != m_after ||
        !continues(*next))
        return false;
    m_after = next->m_after;
    m_lastSplice = next->m_lastSplice;
    m_lastTime = next->m_lastTime;
    setObsolete(m_after == m_before);
    return true;
}

} // namespace cdc::ui
