#pragma once
/// Asks how far to move the simulated clock: an amount and a unit, presets for the steps tombstone GC
/// experiments need (2 days + 1 second passes the default threshold), and the time the clock will show.

#include <QDialog>

class QComboBox;
class QLabel;
class QSpinBox;

namespace cdc::ui {

class AdvanceClockDialog : public QDialog {
    Q_OBJECT
public:
    /// `now` is the simulated clock (epoch seconds, UTC).
    AdvanceClockDialog(qint64 now, QWidget* parent = nullptr);

    qint64 seconds() const;
    /// Shows `seconds` in the largest unit that divides it.
    void setSeconds(qint64 seconds);
    QSpinBox* amountBox() const { return m_amount; }
    QComboBox* unitBox() const { return m_unit; }
    QString previewText() const;

private:
    void updatePreview();

    qint64 m_now;
    QSpinBox* m_amount;
    QComboBox* m_unit;
    QLabel* m_preview;
};

} // namespace cdc::ui
