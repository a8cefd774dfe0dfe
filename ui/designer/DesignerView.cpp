// Panning moves the (hidden) scroll bars over a scene rect much larger than the graph, so the canvas can be
// dragged anywhere without scroll bars taking room in a small dock.
#include "ui/designer/DesignerView.h"

#include "ui/designer/DesignerScene.h"
#include "ui/model/ThemeColors.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QScrollBar>
#include <QWheelEvent>
#include <QtMath>

namespace cdc::ui {

namespace {
/// Zoom per wheel notch (120 units of angle delta).
constexpr qreal kWheelStep = 1.2;
constexpr qreal kFitMargin = 16;
} // namespace

DesignerView::DesignerView(DesignerScene* scene, QWidget* parent)
    : QGraphicsView(scene, parent), m_scene(scene) {
    setObjectName(QStringLiteral("designerView"));
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing | QPainter::SmoothPixmapTransform);
    setDragMode(QGraphicsView::RubberBandDrag);
    setRubberBandSelectionMode(Qt::IntersectsItemShape);
    setTransformationAnchor(QGraphicsView::NoAnchor);
    setResizeAnchor(QGraphicsView::AnchorViewCenter);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setFrameShape(QFrame::NoFrame);
    setFocusPolicy(Qt::StrongFocus);
    connect(scene, &DesignerScene::layoutChanged, this, [this] {
        if (m_autoFit)
            fitGraph();
    });
}

void DesignerView::fitGraph() {
    m_autoFit = true;
    const QRectF bounds = m_scene->graphBounds();
    if (bounds.isEmpty())
        return;
    const QRectF target = bounds.adjusted(-kFitMargin, -kFitMargin, kFitMargin, kFitMargin);
    const QRectF port = viewport()->rect();
    const qreal scale = std::clamp(std::min(port.width() / target.width(), port.height() / target.height()),
                                   kMinZoom, kMaxFitZoom);
    setTransform(QTransform::fromScale(scale, scale));
    centerOn(target.center());
}

qreal DesignerView::zoom() const {
    return transform().m11();
}

void DesignerView::zoomBy(qreal factor, const QPoint& anchor) {
    const qreal target = std::clamp(zoom() * factor, kMinZoom, kMaxZoom);
    if (qFuzzyCompare(target, zoom()))
        return;
    m_autoFit = false;
    const QPoint at = anchor.x() < 0 ? viewport()->rect().center() : anchor;
    // Keep the scene point under `at` where it is: scale, then scroll it back under the pointer.
    const QPointF before = mapToScene(at);
    setTransform(QTransform::fromScale(target, target));
    const QPointF after = mapToScene(at);
    const QPointF shift = (after - before) * target;
    horizontalScrollBar()->setValue(horizontalScrollBar()->value() - qRound(shift.x()));
    verticalScrollBar()->setValue(verticalScrollBar()->value() - qRound(shift.y()));
}

void DesignerView::panBy(const QPoint& delta) {
    m_autoFit = false;
    horizontalScrollBar()->setValue(horizontalScrollBar()->value() - delta.x());
    verticalScrollBar()->setValue(verticalScrollBar()->value() - delta.y());
}

void DesignerView::wheelEvent(QWheelEvent* event) {
    const int delta = event->angleDelta().y();
    if (delta == 0) {
        event->ignore();
        return;
    }
    zoomBy(std::pow(kWheelStep, delta / 120.0), event->position().toPoint());
    event->accept();
}

void DesignerView::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::MiddleButton || (m_spaceHeld && event->button() == Qt::LeftButton)) {
        m_panning = true;
        m_panFrom = event->position().toPoint();
        viewport()->setCursor(Qt::ClosedHandCursor);
        event->accept();
        return;
    }
    QGraphicsView::mousePressEvent(event);
}

void DesignerView::mouseMoveEvent(QMouseEvent* event) {
    if (m_panning) {
        const QPoint at = event->position().toPoint();
        panBy(at - m_panFrom);
        m_panFrom = at;
        event->accept();
        return;
    }
    QGraphicsView::mouseMoveEvent(event);
}

void DesignerView::mouseReleaseEvent(QMouseEvent* event) {
    if (m_panning && (event->button() == Qt::MiddleButton || event->button() == Qt::LeftButton)) {
        m_panning = false;
        viewport()->setCursor(m_spaceHeld ? Qt::OpenHandCursor : Qt::ArrowCursor);
        event->accept();
        return;
    }
    QGraphicsView::mouseReleaseEvent(event);
}

void DesignerView::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Space && !event->isAutoRepeat()) {
        m_spaceHeld = true;
        viewport()->setCursor(Qt::OpenHandCursor);
        event->accept();
        return;
    }
    QGraphicsView::keyPressEvent(event);
}

void DesignerView::keyReleaseEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Space && !event->isAutoRepeat()) {
        m_spaceHeld = false;
        if (!m_panning)
            viewport()->setCursor(Qt::ArrowCursor);
        event->accept();
        return;
    }
    QGraphicsView::keyReleaseEvent(event);
}

void DesignerView::resizeEvent(QResizeEvent* event) {
    QGraphicsView::resizeEvent(event);
    if (m_autoFit)
        fitGraph();
}

void DesignerView::drawBackground(QPainter* painter, const QRectF& rect) {
    // A dot at every grid point shows where dragged nodes snap; faint, and sparser when zoomed far out.
    const QPalette& pal = palette();
    painter->fillRect(rect, pal.color(QPalette::Base));
    const qreal grid = DesignerScene::kGrid * (zoom() < 0.5 ? 4 : 1);
    const QColor dot = themecolors::mix(pal.color(QPalette::Base), pal.color(QPalette::Text), 0.22);
    painter->setPen(QPen(dot, 1.6 / std::max(zoom(), 0.01), Qt::SolidLine, Qt::RoundCap));
    QVector<QPointF> points;
    for (qreal x = std::floor(rect.left() / grid) * grid; x <= rect.right(); x += grid)
        for (qreal y = std::floor(rect.top() / grid) * grid; y <= rect.bottom(); y += grid)
            points << QPointF(x, y);
    painter->drawPoints(points);
}

} // namespace cdc::ui
