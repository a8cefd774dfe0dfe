// The ids are listed here rather than read from the resource folder so the menu keeps a teaching
// order (SCD1 before SCD2, the labs last).
#include "ui/model/SampleLibrary.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>

namespace cdc::ui::samplelibrary {

namespace {
QString readResource(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return {};
    return QString::fromUtf8(file.readAll());
}
} // namespace

QStringList ids() {
    return {QStringLiteral("scd1-users"),       QStringLiteral("scd1-truncate"),
            QStringLiteral("scd2-users"),       QStringLiteral("scd2-track-history"),
            QStringLiteral("snapshot-users"),   QStringLiteral("snapshot-users-python"),
            QStringLiteral("out-of-order-lab"), QStringLiteral("tombstone-gc-lab")};
}

SampleInfo load(const QString& id) {
    if (!ids().contains(id))
        return {};
    const QString base = QStringLiteral(":/samples/%1/").arg(id);
    SampleInfo info;
    info.id = id;
    info.readme = readResource(base + QLatin1String("README.md"));
    info.python = QFile::exists(base + QLatin1String("pipeline.py"));
    info.pipeline =
        readResource(base + (info.python ? QLatin1String("pipeline.py") : QLatin1String("pipeline.sql")));
    info.sources = readResource(base + QLatin1String("sources.sql"));
    info.events = readResource(base + QLatin1String("events.sql"));
    if (QFile lesson(base + QLatin1String("lesson.json")); lesson.open(QIODevice::ReadOnly))
        info.lesson = lesson.readAll();
    const QDir steps(base + QLatin1String("steps"));
    for (const QString& name : steps.entryList({QStringLiteral("*.sql")}, QDir::Files, QDir::Name))
        info.steps << readResource(steps.filePath(name));
    const auto heading =
        QRegularExpression(QStringLiteral("^#\\s+(.+)$"), QRegularExpression::MultilineOption)
            .match(info.readme);
    info.title = heading.hasMatch() ? heading.captured(1).trimmed() : id;
    return info;
}

} // namespace cdc::ui::samplelibrary
