// Each field is applied on its own, from the document's text of the moment: the form never writes a
// whole flow back, so a clause the form does not show (a comment, a FROM SNAPSHOT query) stays as typed.
#include "ui/widgets/inspector/AutoCdcFlowForm.h"

#include "core/common/Text.h"
#include "ui/model/Project.h"
#include "ui/model/ThemeColors.h"
#include "ui/widgets/inspector/ColumnChoiceEditor.h"
#include "ui/widgets/inspector/ColumnPicker.h"
#include "ui/widgets/inspector/FieldNote.h"
#include "ui/widgets/inspector/RelationColumns.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QStringListModel>

namespace cdc::ui {

using pipeline::AutoCdcFlow;
using pipeline::ColumnSelection;
using sql::PipelineEdits;

namespace {
QStringList namesOf(const std::vector<pipeline::Identifier>& identifiers) {
    QStringList names;
    for (const auto& identifier : identifiers)
        names << QString::fromStdString(identifier.name);
    return names;
}

std::vector<std::string> toStd(const QStringList& names) {
    std::vector<std::string> out;
    for (const QString& name : names)
        out.push_back(name.toStdString());
    return out;
}

/// The names in `names` that `columns` lacks, or none when the columns are unknown.
QStringList notAmong(const QStringList& names, const QStringList& columns) {
    QStringList missing;
    if (columns.isEmpty())
        return missing;
    for (const QString& name : names)
        if (!columns.contains(name, Qt::CaseInsensitive))
            missing << name;
    return missing;
}

/// The columns a COLUMNS clause keeps of `available`.
QStringList selectedColumns(const ColumnSelection& selection, const QStringList& available) {
    const QStringList listed = namesOf(selection.columns);
    if (selection.mode == ColumnSelection::Mode::Only)
        return listed;
    QStringList kept;
    for (const QString& column : available)
        if (selection.mode == ColumnSelection::Mode::All || !listed.contains(column, Qt::CaseInsensitive))
            kept << column;
    return kept;
}

QLineEdit* conditionEdit(const QString& objectName, QStringListModel* completions, QWidget* parent) {
    auto* edit = new QLineEdit(parent);
    edit->setObjectName(objectName);
    edit->setPlaceholderText(QObject::tr("none (Enter to apply)"));
    auto* completer = new QCompleter(completions, edit);
    completer->setCaseSensitivity(Qt::CaseInsensitive);
    edit->setCompleter(completer);
    return edit;
}
} // namespace

AutoCdcFlowForm::AutoCdcFlowForm(Project* project, QWidget* parent)
    : InspectorForm(project, parent), m_completions(new QStringListModel(this)) {
    buildFlowSection();
    buildSourceSection();
    buildTargetSection();
    m_issues = new QLabel(this);
    m_issues->setObjectName(QStringLiteral("issues"));
    m_issues->setWordWrap(true);
    m_issues->setTextFormat(Qt::RichText);
    m_issues->setContentsMargins(0, 8, 0, 0);
    m_issues->setTextInteractionFlags(Qt::TextSelectableByMouse);
    formLayout()->addRow(m_issues);
}

void AutoCdcFlowForm::buildFlowSection() {
    addSection(tr("Flow"));
    m_name = new QLineEdit(this);
    m_name->setObjectName(QStringLiteral("name"));
    m_nameNote = addField(tr("Name"), m_name, tr("CREATE FLOW name AS AUTO CDC …"));
    connect(m_name, &QLineEdit::editingFinished, this, &AutoCdcFlowForm::applyName);

    addTargetField(tr("AUTO CDC INTO target"));
    addOnceField(tr("AUTO CDC ONCE INTO: reads the source's rows once, on the next update, and never again"));
}

void AutoCdcFlowForm::buildSourceSection() {
    addSection(tr("Source"));
    m_source = new QComboBox(this);
    m_source->setObjectName(QStringLiteral("source"));
    m_source->setEditable(true);
    m_source->setInsertPolicy(QComboBox::NoInsert);
    m_source->setMinimumContentsLength(8);
    m_source->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_stream = new QCheckBox(tr("STREAM"), this);
    m_stream->setObjectName(QStringLiteral("stream"));
    m_sourceNote = addFields(tr("From"), m_source, m_stream,
                             tr("FROM source, or FROM STREAM(source) to read only the rows appended since "
                                "the last update"));
    connect(m_source, &QComboBox::activated, this, &AutoCdcFlowForm::applySource);
    connect(m_source->lineEdit(), &QLineEdit::editingFinished, this, &AutoCdcFlowForm::applySource);
    connect(m_stream, &QCheckBox::clicked, this, &AutoCdcFlowForm::applySource);

    m_keys = new ColumnPicker(false, this);
    m_keys->setObjectName(QStringLiteral("keys"));
    m_keysNote = addField(tr("Keys"), m_keys, tr("KEYS (…): the columns that identify a row"));
    connect(m_keys, &ColumnPicker::changed, this, [this] {
        apply(PipelineEdits::setKeys(pipelineText(), flowName(), toStd(m_keys->checked())), m_keysNote);
    });

    m_sequence = new ColumnPicker(true, this);
    m_sequence->setObjectName(QStringLiteral("sequence"));
    m_sequenceNote = addField(tr("Sequence by"), m_sequence,
                              tr("SEQUENCE BY column, or SEQUENCE BY STRUCT(a, b) to order by several "
                                 "columns, the first compared first"));
    connect(m_sequence, &ColumnPicker::changed, this, [this] {
        apply(PipelineEdits::setSequence(pipelineText(), flowName(), toStd(m_sequence->checked())),
              m_sequenceNote);
    });

    m_delete = conditionEdit(QStringLiteral("deleteCondition"), m_completions, this);
    m_deleteNote =
        addField(tr("Delete when"), m_delete,
                 tr("APPLY AS DELETE WHEN condition: events for which it is true delete their key"));
    connect(m_delete, &QLineEdit::editingFinished, this,
            [this] { applyCondition(m_delete, m_deleteNote, false); });

    m_truncate = conditionEdit(QStringLiteral("truncateCondition"), m_completions, this);
    m_truncateNote = addField(tr("Truncate when"), m_truncate,
                              tr("APPLY AS TRUNCATE WHEN condition: events for which it is true empty the "
                                 "target (SCD type 1 only)"));
    connect(m_truncate, &QLineEdit::editingFinished, this,
            [this] { applyCondition(m_truncate, m_truncateNote, true); });
}

void AutoCdcFlowForm::buildTargetSection() {
    addSection(tr("Target rows"));
    m_scd = new QComboBox(this);
    m_scd->setObjectName(QStringLiteral("scdType"));
    m_scd->addItem(tr("Type 1: latest values"), 1);
    m_scd->addItem(tr("Type 2: keep history"), 2);
    m_scdNote = addField(tr("SCD type"), m_scd, tr("STORED AS SCD TYPE 1 | 2"));
    connect(m_scd, &QComboBox::activated, this, [this] {
        const auto type = pipeline::ScdType(m_scd->currentData().toInt());
        apply(PipelineEdits::setScdType(pipelineText(), flowName(), type), m_scdNote);
    });

    using Mode = ColumnChoiceEditor::Mode;
    const QString all = tr("All columns");
    const QString only = tr("Only these");
    const QString except = tr("All except");
    m_columns = addColumnChoice(
        QStringLiteral("columns"), tr("Columns"),
        {{Mode::All, all}, {Mode::Only, only}, {Mode::Except, except}},
        tr("COLUMNS (a, b) or COLUMNS * EXCEPT (a, b): the source columns the target keeps"), m_columnsNote);
    // Without TRACK HISTORY every column is tracked: its absence reads "all columns".
    m_track =
        addColumnChoice(QStringLiteral("trackHistory"), tr("Track history"),
                        {{Mode::Absent, all}, {Mode::Only, only}, {Mode::Except, except}},
                        tr("TRACK HISTORY ON (a, b) or TRACK HISTORY ON * EXCEPT (a, b): the columns whose "
                           "change starts a new version (SCD type 2)"),
                        m_trackNote);
    m_ignore = addColumnChoice(
        QStringLiteral("ignoreNullUpdates"), tr("Ignore nulls"),
        {{Mode::Absent, tr("Off")}, {Mode::All, all}, {Mode::Only, only}, {Mode::Except, except}},
        tr("IGNORE NULL UPDATES [ON (a, b) | ON * EXCEPT (a, b)]: a NULL in an update keeps "
           "the target's value"),
        m_ignoreNote);

    m_columnsToUpdate = new QComboBox(this);
    m_columnsToUpdate->setObjectName(QStringLiteral("columnsToUpdate"));
    m_columnsToUpdateNote =
        addField(tr("Update mask"), m_columnsToUpdate,
                 tr("COLUMNS TO UPDATE column: an array column naming, per event, the columns it updates"));
    connect(m_columnsToUpdate, &QComboBox::activated, this, [this] {
        const QString column = m_columnsToUpdate->currentData().toString();
        apply(PipelineEdits::setColumnsToUpdate(pipelineText(), flowName(),
                                                column.isEmpty() ? std::nullopt
                                                                 : std::optional(column.toStdString())),
              m_columnsToUpdateNote);
    });
}

ColumnChoiceEditor* AutoCdcFlowForm::addColumnChoice(const QString& objectName, const QString& label,
                                                     const ColumnChoiceEditor::ModeLabels& modes,
                                                     const QString& clause, FieldNote*& note) {
    auto* editor = new ColumnChoiceEditor(modes, this);
    editor->setObjectName(objectName);
    FieldNote* shown = addField(label, editor, clause);
    note = shown;
    connect(editor, &ColumnChoiceEditor::edited, this,
            [this, editor, shown] { applyColumnChoice(editor, shown); });
    return editor;
}

const AutoCdcFlow* AutoCdcFlowForm::find(const QString& name) const {
    for (const auto& flow : project()->document()->pipeline().cdcFlows)
        if (equalsIgnoreCase(flow.name.name, name.toStdString()))
            return &flow;
    return nullptr;
}

bool AutoCdcFlowForm::load(const QString& name) {
    const AutoCdcFlow* flow = find(name);
    if (!flow)
        return false;
    setSubjectName(QString::fromStdString(flow->name.name));
    Project& p = *project();
    const QStringList columns = relationcolumns::columnsOf(p, flow->source.name);
    m_completions->setStringList(columns);

    syncLine(m_name, subjectName(), m_nameNote);
    syncFlowFields(flow->target.name, flow->once);
    syncCombo(m_source, relationcolumns::relationNames(p), QString::fromStdString(flow->source.name),
              m_sourceNote);
    m_stream->setChecked(flow->source.stream);

    m_keys->setColumns(columns, namesOf(flow->keys));
    QStringList sequence;
    for (const auto& expression : flow->sequenceBy)
        sequence << QString::fromStdString(expression.columnName.value_or(expression.sparkText));
    m_sequence->setColumns(columns, sequence);
    syncLine(m_delete,
             flow->applyAsDelete ? QString::fromStdString(flow->applyAsDelete->sparkText) : QString(),
             m_deleteNote);
    syncLine(m_truncate,
             flow->applyAsTruncate ? QString::fromStdString(flow->applyAsTruncate->sparkText) : QString(),
             m_truncateNote);
    // FROM SNAPSHOT flows take their order from the snapshot's version and have no event conditions.
    for (QWidget* field : {static_cast<QWidget*>(m_sequence), static_cast<QWidget*>(m_delete),
                           static_cast<QWidget*>(m_truncate), static_cast<QWidget*>(m_source)})
        field->setEnabled(!flow->fromSnapshot);

    m_scd->setCurrentIndex(m_scd->findData(int(flow->scdType)));
    m_columns->setValue(flow->columns, columns);
    m_track->setValue(flow->trackHistory, columns);
    m_ignore->setValue(flow->ignoreNullUpdates, columns);
    {
        const QSignalBlocker blocker(m_columnsToUpdate);
        m_columnsToUpdate->clear();
        m_columnsToUpdate->addItem(tr("none"), QString());
        QStringList choices = columns;
        if (flow->columnsToUpdate && !choices.contains(QString::fromStdString(flow->columnsToUpdate->name)))
            choices << QString::fromStdString(flow->columnsToUpdate->name);
        for (const QString& column : choices)
            m_columnsToUpdate->addItem(column, column);
        m_columnsToUpdate->setCurrentIndex(
            flow->columnsToUpdate
                ? m_columnsToUpdate->findData(QString::fromStdString(flow->columnsToUpdate->name))
                : 0);
    }
    showWarnings(*flow, columns);
    showIssues(*flow);
    return true;
}

void AutoCdcFlowForm::showWarnings(const AutoCdcFlow& flow, const QStringList& sourceColumns) {
    const QString source = QString::fromStdString(flow.source.name);
    const auto notColumns = [&](const QStringList& names) {
        const QStringList missing = notAmong(names, sourceColumns);
        return missing.isEmpty()
                   ? QString()
                   : tr("Not a column of %1: %2").arg(source, missing.join(QStringLiteral(", ")));
    };
    m_keysNote->setWarning(flow.keys.empty() ? tr("An AUTO CDC flow needs at least one key")
                                             : notColumns(namesOf(flow.keys)));
    QStringList sequence;
    for (const auto& expression : flow.sequenceBy)
        if (expression.columnName)
            sequence << QString::fromStdString(*expression.columnName);
    m_sequenceNote->setWarning(notColumns(sequence));

    const bool scd2 = flow.scdType == pipeline::ScdType::Type2;
    m_truncateNote->setWarning(flow.applyAsTruncate && scd2
                                   ? tr("Databricks supports APPLY AS TRUNCATE WHEN only with SCD type 1: "
                                        "remove it or store as SCD type 1")
                                   : QString());
    QString track;
    if (flow.trackHistory && !scd2) {
        track = tr("TRACK HISTORY ON needs SCD type 2");
    } else if (flow.trackHistory && flow.trackHistory->mode == ColumnSelection::Mode::Only) {
        // Only an explicit list must name selected columns; * EXCEPT may name one that is not (§10).
        const QStringList selected = selectedColumns(flow.columns, sourceColumns);
        const QStringList missing =
            selected.isEmpty() ? QStringList() : notAmong(namesOf(flow.trackHistory->columns), selected);
        if (!missing.isEmpty())
            track = tr("Not among the selected columns: %1").arg(missing.join(QStringLiteral(", ")));
    }
    m_trackNote->setWarning(track);
    m_columnsNote->setWarning(notColumns(namesOf(flow.columns.columns)));
}

void AutoCdcFlowForm::showIssues(const AutoCdcFlow& flow) {
    QStringList lines;
    const SourceLocation& statement = flow.location;
    for (const Diagnostic& issue : project()->document()->issues()) {
        const SourceLocation& at = issue.location;
        if (at.file != PipelineDocument::kFileName || !at.valid() || at.offset < statement.offset ||
            at.offset > statement.offset + statement.length)
            continue;
        const QColor color = issue.severity == Severity::Error ? themecolors::error(palette())
                                                               : themecolors::warning(palette());
        lines << QStringLiteral("<span style=\"color:%1\">%2</span>")
                     .arg(color.name(), tr("Line %1: %2")
                                            .arg(at.line)
                                            .arg(QString::fromStdString(issue.message))
                                            .toHtmlEscaped());
    }
    if (!lines.isEmpty())
        lines.prepend(QStringLiteral("<b>%1</b>").arg(tr("Pipeline issues in this flow").toHtmlEscaped()));
    m_issues->setText(lines.join(QStringLiteral("<br>")));
    m_issues->setVisible(!lines.isEmpty());
}

void AutoCdcFlowForm::applyName() {
    const QString newName = m_name->text().trimmed();
    applyLine(m_name, [&] {
        return applyRename(PipelineEdits::renameFlow(pipelineText(), flowName(), newName.toStdString()),
                           newName, m_nameNote);
    });
}

void AutoCdcFlowForm::applySource() {
    const std::string source = m_source->currentText().trimmed().toStdString();
    applyLine(m_source->lineEdit(), [&] {
        return apply(PipelineEdits::setSource(pipelineText(), flowName(), source, m_stream->isChecked()),
                     m_sourceNote);
    });
}

void AutoCdcFlowForm::applyCondition(QLineEdit* edit, FieldNote* note, bool truncate) {
    const QString typed = edit->text().trimmed();
    const std::string condition = typed.toStdString();
    const auto value = typed.isEmpty() ? std::nullopt : std::optional<std::string_view>(condition);
    applyLine(edit, [&] {
        return apply(truncate ? PipelineEdits::setTruncateCondition(pipelineText(), flowName(), value)
                              : PipelineEdits::setDeleteCondition(pipelineText(), flowName(), value),
                     note);
    });
}

void AutoCdcFlowForm::applyColumnChoice(ColumnChoiceEditor* editor, FieldNote* note) {
    if (editor->incomplete()) {
        note->setError(tr("Check the columns to apply"));
        return;
    }
    const std::string text = pipelineText();
    const auto choice = editor->value();
    if (editor == m_columns)
        apply(PipelineEdits::setColumns(text, flowName(), choice.value_or(sql::ColumnChoice{})), note);
    else if (editor == m_track)
        apply(PipelineEdits::setTrackHistory(text, flowName(), choice), note);
    else
        apply(PipelineEdits::setIgnoreNullUpdates(text, flowName(), choice), note);
}

} // namespace cdc::ui
