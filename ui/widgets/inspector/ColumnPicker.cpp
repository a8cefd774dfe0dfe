// The list is rebuilt on every parse; the current row is found again by name so that a user working
// through the list with the keyboard stays where they were.
#include "ui/widgets/inspector/ColumnPicker.h"

#include <QHBoxLayout>
#include <QListWidget>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

namespace cdc::ui {

namespace {
constexpr int kMaxVisibleRows = 6;

bool containsName(const QStringList& names, const QString& name) {
    return names.contains(name, Qt::CaseInsensitive);
}
} // namespace

ColumnPicker::ColumnPicker(bool ordered, QWidget* parent)
    : QWidget(parent), m_ordered(ordered), m_list(new QListWidget(this)) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addWidget(m_list, 1);
    m_list->setUniformItemSizes(true);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    connect(m_list, &QListWidget::itemChanged, this, [this] {
        if (!m_loading)
            emit changed();
    });
    if (m_ordered) {
        auto* buttons = new QVBoxLayout;
        buttons->setSpacing(2);
        m_up = new QToolButton(this);
        m_down = new QToolButton(this);
        m_up->setArrowType(Qt::UpArrow);
        m_down->setArrowType(Qt::DownArrow);
        m_up->setToolTip(tr("Compare this column earlier"));
        m_down->setToolTip(tr("Compare this column later"));
        m_up->setObjectName(QStringLiteral("moveUp"));
        m_down->setObjectName(QStringLiteral("moveDown"));
        buttons->addWidget(m_up);
        buttons->addWidget(m_down);
        buttons->addStretch();
        layout->addLayout(buttons);
        connect(m_up, &QToolButton::clicked, this, [this] { moveCurrent(-1); });
        connect(m_down, &QToolButton::clicked, this, [this] { moveCurrent(1); });
        connect(m_list, &QListWidget::currentRowChanged, this, &ColumnPicker::updateButtons);
    }
}

void ColumnPicker::setColumns(const QStringList& available, const QStringList& checked) {
    m_loading = true;
    const QListWidgetItem* current = m_list->currentItem();
    const QString currentName = current ? current->text() : QString();
    m_list->clear();
    QStringList order;
    if (m_ordered)
        order = checked;
    for (const QString& name : available)
        if (!containsName(order, name))
            order << name;
    for (const QString& name : checked)
        if (!containsName(order, name))
            order << name;
    for (const QString& name : order) {
        auto* item = new QListWidgetItem(name, m_list);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable);
        item->setCheckState(containsName(checked, name) ? Qt::Checked : Qt::Unchecked);
        if (!containsName(available, name) && !available.isEmpty())
            item->setToolTip(tr("Not a column of the source"));
        if (name.compare(currentName, Qt::CaseInsensitive) == 0)
            m_list->setCurrentItem(item, QItemSelectionModel::NoUpdate);
    }
    m_loading = false;
    fitHeight();
    updateButtons();
}

QStringList ColumnPicker::checked() const {
    QStringList names;
    for (int row = 0; row < m_list->count(); ++row)
        if (m_list->item(row)->checkState() == Qt::Checked)
            names << m_list->item(row)->text();
    return names;
}

void ColumnPicker::moveCurrent(int delta) {
    const int row = m_list->currentRow();
    const int target = row + delta;
    if (row < 0 || target < 0 || target >= m_list->count())
        return;
    m_loading = true;
    QListWidgetItem* item = m_list->takeItem(row);
    m_list->insertItem(target, item);
    m_list->setCurrentItem(item);
    m_loading = false;
    updateButtons();
    // Only the checked columns' order reaches the pipeline; moving an unchecked one changes nothing there.
    if (item->checkState() == Qt::Checked)
        emit changed();
}

void ColumnPicker::updateButtons() {
    if (!m_ordered)
        return;
    const int row = m_list->currentRow();
    m_up->setEnabled(row > 0);
    m_down->setEnabled(row >= 0 && row + 1 < m_list->count());
}

void ColumnPicker::fitHeight() {
    // As tall as its rows up to a few, so that short lists take no room and long ones scroll.
    const int rows = std::clamp(m_list->count(), 1, kMaxVisibleRows);
    const int rowHeight =
        m_list->sizeHintForRow(0) > 0 ? m_list->sizeHintForRow(0) : fontMetrics().height() + 4;
    m_list->setFixedHeight(rows * rowHeight + 2 * m_list->frameWidth() + 2);
}

} // namespace cdc::ui
