#pragma once
/// What the result panels share: a toolbar that starts with the target selector, a content area,
/// and a placeholder shown while there is nothing to show. Subclasses say which snapshots they
/// accept and how to show one.

#include "ui/model/results/TargetSnapshot.h"

#include <QIcon>
#include <QWidget>

class QLabel;
class QStackedWidget;
class QToolBar;

namespace cdc::ui {

class TargetSelector;

class ResultPanel : public QWidget {
    Q_OBJECT
public:
    /// Shows the snapshots of the latest (or the selected) update; keeps the selected target.
    void setSnapshots(const QList<cdc::ui::TargetSnapshot>& snapshots);
    /// Shows `text` where the rows would be (a read that was stopped) until the next setSnapshots.
    void showNotice(const QString& text);
    QString currentTarget() const;
    bool selectTarget(const QString& target);
    /// The snapshot on show, nullptr when none.
    const TargetSnapshot* currentSnapshot() const;
    /// The same, shared with the models (no copy).
    SharedSnapshot currentSharedSnapshot() const;
    TargetSelector* targetSelector() const { return m_selector; }
    QToolBar* toolBar() const { return m_toolBar; }
    /// The placeholder's text while it is shown, empty otherwise.
    QString placeholderText() const;
    /// The status line under the content ("SCD type 2 · update 3 · 7 rows").
    QString summaryText() const;
    /// What the selector says a dataset is ("Materialized view"), and its icon there.
    static QString kindName(engine::DatasetKind kind);
    static QIcon kindIcon(engine::DatasetKind kind);

signals:
    void targetChanged(const QString& target);

protected:
    ResultPanel(const QString& placeholder, QWidget* parent);
    void setContent(QWidget* content);
    /// An expanding spacer: what is added to the toolbar after it sits on the right.
    void addToolBarStretch();
    /// Puts `widget` (a legend) at the left of the status line under the content.
    void setFooterWidget(QWidget* widget);
    void setSummaryText(const QString& text);
    virtual bool accepts(const TargetSnapshot&) const { return true; }
    virtual void showSnapshot(const SharedSnapshot& snapshot) = 0;
    virtual void clearSnapshot() = 0;

private:
    void refresh();

    /// The list as given (implicitly shared, so keeping it copies nothing) and the ones this panel shows.
    std::shared_ptr<const QList<TargetSnapshot>> m_all;
    QList<int> m_accepted;
    QToolBar* m_toolBar;
    TargetSelector* m_selector;
    QStackedWidget* m_stack;
    QLabel* m_placeholder;
    QString m_placeholderText;
    QWidget* m_footer;
    QLabel* m_summary;
};

} // namespace cdc::ui
