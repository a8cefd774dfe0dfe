#pragma once
/// The SCD2 history of a target as a timeline (one lane per key, one bar per version), with zoom
/// controls and the change legend. Only SCD type 2 targets are listed.

#include "ui/widgets/results/ResultPanel.h"

class QAction;

namespace cdc::ui {

class ChangeLegend;
class Scd2TimelineModel;
class Scd2TimelineView;

class Scd2TimelinePanel : public ResultPanel {
    Q_OBJECT
public:
    explicit Scd2TimelinePanel(QWidget* parent = nullptr);

    /// Selects the version of `row` (TargetRowsModel numbering) of `target`, scrolling to it.
    void selectRow(const QString& target, int row);

    Scd2TimelineModel* model() const { return m_model; }
    Scd2TimelineView* view() const { return m_view; }
    QAction* zoomInAction() const { return m_zoomIn; }
    QAction* zoomOutAction() const { return m_zoomOut; }
    QAction* zoomFitAction() const { return m_zoomFit; }
    ChangeLegend* legend() const { return m_legend; }

signals:
    /// The user clicked a version: `row` is its row in the target table (TargetRowsModel numbering).
    void versionActivated(const QString& target, int row);

protected:
    bool accepts(const TargetSnapshot& snapshot) const override { return snapshot.scd2; }
    void showSnapshot(const SharedSnapshot& snapshot) override;
    void clearSnapshot() override;

private:
    void updateZoomActions();

    Scd2TimelineModel* m_model;
    Scd2TimelineView* m_view;
    QAction* m_zoomOut;
    QAction* m_zoomIn;
    QAction* m_zoomFit;
    ChangeLegend* m_legend;
};

} // namespace cdc::ui
