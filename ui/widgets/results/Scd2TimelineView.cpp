// Painted by hand on a scroll area rather than with a QGraphicsScene: an item per version would cost
// memory and time at 100,000 versions, while drawing the visible lanes from the model stays cheap. The
// selection follows its version through a patched refresh by a persistent index.
#include "ui/widgets/results/Scd2TimelineView.h"

#include "ui/model/results/Scd2TimelineModel.h"
#include "ui/widgets/results/TimelineColors.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QLinearGradient>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace cdc::ui {

namespace {
constexpr int kLeftPad = 14; // room before the first sequence value
constexpr int kRightPad = 10;
constexpr double kZoomStep = 1.5;
} // namespace

Scd2TimelineView::Scd2TimelineView(QWidget* parent) : QAbstractScrollArea(parent) {
    setFocusPolicy(Qt::StrongFocus);
    viewport()->setMouseTracking(true);
    viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
    horizontalScrollBar()->setSingleStep(20);
    setToolTip(QString()); // tooltips come from viewportEvent, per bar
    updateMetrics();
}

void Scd2TimelineView::setModel(Scd2TimelineModel* model) {
    if (m_model)
        disconnect(m_model, nullptr, this, nullptr);
    m_model = model;
    if (m_model) {
        connect(m_model, &QAbstractItemModel::modelReset, this, &Scd2TimelineView::relayout);
        // A patched refresh moves lanes as a layout change: the selected version follows its key.
        connect(m_model, &QAbstractItemModel::layoutAboutToBeChanged, this, [this] {
            m_selectedIndex = m_selected.valid() ? QPersistentModelIndex(m_model->index(
                                                       m_selected.bar, 0, m_model->index(m_selected.lane, 0)))
                                                 : QPersistentModelIndex();
        });
        connect(m_model, &QAbstractItemModel::layoutChanged, this, [this] {
            const QModelIndex selected = m_selectedIndex;
            m_selectedIndex = QPersistentModelIndex();
            m_selected = selected.isValid() ? Hit{selected.parent().row(), selected.row()} : Hit{};
            m_hovered = {};
            updateMetrics();
            updateScrollBars();
            viewport()->update();
        });
    }
    relayout();
}

void Scd2TimelineView::relayout() {
    m_selected = {};
    m_hovered = {};
    updateMetrics();
    updateScrollBars();
    viewport()->update();
}

void Scd2TimelineView::updateMetrics() {
    const QFontMetrics fm(font());
    m_laneHeight = fm.height() + 10;
    m_barHeight = fm.height() + 4;
    m_headerHeight = fm.height() * 2 + 12;
    int widest = fm.horizontalAdvance(tr("Key")) + 8;
    if (m_model) {
        // Measuring every key of a huge target is wasted work: the first and last thousand decide.
        const int n = static_cast<int>(m_model->lanes().size());
        for (int l = 0; l < n; l = (l == 999 && n > 2000) ? n - 1000 : l + 1)
            widest = std::max(widest, fm.horizontalAdvance(m_model->laneLabel(l)));
    }
    m_gutterWidth = std::clamp(widest + 26, 64, 240);
}

void Scd2TimelineView::changeEvent(QEvent* event) {
    QAbstractScrollArea::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange) {
        updateMetrics();
        updateScrollBars();
    }
    // Colours are taken from the palette at paint time: a theme switch only needs a repaint.
    if (event->type() == QEvent::PaletteChange)
        viewport()->update();
}

double Scd2TimelineView::openTail() const {
    // How far current versions run past the last sequence value: room for a label.
    return std::clamp(viewport()->width() * 0.12, 60.0, 150.0);
}

double Scd2TimelineView::plotLeft() const {
    return m_gutterWidth + kLeftPad;
}

double Scd2TimelineView::plotWidthAtFit() const {
    return std::max(40.0, viewport()->width() - plotLeft() - kRightPad - openTail());
}

double Scd2TimelineView::pixelsPerUnit() const {
    if (!m_model)
        return 1;
    const SequenceAxis& axis = m_model->axis();
    const double span = std::max(axis.maximum() - axis.minimum(), axis.resolution());
    return plotWidthAtFit() / span * m_zoom;
}

double Scd2TimelineView::maximumZoom() const {
    if (!m_model)
        return 1;
    const SequenceAxis& axis = m_model->axis();
    const double span = std::max(axis.maximum() - axis.minimum(), axis.resolution());
    // Zoom until one resolution step is 400 px wide, and never below fit.
    return std::max(1.0, 400.0 / (plotWidthAtFit() / span * axis.resolution()));
}

