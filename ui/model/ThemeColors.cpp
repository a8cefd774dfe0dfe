// The WCAG formulas as the standard writes them, and the base hues of error and warning text for
// light and dark themes, nudged by readableOn() until they pass on both Base and AlternateBase.
#include "ui/model/ThemeColors.h"

#include <QtMath>

#include <algorithm>

namespace cdc::ui::themecolors {

namespace {
double channel(double c) {
    return c <= 0.04045 ? c / 12.92 : qPow((c + 0.055) / 1.055, 2.4);
}

/// A hue that must read on both content backgrounds of a palette (views alternate Base and AlternateBase).
QColor readableOnContent(const QColor& hue, const QPalette& palette) {
    return readableOn(readableOn(hue, palette.color(QPalette::Base)), palette.color(QPalette::AlternateBase));
}
} // namespace

bool isDark(const QPalette& palette) {
    return palette.color(QPalette::Base).lightnessF() < 0.5;
}

QColor mix(const QColor& a, const QColor& b, double amountOfB) {
    const double k = qBound(0.0, amountOfB, 1.0);
    return QColor::fromRgbF(static_cast<float>(a.redF() * (1 - k) + b.redF() * k),
                            static_cast<float>(a.greenF() * (1 - k) + b.greenF() * k),
                            static_cast<float>(a.blueF() * (1 - k) + b.blueF() * k));
}

double luminance(const QColor& color) {
    const QColor c = color.toRgb();
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

double contrastRatio(const QColor& a, const QColor& b) {
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor readableOn(const QColor& foreground, const QColor& background, double minimum) {
    if (contrastRatio(foreground, background) >= minimum)
        return foreground;
    // Black reaches more contrast on light backgrounds and white on dark ones; the hue is kept as long as it
    // can be.
    const QColor target = contrastRatio(Qt::black, background) >= contrastRatio(Qt::white, background)
                              ? QColor(Qt::black)
                              : QColor(Qt::white);
    for (int step = 1; step <= 20; ++step) {
        const QColor candidate = mix(foreground, target, step / 20.0);
        if (contrastRatio(candidate, background) >= minimum)
            return candidate;
    }
    return target;
}

QColor error(const QPalette& palette) {
    return readableOnContent(isDark(palette) ? QColor(0xff, 0x6b, 0x68) : QColor(0xc6, 0x28, 0x28), palette);
}

QColor warning(const QPalette& palette) {
    return readableOnContent(isDark(palette) ? QColor(0xf0, 0xb4, 0x29) : QColor(0x9a, 0x62, 0x00), palette);
}

QColor mutedText(const QPalette& palette) {
    return readableOnContent(mix(palette.color(QPalette::Text), palette.color(QPalette::Base), 0.45),
                             palette);
}

} // namespace cdc::ui::themecolors
