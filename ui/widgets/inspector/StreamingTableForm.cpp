#include "ui/widgets/inspector/StreamingTableForm.h"

#include "core/common/Text.h"
#include "ui/model/Project.h"
#include "ui/widgets/inspector/FieldNote.h"

#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace cdc::ui {

using sql::PipelineEdits;

namespace {
QLabel* readOnlyLabel(const QString& objectName, QWidget* parent) {
    auto* label = new QLabel(parent);
    label->setObjectName(objectName);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

QString joined(const std::vector<pipeline::Identifier>& identifiers) {
    QStringList names;
    for (const auto& identifier : identifiers)
        names << QString::fromStdString(identifier.name);
    return names.join(QStringLiteral(", "));
}
} // namespace

StreamingTableForm::StreamingTableForm(Project* project, QWidget* parent)
    : InspectorForm(project, parent), m_name(new QLineEdit(this)), m_comment(readOnlyLabel("comment", this)),
      m_schema(readOnlyLabel("schema", this)), m_scd(readOnlyLabel("scdType", this)),
      m_keys(readOnlyLabel("keys", this)), m_flowBox(new QWidget(this)),
      m_flowLayout(new QVBoxLayout(m_flowBox)) {
    addSection(tr("Streaming table"));
    m_name->setObjectName(QStringLiteral("name"));
    m_nameNote = addField(tr("Name"), m_name,
                          tr("CREATE OR REFRESH STREAMING TABLE name (renaming also renames the flows' INTO "
                             "and FROM and the queries that read it)"));
    connect(m_name, &QLineEdit::editingFinished, this, &StreamingTableForm::applyName);
    addField(tr("Comment"), m_comment, tr("COMMENT '…'"));
    addField(tr("Columns"), m_schema, tr("The declared columns: (name TYPE, …)"));

    addSection(tr("Written by"));
    addField(tr("SCD type"), m_scd, tr("STORED AS SCD TYPE of the AUTO CDC flow into this table"));
    addField(tr("Keys"), m_keys, tr("KEYS (…) of the AUTO CDC flow into this table"));
    m_flowLayout->setContentsMargins(0, 0, 0, 0);
    m_flowLayout->setSpacing(2);
    addField(tr("Flows"), m_flowBox, tr("The flows whose INTO names this table: click one to edit it"));
}

bool StreamingTableForm::load(const QString& name) {
    const pipeline::Pipeline& pipeline = project()->document()->pipeline();
    const pipeline::StreamingTable* table = pipeline.findTable(name.toStdString());
    if (!table)
        return false;
    setSubjectName(QString::fromStdString(table->name.name));
    syncLine(m_name, subjectName(), m_nameNote);
    m_comment->setText(table->comment.empty() ? tr("none") : QString::fromStdString(table->comment));
    QStringList columns;
    for (const auto& column : table->schema)
        columns << QStringLiteral("%1 %2").arg(QString::fromStdString(column.name),
                                               QString::fromStdString(column.type.toString()));
    m_schema->setText(columns.isEmpty() ? tr("inferred from the flows") : columns.join(QLatin1Char('\n')));

    QList<std::pair<InspectorKind, QString>> flows;
    QStringList captions;
    QStringList scd;
    QStringList keys;
    for (const auto& flow : pipeline.cdcFlows) {
        if (!equalsIgnoreCase(flow.target.name, table->name.name))
            continue;
        const QString flowName = QString::fromStdString(flow.name.name);
        flows.append({InspectorKind::AutoCdcFlow, flowName});
        captions << tr("%1 (AUTO CDC)").arg(flowName);
        scd << tr("Type %1").arg(int(flow.scdType));
        keys << joined(flow.keys);
    }
    for (const auto& flow : pipeline.appendFlows) {
        if (!equalsIgnoreCase(flow.target.name, table->name.name))
            continue;
        const QString flowName = QString::fromStdString(flow.name.name);
        flows.append({InspectorKind::AppendFlow, flowName});
        captions << tr("%1 (append)").arg(flowName);
    }
    scd.removeDuplicates();
    keys.removeDuplicates();
    m_scd->setText(scd.isEmpty() ? tr("no AUTO CDC flow") : scd.join(QStringLiteral(" / ")));
    m_keys->setText(keys.isEmpty() ? tr("none") : keys.join(QStringLiteral(" / ")));
    showFlows(flows, captions);
    return true;
}

void StreamingTableForm::showFlows(const QList<std::pair<InspectorKind, QString>>& flows,
                                   const QStringList& captions) {
    if (captions == m_flowCaptions && !captions.isEmpty())
        return;
    m_flowCaptions = captions;
    while (QLayoutItem* item = m_flowLayout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    if (flows.isEmpty())
        m_flowLayout->addWidget(new QLabel(tr("none yet"), m_flowBox));
    for (qsizetype i = 0; i < flows.size(); ++i) {
        auto* button = new QPushButton(captions[i], m_flowBox);
        button->setObjectName(QStringLiteral("flow:") + flows[i].second);
        button->setToolTip(tr("Edit flow %1").arg(flows[i].second));
        const InspectorKind kind = flows[i].first;
        const QString flowName = flows[i].second;
        connect(button, &QPushButton::clicked, this,
                [this, kind, flowName] { emit subjectRequested(kind, flowName); });
        m_flowLayout->addWidget(button);
    }
}

void StreamingTableForm::applyName() {
    const QString newName = m_name->text().trimmed();
    applyLine(m_name, [&] {
        return applyRename(
            PipelineEdits::renameDataset(pipelineText(), subjectName().toStdString(), newName.toStdString()),
            newName, m_nameNote);
    });
}

} // namespace cdc::ui
