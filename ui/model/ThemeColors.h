#pragma once
/// The colours the palette has no role for (error and warning text, muted text, tints), derived from a
/// palette so that they follow the light and dark themes, and the contrast arithmetic that keeps every
/// foreground readable on the background it is drawn on.

#include <QColor>
#include <QPalette>

namespace cdc::ui::themecolors {

/// The WCAG 2 contrast ratio a text colour needs against its background (normal-size text, level AA).
inline constexpr double kTextContrast = 4.5;
/// The ratio for graphics that carry meaning without text (squiggles, markers, outlines).
inline constexpr double kGraphicContrast = 3.0;

/// True when the palette's Base (where content is drawn) is dark.
bool isDark(const QPalette& palette);
/// `a` blended towards `b` by `amountOfB` (0..1), opaque.
QColor mix(const QColor& a, const QColor& b, double amountOfB);
/// WCAG 2 relative luminance (0 = black, 1 = white).
double luminance(const QColor& color);
/// WCAG 2 contrast ratio between two opaque colours (1..21).
double contrastRatio(const QColor& a, const QColor& b);
/// `foreground`, moved towards black or white (whichever the background lets it reach) just far enough to
/// have `minimum` contrast against `background`.
QColor readableOn(const QColor& foreground, const QColor& background, double minimum = kTextContrast);

/// Text and squiggles that report an error, readable on Base and AlternateBase.
QColor error(const QPalette& palette);
/// Text and squiggles that report a warning, readable on Base and AlternateBase.
QColor warning(const QPalette& palette);
/// Secondary text (comments, removed rows, quiet labels): half way to the background, still readable.
QColor mutedText(const QPalette& palette);

} // namespace cdc::ui::themecolors
