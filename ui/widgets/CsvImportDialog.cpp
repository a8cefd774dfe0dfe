// The first guess: "header" is ticked when a first-row cell names a table column, columns are then
// mapped by name, else by position. The preview shows the first 50 rows exactly as they will be mapped.
#include "ui/widgets/CsvImportDialog.h"

#include "ui/model/CsvReader.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace cdc::ui {

CsvImportDialog::CsvImportDialog(const QString& table, const QStringList& columns, const QString& text,
                                 QWidget* parent)
    : QDialog(parent), m_columns(columns), m_hasHeader(new QCheckBox(tr("First row is a header"), this)),
      m_preview(new QTableWidget(this)), m_summary(new QLabel(this)) {
    setWindowTitle(tr("Import rows into %1").arg(table));
    m_all = csvreader::parse(text, csvreader::guessSeparator(text));
    const QStringList first = m_all.value(0);
    const QList<int> byName = csvreader::mapByName(first, columns);
    const bool looksLikeHeader = std::any_of(byName.begin(), byName.end(), [](int i) { return i >= 0; });
    m_hasHeader->setChecked(looksLikeHeader);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Choose the file column that feeds each column of <b>%1</b>. "
                                    "Unmapped columns get NULL. Rows are added to the event queue.")
                                     .arg(table),
                                 this));
    layout->addWidget(m_hasHeader);
    auto* form = new QFormLayout;
    for (int c = 0; c < columns.size(); ++c) {
        auto* combo = new QComboBox(this);
        combo->addItem(tr("(NULL)"), -1);
        for (int i = 0; i < first.size(); ++i)
            combo->addItem(looksLikeHeader ? first[i] : tr("Column %1").arg(i + 1), i);
        const int preset = looksLikeHeader ? byName[c] : (c < first.size() ? c : -1);
        combo->setCurrentIndex(combo->findData(preset));
        connect(combo, &QComboBox::currentIndexChanged, this, &CsvImportDialog::rebuild);
        form->addRow(columns[c], combo);
        m_combos << combo;
    }
    layout->addLayout(form);
    layout->addWidget(m_preview, 1);
    layout->addWidget(m_summary);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Add to Queue"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    connect(m_hasHeader, &QCheckBox::toggled, this, &CsvImportDialog::rebuild);
    m_preview->verticalHeader()->hide();
    m_preview->setEditTriggers(QAbstractItemView::NoEditTriggers);
    resize(640, 480);
    rebuild();
}

QList<int> CsvImportDialog::mapping() const {
    QList<int> out;
    for (auto* combo : m_combos)
        out << combo->currentData().toInt();
    return out;
}

void CsvImportDialog::setMapping(int tableColumn, int csvColumn) {
    if (tableColumn >= 0 && tableColumn < m_combos.size())
        m_combos[tableColumn]->setCurrentIndex(m_combos[tableColumn]->findData(csvColumn));
}

QList<QStringList> CsvImportDialog::records() const {
    return m_hasHeader->isChecked() ? m_all.mid(1) : m_all;
}

void CsvImportDialog::rebuild() {
    const auto rows = records();
    const auto map = mapping();
    const int shown = int(std::min<qsizetype>(rows.size(), 50));
    m_preview->clear();
    m_preview->setColumnCount(int(m_columns.size()));
    m_preview->setHorizontalHeaderLabels(m_columns);
    m_preview->setRowCount(shown);
    for (int r = 0; r < shown; ++r)
        for (int c = 0; c < m_columns.size(); ++c) {
            const int from = map.value(c, -1);
            auto* item = new QTableWidgetItem(from >= 0 ? rows[r].value(from) : QStringLiteral("null"));
            m_preview->setItem(r, c, item);
        }
    m_summary->setText(tr("%n row(s) to add", nullptr, int(rows.size())));
}

} // namespace cdc::ui
