#pragma once
/// The view on the designer's canvas, with the navigation of node editors (Blender, Unreal, QtNodes):
/// the mouse wheel zooms around the pointer (with or without Ctrl), the middle button or Space + left
/// button drags the canvas, a left drag on the background selects with a rubber band, a left drag on a
/// node moves it (snapping to the grid). Until the user zooms or pans, the view keeps the whole graph in
/// sight (Fit) as the graph and the view change.

#include <QGraphicsView>

namespace cdc::ui {

class DesignerScene;

class DesignerView : public QGraphicsView {
    Q_OBJECT
public:
    static constexpr qreal kMinZoom = 0.1;
    static constexpr qreal kMaxZoom = 4.0;
    /// Fit never enlarges past this: a three-node graph stays at a readable, not a poster size.
    static constexpr qreal kMaxFitZoom = 1.0;

    explicit DesignerView(DesignerScene* scene, QWidget* parent = nullptr);

    DesignerScene* designerScene() const { return m_scene; }
    /// The whole graph in sight (never above kMaxFitZoom); following graphs are fitted again.
    void fitGraph();
    /// Multiplies the zoom by `factor` around `anchor` (viewport coordinates; the centre when omitted).
    void zoomBy(qreal factor, const QPoint& anchor = QPoint(-1, -1));
    qreal zoom() const;
    /// Whether the view fits each new graph (true until the user zooms or pans).
    bool isFollowingGraph() const { return m_autoFit; }

protected:
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void keyReleaseEvent(QKeyEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void drawBackground(QPainter* painter, const QRectF& rect) override;

private:
    void panBy(const QPoint& delta);

    DesignerScene* m_scene;
    bool m_autoFit = true;
    bool m_spaceHeld = false;
    bool m_panning = false;
    QPoint m_panFrom;
};

} // namespace cdc::ui
