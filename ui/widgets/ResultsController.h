#pragma once
/// One loader outside the panels, so the target table, the SCD2 timeline and the tombstones can never
/// show different updates: it follows the Timeline's selection and the project's data changes.

#include "ui/model/results/TargetSnapshot.h"

#include <QObject>

class QLabel;

namespace cdc::ui {

class Project;

/// Decides what the result views show: the targets after the latest update, or — when an older
/// update is selected in the timeline — exactly as they were after that one. Loads the snapshots
/// once and hands them to every view.
class ResultsController : public QObject {
    Q_OBJECT
public:
    ResultsController(Project* project, QObject* parent = nullptr);

    /// -1 = follow the latest update.
    void showUpdate(qint64 updateId);
    qint64 shownUpdate() const { return m_updateId; }
    const QList<TargetSnapshot>& snapshots() const { return m_snapshots; }
    /// A line for the banner over the result views ("after update 3 of 5").
    QString description() const { return m_description; }

public slots:
    void reload();

signals:
    void snapshotsChanged(const QList<cdc::ui::TargetSnapshot>& snapshots);
    void descriptionChanged(const QString& text);

private:
    Project* m_project;
    qint64 m_updateId = -1;
    QList<TargetSnapshot> m_snapshots;
    bool m_latestShown = false; ///< m_snapshots are of the latest update, loaded at its dataChanged
    QString m_description;
};

} // namespace cdc::ui
