#pragma once
/// The AUTO CDC flow's form: every clause of CREATE FLOW ... AS AUTO CDC INTO (or APPLY CHANGES INTO, or a
/// streaming table's FLOW AUTO CDC clause), each field writing its clause through PipelineEdits, and the
/// combinations Databricks refuses explained under the field they concern.

#include "ui/widgets/inspector/ColumnChoiceEditor.h"
#include "ui/widgets/inspector/InspectorForm.h"

namespace cdc::pipeline {
struct AutoCdcFlow;
}

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QStringListModel;

namespace cdc::ui {

class ColumnPicker;

class AutoCdcFlowForm : public InspectorForm {
    Q_OBJECT
public:
    explicit AutoCdcFlowForm(Project* project, QWidget* parent = nullptr);
    bool load(const QString& name) override;

private:
    void buildFlowSection();
    void buildSourceSection();
    void buildTargetSection();
    /// A COLUMNS-like clause's row: its editor, applied through applyColumnChoice.
    ColumnChoiceEditor* addColumnChoice(const QString& objectName, const QString& label,
                                        const ColumnChoiceEditor::ModeLabels& modes, const QString& clause,
                                        FieldNote*& note);
    const pipeline::AutoCdcFlow* find(const QString& name) const;
    std::string flowName() const { return subjectName().toStdString(); }
    /// The checks Databricks makes before it runs a flow, each shown under its field.
    void showWarnings(const pipeline::AutoCdcFlow& flow, const QStringList& sourceColumns);
    /// The pipeline's own issues located inside this flow's statement.
    void showIssues(const pipeline::AutoCdcFlow& flow);

    void applyName();
    void applySource();
    void applyCondition(QLineEdit* edit, FieldNote* note, bool truncate);
    void applyColumnChoice(ColumnChoiceEditor* editor, FieldNote* note);

    QLineEdit* m_name;
    FieldNote* m_nameNote;
    QComboBox* m_source;
    QCheckBox* m_stream;
    FieldNote* m_sourceNote;
    ColumnPicker* m_keys;
    FieldNote* m_keysNote;
    ColumnPicker* m_sequence;
    FieldNote* m_sequenceNote;
    QLineEdit* m_delete;
    FieldNote* m_deleteNote;
    QLineEdit* m_truncate;
    FieldNote* m_truncateNote;
    QStringListModel* m_completions;
    QComboBox* m_scd;
    FieldNote* m_scdNote;
    ColumnChoiceEditor* m_columns;
    FieldNote* m_columnsNote;
    ColumnChoiceEditor* m_track;
    FieldNote* m_trackNote;
    ColumnChoiceEditor* m_ignore;
    FieldNote* m_ignoreNote;
    QComboBox* m_columnsToUpdate;
    FieldNote* m_columnsToUpdateNote;
    QLabel* m_issues;
};

} // namespace cdc::ui