double Scd2TimelineView::xOf(double position) const {
    const double min = m_model ? m_model->axis().minimum() : 0;
    return plotLeft() + (position - min) * pixelsPerUnit() - horizontalScrollBar()->value();
}

double Scd2TimelineView::positionAt(double x) const {
    const double min = m_model ? m_model->axis().minimum() : 0;
    return min + (x - plotLeft() + horizontalScrollBar()->value()) / pixelsPerUnit();
}

void Scd2TimelineView::updateScrollBars() {
    const int lanes = m_model ? static_cast<int>(m_model->lanes().size()) : 0;
    const int visibleHeight = std::max(0, viewport()->height() - m_headerHeight);
    verticalScrollBar()->setPageStep(visibleHeight);
    verticalScrollBar()->setSingleStep(m_laneHeight);
    verticalScrollBar()->setRange(0, std::max(0, lanes * m_laneHeight - visibleHeight));

    const double contentWidth = plotWidthAtFit() * m_zoom;
    const double visibleWidth = plotWidthAtFit();
    horizontalScrollBar()->setPageStep(static_cast<int>(visibleWidth));
    horizontalScrollBar()->setRange(0, std::max(0, static_cast<int>(std::ceil(contentWidth - visibleWidth))));
}

void Scd2TimelineView::setZoom(double zoom, std::optional<int> anchorX) {
    zoom = std::clamp(zoom, 1.0, maximumZoom());
    if (zoom == m_zoom)
        return;
    const double anchor = anchorX.value_or(static_cast<int>(plotLeft() + plotWidthAtFit() / 2));
    const double anchoredPosition = positionAt(anchor);
    m_zoom = zoom;
    updateScrollBars();
    // Keep the sequence value under the anchor where it was.
    const double min = m_model ? m_model->axis().minimum() : 0;
    const double scroll = plotLeft() + (anchoredPosition - min) * pixelsPerUnit() - anchor;
    horizontalScrollBar()->setValue(static_cast<int>(std::lround(scroll)));
    viewport()->update();
    emit zoomChanged(m_zoom);
}

void Scd2TimelineView::zoomIn() {
    setZoom(m_zoom * kZoomStep);
}
void Scd2TimelineView::zoomOut() {
    setZoom(m_zoom / kZoomStep);
}
void Scd2TimelineView::zoomToFit() {
    setZoom(1.0);
}

QRect Scd2TimelineView::laneRect(int lane) const {
    return QRect(0, m_headerHeight + lane * m_laneHeight - verticalScrollBar()->value(), viewport()->width(),
                 m_laneHeight);
}

QRectF Scd2TimelineView::barRect(int lane, int bar) const {
    if (!m_model || lane < 0 || lane >= m_model->lanes().size())
        return {};
    const TimelineLane& l = m_model->lanes()[lane];
    if (bar < 0 || bar >= l.bars.size())
        return {};
    const TimelineBar& b = l.bars[bar];
    const double x1 = xOf(b.start);
    const double x2 = b.open ? xOf(m_model->axis().maximum()) + openTail() : xOf(b.end);
    const QRect lr = laneRect(lane);
    const double top = lr.top() + (m_laneHeight - m_barHeight) / 2.0;
    return QRectF(x1, top, std::max(3.0, x2 - x1), m_barHeight);
}

std::pair<int, int> Scd2TimelineView::visibleLanes() const {
    const int lanes = m_model ? static_cast<int>(m_model->lanes().size()) : 0;
    if (lanes == 0)
        return {0, -1};
    const int top = verticalScrollBar()->value();
    const int first = std::clamp(top / m_laneHeight, 0, lanes - 1);
    const int last = std::clamp((top + viewport()->height() - m_headerHeight) / m_laneHeight, 0, lanes - 1);
    return {first, last};
}

Scd2TimelineView::Hit Scd2TimelineView::hitTest(const QPoint& pos) const {
    if (!m_model || pos.y() < m_headerHeight || pos.x() < m_gutterWidth)
        return {};
    const int lane = (pos.y() - m_headerHeight + verticalScrollBar()->value()) / m_laneHeight;
    if (lane < 0 || lane >= m_model->lanes().size())
        return {};
    const auto& bars = m_model->lanes()[lane].bars;
    // Real versions win over ghosts; among overlaps, the one starting last is on top.
    Hit ghostHit;
    for (int b = static_cast<int>(bars.size()) - 1; b >= 0; --b) {
        const QRectF r = barRect(lane, b).adjusted(-1, -2, 1, 2);
        if (!r.contains(pos))
            continue;
        if (!bars[b].ghost)
            return {lane, b};
        if (!ghostHit.valid())
            ghostHit = {lane, b};
    }
    return ghostHit;
}

