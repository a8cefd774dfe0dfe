#pragma once
/// Offered at start when a previous session ended without closing (a crash, a kill, a power cut): lists
/// the autosaved projects and lets the user recover one or discard them.

#include "ui/model/RecoveryStore.h"

#include <QDialog>

class QPushButton;
class QTreeWidget;

namespace cdc::ui {

class RecoveryDialog : public QDialog {
    Q_OBJECT
public:
    RecoveryDialog(const QList<RecoveryEntry>& entries, QWidget* parent = nullptr);

    QTreeWidget* list() const { return m_list; }
    QPushButton* recoverButton() const { return m_recover; }
    QPushButton* discardButton() const { return m_discard; }

signals:
    /// Recover was pressed on `entry`; the dialog has closed.
    void recoverRequested(const cdc::ui::RecoveryEntry& entry);

private:
    /// Deletes the selected entries' files; closes the dialog when none is left.
    void discardSelected();
    void updateButtons();

    QList<RecoveryEntry> m_entries;
    QTreeWidget* m_list;
    QPushButton* m_recover;
    QPushButton* m_discard;
};

} // namespace cdc::ui
