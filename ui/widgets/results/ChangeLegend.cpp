// A kind the update did not produce is greyed rather than hidden, so the key keeps its layout and
// still tells which colour means what.
#include "ui/widgets/results/ChangeLegend.h"

#include <QHBoxLayout>
#include <QLabel>

namespace cdc::ui {

ChangeLegend::ChangeLegend(const QList<RowChange>& kinds, QWidget* parent) : QWidget(parent) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 0, 4, 0);
    layout->setSpacing(10);
    const int chip = fontMetrics().height() - 4;
    for (RowChange kind : kinds) {
        auto* entry = new QHBoxLayout;
        entry->setSpacing(4);
        auto* icon = new QLabel(this);
        icon->setPixmap(ChangePalette::chip(kind).pixmap(QSize(chip, chip)));
        auto* text = new QLabel(ChangePalette::label(kind), this);
        const QString tip = ChangePalette::description(kind);
        icon->setToolTip(tip);
        text->setToolTip(tip);
        entry->addWidget(icon);
        entry->addWidget(text);
        layout->addLayout(entry);
        m_labels.insert(kind, text);
    }
}

void ChangeLegend::setCounts(const QMap<RowChange, int>& counts) {
    for (auto it = m_labels.begin(); it != m_labels.end(); ++it) {
        const QString name = ChangePalette::label(it.key());
        it.value()->setText(
            counts.contains(it.key()) ? QStringLiteral("%1 %2").arg(name).arg(counts.value(it.key())) : name);
        it.value()->setEnabled(!counts.contains(it.key()) || counts.value(it.key()) > 0);
    }
}

QString ChangeLegend::entryText(RowChange kind) const {
    const QLabel* label = m_labels.value(kind);
    return label ? label->text() : QString();
}

} // namespace cdc::ui
