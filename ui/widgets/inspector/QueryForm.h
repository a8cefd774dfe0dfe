#pragma once
/// The form of a node defined by a query: a view (temporary or materialized), whose query is edited in
/// place and applied with Ctrl+Enter or Apply, or an append flow (name, target, ONCE, and its query).

#include "ui/widgets/inspector/InspectorForm.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace cdc::ui {

class CodeEditor;

class QueryForm : public InspectorForm {
    Q_OBJECT
public:
    enum class Subject { View, AppendFlow };
    QueryForm(Subject subject, Project* project, QWidget* parent = nullptr);
    bool load(const QString& name) override;

    CodeEditor* queryEditor() const { return m_query; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void applyName();
    void applyQuery();
    /// Shows `query` unless the user has edits in the editor that are not applied yet.
    void syncQuery(const QString& query);

    Subject m_subject;
    QLineEdit* m_name;
    FieldNote* m_nameNote;
    QLabel* m_kind = nullptr;
    CodeEditor* m_query;
    QPushButton* m_apply = nullptr;
    FieldNote* m_queryNote;
};

} // namespace cdc::ui
