// The count is a label inside the line edit, placed by hand left of the clear button on every
// resize; Esc clears the text first, so it never reaches a dialog or dock around the box.
#include "ui/widgets/GridFilterBox.h"

#include "ui/model/GridProxyModel.h"
#include "ui/model/results/ResultText.h"
#include "ui/widgets/GridTools.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QTableView>
#include <QVBoxLayout>

namespace cdc::ui {

GridFilterBox::GridFilterBox(QWidget* parent)
    : QWidget(parent), m_edit(new QLineEdit(this)), m_count(new QLabel(m_edit)) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_edit);
    m_edit->setObjectName(QStringLiteral("gridFilter"));
    m_edit->setPlaceholderText(tr("Filter rows…"));
    m_edit->setToolTip(
        tr("Show only the rows that contain this text in any column (not case-sensitive); Esc clears it"));
    m_edit->setClearButtonEnabled(true);
    // Narrow enough for the Sources toolbar beside its four buttons in the default layout.
    m_edit->setMinimumWidth(m_edit->fontMetrics().horizontalAdvance(QLatin1Char('x')) * 16);
    m_edit->setMaximumWidth(m_edit->minimumWidth() * 5 / 2);
    m_edit->installEventFilter(this);
    // The count sits inside the field, as in a browser's find bar: a label beside it would widen the
    // box while filtering and push it into a narrow toolbar's overflow menu.
    m_count->setForegroundRole(QPalette::PlaceholderText);
    m_count->hide();
    connect(m_edit, &QLineEdit::textChanged, this, [this](const QString& text) {
        if (m_grid)
            m_grid->setFilterText(text);
    });
}

void GridFilterBox::setGrid(GridTools* grid) {
    for (const auto& c : std::as_const(m_connections))
        disconnect(c);
    m_connections.clear();
    m_grid = grid;
    if (grid) {
        grid->setFilterText(m_edit->text());
        GridProxyModel* proxy = grid->proxy();
        m_connections << connect(proxy, &QAbstractItemModel::rowsInserted, this, &GridFilterBox::updateCount)
                      << connect(proxy, &QAbstractItemModel::rowsRemoved, this, &GridFilterBox::updateCount)
                      << connect(proxy, &QAbstractItemModel::modelReset, this, &GridFilterBox::updateCount)
                      << connect(proxy, &QAbstractItemModel::layoutChanged, this,
                                 &GridFilterBox::updateCount);
        // "Clear Filter" in the grid's context menu, or a panel clearing it: the box shows the truth.
        m_connections << connect(proxy, &GridProxyModel::filterTextChanged, m_edit,
                                 [this](const QString& text) {
                                     if (m_edit->text() != text)
                                         m_edit->setText(text);
                                 });
        m_connections << connect(grid, &GridTools::filterRequested, m_edit, [this] {
            m_edit->setFocus(Qt::ShortcutFocusReason);
            m_edit->selectAll();
        });
    }
    updateCount();
}

QString GridFilterBox::countText() const {
    return m_count->text();
}

void GridFilterBox::updateCount() {
    const bool filtering = m_grid && m_grid->proxy()->isFiltering();
    if (filtering) {
        const int total = m_grid->sourceModel() ? m_grid->sourceModel()->rowCount() : 0;
        m_count->setText(tr("%1 of %2")
                             .arg(m_grid->proxy()->rowCount())
                             .arg(resulttext::countOf(total, tr("row"), tr("rows"))));
    } else {
        m_count->clear();
    }
    m_count->setVisible(filtering);
    placeCount();
}

void GridFilterBox::placeCount() {
    if (m_count->isHidden()) {
        m_edit->setTextMargins(0, 0, 0, 0);
        return;
    }
    m_count->adjustSize();
    int right = m_edit->width() - 4;
    for (const QWidget* button : m_edit->findChildren<QWidget*>()) // the clear button, when shown
        if (button != m_count && button->isVisible())
            right = std::min(right, button->geometry().left());
    m_count->move(right - m_count->width() - 2, (m_edit->height() - m_count->height()) / 2);
    m_edit->setTextMargins(0, 0, m_count->width() + 4, 0);
}

bool GridFilterBox::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_edit && event->type() == QEvent::Resize)
        placeCount();
    if (watched == m_edit && event->type() == QEvent::KeyPress &&
        static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape && !m_edit->text().isEmpty()) {
        m_edit->clear();
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

QWidget* GridFilterBox::wrap(GridTools* grid, QWidget* parent) {
    auto* page = new QWidget(parent);
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    auto* bar = new QWidget(page);
    auto* barLayout = new QHBoxLayout(bar);
    barLayout->setContentsMargins(4, 3, 4, 3);
    auto* box = new GridFilterBox(bar);
    barLayout->addWidget(box);
    barLayout->addStretch(1);
    layout->addWidget(bar);
    layout->addWidget(grid->view(), 1);
    box->setGrid(grid);
    return page;
}

} // namespace cdc::ui
