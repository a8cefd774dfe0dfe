#include "ui/designer/EdgeItem.h"

#include "ui/model/ThemeColors.h"

#include <QApplication>
#include <QGraphicsScene>
#include <QPainter>
#include <QPainterPathStroker>
#include <QtMath>

namespace cdc::ui {

namespace {
constexpr qreal kArrowLength = 10;
constexpr qreal kArrowHalfWidth = 4.5;
} // namespace

EdgeItem::EdgeItem(const QString& from, const QString& to) : m_from(from), m_to(to) {
    setZValue(0);
}

void EdgeItem::setPath(const QPainterPath& path) {
    prepareGeometryChange();
    m_path = path;
    update();
}

QPolygonF EdgeItem::arrowHead() const {
    if (m_path.isEmpty())
        return {};
    const QPointF tip = m_path.pointAtPercent(1);
    // The direction over the path's last few points, steadier than the tangent at a spline's very end.
    const QPointF before =
        m_path.pointAtPercent(m_path.percentAtLength(std::max(0.0, m_path.length() - kArrowLength)));
    QPointF dir = tip - before;
    const qreal len = std::hypot(dir.x(), dir.y());
    dir = len > 0.01 ? dir / len : QPointF(1, 0);
    const QPointF normal(-dir.y(), dir.x());
    const QPointF base = tip - dir * kArrowLength;
    return QPolygonF{tip, base + normal * kArrowHalfWidth, base - normal * kArrowHalfWidth};
}

QRectF EdgeItem::boundingRect() const {
    return m_path.boundingRect().united(arrowHead().boundingRect()).adjusted(-2, -2, 2, 2);
}

QPainterPath EdgeItem::shape() const {
    QPainterPathStroker stroker;
    stroker.setWidth(6);
    return stroker.createStroke(m_path);
}

void EdgeItem::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) {
    const QPalette palette = scene() ? scene()->palette() : QApplication::palette();
    // Edges are graphics: muted, but at graphic contrast with the canvas.
    const QColor color = themecolors::readableOn(
        themecolors::mutedText(palette), palette.color(QPalette::Base), themecolors::kGraphicContrast);
    p->setRenderHint(QPainter::Antialiasing);
    // The line stops where the head starts, so its end does not poke through the tip.
    const qreal cut = m_path.percentAtLength(std::max(0.0, m_path.length() - kArrowLength * 0.8));
    QPainterPath line;
    const int steps = 48;
    line.moveTo(m_path.pointAtPercent(0));
    for (int i = 1; i <= steps; ++i)
        line.lineTo(m_path.pointAtPercent(cut * i / steps));
    p->setPen(QPen(color, 1.5, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    p->setBrush(Qt::NoBrush);
    p->drawPath(line);
    p->setPen(Qt::NoPen);
    p->setBrush(color);
    p->drawPolygon(arrowHead());
}

} // namespace cdc::ui
