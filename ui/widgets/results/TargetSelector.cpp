// The list is refilled with signals blocked and a change announced once afterwards, so the panel never
// passes through an empty selection, and a refill that keeps the target announces nothing.
#include "ui/widgets/results/TargetSelector.h"

namespace cdc::ui {

TargetSelector::TargetSelector(QWidget* parent) : QComboBox(parent) {
    setSizeAdjustPolicy(QComboBox::AdjustToContents);
    setMinimumContentsLength(12);
    setToolTip(tr("Target table to show"));
    connect(this, &QComboBox::currentTextChanged, this, [this](const QString& text) {
        if (text == m_last)
            return;
        m_last = text;
        emit targetChanged(text);
    });
}

void TargetSelector::setTargets(const QStringList& targets) {
    QStringList current;
    for (int i = 0; i < count(); ++i)
        current << itemText(i);
    if (current == targets)
        return;
    const QString keep = m_last;
    {
        const QSignalBlocker block(this);
        clear();
        addItems(targets);
        const int i = findText(keep, Qt::MatchFixedString);
        setCurrentIndex(i >= 0 ? i : (targets.isEmpty() ? -1 : 0));
    }
    setEnabled(!targets.isEmpty());
    if (currentText() != m_last) {
        m_last = currentText();
        emit targetChanged(m_last);
    }
}

bool TargetSelector::selectTarget(const QString& target) {
    const int i = findText(target, Qt::MatchFixedString);
    if (i < 0)
        return false;
    setCurrentIndex(i);
    return true;
}

} // namespace cdc::ui
