// Typing searches again from the start of the current match, so each extra letter narrows it in
// place; Replace All is wrapped in one undo action so a single Ctrl+Z takes it back.
#include "ui/widgets/FindReplaceBar.h"

#include "ui/widgets/CodeEditor.h"

#include <QCheckBox>
#include <QGridLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QStyle>
#include <QToolButton>

namespace cdc::ui {

namespace {
QToolButton* button(const QString& text, const QString& tip, QWidget* parent) {
    auto* b = new QToolButton(parent);
    b->setText(text);
    b->setToolTip(tip);
    b->setAutoRaise(true);
    return b;
}
} // namespace

FindReplaceBar::FindReplaceBar(CodeEditor* editor, QWidget* parent)
    : QWidget(parent), m_editor(editor), m_find(new QLineEdit(this)), m_replace(new QLineEdit(this)),
      m_caseSensitive(new QCheckBox(tr("Match case"), this)),
      m_wholeWord(new QCheckBox(tr("Whole words"), this)), m_status(new QLabel(this)) {
    m_find->setPlaceholderText(tr("Find"));
    m_find->setClearButtonEnabled(true);
    m_replace->setPlaceholderText(tr("Replace with"));
    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->setHorizontalSpacing(6);
    layout->setVerticalSpacing(4);
    auto* prev = button(tr("Previous"), tr("Find previous (Shift+F3)"), this);
    auto* next = button(tr("Next"), tr("Find next (F3)"), this);
    auto* close = button(QString(), tr("Close (Esc)"), this);
    close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    auto* replaceButton = button(tr("Replace"), tr("Replace the current match and find the next"), this);
    auto* replaceAllButton = button(tr("Replace All"), tr("Replace every match (one undo step)"), this);
    layout->addWidget(m_find, 0, 0);
    layout->addWidget(prev, 0, 1);
    layout->addWidget(next, 0, 2);
    layout->addWidget(m_caseSensitive, 0, 3);
    layout->addWidget(m_wholeWord, 0, 4);
    layout->addWidget(m_status, 0, 5);
    layout->addWidget(close, 0, 6);
    layout->addWidget(m_replace, 1, 0);
    layout->addWidget(replaceButton, 1, 1);
    layout->addWidget(replaceAllButton, 1, 2);
    layout->setColumnStretch(5, 1);
    m_replaceWidgets = {m_replace, replaceButton, replaceAllButton};

    connect(m_find, &QLineEdit::returnPressed, this, [this] { findNext(true); });
    connect(m_find, &QLineEdit::textEdited, this, [this] {
        // Incremental search from the start of the current selection.
        int line = 0, index = 0, l2 = 0, i2 = 0;
        if (m_editor->hasSelectedText()) {
            m_editor->getSelection(&line, &index, &l2, &i2);
            m_editor->setCursorPosition(line, index);
        }
        findNext(true);
    });
    connect(next, &QToolButton::clicked, this, [this] { findNext(true); });
    connect(prev, &QToolButton::clicked, this, [this] { findNext(false); });
    connect(close, &QToolButton::clicked, this, [this] {
        hide();
        m_editor->setFocus();
    });
    connect(replaceButton, &QToolButton::clicked, this, &FindReplaceBar::replaceOne);
    connect(replaceAllButton, &QToolButton::clicked, this, &FindReplaceBar::replaceAll);
    connect(m_replace, &QLineEdit::returnPressed, this, &FindReplaceBar::replaceOne);
    hide();
}

void FindReplaceBar::setReplaceVisible(bool visible) {
    for (auto* w : std::as_const(m_replaceWidgets))
        w->setVisible(visible);
}

void FindReplaceBar::showFind() {
    setReplaceVisible(false);
    show();
    if (m_editor->hasSelectedText() && !m_editor->selectedText().contains(QLatin1Char('\n')))
        m_find->setText(m_editor->selectedText());
    m_find->setFocus();
    m_find->selectAll();
}

void FindReplaceBar::showReplace() {
    showFind();
    setReplaceVisible(true);
}

bool FindReplaceBar::findNext(bool forward) {
    const QString needle = m_find->text();
    if (needle.isEmpty()) {
        m_status->clear();
        return false;
    }
    int line = 0, index = 0;
    if (!forward && m_editor->hasSelectedText()) {
        int l2 = 0, i2 = 0;
        m_editor->getSelection(&line, &index, &l2, &i2);
    } else {
        m_editor->getCursorPosition(&line, &index);
    }
    const bool found = m_editor->findFirst(needle, false, m_caseSensitive->isChecked(),
                                           m_wholeWord->isChecked(), true, forward, line, index, true);
    m_status->setText(found ? QString() : tr("Not found"));
    return found;
}

bool FindReplaceBar::replaceOne() {
    const QString needle = m_find->text();
    if (needle.isEmpty())
        return false;
    const Qt::CaseSensitivity cs = m_caseSensitive->isChecked() ? Qt::CaseSensitive : Qt::CaseInsensitive;
    if (m_editor->hasSelectedText() && m_editor->selectedText().compare(needle, cs) == 0)
        m_editor->replaceSelectedText(m_replace->text());
    return findNext(true);
}

int FindReplaceBar::replaceAll() {
    const QString needle = m_find->text();
    if (needle.isEmpty())
        return 0;
    int count = 0;
    m_editor->beginUndoAction();
    bool found = m_editor->findFirst(needle, false, m_caseSensitive->isChecked(), m_wholeWord->isChecked(),
                                     false, true, 0, 0, false);
    while (found) {
        m_editor->replace(m_replace->text());
        ++count;
        found = m_editor->findNext();
    }
    m_editor->endUndoAction();
    m_status->setText(tr("%n replaced", nullptr, count));
    return count;
}

void FindReplaceBar::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Escape) {
        hide();
        m_editor->setFocus();
        return;
    }
    QWidget::keyPressEvent(event);
}

} // namespace cdc::ui
