#pragma once
/// The Designer dock's content: the pipeline graph's canvas under a tool bar (Fit, Zoom In, Zoom Out,
/// Export SVG…, Export PNG…). The keys work while the designer has focus: F or Ctrl+0 fits, Ctrl++ and
/// Ctrl+- zoom.

#include <QWidget>

class QAction;
class QToolBar;

namespace cdc::pipeline {
struct PipelineGraph;
}

namespace cdc::ui {

class DesignerScene;
class DesignerView;

class DesignerPanel : public QWidget {
    Q_OBJECT
public:
    explicit DesignerPanel(QWidget* parent = nullptr);

    /// Shows `graph` (see DesignerScene::setGraph).
    void setGraph(const pipeline::PipelineGraph& graph);

    DesignerScene* scene() const { return m_scene; }
    DesignerView* view() const { return m_view; }
    QToolBar* toolBar() const { return m_toolBar; }
    QAction* fitAction() const { return m_fit; }
    QAction* zoomInAction() const { return m_zoomIn; }
    QAction* zoomOutAction() const { return m_zoomOut; }
    QAction* exportSvgAction() const { return m_exportSvg; }
    QAction* exportPngAction() const { return m_exportPng; }

    /// Writes the graph to `path` as SVG or PNG (by its suffix); false, with a status message, on failure.
    bool exportTo(const QString& path);

signals:
    void statusMessage(const QString& message);

private:
    void chooseExportFile(const QString& suffix);

    DesignerScene* m_scene;
    DesignerView* m_view;
    QToolBar* m_toolBar;
    QAction* m_fit;
    QAction* m_zoomIn;
    QAction* m_zoomOut;
    QAction* m_exportSvg;
    QAction* m_exportPng;
};

} // namespace cdc::ui
