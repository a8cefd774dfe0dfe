// Rows keep their entry's index in m_entries (UserRole), so discarding rows does not shift what a row means.
#include "ui/widgets/RecoveryDialog.h"

#include <QDialogButtonBox>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace cdc::ui {

RecoveryDialog::RecoveryDialog(const QList<RecoveryEntry>& entries, QWidget* parent)
    : QDialog(parent), m_entries(entries), m_list(new QTreeWidget(this)) {
    setObjectName(QStringLiteral("recoveryDialog"));
    setWindowTitle(tr("Recover Unsaved Work"));
    auto* intro = new QLabel(tr("CDC Studio did not close normally last time. These projects had changes "
                                "that were not saved; their last autosaved state can be recovered.\n"
                                "Recover opens the selected one as unsaved changes: Save writes them to "
                                "its original file. Entries left here are offered again next time."),
                             this);
    intro->setWordWrap(true);

    m_list->setHeaderLabels({tr("Project"), tr("Original file"), tr("Autosaved")});
    m_list->setRootIsDecorated(false);
    m_list->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_list->setAllColumnsShowFocus(true);
    for (int i = 0; i < m_entries.size(); ++i) {
        const RecoveryEntry& e = m_entries[i];
        auto* item =
            new QTreeWidgetItem(m_list, {e.name.isEmpty() ? tr("Untitled") : e.name,
                                         e.originalPath.isEmpty() ? tr("(never saved)") : e.originalPath,
                                         QLocale().toString(e.savedAt.toLocalTime(), QLocale::ShortFormat)});
        item->setToolTip(1, e.originalPath);
        item->setData(0, Qt::UserRole, i);
    }
    m_list->header()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_list->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_list->header()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    m_list->setCurrentItem(m_list->topLevelItem(0));

    auto* buttons = new QDialogButtonBox(this);
    m_recover = buttons->addButton(tr("&Recover"), QDialogButtonBox::AcceptRole);
    m_discard = buttons->addButton(tr("&Discard"), QDialogButtonBox::DestructiveRole);
    m_recover->setToolTip(tr("Open the selected project's autosaved state as unsaved changes"));
    m_discard->setToolTip(tr("Delete the selected autosaved states for good"));
    buttons->addButton(tr("Decide &Later"), QDialogButtonBox::RejectRole);
    m_recover->setDefault(true);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_list);
    layout->addWidget(buttons);
    resize(720, 320);

    connect(m_recover, &QPushButton::clicked, this, [this] {
        const QTreeWidgetItem* item = m_list->currentItem();
        if (!item)
            return;
        const RecoveryEntry entry = m_entries[item->data(0, Qt::UserRole).toInt()];
        accept();
        emit recoverRequested(entry);
    });
    connect(m_discard, &QPushButton::clicked, this, &RecoveryDialog::discardSelected);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_list, &QTreeWidget::itemSelectionChanged, this, &RecoveryDialog::updateButtons);
    connect(m_list, &QTreeWidget::itemDoubleClicked, m_recover, &QPushButton::click);
    updateButtons();
}

void RecoveryDialog::discardSelected() {
    for (QTreeWidgetItem* item : m_list->selectedItems()) {
        recoverystore::remove(m_entries[item->data(0, Qt::UserRole).toInt()].id);
        delete item;
    }
    if (m_list->topLevelItemCount() == 0)
        reject();
}

void RecoveryDialog::updateButtons() {
    const int selected = int(m_list->selectedItems().size());
    // One project per window: several can be discarded at once but only one recovered.
    m_recover->setEnabled(selected == 1);
    m_discard->setEnabled(selected > 0);
}

} // namespace cdc::ui
