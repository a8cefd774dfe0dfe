// The hues suit our light and dark papers; on any other Base each style is still made readable.
#include "ui/widgets/LexerPalette.h"

#include "ui/model/ThemeColors.h"

#include <Qsci/qscilexer.h>

#include <QApplication>
#include <QFontDatabase>
#include <QPalette>

namespace cdc::ui::lexerpalette {

void apply(QsciLexer& lexer, std::initializer_list<StyleHue> styles, int lastStyle) {
    const QPalette palette = QApplication::palette();
    const bool dark = themecolors::isDark(palette);
    const QColor paper = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    lexer.setDefaultFont(mono);
    lexer.setFont(mono);
    lexer.setPaper(paper);
    lexer.setDefaultPaper(paper);
    lexer.setColor(text);
    lexer.setDefaultColor(text);
    QFont bold = mono;
    bold.setBold(true);
    for (const StyleHue& s : styles) {
        lexer.setColor(QColor(dark ? s.hue.dark : s.hue.light), s.style);
        if (s.hue.bold)
            lexer.setFont(bold, s.style);
    }
    for (int style = 0; style <= lastStyle; ++style) {
        lexer.setPaper(paper, style);
        lexer.setColor(themecolors::readableOn(lexer.color(style), paper), style);
    }
}

} // namespace cdc::ui::lexerpalette
