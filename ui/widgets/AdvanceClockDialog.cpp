// An amount and a unit rather than a date editor: the clock only moves forward and the GC threshold
// is a duration. A preset shows in the largest unit that divides it, so it reads in days, not seconds.
#include "ui/widgets/AdvanceClockDialog.h"

#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <array>

namespace cdc::ui {

namespace {

struct Unit {
    const char* name;
    qint64 seconds;
};
constexpr std::array<Unit, 5> kUnits{
    {{"seconds", 1}, {"minutes", 60}, {"hours", 3600}, {"days", 86400}, {"weeks", 604800}}};

struct Preset {
    const char* label;
    qint64 seconds;
};
constexpr std::array<Preset, 5> kPresets{
    {{"1 minute", 60}, {"1 hour", 3600}, {"1 day", 86400}, {"2 days + 1 s", 172801}, {"1 week", 604800}}};

QString utc(qint64 epochSeconds) {
    return QDateTime::fromSecsSinceEpoch(epochSeconds, Qt::UTC)
        .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'"));
}

} // namespace

AdvanceClockDialog::AdvanceClockDialog(qint64 now, QWidget* parent)
    : QDialog(parent), m_now(now), m_amount(new QSpinBox(this)), m_unit(new QComboBox(this)),
      m_preview(new QLabel(this)) {
    setWindowTitle(tr("Advance Clock"));
    auto* layout = new QVBoxLayout(this);
    auto* intro =
        new QLabel(tr("Move the simulated clock forward. The next update collects the tombstones older than "
                      "their table's <code>pipelines.cdc.tombstoneGCThresholdInSeconds</code> (2 days unless "
                      "set)."),
                   this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    m_amount->setRange(1, 1000000000);
    m_amount->setAccelerated(true);
    for (const Unit& u : kUnits)
        m_unit->addItem(tr(u.name), u.seconds);
    auto* amountRow = new QHBoxLayout;
    amountRow->addWidget(m_amount, 1);
    amountRow->addWidget(m_unit);
    auto* form = new QFormLayout;
    form->addRow(tr("&By:"), amountRow);

    auto* presets = new QHBoxLayout;
    presets->setSpacing(4);
    for (const Preset& p : kPresets) {
        auto* button = new QPushButton(tr(p.label), this);
        button->setAutoDefault(false);
        connect(button, &QPushButton::clicked, this, [this, seconds = p.seconds] { setSeconds(seconds); });
        presets->addWidget(button);
    }
    form->addRow(tr("Presets:"), presets);
    form->addRow(tr("Clock now:"), new QLabel(utc(now), this));
    form->addRow(tr("Afterwards:"), m_preview);
    layout->addLayout(form);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("&Advance"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);

    connect(m_amount, &QSpinBox::valueChanged, this, &AdvanceClockDialog::updatePreview);
    connect(m_unit, &QComboBox::currentIndexChanged, this, &AdvanceClockDialog::updatePreview);
    setSeconds(7200);
    m_amount->setFocus();
    m_amount->selectAll();
    // The explanation wraps at the width the controls need instead of stretching the dialog.
    intro->setMinimumWidth(sizeHint().width());
    setFixedHeight(sizeHint().height());
}

qint64 AdvanceClockDialog::seconds() const {
    return qint64(m_amount->value()) * m_unit->currentData().toLongLong();
}

void AdvanceClockDialog::setSeconds(qint64 seconds) {
    int unit = 0;
    for (int i = int(kUnits.size()) - 1; i >= 0; --i)
        if (seconds % kUnits[std::size_t(i)].seconds == 0) {
            unit = i;
            break;
        }
    const QSignalBlocker blockUnit(m_unit);
    m_unit->setCurrentIndex(unit);
    m_amount->setValue(int(seconds / kUnits[std::size_t(unit)].seconds));
    updatePreview();
}

QString AdvanceClockDialog::previewText() const {
    return m_preview->text();
}

void AdvanceClockDialog::updatePreview() {
    m_preview->setText(utc(m_now + seconds()));
}

} // namespace cdc::ui
