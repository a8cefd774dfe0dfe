#pragma once
/// What every inspector form shares: the project it edits, the way an edit reaches the pipeline (one
/// PipelineEdits operation on the document's text, pushed as one undo step), and the look of its rows
/// (sections, a tooltip naming the SQL clause each field writes, a note under each field).

#include "core/common/Diagnostic.h"
#include "core/sql/PipelineEdits.h"
#include "ui/widgets/inspector/InspectorSubject.h"

#include <QWidget>

#include <functional>
#include <optional>

class QFormLayout;
class QCheckBox;
class QComboBox;
class QLineEdit;

namespace cdc::ui {

class FieldNote;
class Project;

class InspectorForm : public QWidget {
    Q_OBJECT
public:
    explicit InspectorForm(Project* project, QWidget* parent = nullptr);

    /// Shows the subject `name` as the current parse has it. False when the parse has no such subject.
    /// Fields the user is typing in keep their text and caret.
    virtual bool load(const QString& name) = 0;
    /// The name the form shows (it follows renames made here).
    QString subjectName() const { return m_name; }

signals:
    /// An edit made here renamed the subject; emitted before the new text is parsed.
    void renamed(const QString& newName);
    /// The user asked to inspect another node (a streaming table's flow, for one).
    void subjectRequested(cdc::ui::InspectorKind kind, const QString& name);

protected:
    Project* project() const { return m_project; }
    /// The document's text, as the PipelineEdits operations take it.
    std::string pipelineText() const;
    /// Pushes `edit` as one undo step when it changes the text; a refused edit is shown in `note` and
    /// changes nothing. True when the edit was accepted.
    bool apply(const Result<sql::PipelineEdit>& edit, FieldNote* note);
    /// A rename: the form follows the new name before the text is replaced, so the parse that follows finds
    /// it.
    bool applyRename(const Result<sql::PipelineEdit>& edit, const QString& newName, FieldNote* note);

    QFormLayout* formLayout() const { return m_form; }
    void setSubjectName(const QString& name) { m_name = name; }
    /// A bold title row that starts a group of fields.
    void addSection(const QString& title);
    /// A row: `field` with a note under it; `clause` is the SQL the field writes (its tooltip). Returns
    /// the note.
    FieldNote* addField(const QString& label, QWidget* field, const QString& clause);
    /// A row of two fields side by side (a combo and its checkbox), with one note.
    FieldNote* addFields(const QString& label, QWidget* field, QWidget* second, const QString& clause);
    /// Shows `value` unless the user is typing in `edit` (it has the focus and text not yet applied);
    /// a field that shows the pipeline's value again drops the error of its last refused edit.
    static void syncLine(QLineEdit* edit, const QString& value, FieldNote* note);
    /// An editable combo's items and text, left alone while the user types in it.
    static void syncCombo(QComboBox* combo, const QStringList& items, const QString& value, FieldNote* note);
    /// A flow's INTO target: an editable combo of the pipeline's streaming tables, applied (setTarget) when
    /// one is chosen or a name is typed.
    void addTargetField(const QString& clause);
    /// A flow's ONCE checkbox (setOnce).
    void addOnceField(const QString& clause);
    /// Shows a flow's target and ONCE in the fields made by addTargetField and addOnceField.
    void syncFlowFields(const std::string& target, bool once);
    /// Runs `applyEdit` for what the user typed in `edit`: once accepted the field shows the pipeline's
    /// value again (as printed); refused, it keeps the typing for the user to correct.
    static bool applyLine(QLineEdit* edit, const std::function<bool()>& applyEdit);

private:
    void applyTarget();

    Project* m_project;
    QFormLayout* m_form;
    QComboBox* m_target = nullptr;
    FieldNote* m_targetNote = nullptr;
    QCheckBox* m_once = nullptr;
    FieldNote* m_onceNote = nullptr;
    QString m_name;
};

} // namespace cdc::ui
