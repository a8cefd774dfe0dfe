#include "ui/widgets/inspector/SourceTableForm.h"

#include "core/storage/Catalog.h"
#include "ui/model/Project.h"

#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>

namespace cdc::ui {

SourceTableForm::SourceTableForm(Project* project, QWidget* parent)
    : InspectorForm(project, parent), m_name(new QLabel(this)), m_columns(new QTableWidget(0, 2, this)) {
    addSection(tr("Source table"));
    m_name->setObjectName(QStringLiteral("name"));
    m_name->setWordWrap(true);
    m_name->setTextInteractionFlags(Qt::TextSelectableByMouse);
    addField(tr("Name"), m_name, tr("CREATE TABLE name (in the project's source SQL)"));
    m_columns->setObjectName(QStringLiteral("schema"));
    m_columns->setHorizontalHeaderLabels({tr("Column"), tr("Type")});
    m_columns->horizontalHeader()->setStretchLastSection(true);
    m_columns->verticalHeader()->hide();
    m_columns->verticalHeader()->setDefaultSectionSize(m_columns->fontMetrics().height() + 6);
    m_columns->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    m_columns->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_columns->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_columns->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_columns->setToolTip(tr("The table's columns and their Spark types"));
    formLayout()->addRow(m_columns);
}

bool SourceTableForm::load(const QString& name) {
    auto table = storage::Catalog::find(project()->db(), name.toStdString());
    if (!table.ok() || !table->has_value())
        return false;
    const storage::TableInfo& info = **table;
    setSubjectName(QString::fromStdString(info.name));
    m_name->setText(subjectName());
    m_columns->setRowCount(int(info.columns.size()));
    for (int row = 0; row < int(info.columns.size()); ++row) {
        m_columns->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(info.columns[row].name)));
        m_columns->setItem(row, 1,
                           new QTableWidgetItem(QString::fromStdString(info.columns[row].type.toString())));
    }
    m_columns->resizeColumnToContents(0);
    return true;
}

} // namespace cdc::ui
