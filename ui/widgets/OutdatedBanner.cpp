// The wording depends on the cause: a schema change makes the next update refuse to run, a changed
// expression only leaves processed rows stale. The amber tint is recomputed on every palette change.
#include "ui/widgets/OutdatedBanner.h"

#include "ui/model/ThemeColors.h"

#include <QAction>
#include <QApplication>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QToolButton>

namespace cdc::ui {

OutdatedBanner::OutdatedBanner(QAction* fullRefresh, QWidget* parent)
    : QFrame(parent), m_icon(new QLabel(this)), m_text(new QLabel(this)), m_button(new QToolButton(this)) {
    setObjectName(QStringLiteral("outdatedBanner"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 6, 4);
    layout->setSpacing(8);
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize);
    m_icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(size, size));
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::PlainText);
    m_button->setDefaultAction(fullRefresh);
    m_button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    layout->addWidget(m_icon, 0, Qt::AlignTop);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_button, 0, Qt::AlignVCenter);
    applyPalette();
    hide();
}

void OutdatedBanner::setTargets(const std::vector<engine::OutdatedTarget>& targets) {
    if (targets.empty()) {
        hide();
        m_text->clear();
        return;
    }
    QStringList names;
    bool schema = false;
    for (const engine::OutdatedTarget& t : targets) {
        names << QString::fromStdString(t.target);
        schema = schema || t.code == "SCHEMA_CHANGED";
    }
    const QString which = names.size() == 1 ? tr("%1 is").arg(names.front())
                                            : tr("%1 are").arg(names.join(QLatin1String(", ")));
    m_text->setText(
        schema
            ? tr("%1 out of date with the pipeline: a key, column, sequence or SCD type changed, so the "
                 "next update will refuse to run. A full refresh rebuilds from every delivered row.")
                  .arg(which)
            : tr("%1 out of date with the pipeline: its rows were computed by an earlier definition of "
                 "its flows, and rows already processed keep those values. A full refresh recomputes them.")
                  .arg(which));
    setToolTip(QString::fromStdString(targets.front().message));
    show();
}

QString OutdatedBanner::text() const {
    return m_text->text();
}

void OutdatedBanner::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange && !m_applying)
        applyPalette();
    QFrame::changeEvent(event);
}

void OutdatedBanner::applyPalette() {
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
