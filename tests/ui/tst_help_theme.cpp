// The user guide (F1 context help, Help › User Guide, the pages and their links, find in page) and the
// light / dark themes (View › Theme, live switching, remembered choice, readable custom colours).
#include "CdcVersion.h"
#include "ui/model/Project.h"
#include "ui/model/ThemeColors.h"
#include "ui/model/UpdateTimelineModel.h"
#include "ui/model/results/RowChange.h"
#include "ui/widgets/CodeEditor.h"
#include "ui/widgets/HelpWindow.h"
#include "ui/widgets/MainWindow.h"
#include "ui/widgets/ProjectController.h"
#include "ui/widgets/SimulationController.h"
#include "ui/widgets/SqlLexer.h"
#include "ui/widgets/ThemeManager.h"
#include "ui/widgets/WorkbenchPanel.h"
#include "ui/widgets/results/Scd2TimelinePanel.h"
#include "ui/widgets/results/Scd2TimelineView.h"
#include "ui/widgets/results/TimelineColors.h"

#include <QAbstractScrollArea>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTextTable>
#include <QTreeWidget>
#include <QtTest>

using namespace cdc;
using namespace cdc::ui;

namespace {
QString plain(QString text) {
    return text.remove(QLatin1Char('&')).remove(QChar(0x2026)).trimmed();
}

QMenu* menuNamed(QMenuBar* bar, const QString& title) {
    for (QAction* a : bar->actions())
        if (plain(a->text()) == title)
            return a->menu();
    return nullptr;
}

QAction* actionNamed(QMenu* menu, const QString& text) {
    for (QAction* a : menu->actions())
        if (plain(a->text()) == text)
            return a;
    return nullptr;
}

/// Every anchor target (href) and every anchor name of a document.
void anchorsOf(const QTextDocument* doc, QStringList* hrefs, QStringList* names) {
    for (QTextBlock block = doc->begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextCharFormat format = it.fragment().charFormat();
            if (hrefs && !format.anchorHref().isEmpty() && !hrefs->contains(format.anchorHref()))
                *hrefs << format.anchorHref();
            if (names)
                *names << format.anchorNames();
        }
}

QTextDocument* loadHelpPage(const QString& file, QObject* parent) {
    QFile f(QStringLiteral(":/help/") + file);
    if (!f.open(QIODevice::ReadOnly))
        return nullptr;
    auto* doc = new QTextDocument(parent);
    doc->setHtml(QString::fromUtf8(f.readAll()));
    return doc;
}

/// Rows of every table of a document, as cell texts.
QList<QStringList> tableRows(const QTextDocument* doc) {
    QList<QStringList> rows;
    QList<QTextTable*> seen;
    for (QTextBlock block = doc->begin(); block.isValid(); block = block.next()) {
        auto* table = QTextCursor(block).currentTable();
        if (!table || seen.contains(table))
            continue;
        seen << table;
        for (int r = 0; r < table->rows(); ++r) {
            QStringList cells;
            for (int c = 0; c < table->columns(); ++c) {
                const QTextTableCell cell = table->cellAt(r, c);
                QTextCursor cursor = cell.firstCursorPosition();
                cursor.setPosition(cell.lastCursorPosition().position(), QTextCursor::KeepAnchor);
                cells << cursor.selectedText().trimmed();
            }
            rows << cells;
        }
    }
    return rows;
}

HelpWindow* helpOf(MainWindow& w) {
    return w.findChild<HelpWindow*>();
}

/// Lightness (0..1) of the viewport pixel at `at`, as the user sees it.
double lightnessAt(QWidget* widget, QPoint at) {
    return widget->grab().toImage().pixelColor(at).lightnessF();
}

/// The colour Scintilla draws an indicator with (it stores colours as 0xBBGGRR).
QColor indicatorColour(CodeEditor& editor, int indicator) {
    const long bgr = editor.SendScintilla(QsciScintillaBase::SCI_INDICGETFORE, indicator);
    return QColor(int(bgr & 0xff), int((bgr >> 8) & 0xff), int((bgr >> 16) & 0xff));
}

/// Opens a sample and delivers its first `steps` events, one update each.
bool openAndStep(MainWindow& w, const QString& sample, int steps) {
    if (!w.projectController()->openSample(sample))
        return false;
    for (int i = 0; i < steps; ++i) {
        if (!w.simulation()->step())
            return false;
        w.simulation()->waitForFinished();
        QCoreApplication::processEvents();
    }
    return true;
}

} // namespace

