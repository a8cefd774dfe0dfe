#pragma once
/// Qt 6.4 has no colour-scheme hint and Fusion's own palette is light only, so the application carries
/// a light and a dark palette for Fusion and works out the desktop's preference itself.

#include <QObject>
#include <QPalette>
#include <QString>

#include <optional>

class QMenu;
class QWidget;

namespace cdc::ui {

/// The application's light and dark themes: a palette for the Fusion style, chosen from View › Theme
/// (System, Light, Dark), applied live to every window and remembered in QSettings (`view/theme`).
///
/// Widgets take their colours from the palette (and ThemeColors / ChangePalette, derived from it) when
/// they paint, and those that keep colours of their own (the SQL editor) re-read them on
/// QEvent::PaletteChange, so switching needs no restart.
///
/// "System" follows the desktop as far as Qt 6.4 can tell (it has no QStyleHints::colorScheme); the
/// first rule that gives an answer decides, see prefersDark().
class ThemeManager : public QObject {
    Q_OBJECT
public:
    enum class Theme { System, Light, Dark };
    Q_ENUM(Theme)

    /// What the desktop says about dark mode, gathered once at start-up.
    struct SystemHints {
        QPalette platformPalette; ///< QApplication::palette() before any theme was applied
        QString gtkTheme;         ///< $GTK_THEME, e.g. "Adwaita:dark"
        QString gnomeColorScheme; ///< gsettings org.gnome.desktop.interface color-scheme (GNOME only)
        QString kdeColorScheme;   ///< [General] ColorScheme of kdeglobals (KDE only)
    };

    /// The manager of this application, created on first use. Creating it records the platform palette
    /// and applies the remembered theme.
    static ThemeManager* instance();

    Theme theme() const { return m_theme; }
    /// True when the applied palette is the dark one (for System: when the desktop prefers dark).
    bool isDark() const { return m_dark; }
    /// Applies `theme` to the whole application now; `remember` stores it as the user's choice.
    void setTheme(Theme theme, bool remember = true);

    /// A View › Theme menu: System, Light and Dark as exclusive, checkable actions kept in step with
    /// the current theme.
    QMenu* createMenu(QWidget* parent);

    /// The dark or the light palette.
    static QPalette palette(bool dark);
    /// The System rule: $GTK_THEME naming a dark variant ("…:dark" or "…-dark"), then GNOME's
    /// color-scheme ('prefer-dark' / 'prefer-light'), then a KDE colour scheme whose name contains
    /// "Dark", and otherwise the platform palette itself (dark when its window colour is).
    static bool prefersDark(const SystemHints& hints);
    static QString name(Theme theme);
    static std::optional<Theme> fromName(const QString& name);

signals:
    void themeChanged(cdc::ui::ThemeManager::Theme theme);

private:
    explicit ThemeManager(QObject* parent);
    static SystemHints readSystemHints(const QPalette& platformPalette);

    SystemHints m_system;
    Theme m_theme = Theme::System;
    bool m_dark = false;
};

} // namespace cdc::ui
