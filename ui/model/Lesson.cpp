// nlohmann-json rather than QJsonDocument: its parse errors give the byte offset, which becomes the line and
// column a sample's author needs.
#include "ui/model/Lesson.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace cdc::ui {

namespace {

Diagnostic lessonError(const QString& fileName, const std::string& message, int line = 0, int column = 0) {
    SourceLocation where;
    where.file = fileName.toStdString();
    where.line = line;
    where.column = column;
    return Diagnostic::error("LESSON", message, where);
}

/// 1-based line and column of byte `offset` of `text`.
std::pair<int, int> lineColumn(const QByteArray& text, std::size_t offset) {
    int line = 1, column = 1;
    for (std::size_t b = 0; b < offset && b < static_cast<std::size_t>(text.size()); ++b) {
        if (text[static_cast<qsizetype>(b)] == '\n') {
            ++line;
            column = 1;
        } else
            ++column;
    }
    return {line, column};
}

std::optional<QString> nonEmptyString(const nlohmann::json& object, const char* name) {
    const auto it = object.find(name);
    if (it == object.end() || !it->is_string() || it->get<std::string>().empty())
        return std::nullopt;
    return QString::fromStdString(it->get<std::string>());
}

} // namespace

const LessonStep* Lesson::step(qint64 update) const {
    for (const LessonStep& s : steps)
        if (s.update == update)
            return &s;
    return nullptr;
}

Result<Lesson> parseLesson(const QByteArray& json, const QString& fileName) {
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(json.begin(), json.end());
    } catch (const nlohmann::json::parse_error& e) {
        // e.byte is 1-based: the byte at which the parser stopped.
        const auto [line, column] = lineColumn(json, e.byte > 0 ? e.byte - 1 : 0);
        std::string what = e.what();
        if (const auto colon = what.rfind(": "); colon != std::string::npos)
            what =
                what.substr(colon + 2); // without nlohmann's "[json.exception...] parse error at ..." prefix
        return lessonError(fileName, "not valid JSON: " + what, line, column);
    }
    if (!doc.is_object())
        return lessonError(fileName, "a lesson is a JSON object with \"title\" and \"steps\"");
    Lesson lesson;
    lesson.title = nonEmptyString(doc, "title").value_or(QString());
    if (lesson.title.isEmpty())
        return lessonError(fileName, "\"title\" must be a non-empty string");
    const auto steps = doc.find("steps");
    if (steps == doc.end() || !steps->is_array() || steps->empty())
        return lessonError(fileName, "\"steps\" must be a non-empty array");
    for (std::size_t i = 0; i < steps->size(); ++i) {
        const nlohmann::json& s = (*steps)[i];
        const std::string at = "steps[" + std::to_string(i) + "]";
        if (!s.is_object())
            return lessonError(fileName, at + " must be an object");
        const auto update = s.find("step");
        if (update == s.end() || !update->is_number_integer() || update->get<long long>() < 1 ||
            update->get<long long>() > 1000000)
            return lessonError(fileName, at + ".step must be the number of an update (1 or more)");
        LessonStep step;
        step.update = static_cast<int>(update->get<long long>());
        if (lesson.step(step.update))
            return lessonError(fileName,
                               at + ".step: update " + std::to_string(step.update) + " has a step already");
        const auto question = nonEmptyString(s, "question");
        if (!question)
            return lessonError(fileName, at + ".question must be a non-empty string");
        const auto explanation = nonEmptyString(s, "explanation");
        if (!explanation)
            return lessonError(fileName, at + ".explanation must be a non-empty string");
        step.question = *question;
        step.explanation = *explanation;
        lesson.steps << step;
    }
    std::sort(lesson.steps.begin(), lesson.steps.end(),
              [](const LessonStep& a, const LessonStep& b) { return a.update < b.update; });
    return lesson;
}

} // namespace cdc::ui
