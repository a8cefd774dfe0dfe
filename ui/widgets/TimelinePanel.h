#pragma once
/// Looking back and going back are kept apart on purpose: selecting an update only changes what the
/// result docks show, while Rewind Here changes the project (undoably).

#include "core/common/Diagnostic.h"

#include <QWidget>

class QTableView;
class QAction;
class QLabel;

namespace cdc::ui {

class Project;
class UpdateTimelineModel;

/// The update timeline: every update with its metrics. Selecting one shows every view as it was
/// after that update; "Rewind Here" discards the later updates (their events go back to the queue;
/// undoable).
class TimelinePanel : public QWidget {
    Q_OBJECT
public:
    TimelinePanel(Project* project, UpdateTimelineModel* model, QWidget* parent = nullptr);

    QTableView* view() const { return m_view; }
    QAction* rewindAction() const { return m_rewind; }
    /// The update whose state is shown, or -1 for "the latest".
    qint64 selectedUpdate() const;
    void selectUpdate(qint64 updateId);
    Status rewindTo(qint64 updateId);

signals:
    /// -1 = follow the latest update.
    void updateSelected(qint64 updateId);
    void statusMessage(const QString& message);

private:
    void updateActions();

    Project* m_project;
    UpdateTimelineModel* m_model;
    QTableView* m_view;
    QAction* m_rewind;
    qint64 m_selected = -1;
};

} // namespace cdc::ui
