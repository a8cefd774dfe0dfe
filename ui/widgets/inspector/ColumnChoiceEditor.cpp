#include "ui/widgets/inspector/ColumnChoiceEditor.h"

#include "ui/widgets/inspector/ColumnPicker.h"

#include <QComboBox>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace cdc::ui {

using pipeline::ColumnSelection;

ColumnChoiceEditor::ColumnChoiceEditor(const ModeLabels& modes, QWidget* parent)
    : QWidget(parent), m_mode(new QComboBox(this)), m_picker(new ColumnPicker(false, this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addWidget(m_mode);
    layout->addWidget(m_picker);
    for (const auto& [mode, label] : modes)
        m_mode->addItem(label, int(mode));
    m_picker->setVisible(false);
    connect(m_mode, &QComboBox::activated, this, &ColumnChoiceEditor::modeChosen);
    connect(m_picker, &ColumnPicker::changed, this, &ColumnChoiceEditor::edited);
}

void ColumnChoiceEditor::setValue(const std::optional<ColumnSelection>& value, const QStringList& available) {
    m_available = available;
    Mode mode = Mode::Absent;
    QStringList checked;
    if (value) {
        mode = value->mode == ColumnSelection::Mode::All    ? Mode::All
               : value->mode == ColumnSelection::Mode::Only ? Mode::Only
                                                            : Mode::Except;
        for (const auto& column : value->columns)
            checked << QString::fromStdString(column.name);
    }
    // COLUMNS has no absent form: its absence is "all columns".
    if (m_mode->findData(int(mode)) < 0 && mode == Mode::Absent)
        mode = Mode::All;
    const QSignalBlocker blocker(m_mode);
    m_mode->setCurrentIndex(m_mode->findData(int(mode)));
    m_picker->setColumns(available, checked);
    m_picker->setVisible(mode == Mode::Only || mode == Mode::Except);
    m_pickingMode = mode;
}

ColumnChoiceEditor::Mode ColumnChoiceEditor::currentMode() const {
    return Mode(m_mode->currentData().toInt());
}

std::optional<sql::ColumnChoice> ColumnChoiceEditor::value() const {
    sql::ColumnChoice choice;
    switch (currentMode()) {
    case Mode::Absent:
        return std::nullopt;
    case Mode::All:
        return choice;
    case Mode::Only:
        choice.mode = ColumnSelection::Mode::Only;
        break;
    case Mode::Except:
        choice.mode = ColumnSelection::Mode::Except;
        break;
    }
    for (const QString& column : m_picker->checked())
        choice.columns.push_back(column.toStdString());
    return choice;
}

bool ColumnChoiceEditor::incomplete() const {
    const Mode mode = currentMode();
    return (mode == Mode::Only || mode == Mode::Except) && m_picker->checked().isEmpty();
}

void ColumnChoiceEditor::modeChosen() {
    const Mode mode = currentMode();
    const bool picking = mode == Mode::Only || mode == Mode::Except;
    // "Only these" starts from every column, which means what the clause meant before; "all except" starts
    // from none and waits for the first checked column. The columns checked for one are no start for the
    // other: they would mean the opposite.
    if (picking && mode != m_pickingMode)
        m_picker->setColumns(m_available, mode == Mode::Only ? m_available : QStringList());
    m_pickingMode = mode;
    m_picker->setVisible(picking);
    emit edited();
}

} // namespace cdc::ui
