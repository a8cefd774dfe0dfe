#pragma once
#include <QMainWindow>

namespace cdc::ui {
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
};
} // namespace cdc::ui
