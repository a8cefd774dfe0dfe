// The hidden columns are stored as a list of indices under the view's settings key, and re-applied
// after a model reset, which would otherwise show every column again.
#include "ui/widgets/ColumnChooser.h"

#include <QAbstractItemModel>
#include <QHeaderView>
#include <QMenu>
#include <QSettings>
#include <QTableView>

namespace cdc::ui {

ColumnChooser::ColumnChooser(QTableView* view, const QString& settingsKey, const QSet<int>& hiddenByDefault)
    : QObject(view), m_view(view), m_settingsKey(settingsKey), m_hidden(hiddenByDefault) {
    const QVariant saved = QSettings().value(m_settingsKey);
    if (saved.isValid()) {
        m_hidden.clear();
        for (const QVariant& column : saved.toList())
            m_hidden.insert(column.toInt());
    }
    QHeaderView* header = view->horizontalHeader();
    header->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(header, &QHeaderView::customContextMenuRequested, this, &ColumnChooser::showMenu);
    connect(view->model(), &QAbstractItemModel::modelReset, this, &ColumnChooser::apply);
    connect(view->model(), &QAbstractItemModel::columnsInserted, this, &ColumnChooser::apply);
    apply();
}

void ColumnChooser::setColumnShown(int column, bool shown) {
    if (shown)
        m_hidden.remove(column);
    else
        m_hidden.insert(column);
    QVariantList saved;
    for (int c : std::as_const(m_hidden))
        saved << c;
    QSettings().setValue(m_settingsKey, saved);
    apply();
}

void ColumnChooser::showMenu(const QPoint& position) {
    QMenu menu(m_view);
    const QAbstractItemModel* model = m_view->model();
    int shown = 0;
    for (int c = 0; c < model->columnCount(); ++c)
        shown += m_hidden.contains(c) ? 0 : 1;
    for (int c = 0; c < model->columnCount(); ++c) {
        QAction* entry = menu.addAction(model->headerData(c, Qt::Horizontal).toString());
        entry->setCheckable(true);
        entry->setChecked(!m_hidden.contains(c));
        entry->setEnabled(m_hidden.contains(c) || shown > 1); // the last column stays
        entry->setToolTip(model->headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString());
        connect(entry, &QAction::toggled, this, [this, c](bool on) { setColumnShown(c, on); });
    }
    menu.setToolTipsVisible(true);
    menu.exec(m_view->horizontalHeader()->viewport()->mapToGlobal(position));
}

void ColumnChooser::apply() {
    for (int c = 0; c < m_view->model()->columnCount(); ++c)
        m_view->setColumnHidden(c, m_hidden.contains(c));
}

} // namespace cdc::ui
