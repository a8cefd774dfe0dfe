#pragma once
/// The sample projects of the Samples menu and `--sample`: each is a folder of README,
/// pipeline, source and event scripts compiled into the resources, so the app works with no files installed.

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace cdc::ui {

/// A sample project embedded in the application (resources `:/samples/<id>/`).
struct SampleInfo {
    QString id;
    QString title;       ///< the README's first heading
    QString readme;      ///< the whole README (Markdown), shown in the app
    QString pipeline;    ///< pipeline.sql, or pipeline.py for a Python pipeline
    bool python = false; ///< the pipeline is pipeline.py
    QString sources;     ///< sources.sql: creates the empty source tables
    QString events;      ///< events.sql: its rows become the event queue (optional)
    QStringList steps;   ///< steps/*.sql in name order: each whole script is one queued step, after the rows
    QByteArray lesson;   ///< lesson.json (optional): see Lesson.h
};

namespace samplelibrary {
/// The ids in menu order.
QStringList ids();
/// Loads a sample from the resources; an unknown id gives an empty id.
SampleInfo load(const QString& id);
} // namespace samplelibrary

} // namespace cdc::ui
