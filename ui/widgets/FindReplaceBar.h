#pragma once
/// QScintilla can search (findFirst / findNext) but has no UI for it; a strip rather than a dialog keeps
/// the text in view and editable while the user searches.

#include <QWidget>

class QLineEdit;
class QCheckBox;
class QLabel;

namespace cdc::ui {

class CodeEditor;

/// The editor's find / replace strip (Ctrl+F, Ctrl+H), shown under the text like in Qt Creator.
class FindReplaceBar : public QWidget {
    Q_OBJECT
public:
    explicit FindReplaceBar(CodeEditor* editor, QWidget* parent = nullptr);

    void showFind();
    void showReplace();
    bool findNext(bool forward = true);
    bool replaceOne();
    int replaceAll();

    QLineEdit* findEdit() const { return m_find; }
    QLineEdit* replaceEdit() const { return m_replace; }

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    void setReplaceVisible(bool visible);
    CodeEditor* m_editor;
    QLineEdit* m_find;
    QLineEdit* m_replace;
    QCheckBox* m_caseSensitive;
    QCheckBox* m_wholeWord;
    QLabel* m_status;
    QList<QWidget*> m_replaceWidgets;
};

} // namespace cdc::ui
