// The snapshot list is held once per panel and the current snapshot aliases into it (shared_ptr),
// so a large target is never copied for a panel; the same target with new data refreshes in place.
#include "ui/widgets/results/ResultPanel.h"

#include "ui/widgets/results/ResultIcons.h"
#include "ui/widgets/results/TargetSelector.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QStackedWidget>
#include <QToolBar>
#include <QVBoxLayout>

namespace cdc::ui {

ResultPanel::ResultPanel(const QString& placeholder, QWidget* parent)
    : QWidget(parent), m_toolBar(new QToolBar(this)), m_selector(new TargetSelector(this)),
      m_stack(new QStackedWidget(this)), m_placeholder(new QLabel(placeholder, this)),
      m_placeholderText(placeholder), m_footer(new QWidget(this)), m_summary(new QLabel(m_footer)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    m_toolBar->setIconSize(QSize(16, 16));
    m_toolBar->setToolButtonStyle(Qt::ToolButtonIconOnly);
    m_toolBar->setContentsMargins(4, 2, 4, 2);
    auto* label = new QLabel(tr("Target"), m_toolBar);
    label->setContentsMargins(4, 0, 6, 0);
    label->setBuddy(m_selector);
    m_toolBar->addWidget(label);
    m_toolBar->addWidget(m_selector);
    m_toolBar->addSeparator();
    layout->addWidget(m_toolBar);
    layout->addWidget(m_stack, 1);
    layout->addWidget(m_footer);

    // The status line: a legend on the left, the summary on the right, quiet colours.
    auto* footer = new QHBoxLayout(m_footer);
    footer->setContentsMargins(8, 3, 10, 3);
    footer->setSpacing(8);
    footer->addStretch(1);
    footer->addWidget(m_summary);
    m_summary->setForegroundRole(QPalette::PlaceholderText);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setWordWrap(true);
    m_placeholder->setMargin(24);
    m_placeholder->setForegroundRole(QPalette::PlaceholderText);
    m_placeholder->setAutoFillBackground(true);
    m_placeholder->setBackgroundRole(QPalette::Base);
    m_stack->addWidget(m_placeholder);

    m_selector->setEnabled(false);
    connect(m_selector, &TargetSelector::targetChanged, this, [this](const QString& target) {
        refresh();
        emit targetChanged(target);
    });
}

QString ResultPanel::kindName(engine::DatasetKind kind) {
    switch (kind) {
    case engine::DatasetKind::Append:
        return tr("Streaming table (append flows)");
    case engine::DatasetKind::MaterializedView:
        return tr("Materialized view");
    case engine::DatasetKind::AutoCdc:
        break;
    }
    return tr("Streaming table (AUTO CDC)");
}

QIcon ResultPanel::kindIcon(engine::DatasetKind kind) {
    switch (kind) {
    case engine::DatasetKind::Append:
        return resulticons::appendTable();
    case engine::DatasetKind::MaterializedView:
        return resulticons::materializedView();
    case engine::DatasetKind::AutoCdc:
        break;
    }
    return resulticons::autoCdcTable();
}

void ResultPanel::setContent(QWidget* content) {
    m_stack->addWidget(content);
}

void ResultPanel::addToolBarStretch() {
    auto* spacer = new QWidget(m_toolBar);
    spacer->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    m_toolBar->addWidget(spacer);
}

void ResultPanel::setFooterWidget(QWidget* widget) {
    widget->setParent(m_footer);
    static_cast<QHBoxLayout*>(m_footer->layout())->insertWidget(0, widget);
}

void ResultPanel::setSummaryText(const QString& text) {
    m_summary->setText(text);
}

QString ResultPanel::summaryText() const {
    return m_summary->text();
}

void ResultPanel::showNotice(const QString& text) {
    m_placeholder->setText(text);
    m_stack->setCurrentWidget(m_placeholder);
}

void ResultPanel::setSnapshots(const QList<TargetSnapshot>& snapshots) {
    m_placeholder->setText(m_placeholderText);
    m_all = std::make_shared<const QList<TargetSnapshot>>(snapshots);
    m_accepted.clear();
    QStringList targets;
    for (int i = 0; i < m_all->size(); ++i)
        if (accepts(m_all->at(i))) {
            m_accepted << i;
            targets << m_all->at(i).target;
        }
    const QString before = m_selector->currentTarget();
    m_selector->setTargets(targets);
    for (int i = 0; i < m_accepted.size(); ++i) {
        const engine::DatasetKind kind = m_all->at(m_accepted[i]).kind;
        m_selector->setItemIcon(i, kindIcon(kind));
        m_selector->setItemData(i, kindName(kind), Qt::ToolTipRole);
    }
    // A changed target already refreshed through targetChanged; the same target shows new data.
    if (m_selector->currentTarget() == before)
        refresh();
}

QString ResultPanel::currentTarget() const {
    return m_selector->currentTarget();
}

bool ResultPanel::selectTarget(const QString& target) {
    return m_selector->selectTarget(target);
}

const TargetSnapshot* ResultPanel::currentSnapshot() const {
    return currentSharedSnapshot().get();
}

SharedSnapshot ResultPanel::currentSharedSnapshot() const {
    if (!m_all)
        return nullptr;
    const QString target = m_selector->currentTarget();
    for (int i : m_accepted)
        if (m_all->at(i).target.compare(target, Qt::CaseInsensitive) == 0)
            return SharedSnapshot(m_all, &m_all->at(i)); // aliasing: lives as long as the list
    return nullptr;
}

QString ResultPanel::placeholderText() const {
    return m_stack->currentWidget() == m_placeholder ? m_placeholder->text() : QString();
}

void ResultPanel::refresh() {
    if (const SharedSnapshot s = currentSharedSnapshot()) {
        showSnapshot(s);
        if (m_stack->count() > 1)
            m_stack->setCurrentIndex(1);
    } else {
        clearSnapshot();
        m_stack->setCurrentWidget(m_placeholder);
    }
}

} // namespace cdc::ui
