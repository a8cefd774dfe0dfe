#pragma once
/// A column selection as COLUMNS, TRACK HISTORY ON and IGNORE NULL UPDATES write it: a mode (the clause
/// absent, every column, only these, all except these) and, for the last two, the columns to check.

#include "core/pipeline/Pipeline.h"
#include "core/sql/PipelineEdits.h"

#include <QWidget>

#include <optional>

class QComboBox;

namespace cdc::ui {

class ColumnPicker;

class ColumnChoiceEditor : public QWidget {
    Q_OBJECT
public:
    enum class Mode { Absent, All, Only, Except };
    /// The modes offered, each with its label, in the combo's order.
    using ModeLabels = std::vector<std::pair<Mode, QString>>;

    explicit ColumnChoiceEditor(const ModeLabels& modes, QWidget* parent = nullptr);

    /// Shows the pipeline's value (nullopt: the clause is absent) with `available` to pick from.
    void setValue(const std::optional<pipeline::ColumnSelection>& value, const QStringList& available);
    /// nullopt when the clause is absent.
    std::optional<sql::ColumnChoice> value() const;
    /// True when the mode needs columns and none is checked: there is nothing to write yet.
    bool incomplete() const;

    QComboBox* modeCombo() const { return m_mode; }
    ColumnPicker* picker() const { return m_picker; }

signals:
    /// The user changed the mode or the columns.
    void edited();

private:
    Mode currentMode() const;
    void modeChosen();

    QComboBox* m_mode;
    ColumnPicker* m_picker;
    QStringList m_available;
    Mode m_pickingMode = Mode::Absent; ///< the mode the picker's checks were made for
};

} // namespace cdc::ui