QString Scd2TimelineView::toolTipAt(const QPoint& pos) const {
    const Hit hit = hitTest(pos);
    if (!hit.valid())
        return {};
    const TimelineLane& lane = m_model->lanes()[hit.lane];
    return m_model->barToolTip(lane.bars[hit.bar]);
}

void Scd2TimelineView::selectBar(const Hit& hit, bool scroll) {
    if (hit == m_selected)
        return;
    m_selected = hit;
    if (scroll && hit.valid())
        ensureVisible(hit);
    viewport()->update();
}

void Scd2TimelineView::selectRow(int row) {
    if (!m_model)
        return;
    const auto [lane, bar] = m_model->locate(row);
    anchorTo({lane, bar});
    selectBar({lane, bar});
}

void Scd2TimelineView::anchorTo(const Hit& hit) {
    if (hit.valid())
        m_keyboardAnchor = m_model->lanes()[hit.lane].bars[hit.bar].start;
}

int Scd2TimelineView::barAt(int lane, double position) const {
    const auto& bars = m_model->lanes()[lane].bars;
    int found = 0;
    for (int b = 0; b < bars.size(); ++b)
        if (!bars[b].ghost && bars[b].start <= position)
            found = b;
    return found;
}

void Scd2TimelineView::ensureVisible(const Hit& hit) {
    const int laneTop = hit.lane * m_laneHeight;
    QScrollBar* v = verticalScrollBar();
    const int visibleHeight = viewport()->height() - m_headerHeight;
    if (laneTop < v->value())
        v->setValue(laneTop);
    else if (laneTop + m_laneHeight > v->value() + visibleHeight)
        v->setValue(laneTop + m_laneHeight - visibleHeight);
    const QRectF r = barRect(hit.lane, hit.bar);
    QScrollBar* h = horizontalScrollBar();
    if (r.left() < plotLeft())
        h->setValue(h->value() - static_cast<int>(plotLeft() - r.left()) - 20);
    else if (r.left() > viewport()->width() - 40)
        h->setValue(h->value() + static_cast<int>(r.left() - viewport()->width() / 2.0));
}

void Scd2TimelineView::resizeEvent(QResizeEvent* event) {
    QAbstractScrollArea::resizeEvent(event);
    updateScrollBars();
}

void Scd2TimelineView::scrollContentsBy(int, int) {
    viewport()->update();
}

void Scd2TimelineView::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) {
        QAbstractScrollArea::mousePressEvent(event);
        return;
    }
    const Hit hit = hitTest(event->position().toPoint());
    anchorTo(hit);
    selectBar(hit, false);
    if (hit.valid())
        emit versionActivated(m_model->lanes()[hit.lane].bars[hit.bar].row);
    event->accept();
}

void Scd2TimelineView::mouseMoveEvent(QMouseEvent* event) {
    const Hit hit = hitTest(event->position().toPoint());
    if (!(hit == m_hovered)) {
        m_hovered = hit;
        viewport()->setCursor(hit.valid() ? Qt::PointingHandCursor : Qt::ArrowCursor);
        viewport()->update();
    }
    QAbstractScrollArea::mouseMoveEvent(event);
}

void Scd2TimelineView::leaveEvent(QEvent* event) {
    m_hovered = {};
    viewport()->update();
    QAbstractScrollArea::leaveEvent(event);
}

void Scd2TimelineView::wheelEvent(QWheelEvent* event) {
    if (event->modifiers() & Qt::ControlModifier) {
        const int delta = event->angleDelta().y();
        if (delta != 0)
            setZoom(m_zoom * std::pow(kZoomStep, delta / 120.0), static_cast<int>(event->position().x()));
        event->accept();
        return;
    }
    QAbstractScrollArea::wheelEvent(event);
}

