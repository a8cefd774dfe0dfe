// Untouched versions get a neutral slate hue so the change colours stand out; fills are mixed more
// strongly on dark bases, and labels are brought to contrast on whatever fill they sit on.
#include "ui/widgets/results/TimelineColors.h"

#include "ui/model/ThemeColors.h"

namespace cdc::ui {

namespace {
QColor neutralHue() {
    return QColor(0x6b, 0x82, 0x9e);
}
QColor hueOf(RowChange change) {
    return change == RowChange::None ? neutralHue() : ChangePalette::accent(change);
}
} // namespace

TimelineColors TimelineColors::from(const QPalette& palette) {
    using themecolors::mix;
    TimelineColors c;
    c.m_dark = themecolors::isDark(palette);
    c.m_text = palette.color(QPalette::Text);
    c.base = palette.color(QPalette::Base);
    c.window = palette.color(QPalette::Window);
    c.windowText = palette.color(QPalette::WindowText);
    c.stripe = mix(c.base, c.m_text, c.m_dark ? 0.04 : 0.025);
    c.selectedLane = mix(c.base, palette.color(QPalette::Highlight), 0.10);
    c.grid = mix(c.base, c.m_text, 0.10);
    c.rule = mix(c.window, c.windowText, 0.18);
    c.quietText = themecolors::readableOn(mix(c.windowText, c.window, 0.45), c.window);
    c.selection = palette.color(QPalette::Highlight);
    c.removed = ChangePalette::accent(RowChange::Deleted);
    return c;
}

QColor TimelineColors::barFill(RowChange change, bool hovered) const {
    const bool changed = change != RowChange::None;
    // Dark backgrounds need more of the hue to show; light ones less, to keep the label readable.
    const QColor fill =
        themecolors::mix(base, hueOf(change), changed ? (m_dark ? 0.50 : 0.34) : (m_dark ? 0.42 : 0.24));
    return hovered ? themecolors::mix(fill, hueOf(change), 0.15) : fill;
}

QColor TimelineColors::barBorder(RowChange change) const {
    return themecolors::mix(base, hueOf(change), change != RowChange::None ? 1.0 : (m_dark ? 0.75 : 0.6));
}

QColor TimelineColors::barLabel(RowChange change, bool hovered) const {
    return themecolors::readableOn(m_text, barFill(change, hovered));
}

} // namespace cdc::ui
