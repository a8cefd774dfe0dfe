// The keys are taken in the delegate's editor event filter, before the view's own Tab handling. The
// editable grids are the Sources tabs (GridTools::setEditable), whose first rows are read-only.
#include "ui/widgets/GridEditDelegate.h"

#include <QKeyEvent>
#include <QTableView>

#include <optional>

namespace cdc::ui {

GridEditDelegate::GridEditDelegate(QTableView* view) : QStyledItemDelegate(view), m_view(view) {}

bool GridEditDelegate::eventFilter(QObject* object, QEvent* event) {
    auto* editor = qobject_cast<QWidget*>(object);
    if (!editor || event->type() != QEvent::KeyPress)
        return QStyledItemDelegate::eventFilter(object, event);
    const auto* key = static_cast<QKeyEvent*>(event);
    const Qt::KeyboardModifiers modifiers = key->modifiers() & ~Qt::KeypadModifier;
    std::optional<Step> step;
    if (key->key() == Qt::Key_Tab && modifiers == Qt::NoModifier)
        step = Step::Next;
    else if (key->key() == Qt::Key_Backtab || (key->key() == Qt::Key_Tab && modifiers == Qt::ShiftModifier))
        step = Step::Previous;
    else if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) && modifiers == Qt::NoModifier)
        step = Step::Down;
    else if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) && modifiers == Qt::ShiftModifier)
        step = Step::Up;
    if (!step)
        return QStyledItemDelegate::eventFilter(object, event);
    // Commit and close first (the view takes the focus back), then move: Qt's own Tab handling would
    // wrap from the last cell to the first row, which holds delivered, read-only rows.
    emit commitData(editor);
    emit closeEditor(editor, QAbstractItemDelegate::NoHint);
    move(*step);
    return true;
}

void GridEditDelegate::move(Step step) {
    const QModelIndex current = m_view->currentIndex();
    const QAbstractItemModel* model = m_view->model();
    if (!current.isValid() || !model)
        return;
    int row = current.row();
    int column = current.column();
    const int columns = model->columnCount();
    switch (step) {
    case Step::Next:
        if (++column >= columns) {
            column = 0;
            ++row;
        }
        break;
    case Step::Previous:
        if (--column < 0) {
            column = columns - 1;
            --row;
        }
        break;
    case Step::Down:
        ++row;
        break;
    case Step::Up:
        --row;
        break;
    }
    if (row < 0 || row >= model->rowCount())
        return; // past the first or last cell: stay where the edit was
    const QModelIndex next = model->index(row, column);
    m_view->setCurrentIndex(next);
    m_view->scrollTo(next);
    if ((step == Step::Next || step == Step::Previous) && (next.flags() & Qt::ItemIsEditable))
        m_view->edit(next);
}

} // namespace cdc::ui