void Scd2TimelineView::keyPressEvent(QKeyEvent* event) {
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomIn();
        return;
    case Qt::Key_Minus:
        zoomOut();
        return;
    case Qt::Key_0:
        zoomToFit();
        return;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (m_selected.valid())
            emit versionActivated(m_model->lanes()[m_selected.lane].bars[m_selected.bar].row);
        return;
    case Qt::Key_Up:
    case Qt::Key_Down:
    case Qt::Key_Left:
    case Qt::Key_Right: {
        if (!m_model || m_model->lanes().isEmpty())
            break;
        const int lanes = static_cast<int>(m_model->lanes().size());
        Hit next = m_selected;
        if (!next.valid()) {
            next = {visibleLanes().first, 0};
            anchorTo(next);
        } else if (event->key() == Qt::Key_Up || event->key() == Qt::Key_Down) {
            next.lane = std::clamp(next.lane + (event->key() == Qt::Key_Up ? -1 : 1), 0, lanes - 1);
            next.bar = barAt(next.lane, m_keyboardAnchor);
        } else {
            const int bars = static_cast<int>(m_model->lanes()[next.lane].bars.size());
            next.bar = std::clamp(next.bar + (event->key() == Qt::Key_Left ? -1 : 1), 0, bars - 1);
            anchorTo(next);
        }
        selectBar(next);
        return;
    }
    default:
        break;
    }
    QAbstractScrollArea::keyPressEvent(event);
}

bool Scd2TimelineView::viewportEvent(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString tip = toolTipAt(help->pos());
        if (tip.isEmpty()) {
            QToolTip::hideText();
            event->ignore();
        } else {
            const Hit hit = hitTest(help->pos());
            QToolTip::showText(help->globalPos(), tip, viewport(),
                               barRect(hit.lane, hit.bar).toAlignedRect());
        }
        return true;
    }
    return QAbstractScrollArea::viewportEvent(event);
}

// ---- painting ---------------------------------------------------------------------------------

void Scd2TimelineView::paintEvent(QPaintEvent*) {
    QPainter p(viewport());
    const TimelineColors colors = TimelineColors::from(palette());
    const QRect area = viewport()->rect();
    p.fillRect(area, colors.base);
    if (!m_model)
        return;

    const auto [first, last] = visibleLanes();

    // Lane stripes and the selected lane.
    for (int l = first; l <= last; ++l) {
        const QRect r = laneRect(l);
        if (l % 2)
            p.fillRect(r, colors.stripe);
        if (m_selected.lane == l)
            p.fillRect(r, colors.selectedLane);
    }

    // Grid lines at the ticks, then the bars, clipped to the plot.
    const SequenceAxis& axis = m_model->axis();
    const QFontMetrics fm(font());
    const double from = positionAt(m_gutterWidth), to = positionAt(area.width());
    double spacing = 60;
    if (axis.scale() == SequenceAxis::Scale::Temporal)
        spacing = fm.horizontalAdvance(QStringLiteral("2026-03-01 10:00")) + 20;
    else if (axis.scale() == SequenceAxis::Scale::Ordinal) {
        int widest = 0;
        const QStringList& labels = axis.ordinalLabels();
        for (int i = 0; i < labels.size() && i < 500; ++i)
            widest = std::max(widest, fm.horizontalAdvance(labels[i]));
        spacing = std::min(180, widest + 20);
    } else
        spacing =
            std::max(48, fm.horizontalAdvance(QString::number(static_cast<qint64>(axis.maximum()))) + 24);
    QList<std::pair<double, QString>> ticks;
    for (const SequenceAxis::Tick& t :
         axis.ticks(std::max(from, axis.minimum()), std::min(to, axis.maximum()), pixelsPerUnit(), spacing))
        ticks.append({xOf(t.position), t.label});

    p.save();
    p.setClipRect(
        QRect(m_gutterWidth, m_headerHeight, area.width() - m_gutterWidth, area.height() - m_headerHeight));
    p.setPen(QPen(colors.grid, 1, Qt::DotLine));
    for (const auto& [x, label] : ticks)
        p.drawLine(QPointF(x, m_headerHeight), QPointF(x, area.height()));
    p.setRenderHint(QPainter::Antialiasing);
    for (int l = first; l <= last; ++l) {
        // Removed versions go on top, as dashed outlines: the version that replaced them must not hide them.
        const auto& bars = m_model->lanes()[l].bars;
        for (int b = 0; b < bars.size(); ++b)
            if (!bars[b].ghost)
                paintBar(p, colors, l, b);
        for (int b = 0; b < bars.size(); ++b)
            if (bars[b].ghost)
                paintBar(p, colors, l, b);
    }
    p.restore();

    paintGutter(p, colors, first, last);
    paintHeader(p, colors, ticks);
}

