#pragma once
/// The inspector: every property of the node selected in the graph, each editable where the pipeline
/// text can say it. Every change is one PipelineEdits operation pushed on the project's undo stack, so
/// Ctrl+Z undoes it wherever the focus is. The panel follows the document: each parse refreshes the form
/// (a field being typed in keeps its text and caret), and a subject the pipeline no longer has shows the
/// "Nothing selected" page until it comes back (after an undo, say). A subject renamed in the panel is found
/// again by its former name when the rename is undone, and by its new one when it is redone.

#include "ui/widgets/inspector/InspectorSubject.h"

#include <QWidget>

#include <map>

class QLabel;
class QStackedWidget;

namespace cdc::ui {

class InspectorForm;
class Project;

class InspectorPanel : public QWidget {
    Q_OBJECT
public:
    explicit InspectorPanel(Project* project, QWidget* parent = nullptr);

    /// Inspects a node: `name` as the pipeline model spells it (a source table's name as the catalog has
    /// it, or any suffix the catalog resolves). InspectorKind::None clears the panel.
    void setSubject(InspectorKind kind, const QString& name);
    InspectorKind subjectKind() const { return m_kind; }
    /// The subject's name; it follows renames made in the panel.
    QString subjectName() const { return m_name; }
    /// True when a form shows the subject (false: the "Nothing selected" page).
    bool showsSubject() const;
    /// The form for a kind (for tests and for wiring), or null for InspectorKind::None.
    InspectorForm* form(InspectorKind kind) const;

signals:
    /// The user asked from the panel to inspect another node (a table's flow): the panel already shows
    /// it; the canvas should select it.
    void subjectRequested(cdc::ui::InspectorKind kind, const QString& name);
    /// An edit made in the panel renamed the subject: the canvas should select the node by its new name.
    void subjectRenamed(cdc::ui::InspectorKind kind, const QString& oldName, const QString& newName);

private:
    /// Re-reads the subject from the current parse.
    void refresh();
    void addForm(InspectorKind kind, InspectorForm* form);
    /// Loads the subject under one of its former names; true when found (the panel then follows it).
    bool loadFormerName(InspectorForm* shown);

    Project* m_project;
    InspectorKind m_kind = InspectorKind::None;
    QString m_name;
    /// The names the subject had before renames made here, latest last: undoing a rename finds it again.
    QStringList m_formerNames;
    QLabel* m_title;
    QStackedWidget* m_pages;
    QWidget* m_emptyPage;
    QLabel* m_emptyHint;
    std::map<InspectorKind, InspectorForm*> m_forms;
    std::map<InspectorKind, QWidget*> m_formPages;
};

} // namespace cdc::ui
