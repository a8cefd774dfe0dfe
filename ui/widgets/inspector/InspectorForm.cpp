// An edit is computed from the text as it is now, never from what the form last showed, so an edit made
// while the SQL editor has unparsed typing applies to that typing and leaves the rest of it alone.
#include "ui/widgets/inspector/InspectorForm.h"

#include "ui/model/Project.h"
#include "ui/widgets/inspector/FieldNote.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

namespace cdc::ui {

InspectorForm::InspectorForm(Project* project, QWidget* parent)
    : QWidget(parent), m_project(project), m_form(new QFormLayout) {
    // The rows keep their natural height at the top; the space below a short form stays empty.
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(10, 8, 10, 10);
    outer->addLayout(m_form);
    outer->addStretch(1);
    m_form->setHorizontalSpacing(8);
    m_form->setVerticalSpacing(6);
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_form->setLabelAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_form->setRowWrapPolicy(QFormLayout::DontWrapRows);
}

std::string InspectorForm::pipelineText() const {
    return m_project->document()->text().toStdString();
}

bool InspectorForm::apply(const Result<sql::PipelineEdit>& edit, FieldNote* note) {
    // Edits rewrite pipeline SQL statements; a Python pipeline's text is the user's program.
    if (m_project->document()->isPython()) {
        note->setError(tr("A Python pipeline is edited in its Python code, in the editor."));
        return false;
    }
    if (!edit.ok()) {
        note->setError(QString::fromStdString(edit.error().format()));
        return false;
    }
    note->setError({});
    const QString text = QString::fromStdString(edit->text);
    if (text != m_project->document()->text())
        m_project->document()->replace(text, QString::fromStdString(edit->description));
    return true;
}

bool InspectorForm::applyRename(const Result<sql::PipelineEdit>& edit, const QString& newName,
                                FieldNote* note) {
    if (!edit.ok())
        return apply(edit, note);
    const QString oldName = m_name;
    m_name = newName;
    if (oldName != newName)
        emit renamed(newName);
    return apply(edit, note);
}

void InspectorForm::addSection(const QString& title) {
    auto* label = new QLabel(title, this);
    QFont font = label->font();
    font.setBold(true);
    label->setFont(font);
    label->setContentsMargins(0, m_form->rowCount() ? 8 : 0, 0, 0);
    m_form->addRow(label);
}

FieldNote* InspectorForm::addField(const QString& label, QWidget* field, const QString& clause) {
    return addFields(label, field, nullptr, clause);
}

FieldNote* InspectorForm::addFields(const QString& label, QWidget* field, QWidget* second,
                                    const QString& clause) {
    auto* box = new QWidget(this);
    auto* column = new QVBoxLayout(box);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(2);
    if (second) {
        auto* row = new QHBoxLayout;
        row->setSpacing(6);
        row->addWidget(field, 1);
        row->addWidget(second);
        column->addLayout(row);
    } else {
        column->addWidget(field);
    }
    auto* note = new FieldNote(box);
    note->setObjectName(field->objectName() + QStringLiteral("Note"));
    column->addWidget(note);
    field->setToolTip(clause);
    if (second)
        second->setToolTip(clause);
    auto* caption = new QLabel(label, this);
    caption->setToolTip(clause);
    caption->setBuddy(field);
    box->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    m_form->addRow(caption, box);
    return note;
}

void InspectorForm::syncLine(QLineEdit* edit, const QString& value, FieldNote* note) {
    if (edit->hasFocus() && edit->isModified())
        return;
    if (edit->text() != value)
        edit->setText(value);
    edit->setModified(false);
    note->setError({});
}

void InspectorForm::syncCombo(QComboBox* combo, const QStringList& items, const QString& value,
                              FieldNote* note) {
    QLineEdit* edit = combo->lineEdit();
    if (edit && edit->hasFocus() && edit->isModified())
        return;
    QStringList current;
    for (int i = 0; i < combo->count(); ++i)
        current << combo->itemText(i);
    if (current != items) {
        combo->clear();
        combo->addItems(items);
    }
    combo->setCurrentIndex(combo->findText(value, Qt::MatchFixedString));
    if (edit) {
        edit->setText(value);
        edit->setModified(false);
        edit->setCursorPosition(0); // a long qualified name shows its start
    }
    note->setError({});
}

void InspectorForm::addTargetField(const QString& clause) {
    m_target = new QComboBox(this);
    m_target->setObjectName(QStringLiteral("target"));
    m_target->setEditable(true);
    m_target->setInsertPolicy(QComboBox::NoInsert);
    m_targetNote = addField(tr("Target"), m_target, clause);
    // A choice from the list, or a typed name on Enter / focus-out (the same name twice changes nothing).
    connect(m_target, &QComboBox::activated, this, &InspectorForm::applyTarget);
    connect(m_target->lineEdit(), &QLineEdit::editingFinished, this, &InspectorForm::applyTarget);
}

void InspectorForm::addOnceField(const QString& clause) {
    m_once = new QCheckBox(tr("Run once"), this);
    m_once->setObjectName(QStringLiteral("once"));
    m_onceNote = addField(tr("Once"), m_once, clause);
    connect(m_once, &QCheckBox::clicked, this, [this](bool once) {
        apply(sql::PipelineEdits::setOnce(pipelineText(), m_name.toStdString(), once), m_onceNote);
    });
}

void InspectorForm::syncFlowFields(const std::string& target, bool once) {
    QStringList tables;
    for (const auto& table : m_project->document()->pipeline().streamingTables)
        tables << QString::fromStdString(table.name.name);
    syncCombo(m_target, tables, QString::fromStdString(target), m_targetNote);
    m_once->setChecked(once);
}

void InspectorForm::applyTarget() {
    const std::string target = m_target->currentText().trimmed().toStdString();
    applyLine(m_target->lineEdit(), [&] {
        return apply(sql::PipelineEdits::setTarget(pipelineText(), m_name.toStdString(), target),
                     m_targetNote);
    });
}

bool InspectorForm::applyLine(QLineEdit* edit, const std::function<bool()>& applyEdit) {
    // Not modified while the new text is parsed, so that the refresh shows the printed value.
    edit->setModified(false);
    const bool accepted = applyEdit();
    if (!accepted)
        edit->setModified(true);
    return accepted;
}

} // namespace cdc::ui
