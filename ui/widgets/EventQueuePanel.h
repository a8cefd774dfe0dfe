#pragma once
/// The queue is the simulator's input: reordering it is how a user stages late and out-of-order events
/// to watch SEQUENCE BY sort them out, so the panel is about order (drag, Alt+Up / Alt+Down) first.

#include <QWidget>

class QTableView;
class QToolBar;
class QAction;
class QLabel;

namespace cdc::ui {

class EventQueueModel;

/// The event queue dock: arrival order of undelivered rows, reordered by drag and drop or
/// Move Up / Move Down. Delivery actions (Step, Deliver N...) are added by the simulation controller.
class EventQueuePanel : public QWidget {
    Q_OBJECT
public:
    EventQueuePanel(EventQueueModel* model, QWidget* parent = nullptr);

    QTableView* view() const { return m_view; }
    QToolBar* toolBar() const { return m_toolBar; }
    QAction* moveUpAction() const { return m_moveUp; }
    QAction* moveDownAction() const { return m_moveDown; }
    QAction* removeAction() const { return m_remove; }
    QList<qint64> selectedIds() const;
    void selectIds(const QList<qint64>& ids);

signals:
    void statusMessage(const QString& message);

private:
    void shift(int delta);
    void updateActions();

    EventQueueModel* m_model;
    QTableView* m_view;
    QToolBar* m_toolBar;
    QLabel* m_count;
    QAction* m_moveUp;
    QAction* m_moveDown;
    QAction* m_remove;
};

} // namespace cdc::ui
