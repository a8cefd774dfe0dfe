// The dark palette sets every role a widget or ThemeColors reads, active and disabled; the light one
// is Fusion's with three roles fixed for contrast. The desktop is asked once, at start-up.
#include "ui/widgets/ThemeManager.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QMenu>
#include <QProcess>
#include <QProcessEnvironment>
#include <QSettings>
#include <QStandardPaths>
#include <QStyle>
#include <QStyleFactory>

#include <memory>

namespace cdc::ui {

namespace {
const QString kSettingsKey = QStringLiteral("view/theme");

QPalette darkPalette() {
    // One table: every role a widget or ThemeColors reads, for the active and the disabled state.
    const QColor window(0x2b, 0x2d, 0x30), base(0x1e, 0x1f, 0x22), text(0xdf, 0xe1, 0xe5);
    const QColor disabledText(0x80, 0x84, 0x8b);
    QPalette p;
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x28, 0x2b));
    p.setColor(QPalette::ToolTipBase, QColor(0x3c, 0x3f, 0x44));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9e, 0xa6));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(0x35, 0x38, 0x3c));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x68));
    p.setColor(QPalette::Light, QColor(0x4a, 0x4d, 0x52));
    p.setColor(QPalette::Midlight, QColor(0x3d, 0x40, 0x45));
    p.setColor(QPalette::Mid, QColor(0x25, 0x27, 0x2a));
    p.setColor(QPalette::Dark, QColor(0x17, 0x18, 0x1a));
    p.setColor(QPalette::Shadow, QColor(0x0b, 0x0b, 0x0c));
    p.setColor(QPalette::Highlight, QColor(0x2f, 0x65, 0xca));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x6e, 0xa8, 0xfe));
    p.setColor(QPalette::LinkVisited, QColor(0xb4, 0x8e, 0xf0));
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabledText);
    p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(0x3b, 0x3f, 0x45));
    p.setColor(QPalette::Disabled, QPalette::Base, window);
    return p;
}

QPalette lightPalette() {
    const std::unique_ptr<QStyle> fusion(QStyleFactory::create(QStringLiteral("Fusion")));
    QPalette p = fusion->standardPalette();
    // Fusion's placeholder is half-transparent text, its selection too light for white text and its links
    // pure blue: all three brought to text contrast.
    p.setColor(QPalette::PlaceholderText, QColor(0x66, 0x66, 0x66));
    p.setColor(QPalette::Highlight, QColor(0x2b, 0x6c, 0xb0));
    p.setColor(QPalette::Link, QColor(0x0b, 0x5c, 0xad));
    p.setColor(QPalette::LinkVisited, QColor(0x6f, 0x42, 0xc1));
    return p;
}

bool namesDark(const QString& name) {
    return name.contains(QLatin1String("dark"), Qt::CaseInsensitive);
}
} // namespace

ThemeManager* ThemeManager::instance() {
    static ThemeManager* manager = nullptr;
    if (!manager)
        manager = new ThemeManager(qApp);
    return manager;
}

ThemeManager::ThemeManager(QObject* parent)
    : QObject(parent), m_system(readSystemHints(QApplication::palette())) {
    const auto saved = fromName(QSettings().value(kSettingsKey).toString());
    setTheme(saved.value_or(Theme::System), false);
}

