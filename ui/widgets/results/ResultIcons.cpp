// One QIconEngine that draws with the palette's colour at paint time, so the icons follow a theme
// switch with nothing to reload; each icon is a few strokes in a 16x16 box.
#include "ui/widgets/results/ResultIcons.h"

#include <QApplication>
#include <QIconEngine>
#include <QPainter>
#include <QPainterPath>
#include <QPalette>
#include <QPixmap>

#include <functional>

namespace cdc::ui::resulticons {

namespace {

using Drawing = std::function<void(QPainter&)>; // draws into a 16x16 logical box

class PaintedIconEngine : public QIconEngine {
public:
    explicit PaintedIconEngine(Drawing draw) : m_draw(std::move(draw)) {}

    void paint(QPainter* painter, const QRect& rect, QIcon::Mode mode, QIcon::State) override {
        const QPalette pal = QApplication::palette();
        QColor ink =
            pal.color(mode == QIcon::Disabled ? QPalette::Disabled : QPalette::Active, QPalette::WindowText);
        if (mode == QIcon::Selected)
            ink = pal.color(QPalette::HighlightedText);
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing);
        painter->translate(rect.topLeft());
        painter->scale(rect.width() / 16.0, rect.height() / 16.0);
        QPen pen(ink, 1.5, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
        painter->setPen(pen);
        painter->setBrush(Qt::NoBrush);
        m_draw(*painter);
        painter->restore();
    }

    QPixmap pixmap(const QSize& size, QIcon::Mode mode, QIcon::State state) override {
        return scaledPixmap(size, mode, state, 1.0);
    }

    QPixmap scaledPixmap(const QSize& size, QIcon::Mode mode, QIcon::State state, qreal scale) override {
        QPixmap pm(size * scale);
        pm.setDevicePixelRatio(scale);
        pm.fill(Qt::transparent);
        QPainter p(&pm);
        paint(&p, QRect(QPoint(0, 0), size), mode, state);
        return pm;
    }

    QIconEngine* clone() const override { return new PaintedIconEngine(m_draw); }

private:
    Drawing m_draw;
};

QIcon painted(Drawing draw) {
    return QIcon(new PaintedIconEngine(std::move(draw)));
}

/// The corner of a table: a header row and two columns, leaving the bottom right for a badge.
void grid(QPainter& p) {
    p.drawRect(QRectF(1.5, 1.5, 13, 5));
    p.drawLine(QPointF(1.5, 6.5), QPointF(1.5, 14.5));
    p.drawLine(QPointF(5.5, 6.5), QPointF(5.5, 14.5));
    p.drawLine(QPointF(1.5, 10.5), QPointF(5.5, 10.5));
    p.drawLine(QPointF(1.5, 14.5), QPointF(5.5, 14.5));
}

void magnifier(QPainter& p) {
    p.drawEllipse(QPointF(6.5, 6.5), 4.5, 4.5);
    p.drawLine(QPointF(10, 10), QPointF(14, 14));
}

} // namespace

QIcon zoomIn() {
    return painted([](QPainter& p) {
        magnifier(p);
        p.drawLine(QPointF(4.5, 6.5), QPointF(8.5, 6.5));
        p.drawLine(QPointF(6.5, 4.5), QPointF(6.5, 8.5));
    });
}

QIcon zoomOut() {
    return painted([](QPainter& p) {
        magnifier(p);
        p.drawLine(QPointF(4.5, 6.5), QPointF(8.5, 6.5));
    });
}

QIcon zoomFit() {
    return painted([](QPainter& p) {
        // Two arrows pushing outwards to the frame edges.
        p.drawLine(QPointF(1.5, 3), QPointF(1.5, 13));
        p.drawLine(QPointF(14.5, 3), QPointF(14.5, 13));
        p.drawLine(QPointF(4, 8), QPointF(12, 8));
        p.drawPolyline(QPolygonF({QPointF(6.5, 5.5), QPointF(4, 8), QPointF(6.5, 10.5)}));
        p.drawPolyline(QPolygonF({QPointF(9.5, 5.5), QPointF(12, 8), QPointF(9.5, 10.5)}));
    });
}

QIcon changeFeed() {
    return painted([](QPainter& p) {
        // A list with +/- markers: the rows of a change feed.
        p.drawLine(QPointF(7, 3.5), QPointF(14.5, 3.5));
        p.drawLine(QPointF(7, 8), QPointF(14.5, 8));
        p.drawLine(QPointF(7, 12.5), QPointF(14.5, 12.5));
        p.drawLine(QPointF(1.5, 3.5), QPointF(4.5, 3.5));
        p.drawLine(QPointF(3, 2), QPointF(3, 5));
        p.drawLine(QPointF(1.5, 8), QPointF(4.5, 8));
        p.drawLine(QPointF(1.5, 12.5), QPointF(4.5, 12.5));
        p.drawLine(QPointF(3, 11), QPointF(3, 14));
    });
}

QIcon tombstone() {
    return painted([](QPainter& p) {
        QPainterPath path;
        path.moveTo(3.5, 14.5);
        path.lineTo(3.5, 6.5);
        path.arcTo(QRectF(3.5, 1.5, 9, 10), 180, -180);
        path.lineTo(12.5, 14.5);
        path.closeSubpath();
        p.drawPath(path);
        p.drawLine(QPointF(8, 5), QPointF(8, 11));
        p.drawLine(QPointF(5.8, 7), QPointF(10.2, 7));
    });
}

QIcon autoCdcTable() {
    return painted([](QPainter& p) {
        // A table grid with a circular arrow: rows kept in step with changes.
        grid(p);
        p.drawArc(QRectF(8.5, 8.5, 6, 6), 90 * 16, 270 * 16);
    });
}

QIcon appendTable() {
    return painted([](QPainter& p) {
        // A table grid with a plus: rows only ever added.
        grid(p);
        p.drawLine(QPointF(11.5, 9), QPointF(11.5, 15));
        p.drawLine(QPointF(8.5, 12), QPointF(14.5, 12));
    });
}

QIcon materializedView() {
    return painted([](QPainter& p) {
        // A table grid with a sigma: a query's result, recomputed.
        grid(p);
        p.drawPolyline(
            QPolygonF({QPointF(14.5, 9), QPointF(9, 9), QPointF(12, 12), QPointF(9, 15), QPointF(14.5, 15)}));
    });
}

} // namespace cdc::ui::resulticons
