#pragma once
/// Picks columns of a relation by checking them in a list. An ordered picker lists the checked columns
/// first, in their order, with buttons that move the current one up or down (SEQUENCE BY STRUCT(a, b)
/// compares a first); an unordered one keeps the relation's column order.

#include <QStringList>
#include <QWidget>

class QListWidget;
class QListWidgetItem;
class QToolButton;

namespace cdc::ui {

class ColumnPicker : public QWidget {
    Q_OBJECT
public:
    explicit ColumnPicker(bool ordered, QWidget* parent = nullptr);

    /// Lists `available` with `checked` checked; a checked name the relation does not have is listed too
    /// (after the others when unordered), so that the pipeline's value always shows.
    void setColumns(const QStringList& available, const QStringList& checked);
    /// The checked columns, in list order.
    QStringList checked() const;
    QListWidget* list() const { return m_list; }

signals:
    /// The user checked or unchecked a column, or moved one.
    void changed();

private:
    void moveCurrent(int delta);
    void updateButtons();
    void fitHeight();

    bool m_ordered;
    QListWidget* m_list;
    QToolButton* m_up = nullptr;
    QToolButton* m_down = nullptr;
    bool m_loading = false;
};

} // namespace cdc::ui
