// Rich text so that an error and a warning can share the note, each in its own colour; the colours come
// from the palette at each render so that a theme switch repaints them.
#include "ui/widgets/inspector/FieldNote.h"

#include "ui/model/ThemeColors.h"

#include <QEvent>

namespace cdc::ui {

FieldNote::FieldNote(QWidget* parent) : QLabel(parent) {
    setWordWrap(true);
    setTextFormat(Qt::RichText);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    setVisible(false);
}

void FieldNote::setError(const QString& error) {
    m_error = error;
    render();
}

void FieldNote::setWarning(const QString& warning) {
    m_warning = warning;
    render();
}

void FieldNote::changeEvent(QEvent* event) {
    QLabel::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        render();
}

void FieldNote::render() {
    QStringList lines;
    const auto line = [&](const QString& message, const QColor& color) {
        if (!message.isEmpty())
            lines << QStringLiteral("<span style=\"color:%1\">%2</span>")
                         .arg(color.name(), message.toHtmlEscaped().replace(QLatin1Char('\n'), "<br>"));
    };
    line(m_error, themecolors::error(palette()));
    line(m_warning, themecolors::warning(palette()));
    setText(lines.join(QStringLiteral("<br>")));
    setVisible(!lines.isEmpty());
}

} // namespace cdc::ui
