#pragma once
/// A streaming table's form: its name (renaming it renames every reference), its comment and declared
/// columns, and what the flows into it make of it (SCD type, keys), each flow a button that inspects it.

#include "ui/widgets/inspector/InspectorForm.h"

class QLabel;
class QLineEdit;
class QVBoxLayout;

namespace cdc::ui {

class StreamingTableForm : public InspectorForm {
    Q_OBJECT
public:
    explicit StreamingTableForm(Project* project, QWidget* parent = nullptr);
    bool load(const QString& name) override;

private:
    void applyName();
    /// One button per flow writing the table, rebuilt only when the flows change (a button keeps the focus).
    void showFlows(const QList<std::pair<InspectorKind, QString>>& flows, const QStringList& captions);

    QLineEdit* m_name;
    FieldNote* m_nameNote;
    QLabel* m_comment;
    QLabel* m_schema;
    QLabel* m_scd;
    QLabel* m_keys;
    QWidget* m_flowBox;
    QVBoxLayout* m_flowLayout;
    QStringList m_flowCaptions;
};

} // namespace cdc::ui