class TestHelpTheme : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("CDCStudioTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_help_theme"));
        QStandardPaths::setTestModeEnabled(true);
        QSettings().remove(QStringLiteral("view/theme"));
        // "System" must mean the offscreen platform's light palette, whatever desktop runs the tests.
        qunsetenv("GTK_THEME");
        qunsetenv("XDG_CURRENT_DESKTOP");
    }

    void cleanup() { ThemeManager::instance()->setTheme(ThemeManager::Theme::System, false); }

    // --- help: context, menu, pages
    // -------------------------------------------------------------------------

    void f1OpensThePageAboutTheFocusedPart_data() {
        QTest::addColumn<QString>("dock");
        QTest::addColumn<QString>("widget");
        QTest::addColumn<QString>("page");
        QTest::addColumn<QString>("section");
        QTest::addColumn<QString>("title");
        QTest::newRow("SQL editor") << ""
                                    << "pipelineEditor"
                                    << "sql.html"
                                    << ""
                                    << "Pipeline SQL";
        QTest::newRow("event queue") << "queueDock"
                                     << "eventQueueView"
                                     << "replay.html"
                                     << "event-queue"
                                     << "Replaying events";
        QTest::newRow("update timeline") << "timelineDock"
                                         << "timelineView"
                                         << "timeline.html"
                                         << ""
                                         << "The update timeline";
        QTest::newRow("tombstones") << "tombstonesDock"
                                    << "tombstoneView"
                                    << "tombstones.html"
                                    << ""
                                    << "Tombstones and garbage collection";
        QTest::newRow("designer") << "designerDock"
                                  << "designerView"
                                  << "sql.html"
                                  << "designer"
                                  << "Pipeline SQL";
        QTest::newRow("update log") << "logDock"
                                    << "updateLogView"
                                    << "timeline.html"
                                    << "update-log"
                                    << "The update timeline";
    }

    void f1OpensThePageAboutTheFocusedPart() {
        QFETCH(QString, dock);
        QFETCH(QString, widget);
        QFETCH(QString, page);
        QFETCH(QString, section);
        QFETCH(QString, title);
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        // With a delivered delete, every view has content to focus (the tombstones view appears only then).
        QVERIFY(openAndStep(w, QStringLiteral("tombstone-gc-lab"), 2));
        if (!dock.isEmpty())
            w.raiseDock(dock);
        auto* target = w.findChild<QWidget*>(widget);
        QVERIFY(target);
        target->setFocus();
        QTRY_COMPARE(QApplication::focusWidget(), target);
        QVERIFY(!helpOf(w));

        QTest::keyClick(target, Qt::Key_F1);
        HelpWindow* help = helpOf(w);
        QVERIFY(help);
        QVERIFY(help->isVisible());
        QCOMPARE(help->browser()->source().fileName(), page);
        QCOMPARE(help->browser()->source().fragment(), section);
        QCOMPARE(help->browser()->documentTitle(), title);
        QVERIFY(help->windowTitle().startsWith(title));
        // The contents list follows the page.
        QTreeWidgetItem* current = help->contentsTree()->currentItem();
        QVERIFY(current);
        QCOMPARE(current->data(0, Qt::UserRole).toUrl(), help->browser()->source());
    }

    void f1InTheEditorsFindBarIsAboutSql() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        CodeEditor* editor = w.workbench()->editor();
        editor->setFocus();
        QTest::keyClick(editor, Qt::Key_F, Qt::ControlModifier);
        auto* field = qobject_cast<QLineEdit*>(QApplication::focusWidget());
        QVERIFY(field);
        QCOMPARE(field->placeholderText(), QStringLiteral("Find"));
        QTest::keyClick(field, Qt::Key_F1);
        QVERIFY(helpOf(w) && helpOf(w)->isVisible());
        QCOMPARE(helpOf(w)->browser()->source().fileName(), QStringLiteral("sql.html"));
    }

    void helpMenuUserGuideOpensTheGuide() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QMenu* helpMenu = menuNamed(w.menuBar(), QStringLiteral("Help"));
        QVERIFY(helpMenu);
        QAction* guide = actionNamed(helpMenu, QStringLiteral("User Guide"));
        QVERIFY(guide);
        QCOMPARE(guide->shortcut(), QKeySequence(Qt::Key_F1));
        QVERIFY(actionNamed(helpMenu, QStringLiteral("About CDC Studio")));

        // Working in the event queue, open the menu and click the entry, as a user does.
        auto* queue = w.findChild<QWidget*>(QStringLiteral("eventQueueView"));
        queue->setFocus();
        QTRY_COMPARE(QApplication::focusWidget(), queue);
        QAction* menuAction = helpMenu->menuAction();
        QTest::mouseClick(w.menuBar(), Qt::LeftButton, {}, w.menuBar()->actionGeometry(menuAction).center());
        QTRY_VERIFY(helpMenu->isVisible());
        QTest::mouseClick(helpMenu, Qt::LeftButton, {}, helpMenu->actionGeometry(guide).center());
        QTRY_VERIFY(helpOf(w) && helpOf(w)->isVisible());
        HelpWindow* help = helpOf(w);
        QCOMPARE(help->browser()->source(), QUrl(QStringLiteral("qrc:/help/replay.html#event-queue")));
        QCOMPARE(help->browser()->documentTitle(), QStringLiteral("Replaying events"));
        QVERIFY(help->browser()->toPlainText().size() > 500);
        QCOMPARE(help->contentsTree()->topLevelItemCount(), HelpWindow::pages().size());
    }

    void aboutShowsTheVersionCMakeBuilds() {
        // One version: project(CDCStudio VERSION ...) through the generated CdcVersion.h, as --version of
        // both programs and the package show it (packaging/test-package.sh checks those).
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QMenu* helpMenu = menuNamed(w.menuBar(), QStringLiteral("Help"));
        QVERIFY(helpMenu);
        QAction* about = actionNamed(helpMenu, QStringLiteral("About CDC Studio"));
        QVERIFY(about);
        QString shown;
        QTimer poll; // looks for the modal box until it is up, reads and closes it
        connect(&poll, &QTimer::timeout, &w, [&shown, &poll] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                shown = box->text();
                poll.stop();
                box->accept();
            }
        });
        poll.start(20);
        about->trigger(); // modal: returns once the timer has read and closed the box
        QVERIFY2(shown.contains(QStringLiteral("CDC Studio %1").arg(QString::fromLatin1(cdc::kVersion))),
                 qPrintable(shown));
        QVERIFY(QString::fromLatin1(cdc::kVersion)
                    .contains(QRegularExpression(QStringLiteral("^\\d+\\.\\d+\\.\\d+$"))));
    }

    void everyPageLoadsAndEveryLinkArrives() {
        HelpWindow help;
        const QList<QUrl> pages = HelpWindow::pages();
        // Every page shipped is in the contents, so none is unreachable.
        QStringList shipped = QDir(QStringLiteral(":/help")).entryList({QStringLiteral("*.html")});
        QStringList listed;
        for (const QUrl& page : pages)
            listed << page.fileName();
        shipped.sort();
        listed.sort();
        QCOMPARE(listed, shipped);

        int followed = 0;
        for (const QUrl& page : pages) {
            help.browser()->setSource(page);
            QCOMPARE(help.browser()->source(), page);
            QVERIFY2(!help.browser()->documentTitle().isEmpty(), qPrintable(page.toString()));
            QVERIFY2(help.browser()->toPlainText().size() > 300, qPrintable(page.toString()));
            QStringList hrefs;
            anchorsOf(help.browser()->document(), &hrefs, nullptr);
            for (const QString& href : std::as_const(hrefs)) {
                const QUrl target = page.resolved(QUrl(href));
                const QString where = page.fileName() + QStringLiteral(" -> ") + href;
                QVERIFY2(target.scheme() == QLatin1String("qrc"),
                         qPrintable(where + QStringLiteral(" leaves the guide")));
                // Follow the link in the browser, as a click does, and check that it arrives.
                help.browser()->setSource(target);
                QCOMPARE(help.browser()->source(), target);
                QVERIFY2(!help.browser()->documentTitle().isEmpty(), qPrintable(where));
                if (!target.fragment().isEmpty()) {
                    QStringList names;
                    anchorsOf(help.browser()->document(), nullptr, &names);
                    QVERIFY2(names.contains(target.fragment()),
                             qPrintable(where + QStringLiteral(": no such section")));
                }
                ++followed;
                help.browser()->setSource(page);
            }
        }
        QVERIFY(followed > 40);
    }

    void contentsTreeListsSectionsAndNavigates() {
        HelpWindow help;
        help.show();
        QVERIFY(QTest::qWaitForWindowExposed(&help));
        help.showTopic(HelpWindow::homeUrl());
        QTreeWidget* tree = help.contentsTree();
        QTreeWidgetItem* sql = nullptr;
        for (int i = 0; i < tree->topLevelItemCount(); ++i)
            if (tree->topLevelItem(i)->text(0) == QLatin1String("Pipeline SQL"))
                sql = tree->topLevelItem(i);
        QVERIFY(sql);
        QTreeWidgetItem* differences = nullptr;
        for (int c = 0; c < sql->childCount(); ++c)
            if (sql->child(c)->text(0) == QLatin1String("What differs from Databricks"))
                differences = sql->child(c);
        QVERIFY(differences);
        sql->setExpanded(true);
        tree->scrollToItem(differences);
        QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualItemRect(differences).center());
        QCOMPARE(help.browser()->source(), QUrl(QStringLiteral("qrc:/help/sql.html#differences")));
        QVERIFY(help.windowTitle().startsWith(QStringLiteral("Pipeline SQL")));
    }

    void backForwardAndContents() {
        HelpWindow help;
        help.show();
        QVERIFY(QTest::qWaitForWindowActive(&help));
        help.showTopic(HelpWindow::homeUrl());
        help.showTopic(QUrl(QStringLiteral("qrc:/help/tombstones.html")));
        help.showTopic(QUrl(QStringLiteral("qrc:/help/scd.html")));
        QTest::keyClick(&help, Qt::Key_Left, Qt::AltModifier);
        QCOMPARE(help.browser()->source().fileName(), QStringLiteral("tombstones.html"));
        QTest::keyClick(&help, Qt::Key_Left, Qt::AltModifier);
        QCOMPARE(help.browser()->source(), HelpWindow::homeUrl());
        QTest::keyClick(&help, Qt::Key_Right, Qt::AltModifier);
        QCOMPARE(help.browser()->source().fileName(), QStringLiteral("tombstones.html"));
        QTest::keyClick(&help, Qt::Key_Home, Qt::AltModifier);
        QCOMPARE(help.browser()->source(), HelpWindow::homeUrl());
    }

    void findInPageSelectsMatchesAndWraps() {
        HelpWindow help;
        help.show();
        QVERIFY(QTest::qWaitForWindowActive(&help));
        help.showTopic(QUrl(QStringLiteral("qrc:/help/tombstones.html")));
        QTest::keyClick(&help, Qt::Key_F, Qt::ControlModifier);
        QCOMPARE(QApplication::focusWidget(), help.findField());
        QTest::keyClicks(help.findField(), QStringLiteral("tombstoneGCThreshold"));
        QCOMPARE(help.browser()->textCursor().selectedText(), QStringLiteral("tombstoneGCThreshold"));
        const int first = help.browser()->textCursor().position();
        QTest::keyClick(help.findField(), Qt::Key_Return);
        const int second = help.browser()->textCursor().position();
        QVERIFY(second > first);
        QTest::keyClick(help.findField(), Qt::Key_Return, Qt::ShiftModifier);
        QCOMPARE(help.browser()->textCursor().position(), first);
        // Past the last match it wraps to the first.
        int guard = 0;
        while (help.browser()->textCursor().position() >= first && guard++ < 20) {
            QTest::keyClick(help.findField(), Qt::Key_Return);
            if (help.browser()->textCursor().position() == first)
                break;
        }
        QCOMPARE(help.browser()->textCursor().position(), first);
        help.findField()->clear();
        QTest::keyClicks(help.findField(), QStringLiteral("no such words here"));
        QCOMPARE(help.findChildren<QLabel*>().size() > 0, true);
        bool shown = false;
        for (QLabel* label : help.findChildren<QLabel*>())
            shown = shown || label->text() == QLatin1String("Not found");
        QVERIFY(shown);
    }

    void documentedShortcutsMatchTheActions() {
        MainWindow w;
        HelpWindow guide(&w); // the help window's actions are documented too
        QList<QAction*> actions = w.findChildren<QAction*>();
        std::unique_ptr<QTextDocument> doc(loadHelpPage(QStringLiteral("shortcuts.html"), nullptr));
        QVERIFY(doc);
        int checked = 0;
        QStringList wrong;
        for (const QStringList& row : tableRows(doc.get())) {
            if (row.size() < 2 || row[0] == QLatin1String("Command"))
                continue;
            QList<QAction*> named;
            for (QAction* a : std::as_const(actions))
                if (plain(a->text()) == plain(row[0]))
                    named << a;
            bool matches = false;
            for (QAction* a : std::as_const(named))
                for (const QKeySequence& key : a->shortcuts())
                    matches = matches || key.toString(QKeySequence::PortableText) == row[1];
            if (!matches)
                wrong << QStringLiteral("%1: documented %2, bound %3")
                             .arg(row[0], row[1],
                                  named.isEmpty() ? QStringLiteral("no such action")
                                                  : named.first()->shortcut().toString());
            ++checked;
        }
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(QLatin1Char('\n'))));
        QVERIFY(checked >= 35);
    }

    void timelineHeadersExplainEveryColumn() {
        Project project;
        UpdateTimelineModel model(&project);
        std::unique_ptr<QTextDocument> doc(loadHelpPage(QStringLiteral("timeline.html"), nullptr));
        QStringList documented;
        for (const QStringList& row : tableRows(doc.get()))
            documented << row.value(0);
        QSet<QString> tips;
        for (int c = 0; c < model.columnCount(); ++c) {
            const QString name = model.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
            const QString tip = model.headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString();
            QVERIFY2(tip.size() > 20, qPrintable(name));
            tips << tip;
            // The help page explains the same column under the same name.
            QVERIFY2(documented.contains(name), qPrintable(name));
        }
        QCOMPARE(tips.size(), model.columnCount());
    }

    // --- themes
    // ------------------------------------------------------------------------------------------------

    void themeMenuSwitchesLiveAndIsRemembered() {
        MainWindow w;
        w.resize(1440, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QVERIFY(openAndStep(w, QStringLiteral("scd2-users"), 3));
        w.raiseDock(QStringLiteral("scd2Dock"));
        QCoreApplication::processEvents();
        auto* view = w.findChild<Scd2TimelineView*>();
        QVERIFY(view && view->isVisible());
        CodeEditor* editor = w.workbench()->editor();
        // Background points: the editor below the text, the timeline's plot below the lanes.
        const QPoint editorPaper(editor->viewport()->width() - 10, editor->viewport()->height() - 10);
        const QPoint plot(view->viewport()->width() - 10, view->viewport()->height() - 5);
        QVERIFY(lightnessAt(editor->viewport(), editorPaper) > 0.8);
        QVERIFY(lightnessAt(view->viewport(), plot) > 0.8);

        QMenu* theme = nullptr;
        for (QAction* a : menuNamed(w.menuBar(), QStringLiteral("View"))->actions())
            if (a->menu() && plain(a->text()) == QLatin1String("Theme"))
                theme = a->menu();
        QVERIFY(theme);
        QAction* dark = actionNamed(theme, QStringLiteral("Dark"));
        QAction* light = actionNamed(theme, QStringLiteral("Light"));
        QAction* system = actionNamed(theme, QStringLiteral("System"));
        QVERIFY(dark && light && system);
        QVERIFY(system->isChecked());

        dark->trigger();
        QCoreApplication::processEvents();
        QVERIFY(dark->isChecked() && !light->isChecked() && !system->isChecked());
        QVERIFY(QApplication::palette().color(QPalette::Base).lightnessF() < 0.2);
        QVERIFY(w.palette().color(QPalette::Window).lightnessF() < 0.3);
        QCOMPARE(QSettings().value(QStringLiteral("view/theme")).toString(), QStringLiteral("dark"));
        QVERIFY(lightnessAt(editor->viewport(), editorPaper) < 0.2);
        QVERIFY(lightnessAt(view->viewport(), plot) < 0.2);
        QVERIFY(editor->sqlLexer()->paper(SqlLexer::Keyword).lightnessF() < 0.2);
        QVERIFY(editor->sqlLexer()->color(SqlLexer::Default).lightnessF() > 0.7);

        light->trigger();
        QCoreApplication::processEvents();
        QVERIFY(light->isChecked() && !dark->isChecked());
        QCOMPARE(QSettings().value(QStringLiteral("view/theme")).toString(), QStringLiteral("light"));
        QVERIFY(lightnessAt(editor->viewport(), editorPaper) > 0.8);
        QVERIFY(lightnessAt(view->viewport(), plot) > 0.8);

        system->trigger();
        QCOMPARE(QSettings().value(QStringLiteral("view/theme")).toString(), QStringLiteral("system"));
        QCOMPARE(ThemeManager::fromName(QSettings().value(QStringLiteral("view/theme")).toString()),
                 std::optional(ThemeManager::Theme::System));
    }

    void helpPagesFollowTheTheme() {
        HelpWindow help;
        help.resize(900, 600);
        help.show();
        QVERIFY(QTest::qWaitForWindowExposed(&help));
        help.showTopic(QUrl(QStringLiteral("qrc:/help/sql.html")));
        // Inside the page's margin, left of every table and code block.
        const QPoint corner(1, help.browser()->viewport()->height() / 2);
        QVERIFY(lightnessAt(help.browser()->viewport(), corner) > 0.8);
        ThemeManager::instance()->setTheme(ThemeManager::Theme::Dark, false);
        QCoreApplication::processEvents();
        QVERIFY(lightnessAt(help.browser()->viewport(), corner) < 0.2);
        QVERIFY(help.browser()->document()->defaultStyleSheet().contains(
            themecolors::mix(QApplication::palette().color(QPalette::Base),
                             QApplication::palette().color(QPalette::Text), 0.06)
                .name()));
    }

    void systemThemeFollowsTheDesktopHints_data() {
        QTest::addColumn<QString>("gtkTheme");
        QTest::addColumn<QString>("gnome");
        QTest::addColumn<QString>("kde");
        QTest::addColumn<bool>("darkPalette");
        QTest::addColumn<bool>("dark");
        QTest::newRow("nothing, light palette") << ""
                                                << ""
                                                << "" << false << false;
        QTest::newRow("nothing, dark palette") << ""
                                               << ""
                                               << "" << true << true;
        QTest::newRow("GTK_THEME :dark") << "Adwaita:dark"
                                         << ""
                                         << "" << false << true;
        QTest::newRow("GTK_THEME -dark") << "Adwaita-dark"
                                         << ""
                                         << "" << false << true;
        QTest::newRow("GTK_THEME light wins") << "Adwaita"
                                              << "'prefer-dark'"
                                              << "" << true << false;
        QTest::newRow("GNOME prefer-dark") << ""
                                           << "'prefer-dark'"
                                           << "" << false << true;
        QTest::newRow("GNOME prefer-light") << ""
                                            << "'prefer-light'"
                                            << "" << true << false;
        QTest::newRow("GNOME default") << ""
                                       << "'default'"
                                       << "" << false << false;
        QTest::newRow("KDE Breeze Dark") << ""
                                         << ""
                                         << "BreezeDark" << false << true;
        QTest::newRow("KDE Breeze") << ""
                                    << ""
                                    << "BreezeLight" << true << false;
    }

    void systemThemeFollowsTheDesktopHints() {
        QFETCH(QString, gtkTheme);
        QFETCH(QString, gnome);
        QFETCH(QString, kde);
        QFETCH(bool, darkPalette);
        QFETCH(bool, dark);
        ThemeManager::SystemHints hints;
        hints.platformPalette = ThemeManager::palette(darkPalette);
        hints.gtkTheme = gtkTheme;
        hints.gnomeColorScheme = gnome;
        hints.kdeColorScheme = kde;
        QCOMPARE(ThemeManager::prefersDark(hints), dark);
    }

    void customColoursAreReadable_data() {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }

    void customColoursAreReadable() {
        QFETCH(bool, dark);
        ThemeManager::instance()->setTheme(dark ? ThemeManager::Theme::Dark : ThemeManager::Theme::Light,
                                           false);
        const QPalette pal = QApplication::palette();
        QCOMPARE(themecolors::isDark(pal), dark);
        QStringList failures;
        const auto check = [&](const QString& what, const QColor& fg, const QColor& bg, double minimum) {
            const double ratio = themecolors::contrastRatio(fg, bg);
            if (ratio < minimum)
                failures << QStringLiteral("%1: %2 on %3 = %4")
                                .arg(what, fg.name(), bg.name())
                                .arg(ratio, 0, 'f', 2);
        };
        const double text = themecolors::kTextContrast, graphic = themecolors::kGraphicContrast;
        const QColor base = pal.color(QPalette::Base), alternate = pal.color(QPalette::AlternateBase);

        // The palette's own pairs.
        check("Text/Base", pal.color(QPalette::Text), base, text);
        check("Text/AlternateBase", pal.color(QPalette::Text), alternate, text);
        check("WindowText/Window", pal.color(QPalette::WindowText), pal.color(QPalette::Window), text);
        check("ButtonText/Button", pal.color(QPalette::ButtonText), pal.color(QPalette::Button), text);
        check("ToolTipText/ToolTipBase", pal.color(QPalette::ToolTipText), pal.color(QPalette::ToolTipBase),
              text);
        check("HighlightedText/Highlight", pal.color(QPalette::HighlightedText),
              pal.color(QPalette::Highlight), text);
        check("PlaceholderText/Base", pal.color(QPalette::PlaceholderText), base, text);
        check("PlaceholderText/Window (editor margin)", pal.color(QPalette::PlaceholderText),
              pal.color(QPalette::Window), text);
        check("Link/Base", pal.color(QPalette::Link), base, text);

        // Result views: change tints with their text, removed rows, the tombstone status.
        for (RowChange change : ChangePalette::changes()) {
            const QColor tint = ChangePalette::background(change, pal);
            check(ChangePalette::label(change) + QStringLiteral(" row"), pal.color(QPalette::Text), tint,
                  text);
        }
        for (const QColor& bg : {base, alternate, ChangePalette::background(RowChange::Deleted, pal),
                                 themecolors::mix(base, ChangePalette::accent(RowChange::Updated), 0.08)})
            check(QStringLiteral("removed row text"), ChangePalette::ghostText(pal), bg, text);
        check("Due for GC", ChangePalette::accentText(RowChange::Closed, pal), base, text);
        check("Due for GC (alternate)", ChangePalette::accentText(RowChange::Closed, pal), alternate, text);
        for (const QColor& bg : {base, alternate}) {
            check("error text", themecolors::error(pal), bg, text);
            check("warning text", themecolors::warning(pal), bg, text);
            check("muted text", themecolors::mutedText(pal), bg, text);
        }

        // The SCD2 timeline.
        const TimelineColors timeline = TimelineColors::from(pal);
        for (RowChange change : {RowChange::None, RowChange::Inserted, RowChange::Updated, RowChange::Closed,
                                 RowChange::Deleted})
            for (bool hovered : {false, true})
                check(QStringLiteral("bar label %1%2")
                          .arg(ChangePalette::label(change), hovered ? " hovered" : ""),
                      timeline.barLabel(change, hovered), timeline.barFill(change, hovered), text);
        check("timeline keys", timeline.windowText, timeline.window, text);
        check("timeline quiet text", timeline.quietText, timeline.window, text);
        check("timeline removed marks", timeline.removed, timeline.base, graphic);
        check("timeline selection outline", timeline.selection, timeline.base, graphic);

        // The SQL editor: every lexer style on its paper, squiggles, selection.
        CodeEditor editor;
        SqlLexer* lexer = editor.sqlLexer();
        for (int style = 0; style <= SqlLexer::QuotedOperator; ++style)
            check(QStringLiteral("SQL style %1 (%2)").arg(style).arg(lexer->description(style)),
                  lexer->color(style), lexer->paper(style), text);
        QVERIFY(lexer->paper(SqlLexer::Default) == base);
        check("error squiggle", indicatorColour(editor, CodeEditor::ErrorIndicator), base, graphic);
        check("warning squiggle", indicatorColour(editor, CodeEditor::WarningIndicator), base, graphic);

        // The help pages' tinted blocks.
        const QColor ink = pal.color(QPalette::Text);
        check("help code block", ink, themecolors::mix(base, ink, 0.06), text);
        check("help table header", ink, themecolors::mix(base, ink, 0.09), text);
        check("help key", ink, themecolors::mix(base, ink, 0.12), text);
        check("help note", ink, themecolors::mix(base, pal.color(QPalette::Highlight), 0.12), text);
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join(QLatin1Char('\n'))));
    }
};

QTEST_MAIN(TestHelpTheme)
#include "tst_help_theme.moc"
