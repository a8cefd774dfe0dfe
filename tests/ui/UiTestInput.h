#pragma once
/// What GUI tests do as a user would: keys typed into whatever has the focus at each key (screenshots:
/// UiTestSupport.h).

#include "UiTestSupport.h"

#include <QApplication>
#include <QtTest>

namespace uitest {

/// What the event loop does between two keys: posted events, widgets deleted later (a cell editor the view
/// dropped takes the focus with it only then).
inline void settle() {
    QCoreApplication::processEvents();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
}

/// Types `text` key by key into whatever has the focus at each key, as a keyboard does.
inline void type(const QString& text) {
    for (const QChar ch : text) {
        QTest::keyClicks(QApplication::focusWidget(), QString(ch));
        settle();
    }
}

/// Presses `key` on whatever has the focus.
inline void press(Qt::Key key, Qt::KeyboardModifiers modifiers = {}) {
    QTest::keyClick(QApplication::focusWidget(), key, modifiers);
    settle();
}

} // namespace uitest
