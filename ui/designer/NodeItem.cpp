// Sizes come from font metrics so labels never clip; the same metrics decide the layout's node sizes, so
// what Graphviz spaces out is exactly what is drawn. Colours are read from the scene's palette on every
// paint, never kept.
#include "ui/designer/NodeItem.h"

#include "ui/designer/DesignerScene.h"
#include "ui/designer/NodeStyle.h"
#include "ui/model/ThemeColors.h"

#include <QApplication>
#include <QFontMetricsF>
#include <QGraphicsSceneMouseEvent>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <algorithm>

namespace cdc::ui {

namespace {

using pipeline::NodeKind;

constexpr qreal kPadX = 12;
constexpr qreal kPadY = 8;
constexpr qreal kIcon = 12;
constexpr qreal kIconGap = 5;
constexpr qreal kLineGap = 3;
constexpr qreal kRowPad = 5;   ///< above and below each detail row of a table
constexpr qreal kCap = 9;      ///< height of a cylinder's cap ellipse
constexpr qreal kChevron = 12; ///< depth of a flow's pointed end
constexpr qreal kMinWidth = 130;
constexpr qreal kMaxNameWidth = 280;
constexpr qreal kBadge = 8;   ///< radius of the error / warning badge
constexpr qreal kBadgeIn = 2; ///< how far the badge's centre sits inside the corner

bool isFlow(NodeKind k) {
    return k == NodeKind::AutoCdcFlow || k == NodeKind::AutoCdcSnapshotFlow || k == NodeKind::AppendFlow;
}

struct Fonts {
    QFont badge;
    QFont name;
    QFont detail;
    QFont figures;
};

Fonts fonts() {
    const QFont base = QApplication::font();
    Fonts f{base, base, base, base};
    f.badge.setPointSizeF(base.pointSizeF() * 0.74);
    f.badge.setBold(true);
    f.badge.setLetterSpacing(QFont::PercentageSpacing, 106);
    f.name.setPointSizeF(base.pointSizeF() * 1.02);
    f.name.setBold(true);
    f.detail.setPointSizeF(base.pointSizeF() * 0.88);
    f.figures = f.detail;
    f.figures.setItalic(true); // live figures, told apart from the definition's details
    return f;
}

/// Where the text rows sit inside the node, from the top of its rectangle.
struct Metrics {
    qreal badgeHeight;
    qreal nameHeight;
    qreal detailHeight;
    int rows;           ///< detail rows, the figures line included
    qreal headerHeight; ///< badge + name, with padding
    qreal top;          ///< extra space above the text (a cylinder's cap)
    qreal left;         ///< text indent (a pill's rounded end)
    QSizeF size;
};

Metrics metricsFor(const pipeline::GraphNode& node, const QString& figures) {
    const Fonts f = fonts();
    const QFontMetricsF badge(f.badge), name(f.name), detail(f.detail), figuresMetrics(f.figures);
    const NodeKind kind = node.kind;
    Metrics m{};
    m.badgeHeight = std::max(kIcon, badge.height());
    m.nameHeight = name.height();
    m.detailHeight = detail.height() + (kind == NodeKind::StreamingTable ? 2 * kRowPad : kLineGap);
    m.top = kind == NodeKind::SourceTable ? kCap : 0;
    m.headerHeight = kPadY + m.badgeHeight + kLineGap + m.nameHeight + kPadY;
    qreal width = std::min(kMaxNameWidth, name.horizontalAdvance(QString::fromStdString(node.name)));
    width = std::max(width, kIcon + kIconGap + badge.horizontalAdvance(nodeBadge(kind)));
    for (const auto& d : node.details)
        width = std::max(width, detail.horizontalAdvance(QString::fromStdString(d)));
    width = std::max(width, figuresMetrics.horizontalAdvance(figures));
    m.rows = int(node.details.size()) + (figures.isEmpty() ? 0 : 1);
    qreal height = m.top + m.headerHeight + m.rows * m.detailHeight;
    if (m.rows > 0 && kind != NodeKind::StreamingTable)
        height += kPadY / 2;
    if (kind == NodeKind::SourceTable)
        height += kCap / 2;
    m.left = isFlow(kind) ? kPadX + 4 : kPadX;
    const qreal right = isFlow(kind) ? kPadX + kChevron : kPadX;
    m.size = QSizeF(std::ceil(std::max(kMinWidth, width + m.left + right)), std::ceil(height));
    return m;
}

QPainterPath outline(NodeKind kind, const QRectF& r) {
    QPainterPath path;
    switch (kind) {
    case NodeKind::SourceTable: {
        // A cylinder: straight sides between half-ellipses top and bottom.
        path.moveTo(r.left(), r.top() + kCap / 2);
        path.arcTo(QRectF(r.left(), r.top(), r.width(), kCap), 180, -180);
        path.lineTo(r.right(), r.bottom() - kCap / 2);
        path.arcTo(QRectF(r.left(), r.bottom() - kCap, r.width(), kCap), 0, -180);
        path.closeSubpath();
        break;
    }
    case NodeKind::StreamingTable:
        path.addRoundedRect(r, 3, 3);
        break;
    case NodeKind::AutoCdcFlow:
    case NodeKind::AutoCdcSnapshotFlow:
    case NodeKind::AppendFlow: {
        // Rounded on the reading side, pointed downstream.
        const qreal radius = std::min(r.height() / 2, 14.0);
        path.moveTo(r.right() - kChevron, r.top());
        path.lineTo(r.right(), r.center().y());
        path.lineTo(r.right() - kChevron, r.bottom());
        path.lineTo(r.left() + radius, r.bottom());
        path.arcTo(QRectF(r.left(), r.bottom() - 2 * radius, 2 * radius, 2 * radius), 270, -90);
        path.lineTo(r.left(), r.top() + radius);
        path.arcTo(QRectF(r.left(), r.top(), 2 * radius, 2 * radius), 180, -90);
        path.closeSubpath();
        break;
    }
    default:
        path.addRoundedRect(r, 9, 9);
    }
    return path;
}

/// The small glyph before the badge: a cylinder, a window, a grid or a double chevron.
void drawIcon(QPainter* p, NodeKind kind, const QRectF& box, const QColor& color) {
    p->save();
    p->setPen(QPen(color, 1.3));
    p->setBrush(Qt::NoBrush);
    const QRectF r = box.adjusted(1, 1, -1, -1);
    switch (kind) {
    case NodeKind::SourceTable:
        p->drawEllipse(QRectF(r.left(), r.top(), r.width(), 4));
        p->drawLine(QPointF(r.left(), r.top() + 2), QPointF(r.left(), r.bottom() - 2));
        p->drawLine(QPointF(r.right(), r.top() + 2), QPointF(r.right(), r.bottom() - 2));
        p->drawArc(QRectF(r.left(), r.bottom() - 4, r.width(), 4), 0, -180 * 16);
        break;
    case NodeKind::StreamingTable:
        p->drawRect(r);
        p->drawLine(QPointF(r.left(), r.top() + r.height() / 3),
                    QPointF(r.right(), r.top() + r.height() / 3));
        p->drawLine(QPointF(r.left(), r.top() + 2 * r.height() / 3),
                    QPointF(r.right(), r.top() + 2 * r.height() / 3));
        p->drawLine(QPointF(r.center().x(), r.top()), QPointF(r.center().x(), r.bottom()));
        break;
    case NodeKind::AutoCdcFlow:
    case NodeKind::AutoCdcSnapshotFlow:
    case NodeKind::AppendFlow:
        for (qreal dx : {0.0, r.width() / 2.5}) {
            QPolygonF chevron{QPointF(r.left() + dx, r.top()),
                              QPointF(r.left() + dx + r.width() / 2, r.center().y()),
                              QPointF(r.left() + dx, r.bottom())};
            p->drawPolyline(chevron);
        }
        break;
    default:
        p->drawRoundedRect(r, 2, 2);
        p->drawLine(QPointF(r.left(), r.top() + 3.5), QPointF(r.right(), r.top() + 3.5));
        p->drawEllipse(QRectF(r.center().x() - 2, r.center().y(), 4, 3));
    }
    p->restore();
}

/// A round badge centred just inside `corner`: red with "!" for errors, amber for warnings, ringed in
/// the canvas colour so it stands off the node's border.
void drawIssueBadge(QPainter* p, bool error, const QPalette& palette, const QPointF& corner) {
    namespace tc = themecolors;
    const QColor base = palette.color(QPalette::Base);
    const QColor fill = error ? tc::error(palette) : tc::warning(palette);
    const QPointF centre = corner + QPointF(-kBadgeIn, kBadgeIn);
    p->save();
    p->setPen(QPen(base, 1.5));
    p->setBrush(fill);
    p->drawEllipse(centre, kBadge, kBadge);
    QFont font = QApplication::font();
    font.setBold(true);
    font.setPixelSize(int(kBadge * 1.5));
    p->setFont(font);
    // The mark takes whichever of black and white reads on the fill, in both themes.
    p->setPen(tc::contrastRatio(Qt::white, fill) >= tc::contrastRatio(Qt::black, fill) ? Qt::white
                                                                                       : Qt::black);
    p->drawText(QRectF(centre.x() - kBadge, centre.y() - kBadge, 2 * kBadge, 2 * kBadge), Qt::AlignCenter,
                QStringLiteral("!"));
    p->restore();
}

} // namespace

NodeItem::NodeItem(const pipeline::GraphNode& node, const NodeState& state)
    : m_node(node), m_state(state), m_size(sizeFor(node, state)) {
    setFlags(ItemIsSelectable | ItemIsMovable | ItemSendsGeometryChanges);
    setAcceptHoverEvents(true);
    setZValue(1); // above the edges
    setNode(node);
}

void NodeItem::setNode(const pipeline::GraphNode& node) {
    m_node = node;
    resize();
    updateToolTip();
    update();
}

void NodeItem::setState(const NodeState& state) {
    if (state == m_state)
        return;
    m_state = state;
    resize();
    updateToolTip();
    update();
}

QString NodeItem::badgeKind() const {
    return m_state.errors > 0     ? QStringLiteral("error")
           : m_state.warnings > 0 ? QStringLiteral("warning")
                                  : QString();
}

void NodeItem::resize() {
    const QSizeF size = sizeFor(m_node, m_state);
    if (size != m_size)
        prepareGeometryChange();
    m_size = size;
}

void NodeItem::updateToolTip() {
    const pipeline::GraphNode& node = m_node;
    QString tip = QStringLiteral("<b>%1</b> · %2")
                      .arg(QString::fromStdString(node.name).toHtmlEscaped(), nodeBadge(node.kind).toLower());
    for (const auto& d : node.details)
        tip += QStringLiteral("<br>%1").arg(QString::fromStdString(d).toHtmlEscaped());
    if (node.location.valid())
        tip += QStringLiteral("<br><i>%1</i>").arg(QObject::tr("line %1").arg(node.location.line));
    if (const QString figures = nodeFigures(m_state); !figures.isEmpty())
        tip += QStringLiteral("<br>%1").arg(figures.toHtmlEscaped());
    for (const QString& message : m_state.messages)
        tip += QStringLiteral("<br><b>%1</b>").arg(message.toHtmlEscaped());
    setToolTip(tip);
}

QSizeF NodeItem::sizeFor(const pipeline::GraphNode& node, const NodeState& state) {
    return metricsFor(node, nodeFigures(state)).size;
}

QRectF NodeItem::rect() const {
    return QRectF(QPointF(-m_size.width() / 2, -m_size.height() / 2), m_size);
}

QPointF NodeItem::outputPort() const {
    const QRectF r = rect();
    return {r.right(), r.center().y()};
}

QRectF NodeItem::boundingRect() const {
    // The selection outline, and the badge standing out of the top-right corner.
    const qreal out = kBadge - kBadgeIn + 1;
    return rect().adjusted(-4, -std::max(4.0, out), std::max(4.0, out), 4);
}

QPainterPath NodeItem::shape() const {
    return outline(m_node.kind, rect());
}

void NodeItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*) {
    const QPalette palette = scene() ? scene()->palette() : QApplication::palette();
    const NodeStyle style = nodeStyle(m_node.kind, palette);
    const QString figures = nodeFigures(m_state);
    const Metrics m = metricsFor(m_node, figures);
    const Fonts f = fonts();
    const QRectF r = rect();
    const QPainterPath path = outline(m_node.kind, r);
    const NodeKind kind = m_node.kind;
    p->setRenderHint(QPainter::Antialiasing);

    p->setPen(Qt::NoPen);
    p->setBrush(isFlow(kind) ? style.header : style.fill);
    p->drawPath(path);
    if (kind == NodeKind::StreamingTable) {
        // The header band with the name, then one row per detail, as a table would be drawn.
        p->save();
        p->setClipPath(path);
        p->fillRect(QRectF(r.left(), r.top(), r.width(), m.headerHeight), style.header);
        p->setPen(QPen(style.accent, 0.8));
        for (int i = 0; i < m.rows; ++i) {
            const qreal y = r.top() + m.headerHeight + i * m.detailHeight;
            p->drawLine(QPointF(r.left(), y), QPointF(r.right(), y));
        }
        p->restore();
    }
    if (kind == NodeKind::SourceTable) {
        p->setBrush(style.header);
        p->setPen(Qt::NoPen);
        p->drawEllipse(QRectF(r.left(), r.top(), r.width(), kCap));
    }

    QPen border(style.accent, 1.4);
    if (kind == NodeKind::TemporaryView)
        border.setStyle(Qt::DashLine);
    p->setPen(border);
    p->setBrush(Qt::NoBrush);
    p->drawPath(path);
    if (kind == NodeKind::SourceTable)
        p->drawArc(QRectF(r.left(), r.top(), r.width(), kCap), 0, -180 * 16);
    if (kind == NodeKind::MaterializedView)
        p->drawRoundedRect(r.adjusted(3, 3, -3, -3), 7, 7);
    if (option->state & QStyle::State_Selected) {
        p->setPen(QPen(palette.color(QPalette::Highlight), 2.5));
        p->drawPath(outline(kind, r.adjusted(-3, -3, 3, 3)));
    }

    qreal y = r.top() + m.top + kPadY;
    const qreal x = r.left() + m.left;
    const qreal textWidth = r.width() - m.left - (isFlow(kind) ? kPadX + kChevron : kPadX);
    drawIcon(p, kind, QRectF(x, y + (m.badgeHeight - kIcon) / 2, kIcon, kIcon), style.accent);
    p->setPen(style.accent);
    p->setFont(f.badge);
    p->drawText(QRectF(x + kIcon + kIconGap, y, textWidth, m.badgeHeight), Qt::AlignLeft | Qt::AlignVCenter,
                style.badge);
    y += m.badgeHeight + kLineGap;
    p->setPen(style.text);
    p->setFont(f.name);
    const QString name =
        QFontMetricsF(f.name).elidedText(QString::fromStdString(m_node.name), Qt::ElideMiddle, textWidth);
    p->drawText(QRectF(x, y, textWidth, m.nameHeight), Qt::AlignLeft | Qt::AlignVCenter, name);
    y = r.top() + m.top + m.headerHeight;
    p->setFont(f.detail);
    p->setPen(style.muted);
    for (const auto& d : m_node.details) {
        p->drawText(QRectF(x, y, textWidth, m.detailHeight), Qt::AlignLeft | Qt::AlignVCenter,
                    QString::fromStdString(d));
        y += m.detailHeight;
    }
    if (!figures.isEmpty()) {
        p->setFont(f.figures);
        p->drawText(QRectF(x, y, textWidth, m.detailHeight), Qt::AlignLeft | Qt::AlignVCenter,
                    QFontMetricsF(f.figures).elidedText(figures, Qt::ElideRight, textWidth));
    }
    if (const QString kind = badgeKind(); !kind.isEmpty())
        drawIssueBadge(p, kind == QLatin1String("error"), palette,
                       QPointF(r.right() - (isFlow(m_node.kind) ? kChevron : 0), r.top()));
    // The output port: drag from it onto another node to connect the two.
    p->setPen(QPen(style.accent, 1.2));
    p->setBrush(palette.color(QPalette::Base));
    p->drawEllipse(outputPort(), 3.5, 3.5);
}

QVariant NodeItem::itemChange(GraphicsItemChange change, const QVariant& value) {
    auto* designer = qobject_cast<DesignerScene*>(scene());
    if (change == ItemPositionChange && designer && designer->isUserDragging())
        return designer->snapToGrid(value.toPointF());
    if (change == ItemPositionHasChanged && designer)
        designer->nodeMoved(this);
    return QGraphicsItem::itemChange(change, value);
}

void NodeItem::mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) {
    if (auto* designer = qobject_cast<DesignerScene*>(scene()))
        emit designer->nodeActivated(id());
    event->accept();
}

} // namespace cdc::ui
