#pragma once
/// The SCD2 timeline's colours for one palette, in one place: lane stripes, grid, separators, bars and
/// the text drawn on them. Derived from the palette and the change hues, so they follow the theme.

#include "ui/model/results/RowChange.h"

#include <QColor>
#include <QPalette>

namespace cdc::ui {

struct TimelineColors {
    QColor base;         ///< plot background
    QColor window;       ///< header and key gutter
    QColor windowText;   ///< tick labels and keys with a current version
    QColor stripe;       ///< every other lane
    QColor selectedLane; ///< the lane of the selected version
    QColor grid;         ///< dotted lines at the ticks
    QColor rule;         ///< header and gutter separators, tick marks
    QColor quietText;    ///< "Key", "current" and keys without a current version, on `window`
    QColor selection;    ///< outline of the selected bar
    QColor removed;      ///< removed versions, delete marks and unknown starts

    static TimelineColors from(const QPalette& palette);

    /// A version's fill: its change hue (a neutral one when untouched) blended into the background.
    QColor barFill(RowChange change, bool hovered = false) const;
    QColor barBorder(RowChange change) const;
    /// The label colour on a bar's fill: the palette's text, adjusted until it reads there.
    QColor barLabel(RowChange change, bool hovered = false) const;

private:
    QColor m_text;
    bool m_dark = false;
};

} // namespace cdc::ui
