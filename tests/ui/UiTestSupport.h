#pragma once
/// Helpers the UI tests share: screenshots on request, and answering a file dialog as a user does.

#include <QApplication>
#include <QFileDialog>
#include <QLineEdit>
#include <QTimer>
#include <QtTest>

#include <memory>

namespace uitest {

/// With CDC_SCREENSHOT_DIR set, writes what the widget shows there.
inline void saveScreenshot(QWidget& widget, const QString& name) {
    const QString dir = qEnvironmentVariable("CDC_SCREENSHOT_DIR");
    if (dir.isEmpty())
        return;
    QApplication::processEvents(); // layouts settle on posted events
    QVERIFY(widget.grab().save(dir + QLatin1Char('/') + name));
}

/// Answers the next file dialog with `path`, as a user typing the name and pressing Save. The name is
/// typed again until it has stayed for a few ticks: the dialog reselects its suggested name once the
/// folder has loaded, on a thread of its own.
inline void answerFileDialog(const QString& path) {
    auto* timer = new QTimer;
    timer->setInterval(10);
    auto stable = std::make_shared<int>(0);
    QObject::connect(timer, &QTimer::timeout, [timer, path, stable] {
        auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
        auto* name = dialog ? dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit")) : nullptr;
        if (!name)
            return;
        if (name->text() != path) {
            name->setText(path);
            *stable = 0;
        } else if (++*stable == 5) {
            timer->stop();
            timer->deleteLater();
            QTest::keyClick(name, Qt::Key_Return); // Save
        }
    });
    timer->start();
}

} // namespace uitest
