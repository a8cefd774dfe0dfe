#pragma once
/// A warning strip: an icon, a sentence and the button that deals with it, tinted with the theme's
/// warning colour. The window's banners (targets out of date, a Python pipeline not run yet) are these.

#include <QFrame>

class QAction;
class QLabel;
class QToolButton;

namespace cdc::ui {

class NoticeBanner : public QFrame {
    Q_OBJECT
public:
    /// `action` is what the button triggers (its text, icon and enabled state follow it). Hidden until
    /// a text is shown.
    NoticeBanner(QAction* action, QWidget* parent = nullptr);

    /// Shows the banner with `text`; an empty text hides it.
    void showText(const QString& text);
    QString text() const;
    QToolButton* button() const { return m_button; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void applyPalette();

    QLabel* m_icon;
    QLabel* m_text;
    QToolButton* m_button;
    bool m_applying = false; ///< setPalette inside applyPalette sends a PaletteChange of its own
};

} // namespace cdc::ui
