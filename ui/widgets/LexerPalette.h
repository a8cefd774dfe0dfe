#pragma once
/// One colour scheme for every editor language: the same hue means the same kind of word (keyword,
/// string, comment, number) in SQL and in Python.

#include <initializer_list>

class QsciLexer;

namespace cdc::ui::lexerpalette {

/// What a kind of word looks like in our light and dark themes.
struct Hue {
    const char* light;
    const char* dark;
    bool bold = false;
};
inline constexpr Hue kKeyword{"#0033b3", "#6fa8ff", true};
inline constexpr Hue kAccent{"#8a1fa8", "#d79bf2", true}; ///< pipeline words, decorators
inline constexpr Hue kFunction{"#00627a", "#56c8d8"};
inline constexpr Hue kName{"#7a4a00", "#e0b060"}; ///< the project's tables and columns
inline constexpr Hue kComment{"#6a737d", "#8b949e"};
inline constexpr Hue kString{"#067d17", "#8fd18f"};
inline constexpr Hue kNumber{"#1750eb", "#f0a070"};
inline constexpr Hue kQuoted{"#871094", "#c792ea"};

/// A lexer style and its hue.
struct StyleHue {
    int style;
    Hue hue;
};

/// Gives `lexer` the application palette's paper and text, the fixed-width font, and each style its hue;
/// then brings styles 0..`lastStyle` to text contrast against the paper (any platform palette reads).
void apply(QsciLexer& lexer, std::initializer_list<StyleHue> styles, int lastStyle);

} // namespace cdc::ui::lexerpalette
