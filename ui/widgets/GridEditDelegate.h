#pragma once
/// Cell editing that moves like a spreadsheet: Tab / Shift+Tab commit and edit the next / previous
/// cell (wrapping to the next / previous row), Enter / Shift+Enter commit and move down / up;
/// Escape (Qt's own handling) closes the editor and keeps the old value.

#include <QStyledItemDelegate>

class QTableView;

namespace cdc::ui {

class GridEditDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    explicit GridEditDelegate(QTableView* view);

protected:
    bool eventFilter(QObject* editor, QEvent* event) override;

private:
    enum class Step { Next, Previous, Down, Up };
    void move(Step step);

    QTableView* m_view;
};

} // namespace cdc::ui
