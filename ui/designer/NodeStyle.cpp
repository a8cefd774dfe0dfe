// One hue per family (sources slate, views teal, tables blue, flows by what they do), tinted into the
// palette's Base so dark themes get dark nodes; accents are pushed to graphic contrast against the fill.
#include "ui/designer/NodeStyle.h"

#include "ui/model/ThemeColors.h"

#include <QObject>

namespace cdc::ui {

namespace {

struct KindLook {
    const char* badge;
    QRgb hue;
};

KindLook look(pipeline::NodeKind kind) {
    using K = pipeline::NodeKind;
    switch (kind) {
    case K::SourceTable:
        return {QT_TR_NOOP("SOURCE"), 0x64748b};
    case K::TemporaryView:
        return {QT_TR_NOOP("TEMPORARY VIEW"), 0x0d9488};
    case K::View:
        return {QT_TR_NOOP("VIEW"), 0x0d9488};
    case K::MaterializedView:
        return {QT_TR_NOOP("MATERIALIZED VIEW"), 0x0e7490};
    case K::StreamingTable:
        return {QT_TR_NOOP("STREAMING TABLE"), 0x2563eb};
    case K::AutoCdcFlow:
        return {QT_TR_NOOP("AUTO CDC"), 0xc2410c};
    case K::AutoCdcSnapshotFlow:
        return {QT_TR_NOOP("FROM SNAPSHOT"), 0x7c3aed};
    case K::AppendFlow:
        return {QT_TR_NOOP("APPEND"), 0x15803d};
    }
    return {"", 0x64748b};
}

} // namespace

QString nodeBadge(pipeline::NodeKind kind) {
    return QObject::tr(look(kind).badge);
}

NodeStyle nodeStyle(pipeline::NodeKind kind, const QPalette& palette) {
    namespace tc = themecolors;
    const KindLook l = look(kind);
    const QColor base = palette.color(QPalette::Base);
    const QColor hue = QColor::fromRgb(l.hue);
    NodeStyle s;
    s.badge = nodeBadge(kind);
    s.fill = tc::mix(base, hue, tc::isDark(palette) ? 0.16 : 0.07);
    s.header = tc::mix(base, hue, tc::isDark(palette) ? 0.32 : 0.16);
    s.accent = tc::readableOn(hue, s.header, tc::kTextContrast);
    s.text = tc::readableOn(palette.color(QPalette::Text), s.header);
    // Details sit on the fill (tables, views) or on the header tint (flows): readable on both.
    s.muted = tc::readableOn(tc::readableOn(tc::mutedText(palette), s.fill), s.header);
    return s;
}

} // namespace cdc::ui