ThemeManager::SystemHints ThemeManager::readSystemHints(const QPalette& platformPalette) {
    SystemHints hints;
    hints.platformPalette = platformPalette;
    const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    hints.gtkTheme = env.value(QStringLiteral("GTK_THEME"));
    const QString desktop = env.value(QStringLiteral("XDG_CURRENT_DESKTOP"));
    if (desktop.contains(QLatin1String("GNOME"), Qt::CaseInsensitive)) {
        const QString gsettings = QStandardPaths::findExecutable(QStringLiteral("gsettings"));
        if (!gsettings.isEmpty()) {
            QProcess process;
            process.start(gsettings, {QStringLiteral("get"), QStringLiteral("org.gnome.desktop.interface"),
                                      QStringLiteral("color-scheme")});
            // A desktop that does not answer within a moment is not worth a slow start.
            if (process.waitForFinished(500))
                hints.gnomeColorScheme = QString::fromUtf8(process.readAllStandardOutput()).trimmed();
            else
                process.kill();
        }
    }
    if (desktop.contains(QLatin1String("KDE"), Qt::CaseInsensitive)) {
        const QString path =
            QStandardPaths::locate(QStandardPaths::GenericConfigLocation, QStringLiteral("kdeglobals"));
        if (!path.isEmpty())
            hints.kdeColorScheme =
                QSettings(path, QSettings::IniFormat).value(QStringLiteral("General/ColorScheme")).toString();
    }
    return hints;
}

bool ThemeManager::prefersDark(const SystemHints& hints) {
    if (!hints.gtkTheme.isEmpty())
        return hints.gtkTheme.endsWith(QLatin1String(":dark"), Qt::CaseInsensitive) ||
               namesDark(hints.gtkTheme);
    if (hints.gnomeColorScheme.contains(QLatin1String("prefer-dark")))
        return true;
    if (hints.gnomeColorScheme.contains(QLatin1String("prefer-light")))
        return false;
    if (!hints.kdeColorScheme.isEmpty())
        return namesDark(hints.kdeColorScheme);
    return hints.platformPalette.color(QPalette::Window).lightnessF() < 0.5;
}

QPalette ThemeManager::palette(bool dark) {
    return dark ? darkPalette() : lightPalette();
}

QString ThemeManager::name(Theme theme) {
    switch (theme) {
    case Theme::Light:
        return QStringLiteral("light");
    case Theme::Dark:
        return QStringLiteral("dark");
    case Theme::System:
        break;
    }
    return QStringLiteral("system");
}

std::optional<ThemeManager::Theme> ThemeManager::fromName(const QString& name) {
    for (Theme t : {Theme::System, Theme::Light, Theme::Dark})
        if (name.compare(ThemeManager::name(t), Qt::CaseInsensitive) == 0)
            return t;
    return std::nullopt;
}

void ThemeManager::setTheme(Theme theme, bool remember) {
    if (remember)
        QSettings().setValue(kSettingsKey, name(theme));
    m_theme = theme;
    m_dark = theme == Theme::Dark || (theme == Theme::System && prefersDark(m_system));
    // The palettes are made for Fusion; other styles draw some parts with colours of their own.
    if (QApplication::style()->name().compare(QLatin1String("fusion"), Qt::CaseInsensitive) != 0)
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    QApplication::setPalette(palette(m_dark));
    emit themeChanged(theme);
}

QMenu* ThemeManager::createMenu(QWidget* parent) {
    auto* menu = new QMenu(tr("&Theme"), parent);
    menu->setObjectName(QStringLiteral("themeMenu"));
    auto* group = new QActionGroup(menu);
    group->setExclusive(true);
    const std::pair<Theme, QString> entries[] = {
        {Theme::System, tr("&System")}, {Theme::Light, tr("&Light")}, {Theme::Dark, tr("&Dark")}};
    for (const auto& [theme, text] : entries) {
        QAction* action = menu->addAction(text);
        action->setObjectName(QStringLiteral("theme-%1").arg(name(theme)));
        action->setCheckable(true);
        action->setChecked(theme == m_theme);
        group->addAction(action);
        connect(action, &QAction::triggered, this, [this, theme = theme] { setTheme(theme); });
        connect(this, &ThemeManager::themeChanged, action,
                [action, theme = theme](Theme now) { action->setChecked(now == theme); });
    }
    menu->actions().first()->setStatusTip(tr("Follow the desktop's light or dark preference"));
    return menu;
}

} // namespace cdc::ui
