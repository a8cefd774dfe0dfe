#pragma once
/// How each kind of pipeline node looks: its badge text and its colours, derived from the palette on every
/// paint (so the light and dark themes both work and a theme switch needs no refresh).

#include "core/pipeline/PipelineGraph.h"

#include <QColor>
#include <QPalette>
#include <QString>

namespace cdc::ui {

struct NodeStyle {
    QString badge; ///< "SOURCE", "VIEW", "STREAMING TABLE", "AUTO CDC", "FROM SNAPSHOT", "APPEND", …
    QColor accent; ///< border, icon and badge colour, readable on `fill`
    QColor fill;   ///< body: the palette's Base tinted with the accent
    QColor header; ///< a streaming table's header band (stronger tint)
    QColor text;   ///< the name
    QColor muted;  ///< details
};

/// The label a node of `kind` carries above its name ("STREAMING TABLE", "AUTO CDC").
QString nodeBadge(pipeline::NodeKind kind);
/// The style of `kind` under `palette`.
NodeStyle nodeStyle(pipeline::NodeKind kind, const QPalette& palette);

} // namespace cdc::ui
