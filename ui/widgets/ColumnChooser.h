#pragma once
/// Right-click on a table's header to show or hide its columns, remembered in the settings: narrow docks
/// show the columns that matter and keep the others a click away instead of cutting them off.

#include <QObject>
#include <QSet>
#include <QString>

class QTableView;

namespace cdc::ui {

class ColumnChooser : public QObject {
    Q_OBJECT
public:
    /// `settingsKey` names the view in the settings; `hiddenByDefault` are hidden until the user says
    /// otherwise.
    ColumnChooser(QTableView* view, const QString& settingsKey, const QSet<int>& hiddenByDefault);

    /// Shows or hides a column and remembers it (what the menu's entries do).
    void setColumnShown(int column, bool shown);

private:
    void showMenu(const QPoint& position);
    void apply();

    QTableView* m_view;
    QString m_settingsKey;
    QSet<int> m_hidden;
};

} // namespace cdc::ui