void Scd2TimelineView::paintBar(QPainter& p, const TimelineColors& colors, int lane, int barIndex) const {
    const TimelineBar& bar = m_model->lanes()[lane].bars[barIndex];
    const QRectF r = barRect(lane, barIndex);
    const QRect clip(m_gutterWidth, 0, viewport()->width() - m_gutterWidth, viewport()->height());
    if (r.right() < clip.left() - 20 || r.left() > clip.right() + 20)
        return;
    const bool changed = bar.change != RowChange::None;
    const bool selected = m_selected == Hit{lane, barIndex};
    const bool hovered = m_hovered == Hit{lane, barIndex};
    const QColor fill = colors.barFill(bar.change, hovered && !selected);
    const QColor border = colors.barBorder(bar.change);

    if (bar.ghost) {
        QColor veil = colors.removed;
        veil.setAlphaF(hovered || selected ? 0.22f : 0.10f);
        p.setPen(QPen(colors.removed, selected ? 2.0 : 1.3, Qt::DashLine));
        p.setBrush(veil);
        p.drawRoundedRect(r.adjusted(-1.5, -1.5, 1.5, 1.5), 3, 3);
        return;
    }

    const double radius = 3;
    if (bar.open) {
        // Current version: solid up to the last sequence value, then fading out towards an arrow.
        const double fadeFrom = std::max(r.left(), r.right() - openTail() + 8);
        QLinearGradient g(fadeFrom, 0, r.right(), 0);
        g.setColorAt(0, fill);
        QColor faded = fill;
        faded.setAlphaF(0.15f);
        g.setColorAt(1, faded);
        p.setPen(Qt::NoPen);
        p.setBrush(g);
        p.drawRoundedRect(r, radius, radius);
        QPainterPath outline;
        outline.moveTo(fadeFrom, r.top() + 0.5);
        outline.lineTo(r.left() + radius, r.top() + 0.5);
        outline.quadTo(r.left() + 0.5, r.top() + 0.5, r.left() + 0.5, r.top() + radius);
        outline.lineTo(r.left() + 0.5, r.bottom() - radius);
        outline.quadTo(r.left() + 0.5, r.bottom() - 0.5, r.left() + radius, r.bottom() - 0.5);
        outline.lineTo(fadeFrom, r.bottom() - 0.5);
        p.setPen(QPen(border, changed ? 1.5 : 1));
        p.setBrush(Qt::NoBrush);
        p.drawPath(outline);
        // The arrow says "still current".
        const double cy = r.center().y(), ax = r.right() - 2;
        p.setPen(QPen(border, 1.5, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        p.drawPolyline(QPolygonF({QPointF(ax - 5, cy - 4), QPointF(ax, cy), QPointF(ax - 5, cy + 4)}));
    } else {
        p.setPen(QPen(border, changed ? 1.5 : 1));
        p.setBrush(fill);
        p.drawRoundedRect(r.adjusted(0.5, 0.5, -0.5, -0.5), radius, radius);
    }
    if (bar.startUnknown) {
        p.setPen(QPen(colors.removed, 1.5, Qt::DotLine));
        p.drawLine(QPointF(r.left() + 0.5, r.top()), QPointF(r.left() + 0.5, r.bottom()));
    }
    if (selected) {
        p.setPen(QPen(colors.selection, 2.5));
        p.setBrush(Qt::NoBrush);
        p.drawRoundedRect(r.adjusted(-1.5, -1.5, 1.5, 1.5), radius + 1, radius + 1);
    }

    // Label: the tracked values, elided to what the bar can show.
    const double textRight = bar.open ? r.right() - 12 : r.right() - 5;
    const double left = std::max(r.left(), static_cast<double>(m_gutterWidth)) + 5;
    const int available = static_cast<int>(textRight - left);
    if (available > 14) {
        const QFontMetrics fm(font());
        const QString text = fm.elidedText(m_model->barLabel(bar), Qt::ElideRight, available);
        p.setPen(colors.barLabel(bar.change, hovered && !selected));
        p.drawText(QRectF(left, r.top(), available, r.height()), Qt::AlignVCenter | Qt::AlignLeft, text);
    }

    // A version that nothing follows at its end was closed by a delete: mark its end.
    if (bar.closedByDelete) {
        const double x = r.right(), cy = r.center().y(), s = std::min(4.0, r.height() / 3);
        p.setPen(QPen(colors.removed, 2, Qt::SolidLine, Qt::RoundCap));
        p.drawLine(QPointF(x, r.top() - 2), QPointF(x, r.bottom() + 2));
        p.drawLine(QPointF(x + 4, cy - s), QPointF(x + 4 + 2 * s, cy + s));
        p.drawLine(QPointF(x + 4, cy + s), QPointF(x + 4 + 2 * s, cy - s));
    }
}

void Scd2TimelineView::paintGutter(QPainter& p, const TimelineColors& colors, int firstLane,
                                   int lastLane) const {
    const QRect gutter(0, m_headerHeight, m_gutterWidth, viewport()->height() - m_headerHeight);
    p.fillRect(gutter, colors.window);
    p.setPen(colors.rule);
    p.drawLine(gutter.topRight(), gutter.bottomRight());
    p.save();
    p.setClipRect(gutter);
    p.setRenderHint(QPainter::Antialiasing);
    const QFontMetrics fm(font());
    for (int l = firstLane; l <= lastLane; ++l) {
        const QRect r = laneRect(l);
        const TimelineLane& lane = m_model->lanes()[l];
        if (lane.change != RowChange::None) {
            p.setPen(Qt::NoPen);
            p.setBrush(ChangePalette::accent(lane.change));
            p.drawEllipse(QPointF(9, r.center().y() + 0.5), 3.5, 3.5);
        }
        QFont f = font();
        f.setBold(m_selected.lane == l);
        p.setFont(f);
        p.setPen(lane.current() ? colors.windowText : colors.quietText);
        p.drawText(QRect(18, r.top(), m_gutterWidth - 24, r.height()), Qt::AlignVCenter | Qt::AlignLeft,
                   fm.elidedText(m_model->laneLabel(l), Qt::ElideMiddle, m_gutterWidth - 24));
    }
    p.restore();
}

void Scd2TimelineView::paintHeader(QPainter& p, const TimelineColors& colors,
                                   const QList<std::pair<double, QString>>& ticks) const {
    const QRect header(0, 0, viewport()->width(), m_headerHeight);
    p.fillRect(header, colors.window);
    const QColor line = colors.rule;
    p.setPen(line);
    p.drawLine(header.bottomLeft(), header.bottomRight());
    p.drawLine(QPoint(m_gutterWidth, 0), QPoint(m_gutterWidth, m_headerHeight));

    const QFontMetrics fm(font());
    QFont small = font();
    small.setPointSizeF(std::max(6.0, font().pointSizeF() * 0.85));
    p.setPen(colors.quietText);
    p.setFont(small);
    p.drawText(QRect(18, m_headerHeight - fm.height() - 6, m_gutterWidth - 20, fm.height()),
               Qt::AlignLeft | Qt::AlignVCenter, tr("Key"));

    p.save();
    p.setClipRect(QRect(m_gutterWidth + 1, 0, viewport()->width() - m_gutterWidth - 1, m_headerHeight));
    const int tickBottom = m_headerHeight - 1;
    double lastRight = -1e9;
    p.setFont(font());
    for (const auto& [x, label] : ticks) {
        p.setPen(line);
        p.drawLine(QPointF(x, tickBottom - 6), QPointF(x, tickBottom));
        const int width = fm.horizontalAdvance(label);
        // Centred on the tick, but never cut by the gutter or the right edge.
        const double left = std::clamp(x - width / 2.0, m_gutterWidth + 4.0,
                                       std::max(m_gutterWidth + 4.0, viewport()->width() - width - 4.0));
        if (left < lastRight + 6)
            continue; // a label that would overlap its neighbour is left out, its tick stays
        p.setPen(colors.windowText);
        p.drawText(QRectF(left, tickBottom - 8 - fm.height(), width + 1, fm.height()), Qt::AlignCenter,
                   label);
        lastRight = left + width;
    }
    if (m_model && !m_model->lanes().isEmpty()) {
        // Where current versions continue: past the last sequence value.
        const QString current = tr("current");
        p.setFont(small);
        const int width = QFontMetrics(small).horizontalAdvance(current);
        const double x =
            std::max(xOf(m_model->axis().maximum()) + openTail() / 2.0 - width / 2.0, lastRight + 8);
        p.setPen(colors.quietText);
        p.drawText(QRectF(x, tickBottom - 8 - fm.height(), width + 1, fm.height()), Qt::AlignCenter, current);
    }
    p.restore();
}

} // namespace cdc::ui
