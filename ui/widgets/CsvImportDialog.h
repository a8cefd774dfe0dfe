#pragma once
/// Import from a file asks, where Paste Rows guesses (by header name, else by position): a file's
/// columns seldom match the table's order, and a wrong guess over many rows is costly to undo by eye.

#include <QDialog>
#include <QList>
#include <QStringList>

class QComboBox;
class QTableWidget;
class QCheckBox;
class QLabel;

namespace cdc::ui {

/// Maps the columns of a CSV file (or pasted text) onto a source table's columns, with a preview.
class CsvImportDialog : public QDialog {
    Q_OBJECT
public:
    CsvImportDialog(const QString& table, const QStringList& columns, const QString& text,
                    QWidget* parent = nullptr);

    /// For each table column, the CSV column feeding it, or -1 (NULL).
    QList<int> mapping() const;
    /// The data records (without the header row when "first row is a header" is checked).
    QList<QStringList> records() const;
    void setMapping(int tableColumn, int csvColumn);

private:
    void rebuild();
    QStringList m_columns;
    QList<QStringList> m_all;
    QList<QComboBox*> m_combos;
    QCheckBox* m_hasHeader;
    QTableWidget* m_preview;
    QLabel* m_summary;
};

} // namespace cdc::ui
