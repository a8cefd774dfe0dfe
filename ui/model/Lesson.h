#pragma once
/// A sample's lesson (samples/<id>/lesson.json): questions asked before some of the sample's updates and the
/// explanations shown after them, for the Predict panel's teaching mode.
///
/// ```json
/// {"title": "Out-of-order events and tombstones",
///  "steps": [{"step": 7, "question": "...", "explanation": "..."}]}
/// ```
/// `step` N is the sample's Nth update: the question is shown while N-1 updates have run, the explanation
/// once N have.

#include "core/common/Diagnostic.h"

#include <QList>
#include <QString>

namespace cdc::ui {

struct LessonStep {
    int update = 0;
    QString question;
    QString explanation;
};

struct Lesson {
    QString title;
    QList<LessonStep> steps; ///< by update, each update at most once

    bool isEmpty() const { return steps.isEmpty(); }
    /// The step of update `update`, or null.
    const LessonStep* step(qint64 update) const;
};

/// Parses a lesson file. Errors (LESSON) carry the file and, for a syntax error, the line and column; a
/// misshapen step names its place (`steps[2].question`).
Result<Lesson> parseLesson(const QByteArray& json, const QString& fileName);

} // namespace cdc::ui
