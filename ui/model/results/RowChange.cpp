// The four hues are fixed, as in diff views (green, blue, amber, red), so a change looks the same in
// every panel; only their tints and text shades follow the theme, through ThemeColors' contrast rules.
#include "ui/model/results/RowChange.h"

#include "ui/model/ThemeColors.h"

#include <QGuiApplication>
#include <QPainter>
#include <QPixmap>

namespace cdc::ui {

QColor ChangePalette::accent(RowChange change) {
    switch (change) {
    case RowChange::Inserted:
        return QColor(0x2e, 0xa0, 0x43); // green
    case RowChange::Updated:
        return QColor(0x2f, 0x81, 0xf7); // blue
    case RowChange::Closed:
        return QColor(0xd2, 0x99, 0x22); // amber
    case RowChange::Deleted:
        return QColor(0xe5, 0x48, 0x4d); // red
    case RowChange::None:
        break;
    }
    return QColor(0x8b, 0x94, 0x9e);
}

QColor ChangePalette::mix(const QColor& a, const QColor& b, double amountOfB) {
    return themecolors::mix(a, b, amountOfB);
}

bool ChangePalette::isDark(const QPalette& palette) {
    return themecolors::isDark(palette);
}

QColor ChangePalette::background(RowChange change, const QPalette& palette) {
    if (change == RowChange::None)
        return {};
    // Dark bases need a stronger tint to be noticed; light bases a softer one to keep text readable.
    return mix(palette.color(QPalette::Base), accent(change), isDark(palette) ? 0.34 : 0.20);
}

QColor ChangePalette::ghostText(const QPalette& palette) {
    // Removed rows sit on the Deleted tint in the target table: muted, but readable there too.
    return themecolors::readableOn(themecolors::mutedText(palette), background(RowChange::Deleted, palette));
}

QColor ChangePalette::accentText(RowChange change, const QPalette& palette) {
    return themecolors::readableOn(themecolors::readableOn(accent(change), palette.color(QPalette::Base)),
                                   palette.color(QPalette::AlternateBase));
}

QIcon ChangePalette::chip(RowChange change) {
    const qreal dpr = qGuiApp ? qGuiApp->devicePixelRatio() : 1.0;
    QPixmap pm(QSize(12, 12) * dpr);
    pm.setDevicePixelRatio(dpr);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    const QColor c = accent(change);
    p.setPen(QPen(c.darker(115), 1));
    p.setBrush(mix(c, Qt::white, 0.15));
    p.drawRoundedRect(QRectF(1.5, 1.5, 9, 9), 2, 2);
    return QIcon(pm);
}

QString ChangePalette::label(RowChange change) {
    switch (change) {
    case RowChange::Inserted:
        return QObject::tr("Inserted");
    case RowChange::Updated:
        return QObject::tr("Changed");
    case RowChange::Closed:
        return QObject::tr("Closed");
    case RowChange::Deleted:
        return QObject::tr("Deleted");
    case RowChange::None:
        break;
    }
    return QObject::tr("Unchanged");
}

QString ChangePalette::description(RowChange change) {
    switch (change) {
    case RowChange::Inserted:
        return QObject::tr("Row inserted by this update (SCD2: a new version)");
    case RowChange::Updated:
        return QObject::tr("Row changed in place by this update");
    case RowChange::Closed:
        return QObject::tr("SCD2 version closed by this update (__END_AT set)");
    case RowChange::Deleted:
        return QObject::tr("Row removed by this update (shown from the change feed)");
    case RowChange::None:
        break;
    }
    return QObject::tr("Not touched by this update");
}

RowChange rowChangeFromChangeType(const QString& changeType) {
    if (changeType == QLatin1String("insert"))
        return RowChange::Inserted;
    if (changeType == QLatin1String("update_postimage"))
        return RowChange::Updated;
    if (changeType == QLatin1String("delete"))
        return RowChange::Deleted;
    return RowChange::None;
}

} // namespace cdc::ui
