// The tint is recomputed on every palette change, so a theme switch recolours a banner already shown.
#include "ui/widgets/NoticeBanner.h"

#include "ui/model/ThemeColors.h"

#include <QAction>
#include <QApplication>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QToolButton>

namespace cdc::ui {

NoticeBanner::NoticeBanner(QAction* action, QWidget* parent)
    : QFrame(parent), m_icon(new QLabel(this)), m_text(new QLabel(this)), m_button(new QToolButton(this)) {
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 6, 4);
    layout->setSpacing(8);
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize);
    m_icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(size, size));
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::PlainText);
    m_button->setDefaultAction(action);
    m_button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    layout->addWidget(m_icon, 0, Qt::AlignTop);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_button, 0, Qt::AlignVCenter);
    applyPalette();
    hide();
}

void NoticeBanner::showText(const QString& text) {
    m_text->setText(text);
    setVisible(!text.isEmpty());
}

QString NoticeBanner::text() const {
    return m_text->text();
}

void NoticeBanner::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange && !m_applying)
        applyPalette();
    QFrame::changeEvent(event);
}

void NoticeBanner::applyPalette() {
    // A warning tint of the window colour, so it reads in light and dark themes alike.
    m_applying = true;
    QPalette p = QApplication::palette();
    const QColor base = p.color(QPalette::Window);
    const bool dark = base.lightness() < 128;
    p.setColor(QPalette::Window, themecolors::mix(base, themecolors::warning(p), dark ? 0.27 : 0.22));
    setPalette(p);
    m_applying = false;
}

} // namespace cdc::ui
