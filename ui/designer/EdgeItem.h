#pragma once
/// One data dependency on the designer's canvas: the layout's path with an arrow head at its end.

#include <QGraphicsItem>
#include <QPainterPath>

namespace cdc::ui {

/// An edge from one node id to another, drawn along a path that ends at the arrow head's tip.
class EdgeItem : public QGraphicsItem {
public:
    static constexpr int kType = UserType + 702;

    EdgeItem(const QString& from, const QString& to);

    QString from() const { return m_from; }
    QString to() const { return m_to; }
    void setPath(const QPainterPath& path);
    QPainterPath path() const { return m_path; }
    /// The arrow head at the path's end, pointing along it.
    QPolygonF arrowHead() const;

    int type() const override { return kType; }
    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    QString m_from;
    QString m_to;
    QPainterPath m_path;
};

} // namespace cdc::ui
