#pragma once
/// Where rows are written by hand: delivered rows greyed above the queued ones show what the pipeline
/// has read next to what is still to come, in the table's own columns.

#include "core/common/Diagnostic.h"

#include <QWidget>

class QTabWidget;
class QTableView;
class QToolBar;
class QAction;
class QLabel;

namespace cdc::ui {

class FeedImportDialog;
class GridFilterBox;
class GridTools;
class Project;
class SourceRowsModel;

/// One grid per source table: delivered rows (read-only) and the rows still waiting in the event
/// queue (editable). Add, delete, paste from the clipboard, import CSV with a header mapping.
class SourcesPanel : public QWidget {
    Q_OBJECT
public:
    SourcesPanel(Project* project, QWidget* parent = nullptr);

    QTabWidget* tabs() const { return m_tabs; }
    /// The grid model of a table (by catalog name), or null.
    SourceRowsModel* modelFor(const QString& table) const;
    QTableView* currentView() const;
    /// Shows table `table` and selects its delivered row with rowid `rowid` (an event provenance names);
    /// false when the grid does not show it.
    bool selectDeliveredRow(const QString& table, qint64 rowid);
    SourceRowsModel* currentModel() const;
    /// The sorting, filtering, copy and export tools of the grid on show, or null.
    GridTools* currentGrid() const;
    GridFilterBox* filterBox() const { return m_filter; }

    QAction* addRowAction() const { return m_addRow; }
    QAction* deleteRowsAction() const { return m_deleteRows; }
    QAction* pasteAction() const { return m_paste; }
    QAction* importCsvAction() const { return m_importCsv; }
    /// Sources › Import Feed…: a change feed file into a table's event queue (FeedImportDialog).
    QAction* importFeedAction() const { return m_importFeed; }

    /// Adds rows from text (tab- or comma-separated, optional header row matching column names).
    void pasteText(const QString& text);
    /// Opens the header-mapping dialog for CSV text, then adds the rows (returns false if cancelled).
    bool importCsvText(const QString& text);
    /// Opens the Import Feed dialog (on `path` when given) and reports the import in the status bar;
    /// false when cancelled.
    bool importFeed(const QString& path = {});

public slots:
    void rebuild();

signals:
    void statusMessage(const QString& message);
    /// The Import Feed dialog is open (tests drive it).
    void feedDialogOpened(FeedImportDialog* dialog);

private:
    void importCsvFile();
    void report(const Status& status, const QString& success);
    void addRow();
    void deleteSelectedRows();
    /// The grid of tab `index`.
    GridTools* gridAt(int index) const;

    Project* m_project;
    QTabWidget* m_tabs;
    QToolBar* m_toolBar;
    GridFilterBox* m_filter;
    QLabel* m_empty;
    QAction* m_addRow;
    QAction* m_deleteRows;
    QAction* m_paste;
    QAction* m_importCsv;
    QAction* m_importFeed;
    QStringList m_tables;
};

} // namespace cdc::ui
