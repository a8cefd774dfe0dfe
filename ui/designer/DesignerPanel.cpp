// The actions are scoped to this panel (WidgetWithChildrenShortcut): the editor and the SCD2 timeline use
// the same zoom keys for their own zoom.
#include "ui/designer/DesignerPanel.h"

#include "core/pipeline/PipelineGraph.h"
#include "ui/designer/DesignerScene.h"
#include "ui/designer/DesignerView.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

namespace cdc::ui {

namespace {
constexpr qreal kZoomStep = 1.25;
} // namespace

DesignerPanel::DesignerPanel(QWidget* parent)
    : QWidget(parent), m_scene(new DesignerScene(this)), m_view(new DesignerView(m_scene, this)),
      m_toolBar(new QToolBar(this)) {
    setObjectName(QStringLiteral("designerPanel"));
    m_fit = new QAction(QIcon(QStringLiteral(":/icons/fit.svg")), tr("&Fit Graph"), this);
    m_fit->setShortcuts({QKeySequence(Qt::Key_F), QKeySequence(Qt::CTRL | Qt::Key_0)});
    m_fit->setToolTip(tr("Show the whole graph (F or Ctrl+0)"));
    connect(m_fit, &QAction::triggered, m_view, &DesignerView::fitGraph);
    m_zoomIn = new QAction(QIcon(QStringLiteral(":/icons/zoom-in.svg")), tr("Zoom &In"), this);
    m_zoomIn->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Plus), QKeySequence(Qt::CTRL | Qt::Key_Equal)});
    m_zoomIn->setToolTip(tr("Zoom in (Ctrl++ or the mouse wheel)"));
    connect(m_zoomIn, &QAction::triggered, this, [this] { m_view->zoomBy(kZoomStep); });
    m_zoomOut = new QAction(QIcon(QStringLiteral(":/icons/zoom-out.svg")), tr("Zoom &Out"), this);
    m_zoomOut->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Minus));
    m_zoomOut->setToolTip(tr("Zoom out (Ctrl+- or the mouse wheel)"));
    connect(m_zoomOut, &QAction::triggered, this, [this] { m_view->zoomBy(1 / kZoomStep); });
    m_exportSvg = new QAction(QIcon(QStringLiteral(":/icons/export.svg")), tr("Export &SVG…"), this);
    m_exportSvg->setToolTip(tr("Save the graph as an SVG drawing"));
    connect(m_exportSvg, &QAction::triggered, this, [this] { chooseExportFile(QStringLiteral("svg")); });
    m_exportPng = new QAction(QIcon(QStringLiteral(":/icons/export-image.svg")), tr("Export &PNG…"), this);
    m_exportPng->setToolTip(tr("Save the graph as a PNG image (twice the screen resolution)"));
    connect(m_exportPng, &QAction::triggered, this, [this] { chooseExportFile(QStringLiteral("png")); });
    for (QAction* a : {m_fit, m_zoomIn, m_zoomOut}) {
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        addAction(a);
    }

    m_toolBar->setObjectName(QStringLiteral("designerToolBar"));
    m_toolBar->setIconSize(QSize(16, 16));
    m_toolBar->addAction(m_fit);
    m_toolBar->addAction(m_zoomIn);
    m_toolBar->addAction(m_zoomOut);
    m_toolBar->addSeparator();
    m_toolBar->addAction(m_exportSvg);
    m_toolBar->addAction(m_exportPng);
    m_toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    // The view's own buttons are icons with tool tips, so the editing palette in front of them keeps its
    // words in a dock of ordinary width.
    for (QAction* a : {m_fit, m_zoomIn, m_zoomOut, m_exportSvg, m_exportPng})
        if (auto* button = qobject_cast<QToolButton*>(m_toolBar->widgetForAction(a)))
            button->setToolButtonStyle(Qt::ToolButtonIconOnly);
    m_view->setToolTip(tr("Wheel: zoom · middle button or Space+drag: pan · drag a node to move it · "
                          "double-click a table: its rows"));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_toolBar);
    layout->addWidget(m_view, 1);
}

void DesignerPanel::setGraph(const pipeline::PipelineGraph& graph) {
    m_scene->setGraph(graph);
}

bool DesignerPanel::exportTo(const QString& path) {
    const bool svg = QFileInfo(path).suffix().compare(QLatin1String("svg"), Qt::CaseInsensitive) == 0;
    const bool ok = svg ? m_scene->exportSvg(path, tr("Pipeline graph")) : m_scene->exportPng(path);
    emit statusMessage(ok ? tr("Exported the graph to %1").arg(QDir::toNativeSeparators(path))
                          : tr("Could not write %1").arg(QDir::toNativeSeparators(path)));
    return ok;
}

void DesignerPanel::chooseExportFile(const QString& suffix) {
    const QString filter =
        suffix == QLatin1String("svg") ? tr("SVG drawing (*.svg)") : tr("PNG image (*.png)");
    QString path = QFileDialog::getSaveFileName(
        this, tr("Export Graph"), QDir::home().filePath(QStringLiteral("pipeline.") + suffix), filter);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QLatin1Char('.') + suffix;
    exportTo(path);
}

} // namespace cdc::ui
