#pragma once
/// A warning strip above the target tables: which targets are out of date with the pipeline (their rows
/// were computed by an earlier definition of their flows) and a button that runs the full refresh
/// that brings them up to date.

#include "core/engine/Engine.h"

#include <QFrame>

#include <vector>

class QAction;
class QLabel;
class QToolButton;

namespace cdc::ui {

class OutdatedBanner : public QFrame {
    Q_OBJECT
public:
    /// `fullRefresh` is the action the button triggers (its text, icon and enabled state follow it).
    OutdatedBanner(QAction* fullRefresh, QWidget* parent = nullptr);

    /// Shows the banner for these targets; hides it when there are none.
    void setTargets(const std::vector<engine::OutdatedTarget>& targets);
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
