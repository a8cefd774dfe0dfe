#pragma once
/// A source table's form: its columns and their Spark types as the catalog has them. Read-only: source
/// tables are created by source SQL, not by the pipeline.

#include "ui/widgets/inspector/InspectorForm.h"

class QLabel;
class QTableWidget;

namespace cdc::ui {

class SourceTableForm : public InspectorForm {
    Q_OBJECT
public:
    explicit SourceTableForm(Project* project, QWidget* parent = nullptr);
    bool load(const QString& name) override;

private:
    QLabel* m_name;
    QTableWidget* m_columns;
};

} // namespace cdc::ui
