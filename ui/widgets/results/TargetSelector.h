#pragma once
/// The "Target" combo box of the result panels: refilled after every update while keeping the
/// user's choice, and announcing only real changes of the selected target.

#include <QComboBox>

namespace cdc::ui {

class TargetSelector : public QComboBox {
    Q_OBJECT
public:
    explicit TargetSelector(QWidget* parent = nullptr);

    /// Replaces the list; the selected target stays selected when it is still listed.
    void setTargets(const QStringList& targets);
    QString currentTarget() const { return currentText(); }
    /// Selects `target` if listed; returns whether it is.
    bool selectTarget(const QString& target);

signals:
    void targetChanged(const QString& target);

private:
    QString m_last;
};

} // namespace cdc::ui
