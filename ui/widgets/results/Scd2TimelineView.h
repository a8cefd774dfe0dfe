#pragma once
/// Paints an Scd2TimelineModel: a sequence axis on top, one lane per key below, one bar per version.
/// Only the visible lanes are painted, so targets with hundreds of thousands of versions scroll and
/// repaint in constant time. Click selects a version (versionActivated), Ctrl+wheel and +/- zoom the
/// sequence axis around the pointer, 0 fits the whole history in the width.

#include <QAbstractScrollArea>
#include <QPersistentModelIndex>

#include <optional>

namespace cdc::ui {

class Scd2TimelineModel;
struct TimelineBar;
struct TimelineColors;

class Scd2TimelineView : public QAbstractScrollArea {
    Q_OBJECT
public:
    struct Hit {
        int lane = -1;
        int bar = -1;
        bool valid() const { return lane >= 0 && bar >= 0; }
        bool operator==(const Hit&) const = default;
    };

    explicit Scd2TimelineView(QWidget* parent = nullptr);

    void setModel(Scd2TimelineModel* model);
    Scd2TimelineModel* model() const { return m_model; }

    /// Horizontal zoom, 1 = the whole sequence range fits the width.
    double zoom() const { return m_zoom; }
    void setZoom(double zoom, std::optional<int> anchorX = std::nullopt);
    void zoomIn();
    void zoomOut();
    void zoomToFit();
    double maximumZoom() const;

    // Geometry in viewport coordinates, for hit testing and tests.
    int laneHeight() const { return m_laneHeight; }
    int headerHeight() const { return m_headerHeight; }
    int gutterWidth() const { return m_gutterWidth; }
    double pixelsPerUnit() const;
    double xOf(double position) const;
    /// The painted rectangle of a bar (open bars end past the last sequence value).
    QRectF barRect(int lane, int bar) const;
    QRect laneRect(int lane) const;
    Hit hitTest(const QPoint& viewportPos) const;
    /// The tooltip the view shows when hovering `viewportPos` (empty over no bar).
    QString toolTipAt(const QPoint& viewportPos) const;

    Hit selection() const { return m_selected; }
    /// Selects the version shown for `row` (TargetRowsModel numbering) and scrolls to it.
    void selectRow(int row);
    void selectBar(const Hit& hit, bool scroll = true);
    /// Lanes [first, last] intersecting the viewport.
    std::pair<int, int> visibleLanes() const;

signals:
    /// The user clicked (or pressed Enter on) the version of target row `row`.
    void versionActivated(int row);
    void zoomChanged(double zoom);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool viewportEvent(QEvent* event) override;
    void changeEvent(QEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;

private:
    void relayout();
    void updateMetrics();
    void updateScrollBars();
    double plotLeft() const;
    double openTail() const;
    double plotWidthAtFit() const;
    double positionAt(double x) const;
    void ensureVisible(const Hit& hit);
    /// The version of `lane` in effect at `position` (the last one starting at or before it).
    int barAt(int lane, double position) const;
    void anchorTo(const Hit& hit);

    void paintHeader(QPainter& p, const TimelineColors& colors,
                     const QList<std::pair<double, QString>>& ticks) const;
    void paintGutter(QPainter& p, const TimelineColors& colors, int firstLane, int lastLane) const;
    void paintBar(QPainter& p, const TimelineColors& colors, int lane, int bar) const;

    Scd2TimelineModel* m_model = nullptr;
    double m_zoom = 1.0;
    int m_laneHeight = 24;
    int m_barHeight = 16;
    int m_headerHeight = 40;
    int m_gutterWidth = 80;
    Hit m_selected;
    Hit m_hovered;
    QPersistentModelIndex m_selectedIndex; ///< the selection across a layout change of the model
    /// Sequence position that Up/Down keep to, so moving between keys stays at the same time.
    double m_keyboardAnchor = 0;
};

} // namespace cdc::ui
