#pragma once
/// Undo for the pipeline text: the whole text before and after, so undo restores it byte for byte
/// whatever produced the change (typing, Format SQL, a graph edit re-printing a statement).

#include "ui/model/PipelineDocument.h"

#include <QUndoCommand>

#include <chrono>

namespace cdc::ui {

/// One change of the pipeline text. Typing steps merge with the typing step before them while the
/// keystrokes continue where the last one ended and come within PipelineDocument::kTypingPauseMs; a step
/// whose merged text is back to where it started drops out of the history.
class PipelineTextCommand : public QUndoCommand {
public:
    enum class Kind { Typing, Edit };
    PipelineTextCommand(PipelineDocument* document, QString before, QString after, Kind kind,
                        const QString& description);

    void undo() override;
    void redo() override;
    int id() const override;
    bool mergeWith(const QUndoCommand* other) override;

    static constexpr int kTypingId = 0x5157;

private:
    using Clock = std::chrono::steady_clock;
    /// Whether `next` continues this step's last keystroke (same place, no pause).
    bool continues(const PipelineTextCommand& next) const;

    PipelineDocument* m_document;
    QString m_before;
    QString m_after;
    Kind m_kind;
    TextSplice m_lastSplice;
    Clock::time_point m_lastTime;
    bool m_firstRedo = true;
};

} // namespace cdc::ui
