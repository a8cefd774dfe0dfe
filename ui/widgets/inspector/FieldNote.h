#pragma once
/// The line under a field that explains it: an edit the pipeline refused (error colour) or a combination
/// Databricks would refuse (warning colour). Hidden while there is nothing to say.

#include <QLabel>

namespace cdc::ui {

class FieldNote : public QLabel {
    Q_OBJECT
public:
    explicit FieldNote(QWidget* parent = nullptr);

    /// Why the last edit of this field was refused; empty clears it.
    void setError(const QString& error);
    /// What is wrong with the field's current value; empty clears it.
    void setWarning(const QString& warning);
    QString error() const { return m_error; }
    QString warning() const { return m_warning; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void render();

    QString m_error;
    QString m_warning;
};

} // namespace cdc::ui
